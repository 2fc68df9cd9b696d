"""The one place that answers "may this account do this in this club" (docs/bot.md, "Roles").

The roles, strongest first: the network's owners (``ADMIN_IDS``: never stored, never revocable,
the bootstrap nobody can lock out), network admins, a club's admins, a club's hosts (all three
in the database: storage/staff.py), and a club chat's administrators (Telegram's
``getChatMember``, asked here only and its answer kept a minute). ``HOST_IDS`` may host in
every club. No other module reads ``settings.admin_ids``/``host_ids`` or asks
``getChatMember`` for a permission (tests/test_permissions_one_place.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.config import Settings
from bot.errors import UserError
from storage.db import Database
from storage.models import Club, StaffRoles
from storage.repos.keyed_cache import keep

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger("bot.permissions")

CHAT_ADMIN_TTL_S = 60.0  # how long a chat's administrator (or not) is believed without asking
CHAT_ADMIN_MOST = 10_000  # answers kept; beyond this the oldest half is dropped
CHAT_ADMIN_STATUSES = ("creator", "administrator")


class Power(StrEnum):
    """What an account may be allowed to do; per club where a ``club_id`` is given."""

    HOST = "host"  # open and run a game in the club (a club not approved plays friendly)
    MANAGE_CLUB = "manage_club"  # the club's settings, hosts, evenings, complaints
    HAND_OVER_GIFT = "hand_over_gift"  # press "Handed over" for a gift asked at the club
    VOID_GAME = "void_game"  # void a game of the club (the 7 days: the void service's rule)
    APPROVE_CLUBS = "approve_clubs"  # approve, refuse, suspend clubs; /clubs
    GRANT_NETWORK_ADMIN = "grant_network_admin"  # the owners' alone
    GRANT_CLUB_ADMIN = "grant_club_admin"
    GRANT_HOST = "grant_host"  # name the club's hosts
    NETWORK_SETTINGS = "network_settings"  # /network: the caps on fines, the seasons' dates
    MOVE_POINTS = "move_points"  # /adjust, /redeem, /block, /import, /export, the catalogue


# the powers over the whole network: owners and network admins only
NETWORK_POWERS = frozenset({Power.APPROVE_CLUBS, Power.GRANT_NETWORK_ADMIN,
                            Power.GRANT_CLUB_ADMIN, Power.NETWORK_SETTINGS, Power.MOVE_POINTS})
OWNER_POWERS = frozenset({Power.GRANT_NETWORK_ADMIN})  # not even a network admin's
# what a club admin may do in their own club (and nothing in another)
CLUB_ADMIN_POWERS = frozenset({Power.HOST, Power.MANAGE_CLUB, Power.HAND_OVER_GIFT,
                               Power.VOID_GAME, Power.GRANT_HOST})

# (chat_id, user_id) -> the member's status ("creator", "administrator", "member", ...), or
# None when Telegram could not be asked
MemberStatus = Callable[[int, int], Awaitable[str | None]]


def chat_member_status(bot: Bot) -> MemberStatus:
    """Telegram's answer through ``bot`` (the application's lookup)."""

    async def status(chat_id: int, user_id: int) -> str | None:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except Exception:  # the API is down or the bot is not in the chat: not an admin now
            log.warning("getChatMember failed", extra={"chat_id": chat_id})
            return None
        return str(member.status)

    return status


async def nobody_asked(chat_id: int, user_id: int) -> str | None:
    """The lookup without Telegram (the command-line tools, a test of stored roles only)."""
    return None


class ChatAdmins:
    """Whether an account administers a chat, asked of Telegram at most once a ``ttl`` per
    (chat, account) and kept in a bounded dict (a failed question is not kept)."""

    def __init__(self, lookup: MemberStatus, *, ttl: float = CHAT_ADMIN_TTL_S,
                 most: int = CHAT_ADMIN_MOST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lookup = lookup
        self.ttl = ttl
        self.most = most
        self.clock = clock
        self._answers: dict[tuple[int, int], tuple[float, bool]] = {}

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        kept = self._answers.get(key)
        if kept is not None and self.clock() - kept[0] <= self.ttl:
            return kept[1]
        status = await self.lookup(chat_id, user_id)
        if status is None:
            self._answers.pop(key, None)
            return False
        answer = status in CHAT_ADMIN_STATUSES
        self._answers.pop(key, None)  # re-inserted last: the oldest are dropped first
        keep(self._answers, key, (self.clock(), answer), self.most)
        return answer

    def forget(self, chat_id: int, user_id: int | None = None) -> None:
        """Ask again next time (the chat's administrators changed)."""
        for key in [k for k in self._answers
                    if k[0] == chat_id and (user_id is None or k[1] == user_id)]:
            del self._answers[key]


class Permissions:
    """``may``/``require`` for every permission decision of the bot."""

    def __init__(self, db: Database, *, owners: Iterable[int], hosts: Iterable[int] = (),
                 chat_admins: ChatAdmins | None = None) -> None:
        self.db = db
        self.owners = frozenset(owners)  # ADMIN_IDS
        self.hosts = frozenset(hosts)  # HOST_IDS: may host in every club
        self.chat_admins = chat_admins if chat_admins is not None else ChatAdmins(nobody_asked)

    @classmethod
    def of(cls, db: Database, settings: Settings, bot: Bot) -> Permissions:
        """The application's: ``ADMIN_IDS`` the owners, ``HOST_IDS`` hosts in every club, the
        chat's administrators asked through ``bot``."""
        return cls(db, owners=settings.admin_ids, hosts=settings.host_ids,
                   chat_admins=ChatAdmins(chat_member_status(bot)))

    def chat_member_changed(self, chat_id: int, tg_id: int) -> None:
        """Telegram told of the member's new status in the chat (``chat_member``): a demoted
        administrator loses the chat's powers at once, not when the kept answer ages out."""
        self.chat_admins.forget(chat_id, tg_id)

    def is_owner(self, tg_id: int) -> bool:
        return tg_id in self.owners

    async def roles(self, tg_id: int) -> StaffRoles:
        """The account's stored roles (from memory; a grant anywhere is seen at once)."""
        return await self.db.staff.cached(tg_id)

    async def club(self, club_id: int) -> Club | None:
        return await self.db.clubs.cached(club_id)

    async def club_approved(self, club_id: int) -> bool:
        """The network trusts the club's games (False: its games are friendly)."""
        club = await self.club(club_id)
        return club is not None and club.approved

    async def is_network_staff(self, tg_id: int) -> bool:
        """An owner or a network admin (the admins' command menu, /clubs, the notices)."""
        return self.is_owner(tg_id) or (await self.roles(tg_id)).network_admin

    async def network_staff(self) -> list[int]:
        """The owners and the network admins: who hears of a new club and of a gift asked."""
        return sorted(self.owners | set(await self.db.staff.network_admins()))

    async def may(self, tg_id: int, power: Power, *, club_id: int | None = None) -> bool:
        if tg_id in self.owners:
            return True
        roles = await self.roles(tg_id)
        if roles.network_admin:
            return power not in OWNER_POWERS
        if power in NETWORK_POWERS or club_id is None:
            return False
        if club_id in roles.club_admin_of:
            return power in CLUB_ADMIN_POWERS
        if power is Power.HOST:
            return (club_id in roles.host_of or tg_id in self.hosts
                    or await self._chat_admin_hosts(club_id, tg_id))
        if power in (Power.MANAGE_CLUB, Power.GRANT_HOST):
            return await self._chat_admin_manages(club_id, tg_id)
        return False

    async def stored_host(self, tg_id: int, club_id: int) -> bool:
        """Hosts in the club by a stored role or HOST_IDS (never asks Telegram: the flood
        guard asks this for every message of a club chat)."""
        if tg_id in self.owners or tg_id in self.hosts:
            return True
        roles = await self.roles(tg_id)
        return roles.network_admin or club_id in roles.club_admin_of or club_id in roles.host_of

    async def require(self, tg_id: int, power: Power, *, club_id: int | None = None) -> None:
        """:meth:`may`, or a refusal naming who may."""
        if not await self.may(tg_id, power, club_id=club_id):
            raise UserError(f"perm.denied.{power.value}")

    async def _chat_admin_hosts(self, club_id: int, tg_id: int) -> bool:
        """A chat's administrators host in a club not approved (friendly games), and in an
        approved one unless its club admins turned that off."""
        club = await self.club(club_id)
        if club is not None and club.approved and not club.chat_admins_host:
            return False
        return await self.chat_admins.is_admin(club_id, tg_id)

    async def _chat_admin_manages(self, club_id: int, tg_id: int) -> bool:
        """A club nobody on the staff manages yet (not approved, or approved without a club
        admin: a club from before the roles) is managed by its chat's administrators."""
        club = await self.club(club_id)
        if club is not None and club.approved and await self.db.staff.club_admins(club_id):
            return False
        return await self.chat_admins.is_admin(club_id, tg_id)

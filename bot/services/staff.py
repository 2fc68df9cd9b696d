"""The network's staff managed in the bot (``/staff``): owners grant and revoke network admins,
network admins the admins of any club, a club's admins its hosts and whether its chat's
administrators host. Every change asks :class:`Permissions` first (so a revoked admin's old
button changes nothing), is written by storage with the admin log naming who did it, and the
person is told in private. The owners (``ADMIN_IDS``) are never stored and never revoked."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock, utc_now
from bot.errors import UserError
from bot.services.accounts import Accounts, display
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.models import Club, Player

NETWORK_ADMIN, CLUB_ADMIN, HOST = "network_admin", "club_admin", "host"
ROLES = (NETWORK_ADMIN, CLUB_ADMIN, HOST)
POWERS = {NETWORK_ADMIN: Power.GRANT_NETWORK_ADMIN, CLUB_ADMIN: Power.GRANT_CLUB_ADMIN,
          HOST: Power.GRANT_HOST}
LISTED_CLUBS = 30  # clubs a network admin's dialog lists as buttons (the rest: typed)


@dataclass(frozen=True)
class RoleChange:
    """A grant (``granted``) or revoke of ``role`` for ``player`` (in ``club`` unless a network
    role); ``changed`` False: it was so already, nothing was written."""

    role: str
    granted: bool
    changed: bool
    player: Player
    club: Club | None


@dataclass(frozen=True)
class ClubStaff:
    """A club's staff as its dialog page shows it (names as the bot shows players)."""

    club: Club
    admins: list[tuple[int, str]]
    hosts: list[tuple[int, str]]
    may_admins: bool  # the viewer may grant and revoke the club's admins
    may_hosts: bool  # the viewer may grant and revoke its hosts, and the chat admins' switch


@dataclass(frozen=True)
class StaffView:
    """What the ``/staff`` dialog's first page shows the viewer."""

    owner: bool
    network_admins: list[tuple[int, str]] | None  # None: the viewer may not manage them
    clubs: list[Club]  # the clubs the viewer may manage the staff of


class StaffDesk:
    def __init__(self, db: Database, accounts: Accounts, permissions: Permissions, *,
                 clock: Clock = utc_now) -> None:
        self.db = db
        self.accounts = accounts
        self.permissions = permissions
        self.clock = clock

    async def _name(self, tg_id: int) -> str:
        player = await self.db.players.get(tg_id)
        return (player.nickname or player.display_name) if player else str(tg_id)

    async def _club(self, chat_id: int) -> Club:
        club = await self.db.clubs.get(chat_id)
        if club is None:
            raise UserError("staff.no_club", id=chat_id)
        return club

    async def _person(self, nick: str) -> Player:
        """The account a nickname names: a Telegram account (an offline one cannot act)."""
        player = await self.accounts.by_nick(nick)
        if player.offline:
            raise UserError("staff.offline", nick=display(player))
        return player

    async def view(self, viewer: int) -> StaffView:
        """The first page: the network admins (owners only) and the clubs the viewer manages;
        refused to anyone who manages nobody."""
        owner = self.permissions.is_owner(viewer)
        admins = None
        if await self.permissions.may(viewer, Power.GRANT_NETWORK_ADMIN):
            admins = [(t, await self._name(t)) for t in await self.db.staff.network_admins()]
        if await self.permissions.may(viewer, Power.GRANT_CLUB_ADMIN):
            clubs = (await self.db.clubs.listed())[:LISTED_CLUBS]
        else:
            roles = await self.permissions.roles(viewer)
            clubs = [c for c in [await self.db.clubs.get(i) for i in sorted(roles.club_admin_of)]
                     if c is not None]
        if admins is None and not clubs:
            raise UserError("staff.denied")
        return StaffView(owner, admins, clubs)

    async def club_view(self, viewer: int, chat_id: int) -> ClubStaff:
        club = await self._club(chat_id)
        may_admins = await self.permissions.may(viewer, Power.GRANT_CLUB_ADMIN, club_id=chat_id)
        may_hosts = await self.permissions.may(viewer, Power.GRANT_HOST, club_id=chat_id)
        if not (may_admins or may_hosts):
            raise UserError("perm.denied.grant_host")
        admins = [(t, await self._name(t)) for t in await self.db.staff.club_admins(chat_id)]
        hosts = [(t, await self._name(t)) for t in await self.db.staff.hosts(chat_id)]
        return ClubStaff(club, admins, hosts, may_admins, may_hosts)

    async def change(self, by: int, role: str, player: Player, *, grant: bool,
                     club_id: int | None = None) -> RoleChange:
        """Grant or revoke ``role``; the permission first, then the one storage write (a
        second admin doing the same at once finds it done: ``changed`` False)."""
        if role not in ROLES or (role == NETWORK_ADMIN) != (club_id is None):
            raise UserError("staff.usage")
        await self.permissions.require(by, POWERS[role], club_id=club_id)
        club = None if club_id is None else await self._club(club_id)
        if self.permissions.is_owner(player.tg_id) and role == NETWORK_ADMIN:
            raise UserError("staff.owner", name=display(player))
        if player.offline:
            raise UserError("staff.offline", nick=display(player))
        now, tg = self.clock(), player.tg_id
        staff = self.db.staff
        if role == NETWORK_ADMIN:
            changed = await (staff.grant_network_admin(tg, by=by, now=now) if grant
                             else staff.revoke_network_admin(tg, by=by, now=now))
        elif role == CLUB_ADMIN:
            assert club_id is not None
            changed = await (staff.grant_club_admin(club_id, tg, by=by, now=now) if grant
                             else staff.revoke_club_admin(club_id, tg, by=by, now=now))
        else:
            assert club_id is not None
            changed = await (staff.grant_host(club_id, tg, by=by, now=now) if grant
                             else staff.revoke_host(club_id, tg, by=by, now=now))
        return RoleChange(role, grant, changed, player, club)

    async def change_by_nick(self, by: int, role: str, nick: str, *, grant: bool,
                             club_id: int | None = None) -> RoleChange:
        await self.permissions.require(by, POWERS[role], club_id=club_id)  # before any lookup
        return await self.change(by, role, await self._person(nick), grant=grant,
                                 club_id=club_id)

    async def change_by_id(self, by: int, role: str, tg_id: int, *, grant: bool,
                           club_id: int | None = None) -> RoleChange:
        """A dialog's ✖ (the account by its id, as the button carries it)."""
        await self.permissions.require(by, POWERS[role], club_id=club_id)
        player = await self.db.players.get(tg_id)
        if player is None:
            raise UserError("misc.stale_button")
        return await self.change(by, role, player, grant=grant, club_id=club_id)

    async def chat_admins_host(self, by: int, chat_id: int, allowed: bool | None) -> Club:
        """The club's switch "the chat's administrators host" set (``None``: switched)."""
        await self.permissions.require(by, Power.GRANT_HOST, club_id=chat_id)
        club = await self._club(chat_id)
        value = (not club.chat_admins_host) if allowed is None else allowed
        return await self.db.clubs.set_chat_admins_host(chat_id, value, by=by, now=self.clock())


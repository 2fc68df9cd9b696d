"""A club's life (docs/bot.md, "A club's life"): a group the bot joins is a pending club, the
network's owners and admins get one notice with Approve / Refuse; approved, refused or
suspended by a network admin (``Power.APPROVE_CLUBS``), each change one conditional write
(storage's ``set_status``: of two admins racing, one wins and the other is told who did it),
in the admin log, and told to the chat; the approved club is named (city, name, time zone,
first club admin) with ``/club set``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.clock import Clock, utc_now
from bot.delivery.payload import send_payload
from bot.errors import UserError
from bot.services.accounts import Accounts, display
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import InvalidValue, UnknownClub
from storage.models import (
    CLUB_APPROVED,
    CLUB_PENDING,
    CLUB_REFUSED,
    CLUB_STATUSES,
    CLUB_SUSPENDED,
    Club,
    Player,
)
from storage.repos.clubs import MAX_NAME
from storage.repos.outbox import EDIT, SEND, Queued
from views.i18n import Translator

# what each decision may change: a button decides a pending club only (two admins racing see
# one winner); typed, an admin approves a refused or suspended club again deliberately
FROM_BUTTON = (CLUB_PENDING,)
TYPED_FROM = {CLUB_APPROVED: (CLUB_PENDING, CLUB_REFUSED, CLUB_SUSPENDED),
              CLUB_REFUSED: (CLUB_PENDING,), CLUB_SUSPENDED: (CLUB_APPROVED,)}
VERBS = {"approve": CLUB_APPROVED, "refuse": CLUB_REFUSED, "suspend": CLUB_SUSPENDED}
NO_ZONE = ("-", "—", "")

Enqueue = Callable[[list[Queued]], Awaitable[None]]


class ClubCb(CallbackData, prefix="clubs"):
    """The new club notice's buttons: ``approve`` or ``refuse`` the club ``chat``."""

    action: Literal["approve", "refuse"]
    chat: int


def notice_key(chat_id: int) -> str:
    """The outbox key of the new club's notice in each admin's chat (sent once; edited with
    the decision)."""
    return f"club:{chat_id}:pending"


@dataclass(frozen=True)
class Decision:
    changed: bool  # False: the club was not in a status this decision changes (see ``club``)
    club: Club


@dataclass(frozen=True)
class Details:
    club: Club
    admin: Player | None


class ClubLife:
    def __init__(self, db: Database, accounts: Accounts, permissions: Permissions,
                 translator: Translator, *, zone: str, enqueue: Enqueue | None = None,
                 clock: Clock = utc_now) -> None:
        self.db = db
        self.accounts = accounts
        self.permissions = permissions
        self.tr = translator
        self.zone = zone  # the network's TIMEZONE, a club's default
        self.clock = clock
        self.enqueue = enqueue  # the application's ``Delivery.enqueue``

    # ------------------------------------------------------------------ a new group
    async def arrived(self, chat_id: int, title: str, *, locale: str, by: str | None,
                      members: int | None) -> Club:
        """The bot was added to a group (or a group's first update): its club, pending unless
        known; a pending club's notice to every owner and network admin (once: keyed)."""
        club = await self.db.clubs.get(chat_id)
        if club is None:
            club = await self.db.clubs.ensure(chat_id, title=title, locale=locale)
        if club.status == CLUB_PENDING:
            await self._notify(club, by, members)
        return club

    async def _notify(self, club: Club, by: str | None, members: int | None) -> None:
        messages = []
        for admin_id in await self.permissions.network_staff():
            locale = self.accounts.locale_of(await self.accounts.get(admin_id), None)
            text = self.tr.t(locale, "clubs.notice", title=club.title, chat=str(club.chat_id),
                             by=by or "?", members=members if members is not None else "?")
            messages.append(Queued(admin_id, SEND, send_payload(
                text, self.buttons(locale, club.chat_id)), key=notice_key(club.chat_id)))
        await self._queue(messages)

    def buttons(self, locale: str, chat_id: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(inline_keyboard=[[
            InlineKeyboardButton(text=self.tr.t(locale, "clubs.button.approve"),
                                 callback_data=ClubCb(action="approve", chat=chat_id).pack()),
            InlineKeyboardButton(text=self.tr.t(locale, "clubs.button.refuse"),
                                 callback_data=ClubCb(action="refuse", chat=chat_id).pack()),
        ]])

    # ------------------------------------------------------------------ decisions
    async def decide(self, admin_id: int, chat_id: int, status: str, *,
                     expect: Sequence[str]) -> Decision:
        """``status`` if the club is in one of ``expect``; the chat told, every admin's
        notice shows the outcome. Refused (nothing written) unless ``admin_id`` may approve
        clubs."""
        await self.permissions.require(admin_id, Power.APPROVE_CLUBS)
        if status not in CLUB_STATUSES:
            raise UserError("clubs.usage")
        try:
            changed, club = await self.db.clubs.set_status(
                chat_id, status, by=admin_id, now=self.clock(), expect=expect)
        except UnknownClub:
            raise UserError("clubs.unknown", chat=str(chat_id)) from None
        if changed:
            await self._told(club)
        return Decision(changed, club)

    async def _told(self, club: Club) -> None:
        by = await self.name_of(club.status_by)
        messages = [Queued(club.chat_id, SEND, send_payload(
            self.tr.t(club.locale, f"clubs.chat.{club.status}", zone=club.time_zone or self.zone)))]
        for admin_id in await self.permissions.network_staff():
            locale = self.accounts.locale_of(await self.accounts.get(admin_id), None)
            messages.append(Queued(admin_id, EDIT, send_payload(self.tr.t(
                locale, f"clubs.decided.{club.status}", title=club.label,
                chat=str(club.chat_id), by=by)), key=notice_key(club.chat_id)))
        await self._queue(messages)

    async def already(self, locale: str, club: Club) -> str:
        """What the admin who lost a race (or pressed an old button) is told."""
        return self.tr.t(locale, "clubs.already", title=club.label,
                         status=self.tr.t(locale, f"clubs.status.{club.status}"),
                         by=await self.name_of(club.status_by),
                         at=club.status_at.strftime("%Y-%m-%d %H:%M UTC")
                         if club.status_at else "?")

    # ------------------------------------------------------------------ naming the club
    async def set_details(self, admin_id: int, chat_id: int, form: str) -> Details:
        """``CITY; NAME; TIME ZONE; FIRST ADMIN`` (the zone ``-``: the network's; the admin
        a player's nickname or Telegram id, or empty). Each part checked before anything is
        written; the club admin granted and told."""
        await self.permissions.require(admin_id, Power.APPROVE_CLUBS)
        parts = [p.strip() for p in form.split(";")]
        if len(parts) < 3 or len(parts) > 4 or not parts[0] or not parts[1]:
            raise UserError("clubs.set_usage", chat=str(chat_id))
        city, name, zone = parts[0], parts[1], parts[2]
        who = parts[3] if len(parts) == 4 else ""
        for value in (city, name):
            if len(value) > MAX_NAME:
                raise UserError("clubs.too_long", most=MAX_NAME)
        if zone not in NO_ZONE:
            zone = _zone(zone)
        club = await self.db.clubs.get(chat_id)
        if club is None:
            raise UserError("clubs.unknown", chat=str(chat_id))
        player = await self._player(who) if who else None
        try:
            club = await self.db.clubs.set_details(
                chat_id, by=admin_id, now=self.clock(), name=name, city=city,
                time_zone=None if zone in NO_ZONE else zone, clear_zone=zone in NO_ZONE)
        except InvalidValue:
            raise UserError("clubs.set_usage", chat=str(chat_id)) from None
        if player is not None:
            await self.permissions.require(admin_id, Power.GRANT_CLUB_ADMIN)
            if await self.db.staff.grant_club_admin(chat_id, player.tg_id, by=admin_id,
                                                    now=self.clock()):
                await self._queue([Queued(player.tg_id, SEND, send_payload(self.tr.t(
                    self.accounts.locale_of(player, None), "clubs.admin_notice",
                    title=club.label)))] if not player.offline else [])
        return Details(club, player)

    async def _player(self, who: str) -> Player:
        who = who.lstrip("@")
        player = await self.db.players.get(int(who)) if who.lstrip("-").isdigit() else None
        if player is None:
            player = await self.db.players.by_nickname(who)
        if player is None or player.offline:
            raise UserError("clubs.no_player", who=who)
        return player

    # ------------------------------------------------------------------ the list
    async def listed(self, admin_id: int) -> list[Club]:
        await self.permissions.require(admin_id, Power.APPROVE_CLUBS)
        return await self.db.clubs.listed()

    async def name_of(self, tg_id: int | None) -> str:
        if tg_id is None:
            return "?"
        player = await self.accounts.get(tg_id)
        return display(player) if player is not None else str(tg_id)

    async def _queue(self, messages: list[Queued]) -> None:
        if messages and self.enqueue is not None:
            await self.enqueue(messages)


def _zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError("clubs.bad_zone", zone=name) from None
    return name

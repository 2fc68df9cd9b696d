"""Voids and appeals: a finished game the network takes back, and a player's objection to one.

A network admin voids any finished game; a club's admin voids one of their club within
:data:`VOID_DAYS` of its end (the power is asked of Permissions, the days are this service's
rule). The void itself (every ledger row reversed, the games counted again, the appeals closed)
and the messages telling it (every seated player in private, the admins' appeal notices losing
their buttons) are written in one transaction (``db.voids.void``). A seated player appeals
within :data:`APPEAL_HOURS` of the end with ``/appeal``: the club's admins and the network's
hear of it with Void / Keep buttons; the first decision closes it, and the player is told.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.clock import Clock, utc_now
from bot.delivery.payload import send_payload
from bot.errors import UserError
from bot.services.accounts import Accounts, display
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import InvalidValue, UnknownGame, VoidRefused
from storage.models import APPEAL_KEPT, Appeal, Game, Player, Voided
from storage.repos.outbox import EDIT, SEND, Queued
from views.i18n import Translator

Queue = Callable[[Sequence[Queued], Collection[int]], None]

VOID_DAYS = 7  # a club admin voids a game of their club this long after its end at most
APPEAL_HOURS = 48  # a seated player appeals this long after the game's end at most


class VoidCb(CallbackData, prefix="void"):
    """The buttons of an appeal's notice to the admins: ``void`` the game, ``keep`` the
    result (``appeal``: the appeal's id)."""

    action: Literal["void", "keep"]
    appeal: int


def appeal_key(appeal_id: int) -> str:
    """The outbox key of an admin's notice of an appeal (edited when it is decided)."""
    return f"appeal:{appeal_id}"


@dataclass(frozen=True)
class VoidDone:
    voided: Voided
    told: int  # the seated players told in private


class VoidService:
    def __init__(self, db: Database, accounts: Accounts, translator: Translator,
                 permissions: Permissions, *, queued: Queue | None = None,
                 clock: Clock = utc_now, wall: Callable[[], float] = time.time) -> None:
        self.db = db
        self.accounts = accounts
        self.translator = translator
        self.permissions = permissions
        self.clock = clock
        self.wall = wall
        # wakes the delivery for what was queued (the application's ``Delivery.queued``)
        self.queued = queued

    # ------------------------------------------------------------------ voids
    async def void(self, admin_id: int, game_id: int, reason: str) -> VoidDone:
        """Void a finished game (see the module's docstring)."""
        game, ended = await self._game(game_id)
        await self.permissions.require(admin_id, Power.VOID_GAME, club_id=game.club_chat_id)
        if game.voided:
            raise await self._already(game)
        if ended is None:
            raise UserError("void.not_finished", game=game_id)
        if game.friendly:  # it wrote nothing and counts toward nothing already
            raise UserError("void.friendly", game=game_id)
        now = self.clock()
        if (now - ended > timedelta(days=VOID_DAYS)
                and not await self.permissions.is_network_staff(admin_id)):
            raise UserError("void.too_late", game=game_id, days=VOID_DAYS)
        seated = [s.tg_id for s in game.seats]
        appeals = await self._open_appeals(game)
        players = await self.db.players.get_many([*seated, admin_id,
                                                  *(a.tg_id for a in appeals)])
        admins = await self._reviewers(game.club_chat_id)
        players |= await self.db.players.get_many(admins)
        club = await self._club_name(game.club_chat_id)
        sent: list[Queued] = []

        def tell(voided: Voided) -> list[Queued]:
            sent[:] = self._void_messages(voided, players, club, admins)
            return sent

        try:
            voided, chats = await self.db.voids.void(game_id, by=admin_id, reason=reason,
                                                     now=now, tell=tell, wall=self.wall())
        except VoidRefused as e:
            raise await self._refusal(e, game_id) from e
        except InvalidValue as e:
            raise UserError("void.usage") from e
        self._wake(sent, chats)
        return VoidDone(voided, sum(1 for m in sent if m.key == _void_key(game_id)))

    async def void_appeal(self, admin_id: int, appeal_id: int, locale: str) -> VoidDone:
        """The Void button of an appeal's notice: the game voided with the appeal's reason
        (its words in the pressing admin's ``locale``)."""
        appeal = await self._appeal(appeal_id)
        game, _ = await self._game(appeal.game_id)
        await self.permissions.require(admin_id, Power.VOID_GAME, club_id=game.club_chat_id)
        if not appeal.open:
            raise await self._decided(appeal)
        reason = self.translator.t(locale, "appeal.void_reason",
                                   id=appeal.id, reason=appeal.reason)
        return await self.void(admin_id, appeal.game_id, _plain(reason))

    # ------------------------------------------------------------------ appeals
    async def appeal(self, tg_id: int, game_id: int, reason: str) -> Appeal:
        """A seated player's appeal within :data:`APPEAL_HOURS` of the game's end; the club's
        and the network's admins are told with Void / Keep buttons."""
        await self.accounts.require(tg_id, active=True)
        game, ended = await self._game(game_id)
        if game.voided:
            raise await self._already(game)
        if ended is None:
            raise UserError("void.not_finished", game=game_id)
        if game.friendly:
            raise UserError("void.friendly", game=game_id)
        if game.seat_of(tg_id) is None:
            raise UserError("appeal.not_seated", game=game_id)
        now = self.clock()
        if now - ended > timedelta(hours=APPEAL_HOURS):
            raise UserError("appeal.too_late", game=game_id, hours=APPEAL_HOURS)
        admins = await self._reviewers(game.club_chat_id)
        players = await self.db.players.get_many([tg_id, *admins])
        club = await self._club_name(game.club_chat_id)

        sent: list[Queued] = []

        def tell(appeal: Appeal) -> list[Queued]:
            sent[:] = [Queued(admin, SEND, send_payload(
                self._appeal_text(appeal, game, club, players, self._locale(players, admin)),
                self.buttons(self._locale(players, admin), appeal)), key=appeal_key(appeal.id))
                for admin in admins]
            return sent

        try:
            appeal, chats = await self.db.voids.appeal(game_id, tg_id, reason, now=now,
                                                       tell=tell, wall=self.wall())
        except VoidRefused as e:
            raise await self._refusal(e, game_id) from e
        except InvalidValue as e:
            raise UserError("appeal.usage", hours=APPEAL_HOURS) from e
        self._wake(sent, chats)
        return appeal

    async def keep(self, admin_id: int, appeal_id: int) -> Appeal:
        """The Keep button: the appeal closed, the result stands; the player told."""
        appeal = await self._appeal(appeal_id)
        game, _ = await self._game(appeal.game_id)
        await self.permissions.require(admin_id, Power.VOID_GAME, club_id=game.club_chat_id)
        if not appeal.open:
            raise await self._decided(appeal)
        admins = await self._reviewers(game.club_chat_id)
        players = await self.db.players.get_many([appeal.tg_id, admin_id, *admins])
        club = await self._club_name(game.club_chat_id)

        sent: list[Queued] = []

        def tell(kept: Appeal) -> list[Queued]:
            by = _name(players.get(admin_id), admin_id)
            messages = sent
            messages[:] = [Queued(admin, EDIT, send_payload(self._appeal_text(
                kept, game, club, players, self._locale(players, admin), by=by)),
                key=appeal_key(kept.id)) for admin in admins]
            player = players.get(kept.tg_id)
            if player is not None and not player.offline:
                messages.append(Queued(kept.tg_id, SEND, send_payload(self.translator.t(
                    self._locale(players, kept.tg_id), "appeal.kept_notice", game=game.id,
                    by=by)), key=f"{appeal_key(kept.id)}:kept"))
            return messages

        try:
            kept, chats = await self.db.voids.keep(appeal_id, by=admin_id, now=self.clock(),
                                                   tell=tell, wall=self.wall())
        except VoidRefused as e:
            raise await self._refusal(e, appeal.game_id) from e
        self._wake(sent, chats)
        return kept

    def buttons(self, locale: str, appeal: Appeal) -> InlineKeyboardMarkup:
        tr = self.translator
        return InlineKeyboardMarkup(inline_keyboard=[[
            InlineKeyboardButton(text=tr.t(locale, "appeal.button.void"),
                                 callback_data=VoidCb(action="void", appeal=appeal.id).pack()),
            InlineKeyboardButton(text=tr.t(locale, "appeal.button.keep"),
                                 callback_data=VoidCb(action="keep", appeal=appeal.id).pack()),
        ]])

    # ------------------------------------------------------------------ the words
    def _void_messages(self, voided: Voided, players: dict[int, Player], club: str,
                       admins: Sequence[int]) -> list[Queued]:
        """Each seated Telegram player's notice, and the admins' notices of the appeals the
        void closed (without their buttons)."""
        tr, game = self.translator, voided.game
        by = _name(players.get(game.voided_by or 0), game.voided_by or 0)
        lines = {line.tg_id: line for line in voided.lines}
        messages: list[Queued] = []
        for seat in game.seats:
            player = players.get(seat.tg_id)
            if player is None or player.offline:
                continue
            locale = self._locale(players, seat.tg_id)
            line = lines.get(seat.tg_id)
            text = [tr.t(locale, "void.notice", game=game.id, club=club,
                         reason=game.void_reason or "", by=by)]
            if line is not None and line.returned < 0:
                text.append(tr.t(locale, "void.notice_taken", points=line.returned))
            if line is not None and line.returned > 0:
                text.append(tr.t(locale, "void.notice_given", points=line.returned))
            if line is not None and line.short:
                text.append(tr.t(locale, "void.notice_short", points=line.short))
            messages.append(Queued(seat.tg_id, SEND, send_payload("\n".join(text)),
                                   key=_void_key(game.id)))
        for appeal in voided.appeals:
            for admin in admins:
                messages.append(Queued(admin, EDIT, send_payload(self._appeal_text(
                    appeal, game, club, players, self._locale(players, admin), by=by)),
                    key=appeal_key(appeal.id)))
        return messages

    def _appeal_text(self, appeal: Appeal, game: Game, club: str,
                     players: dict[int, Player], locale: str, *, by: str | None = None) -> str:
        tr = self.translator
        text = tr.t(locale, "appeal.notice", id=appeal.id, game=game.id, club=club,
                    player=_name(players.get(appeal.tg_id), appeal.tg_id),
                    reason=appeal.reason, day=game.finished_on or game.created_at.date())
        if by is None:
            return text
        outcome = "appeal.outcome.kept" if appeal.status == APPEAL_KEPT else \
            "appeal.outcome.voided"
        return text + "\n" + tr.t(locale, outcome, by=by)

    # ------------------------------------------------------------------ helpers
    async def _game(self, game_id: int) -> tuple[Game, datetime | None]:
        try:
            return await self.db.voids.ended(game_id)
        except UnknownGame as e:
            raise UserError("void.unknown_game", game=game_id) from e

    async def _appeal(self, appeal_id: int) -> Appeal:
        appeal = await self.db.voids.get_appeal(appeal_id)
        if appeal is None:  # a forged button
            raise UserError("appeal.unknown")
        return appeal

    async def _open_appeals(self, game: Game) -> list[Appeal]:
        found = [await self.db.voids.appeal_of(game.id, s.tg_id) for s in game.seats]
        return [a for a in found if a is not None and a.open]

    async def _reviewers(self, club_id: int) -> list[int]:
        """Who decides an appeal of the club's game: its club admins and the network's."""
        return sorted(set(await self.permissions.network_staff())
                      | set(await self.db.staff.club_admins(club_id)))

    async def _club_name(self, club_id: int) -> str:
        club = await self.db.clubs.get(club_id)
        return club.label if club is not None else str(club_id)

    def _locale(self, players: dict[int, Player], tg_id: int) -> str:
        return self.accounts.locale_of(players.get(tg_id), None)

    async def _already(self, game: Game) -> UserError:
        by = game.voided_by or 0
        who = await self.db.players.get(by)
        return UserError("void.already", game=game.id, reason=game.void_reason or "",
                         by=_name(who, by))

    async def _decided(self, appeal: Appeal) -> UserError:
        by = appeal.closed_by or 0
        who = await self.db.players.get(by)
        return UserError(f"appeal.closed_{appeal.status}", id=appeal.id, game=appeal.game_id,
                         by=_name(who, by))

    async def _refusal(self, error: VoidRefused, game_id: int) -> UserError:
        if error.reason == "already_voided" and error.game is not None:
            return await self._already(error.game)
        if error.reason == "closed" and error.appeal is not None:
            return await self._decided(error.appeal)
        if error.reason == "not_finished":
            return UserError("void.not_finished", game=game_id)
        return UserError(f"appeal.{error.reason}", game=game_id)

    def _wake(self, messages: Sequence[Queued], chats: Collection[int]) -> None:
        if self.queued is not None and chats:
            self.queued(messages, chats)


def _void_key(game_id: int) -> str:
    return f"void:{game_id}"


def _name(player: Player | None, tg_id: int) -> str:
    return display(player) if player is not None else str(tg_id)


def _plain(text: str) -> str:
    """A rendered text back to the characters it shows (the void's reason is stored as typed,
    and escaped wherever it is shown)."""
    return html.unescape(text)

"""The evening's signed-up players at a lobby: the host's offer, the invitation, the check-in.

A lobby opened on the night of the club's evening (one starting within ``EVENING_HOURS`` of
now) offers its host the list first: one button invites the signed-up players, as many as the
evening seats at a table, in the list's order, each in private with «✅ I'm here»; the press
seats the player (the lobby's own join, every check of it) and marks the check-in. Walk-ins join
as ever. Several tables: each invites the next ones, a player invited to one open lobby is not
invited to another (the evening's row lock, ``storage/repos/evenings.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from aiogram.types import InlineKeyboardMarkup

from bot.errors import UserError
from bot.game.callbacks import CheckInCb, InviteCb
from bot.game.core import GameCore, Reply, Where, reply
from bot.game.messages.notifier import button, rows
from bot.game.rooms.lobby import LobbyService
from bot.game.rooms.phase import PhaseService
from engine.composition import MAX_PLAYERS
from record.table import Stage, Table
from storage.models import EVENING_HOURS, EveningList, Player, SignUp, is_offline_account
from views import evenings as texts
from views.i18n import Safe

log = logging.getLogger("bot.game.rooms.guests")


class EveningGuests(PhaseService):
    def __init__(self, core: GameCore, lobby: LobbyService) -> None:
        super().__init__(core)
        self.lobby = lobby
        self.offers: dict[tuple[int, int], str] = {}  # (game, evening) -> the offer's key

    async def tonight(self, table: Table) -> EveningList | None:
        """The club's evening of tonight (called off ones are not), if any."""
        now = self.clock()
        return await self.db.evenings.tonight(table.chat_id, since=now - EVENING_HOURS,
                                              until=now + EVENING_HOURS)

    def _waiting(self, table: Table, listed: EveningList) -> tuple[list[SignUp], list[SignUp]]:
        """The seats of the list not at a table yet: (invited to this table, not invited to
        any open lobby)."""
        here: list[SignUp] = []
        fresh: list[SignUp] = []
        for signup in listed.seated:
            tg_id = signup.tg_id
            if (signup.checked_in or is_offline_account(tg_id)
                    or self.core.of_player(tg_id) is not None
                    or self.core.hosted_by(tg_id) is not None):
                continue
            if signup.invited_game == table.game_id:
                here.append(signup)
                continue
            other = (None if signup.invited_game is None
                     else self.core.tables.get(signup.invited_game))
            if other is None or other.stage is not Stage.LOBBY or not other.open:
                fresh.append(signup)
        return here, fresh

    @staticmethod
    def _room(table: Table, listed: EveningList, pending: Sequence[SignUp]) -> int:
        """How many more this table invites: the evening's seats at a table, less the seated
        and those invited and not here yet."""
        seats = min(listed.evening.seats, MAX_PLAYERS)
        return max(0, seats - len(table.seats) - len(pending))

    async def offer(self, table: Table) -> None:
        """A lobby just opened: tonight's list offered to its host (nothing without one). The
        lobby is open whatever happens here: ``/invite`` invites all the same."""
        try:
            listed = await self.tonight(table)
            if listed is None:
                return
            async with self.core.lock(table.game_id):
                if table.stage is Stage.LOBBY and table.open:
                    await self._tell_host(table, listed, ())
        except Exception:
            log.exception("tonight's list not offered to the host of game %s", table.game_id)

    async def _tell_host(self, table: Table, listed: EveningList,
                         invited: Sequence[SignUp]) -> None:
        """The host's message about tonight's list: what it holds, who was invited now, and
        the button while more may be invited."""
        here, fresh = self._waiting(table, listed)
        more = min(len(fresh), self._room(table, listed, here))
        host = table.host_id
        locale = self.core.locale_of(host)
        evening = listed.evening
        lines = [self.tr.t(locale, "evening.offer.head",
                           when=Safe(texts.starts(self.tr, locale, evening)),
                           signed=len(listed.seated), waiting=len(listed.waitlist),
                           tables=evening.tables, seats=evening.seats)]
        if invited:
            lines.append(self.tr.t(locale, "evening.offer.invited",
                                   names=", ".join(s.name for s in invited)))
        lines.append(self.tr.t(locale, "evening.offer.more" if more
                               else "evening.offer.done"))
        markup: InlineKeyboardMarkup | None = None
        if more:
            markup = rows([button(self.tr.t(locale, "evening.offer.button", count=more),
                                  InviteCb(game=table.game_id, evening=evening.id).pack())], 1)
        text = "\n".join(lines)
        key = (table.game_id, evening.id)
        ref = self.offers.get(key)
        if ref is None:  # a key of its own in this process (a restart sends a new message)
            ref = self.offers[key] = self.core.ref(table, "evening", evening.id, table.seq)
            await self.notifier.send(host, text, markup=markup, ref=ref)
        else:
            await self.notifier.edit(host, ref, text, markup=markup)

    async def invite_at(self, where: Where, user_id: int) -> Reply:
        """``/invite`` in the club chat: the sender's table (``GameCore.in_chat``)."""
        return await self.invite(self.core.in_chat(where, user_id).game_id, user_id)

    async def invite(self, game_id: int, user_id: int) -> Reply:
        """The host's button (or ``/invite``): the next ones on tonight's list, in private."""
        table = self.core.table(game_id)
        self.core.require_host(table, user_id)
        if table.stage is not Stage.LOBBY:
            raise UserError("game.join.closed")
        listed = await self.tonight(table)
        if listed is None:
            raise UserError("evening.invite.no_evening")
        async with self.core.lock(game_id):
            if table.stage is not Stage.LOBBY or not table.open:
                raise UserError("game.join.closed")
            here, fresh = self._waiting(table, listed)
            wanted = fresh[:self._room(table, listed, here)]
            if not wanted and not here:
                raise UserError("evening.invite.none")
            # claimed under the evening's lock: another table's invitation at the same moment
            # takes the others
            taken = set(await self.db.evenings.invite(listed.evening.id, game_id,
                                                      [s.tg_id for s in wanted]))
            invited = [s for s in wanted if s.tg_id in taken]
            club = await self.db.clubs.get(table.chat_id)
            title = club.title if club is not None else ""
            # those invited before and not here yet too: an invitation a crash kept from
            # going out goes now (one sent already is not sent again: its key)
            for signup in [*here, *invited]:
                await self._invitation(table, listed, signup, title)
            if invited:
                after = await self.db.evenings.get(listed.evening.id)
                await self._tell_host(table, after or listed, invited)
        if invited:
            return reply("evening.invite.sent", invited=len(invited))
        if here:
            return reply("evening.invite.waiting", names=", ".join(s.name for s in here))
        raise UserError("evening.invite.none")

    async def _invitation(self, table: Table, listed: EveningList, signup: SignUp,
                          club: str) -> None:
        tg_id = signup.tg_id
        locale = signup.language or self.core.locale_of(tg_id)
        self.core.locales.setdefault(tg_id, locale)
        text = self.tr.t(locale, "evening.invitation", club=club, number=table.number,
                         game=table.game_id,
                         when=Safe(texts.starts(self.tr, locale, listed.evening)))
        markup = rows([button(self.tr.t(locale, "evening.checkin.button"),
                              CheckInCb(game=table.game_id,
                                        evening=listed.evening.id).pack())], 1)
        # one invitation per player and table: invited again (the host's next press, a
        # restart) it is not sent twice
        await self.notifier.send(tg_id, text, markup=markup,
                                 ref=self.core.ref(table, "invite", listed.evening.id, tg_id))

    async def check_in(self, game_id: int, evening_id: int, tg_id: int,
                       account: Player | None = None) -> Reply:
        """«✅ I'm here»: the invited player is seated (every check of the lobby's join)."""
        listed = await self.db.evenings.get(evening_id)
        mine = None if listed is None else listed.of(tg_id)
        if mine is None or mine.invited_game != game_id:
            raise UserError("evening.checkin.not_invited")
        answer = await self.lobby.join(game_id, tg_id, account)
        await self.db.evenings.check_in(evening_id, tg_id, game_id)
        table = self.core.tables.get(game_id)
        if table is not None:
            async with self.core.lock(game_id):
                await self.notifier.edit_private(
                    tg_id, self.core.ref(table, "invite", evening_id, tg_id),
                    "evening.checkin.done", number=table.number, **answer.kwargs)
        return answer

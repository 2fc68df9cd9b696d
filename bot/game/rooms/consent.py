"""The consent asks: a host's ``/addseat`` of a Telegram player's nickname seats nobody on the
host's word; the player is asked in private ("Yes, seat me" / "No") and the ask ends with the
answer, the host's ``/unseat``, the deal or the lobby's close."""

from __future__ import annotations

from typing import Any

from bot.errors import UserError
from bot.game.answers import Reply, reply
from bot.game.callbacks import ConsentCb
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier, button, message_ref, rows
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.rooms.seating import LobbySeating
from bot.game.steps import Steps
from bot.game.tables import Tables
from engine.composition import MAX_PLAYERS
from record.log_events import SeatAskClosed, SeatAsked
from record.table import Stage, Table
from storage.db import Database
from storage.models import Player


class ConsentRoom:
    """The asks of a table's lobby (``Table.asked``): sent, answered, closed. ``post``: the
    lobby's post, which lists the asked players waiting; ``seating``: the seat a "Yes" takes."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier,
                 locales: Languages, post: LobbyPost, seating: LobbySeating) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.locales = locales
        self.post = post
        self.seating = seating

    def ask_ref(self, table: Table, tg_id: int) -> str:
        return message_ref(table, "ask", tg_id)

    async def ask(self, table: Table, player: Player, nick: str) -> Reply:
        """A Telegram player is asked in private whether the host may seat and play them;
        nothing is seated until they say yes (the game's lock held)."""
        name = player.nickname or nick
        if player.blocked:
            raise UserError("seats.add.blocked", nick=name)
        if player.tg_id == table.host_id:
            raise UserError("game.join.host")
        seated = table.seat_of(player.tg_id)
        if seated is not None:
            raise UserError("seats.add.already", nick=name, seat=seated)
        if player.tg_id in table.asked:
            raise UserError("seats.ask.already", nick=name)
        hosted = self.tables.hosted_by(player.tg_id, table.chat_id)
        if hosted is not None:
            raise UserError("tables.join.hosting", number=hosted.number, game=hosted.game_id)
        other = self.tables.of_player(player.tg_id)
        if other is not None:  # asked only when free now (the yes checks again)
            if other.chat_id == table.chat_id:
                raise UserError("tables.add.other", nick=name, number=other.number,
                                game=other.game_id)
            raise UserError("seats.add.other_game", nick=name, game=other.game_id)
        await self.steps.record(table, SeatAsked(player.tg_id, name))
        if player.language:
            self.locales.known.setdefault(player.tg_id, player.language)
        host = await self.db.players.get(table.host_id)
        host_name = "?" if host is None else (host.nickname or host.display_name)
        club = await self.db.clubs.cached(table.chat_id)
        title = club.title if club is not None else ""

        def markup(locale: str) -> Any:
            return rows([
                button(self.tr.t(locale, "seats.ask.yes"),
                       ConsentCb(game=table.game_id, yes=True).pack()),
                button(self.tr.t(locale, "seats.ask.no"),
                       ConsentCb(game=table.game_id, yes=False).pack())], 2)

        def friendly(locale: str) -> str:
            return self.tr.t(locale, "seats.ask.friendly") if table.friendly else ""
        await self.notifier.private(player.tg_id, "seats.ask.text", host=host_name, club=title,
                                    game=table.game_id, friendly=friendly,
                                    ref=self.ask_ref(table, player.tg_id), markup=markup)
        await self.post.refresh(table)
        return reply("seats.ask.sent", nick=name, seat=len(table.seats) + len(table.asked))

    async def consent(self, game_id: int, tg_id: int, yes: bool) -> Reply:
        """The asked player's "Yes, seat me" (seated, the host plays the seat) or "No"; a
        press after the deal, a close or an answer already given is refused, changing
        nothing."""
        table = self.tables.by_id.get(game_id)
        if table is None or tg_id not in table.asked:
            raise UserError("seats.ask.closed")
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY or not table.open or tg_id not in table.asked:
                raise UserError("seats.ask.closed")
            name = table.asked[tg_id]
            how = "no"
            answer = reply("seats.ask.declined", game=game_id)
            if yes:
                player = await self.db.players.get(tg_id)
                try:
                    if player is None or player.blocked:
                        raise UserError("game.join.blocked")
                    if len(table.seats) >= MAX_PLAYERS:
                        raise UserError("game.join.full")
                    await self.seating.for_host(table, tg_id, name, lambda game: UserError(
                        "game.join.other_game", game=game))
                    how = "yes"
                    answer = reply("seats.ask.seated", game=game_id,
                                   seat=table.seat_of(tg_id))
                except UserError as e:  # asked, and unable to sit: the ask ends, both told
                    how = "failed"
                    answer = reply(e.key, **e.kwargs)
            await self.close(table, tg_id, how)
            return answer

    async def close(self, table: Table, tg_id: int, how: str) -> None:
        """The ask of ``tg_id`` ends (``how``: yes, no, failed, deal, withdrawn by the host's
        ``/unseat``, closed with the lobby): logged, the player's message loses its buttons,
        the host is told (the game's lock held)."""
        name = table.asked.get(tg_id)
        if name is None:
            return
        await self.steps.record(table, SeatAskClosed(tg_id, how))
        await self.notifier.edit_private(tg_id, self.ask_ref(table, tg_id),
                                         f"seats.ask.closed_{how}", game=table.game_id)
        await self.notifier.private(table.host_id, f"seats.ask.host_{how}", nick=name,
                                    seat=table.seat_of(tg_id) or 0)
        if how != "deal":  # the deal's post follows the lobby's
            await self.post.refresh(table)

    async def close_asks(self, table: Table, how: str) -> None:
        """Every open ask ends unanswered (the deal, the lobby closing): no seat for them."""
        for tg_id in list(table.asked):
            await self.close(table, tg_id, how)

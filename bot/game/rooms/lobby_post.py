"""The lobby's post in the club chat: its seats (with their open immunities and the asked
players waiting), its Join/Leave buttons and the deep link to the bot; posted when the lobby
opens, drawn again whenever the seats or the asks change, and closed with the lobby.

Drawn here, where it is sent, as every room draws its own posts (the notifier,
:mod:`bot.game.messages`, only carries a key, its values and the buttons, and knows no room's
buttons); the drawing is not a pure view either: its immunity marks read the seated players'
accounts and the day's first kills once, and the drawn lines are kept on the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from bot.game.callbacks import LobbyCb
from bot.game.messages.notifier import Markup, Notifier, button, message_ref, rows
from bot.game.steps import Steps
from record.log_events import LobbyPosted
from record.table import SeatInfo, Stage, Table
from storage.db import Database
from storage.models import Player


class LobbyPost:
    """The lobby's post of each table before the deal, given to the rooms that change what it
    shows. ``bot_username``: the deep links' bot ("" until the start-up learns it: the post has
    no button to the bot before)."""

    def __init__(self, db: Database, steps: Steps, notifier: Notifier, *,
                 bot_username: Callable[[], str]) -> None:
        self.db = db
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.bot_username = bot_username

    async def post(self, table: Table) -> None:
        """The lobby's post, logged as posted in the same step: the game's row is committed
        before this step, so a process killed between the two leaves a lobby the restore
        finds unposted (:meth:`bot.game.restore.Restorer`) and posts."""
        # the same key in a chat the club moved to: the lobby's later edits find this post
        await self.notifier.club(table, "game.lobby.text", ref=message_ref(table, "lobby"),
                                 markup=self._markup(table), **await self._texts(table))
        await self.steps.record(table, LobbyPosted())

    async def repost(self, table: Table) -> None:
        """The lobby message again (the club moved to a supergroup): joins go on there."""
        async with self.steps.lock(table.game_id):
            if table.stage is not Stage.LOBBY or not table.open:
                return
            await self.post(table)

    async def refresh(self, table: Table, known: dict[int, Player] | None = None) -> None:
        """The post drawn again after its seats or asks changed (the game's lock held);
        ``known``: accounts the caller read already (not read again for the marks)."""
        await self.notifier.edit_club(table, message_ref(table, "lobby"), "game.lobby.text",
                                      markup=self._markup(table), redraw=True,
                                      **await self._texts(table, known))

    async def closed(self, table: Table, why: str, hours: int | float) -> None:
        """The lobby closed undealt (``why``: ``expired``, ``host_left``): the post says why
        and loses its buttons (the game's lock held)."""
        await self.notifier.edit_club(table, message_ref(table, "lobby"),
                                      f"game.lobby.closed_{why}", game=table.game_id,
                                      hours=hours)

    def join_link(self, game_id: int) -> str:
        return f"https://t.me/{self.bot_username()}?start=join_{game_id}"

    def _markup(self, table: Table) -> Markup:
        def build(locale: str) -> Any:
            buttons = [
                button(self.tr.t(locale, "game.lobby.join"),
                       LobbyCb(game=table.game_id, action="join").pack()),
                button(self.tr.t(locale, "game.lobby.leave"),
                       LobbyCb(game=table.game_id, action="leave").pack()),
            ]
            markup = rows(buttons, 2)
            markup.inline_keyboard.append([button(
                self.tr.t(locale, "tables.another"),
                LobbyCb(game=table.game_id, action="table").pack())])
            if self.bot_username():
                from aiogram.types import InlineKeyboardButton
                markup.inline_keyboard.append([InlineKeyboardButton(
                    text=self.tr.t(locale, "game.lobby.open_bot"),
                    url=self.join_link(table.game_id))])
            return markup
        return build

    async def _texts(self, table: Table,
                     known: dict[int, Player] | None = None) -> dict[str, Any]:
        marks = await self._marks(table, known or {})
        seats = sorted(table.seats.values(), key=lambda s: s.seat)

        def line(locale: str, info: SeatInfo) -> str:
            found = frozenset(str(m) for m in marks.get(info.tg_id, ()))
            key = (locale, info.seat, info.name, found, info.tg_id in table.offline)
            drawn = table.memory.lobby_lines.get(key)
            if drawn is None:  # a line is drawn once, not at every join of the evening
                drawn = self.tr.t(locale, "game.seat", seat=info.seat, name=info.name)
                extra = [self.tr.t(locale, f"game.immunity.{m}") for m in sorted(found)]
                if key[4]:
                    extra.insert(0, self.tr.t(locale, "seats.lobby_mark"))
                if extra:
                    drawn += f" — {', '.join(extra)}"
                table.memory.lobby_lines[key] = drawn
            return drawn

        asked = list(table.asked.values())

        def render(locale: str) -> str:
            waiting = [self.tr.t(locale, "seats.ask.lobby_line", seat=len(seats) + i, name=name)
                       for i, name in enumerate(asked, 1)]
            if not seats and not waiting:
                return self.tr.t(locale, "game.lobby.empty")
            return "\n".join([*(line(locale, info) for info in seats), *waiting])

        def friendly(locale: str) -> str:
            return self.tr.t(locale, "game.lobby.friendly") if table.friendly else ""
        return {"game": table.game_id, "seats": render, "count": len(seats),
                "friendly": friendly}

    async def _marks(self, table: Table, known: dict[int, Player]
                     ) -> dict[int, frozenset[engine.OpenImmunity]]:
        """The lobby list's open immunities, worked out once per seated player (the list is
        drawn again at every join; the deal reads them afresh, :func:`marks_of`)."""
        memory = table.memory
        if memory.killed_today is None:
            memory.killed_today = frozenset(
                await self.db.first_day_killed.for_day(table.chat_id, table.day))
        missing = [s.tg_id for s in table.seats.values() if s.tg_id not in memory.lobby_marks]
        unknown = [tg_id for tg_id in missing if tg_id not in known]
        players = {**known, **(await self.db.players.get_many(unknown) if unknown else {})}
        for tg_id in missing:
            memory.lobby_marks[tg_id] = _marks(players.get(tg_id), tg_id in memory.killed_today)
        return memory.lobby_marks


def marks_of(table: Table, players: dict[int, Player], killed: set[int]
             ) -> dict[int, set[engine.OpenImmunity]]:
    """The open immunities of the seated (newbies, the killed on the first day in this
    club today), from their accounts and the day's kills."""
    marks: dict[int, set[engine.OpenImmunity]] = {}
    for info in table.seats.values():
        found = _marks(players.get(info.tg_id), info.tg_id in killed)
        if found:
            marks[info.tg_id] = set(found)
    return marks


def _marks(player: Player | None, killed_today: bool) -> frozenset[engine.OpenImmunity]:
    found = set()
    if player is not None and player.games_played == 0:
        found.add(engine.OpenImmunity.NEWBIE)
    if killed_today:
        found.add(engine.OpenImmunity.FIRST_DAY_KILLED)
    return frozenset(found)

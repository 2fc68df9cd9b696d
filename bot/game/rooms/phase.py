"""The base of the evening's rooms (lobby, deal, night, day, results, host): the shared
core's tools under short names."""

from __future__ import annotations

from bot.clock import Clock
from bot.game.core import GameCore
from bot.game.tables import Tables
from bot.game.timers import Deadlines
from record.table import GameTimers, Table


class Room:
    """A room of the evening on the shared core: the core's tools under short names."""

    def __init__(self, core: GameCore, tables: Tables) -> None:
        self.core = core
        self.tables = tables  # the running games
        self.db = core.db
        self.notifier = core.notifier  # every club post and private message leaves here
        self.tr = core.tr

    @property
    def deadlines(self) -> Deadlines:
        """The core's, read at each use: one time for the whole game layer."""
        return self.core.deadlines

    @property
    def clock(self) -> Clock:
        """The core's, read at each use (as its deadlines)."""
        return self.core.clock

    def foul_offer_ref(self, table: Table, number: int) -> str:
        """The key of the host's offer of the technical death after foul ``number``
        (``bot/game/rooms/fouls.py``)."""
        return self.core.ref(table, f"foul{number}", "offer")

    async def end_foul_offers(self, table: Table) -> None:
        """The game is over: its open offers of the technical death lose their buttons."""
        for number in sorted(table.foul_offers):
            seat = table.game.fouls[number - 1].seat
            await self.notifier.edit_private(table.host_id, self.foul_offer_ref(table, number),
                                             "foul.offer.over", who=self.notifier.seat(table, seat))

    def timers(self, table: Table) -> GameTimers:
        """The table's timers: its club's (``/settings``), else the bot's settings."""
        return table.timers or self.core.timers

"""The base of the evening's rooms (lobby, deal, night, day, results, host): the shared
core's tools under short names."""

from __future__ import annotations

from bot.game.core import GameCore
from record.table import GameTimers, Table


class PhaseService:
    """A room of the evening on the shared core: the core's tools under short names."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.db = core.db
        self.notifier = core.notifier  # every club post and private message leaves here
        self.deadlines = core.deadlines
        self.tr = core.tr
        self.clock = core.clock

    def timers(self, table: Table) -> GameTimers:
        """The table's timers: its club's (``/settings``), else the bot's settings."""
        return table.timers or self.core.timers

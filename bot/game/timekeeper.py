"""The tables' deadlines: each table's timers of its phases (``Table.deadlines``, from its log)
armed on the scheduler (:class:`~bot.game.timers.Deadlines`) under the table's own keys, and,
when one is up, the phase's time-up (the room that claimed it, :meth:`Timekeeper.on_time_up`)
run in a step of the game, as a press would be. A room's other timers of a table (a last word,
``/speak``, the lobby's end, the panel's countdown) are keyed the same way
(:meth:`Timekeeper.schedule`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial

from bot.clock import Clock
from bot.game.messages.notifier import Notifier
from bot.game.steps import Steps
from bot.game.tables import TableDefaults, Tables
from bot.game.timers import Deadlines, Job
from record.table import CANCEL_DL, FATE_DL, MAFIA_DL, NIGHT_DL, TURN_DL, GameTimers, Table
from storage.backends import DatabaseUnavailable
from storage.db import Database

log = logging.getLogger("bot.game")

PROMPT_CHECK_SECONDS = 1.0  # a deadline whose prompts are still queued looks again after this
UNAVAILABLE_RETRY_SECONDS = 2.0  # a deadline the database could not serve looks again after this

TimeUp = Callable[[Table], Awaitable[None]]
"""What a phase does when one of its deadlines is up (called in a step of the game)."""


class Timekeeper:
    """The running tables' timers on one scheduler and one clock (the game layer's time)."""

    def __init__(self, scheduler: Deadlines, clock: Clock, steps: Steps, tables: Tables,
                 defaults: TableDefaults, db: Database, notifier: Notifier) -> None:
        self.scheduler = scheduler
        self.clock = clock
        self.steps = steps
        self.tables = tables
        self.defaults = defaults
        self.db = db
        self.notifier = notifier
        self._time_up: dict[str, TimeUp] = {}
        self._postponed: set[tuple[int, str, int]] = set()  # (game, deadline, moment)

    def on_time_up(self, name: str, then: TimeUp) -> None:
        """A phase claims the deadline ``name`` (one of ``record.table``'s ``*_DL``)."""
        self._time_up[name] = then

    def at(self, seconds: float) -> datetime:
        """The time ``seconds`` from now."""
        return self.clock() + timedelta(seconds=seconds)

    def timers(self, table: Table) -> GameTimers:
        """The table's timers: its club's (``/settings``), else the bot's settings."""
        return self.defaults.timers_of(table)

    # ------------------------------------------------------------------ a table's timers
    def schedule(self, table: Table, name: str, at: datetime, job: Job) -> None:
        """``job`` at ``at`` under the table's key ``name`` (the same name again: replaced)."""
        self.scheduler.arm(self.key(table, name), at, job)

    def cancel(self, table: Table, name: str) -> None:
        """The table's job ``name`` will not run (if it has not run yet)."""
        self.scheduler.disarm(self.key(table, name))

    def arm(self, table: Table) -> None:
        """The table's phase deadlines (``Table.deadlines``) on the scheduler; none while the
        game is paused or over."""
        if table.paused or not table.open:
            return
        now = self.clock()
        for name, at in table.deadlines.items():
            self.schedule(table, name, max(at, now),
                          partial(self._fire, table.game_id, name, table.moment))

    def disarm(self, table: Table) -> None:
        """Every phase deadline of the table off the scheduler."""
        for name in (NIGHT_DL, MAFIA_DL, TURN_DL, FATE_DL, CANCEL_DL):
            self.cancel(table, name)

    @staticmethod
    def key(table: Table, name: str) -> str:
        """The scheduler's key of the table's job ``name``."""
        return f"game{table.game_id}:{name}"

    # ------------------------------------------------------------------ a deadline is up
    async def _prompts_queued(self, table: Table) -> bool:
        """Whether one of the moment's prompts is still queued (not confirmed by Telegram)."""
        if not (self.notifier.sender.durable and table.memory.prompts):
            return False
        await self.steps.writes.settled(table.game_id)  # the prompts' rows are in the outbox
        sends = [(table.host_id if seat == 0 else table.chat_of(seat), ref)
                 for seat, ref in table.memory.prompts.items()]
        return bool(await self.db.outbox.undelivered(sends))

    def _waiting_for_prompts(self, table: Table, name: str, queued: bool) -> bool:
        """The time to choose counts from the moment the prompt arrives: while one of the
        moment's prompts is still ``queued`` (a busy evening, Telegram's limits), the
        deadline is looked at again every :data:`PROMPT_CHECK_SECONDS`; once every prompt has
        arrived the moment gets its whole length again. Not logged: after a restart the
        deadline in the log stands."""
        key = (table.game_id, name, table.moment)
        if queued:
            self._postponed.add(key)
            self.schedule(table, name, self.at(PROMPT_CHECK_SECONDS),
                          partial(self._fire, table.game_id, name, table.moment))
            return True
        if key in self._postponed:
            self._postponed.discard(key)
            table.deadlines[name] = self.at(self._length(table, name))
            self.arm(table)
            return True
        return False

    def _length(self, table: Table, name: str) -> float:
        timers = self.timers(table)
        return {NIGHT_DL: timers.night, MAFIA_DL: timers.mafia_agree, TURN_DL: timers.vote_turn,
                CANCEL_DL: timers.cancel, FATE_DL: timers.fate}[name]

    def _due(self, table: Table, name: str, moment: int) -> bool | None:
        """None: a stale job (another moment, over, paused); False: moved (/extend); True: up."""
        if not table.open or table.paused or moment != table.moment \
                or name not in table.deadlines:
            return None
        return table.deadlines[name] <= self.clock() + timedelta(seconds=0.001)

    async def _fire(self, game_id: int, name: str, moment: int) -> None:
        """A scheduler job: the same steps a host or a player would take."""
        table = self.tables.by_id.get(game_id)
        if table is None:
            return
        try:
            # The queue is read before the game's lock, so that the game's presses do not
            # wait for the read; if the prompts changed meanwhile it is read again under it.
            seen = dict(table.memory.prompts)
            looked = bool(self._due(table, name, moment))
            queued = looked and await self._prompts_queued(table)
            async with self.steps.lock(game_id):
                if (due := self._due(table, name, moment)) is None:
                    return
                if not due:
                    self.arm(table)  # moved by /extend: wait for the new time
                    return
                if not looked or table.memory.prompts != seen:
                    queued = await self._prompts_queued(table)
                if self._waiting_for_prompts(table, name, queued):
                    return
                then = self._time_up.get(name)
                if then is not None:
                    await then(table)
        except DatabaseUnavailable as exc:
            # the server restarting: nothing of the moment's step was written, and a deadline
            # dropped here would leave the table waiting for nobody: look again shortly
            log.warning("deadline %s of game %s: the database is unavailable (%s), looking"
                        " again in %s s", name, game_id, exc, UNAVAILABLE_RETRY_SECONDS)
            if self.tables.by_id.get(game_id) is table and table.open:
                self.schedule(table, name, self.at(UNAVAILABLE_RETRY_SECONDS),
                              partial(self._fire, game_id, name, moment))
        except Exception:
            log.exception("deadline %s of game %s failed", name, game_id)

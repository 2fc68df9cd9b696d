"""A game's step: the unit of work of a game (docs/game-flow.md). Under the game's lock
(:meth:`Steps.lock`) a step checks (:mod:`bot.game.guards`), records its log events and applies
them to the in-memory :class:`~record.table.Table` (:meth:`Steps.record`: the log first, then
the table), says what it says through the :class:`Notifier`, and hands all of it — with the
seats and the game's row it changed — to its ONE write (:mod:`bot.game.writes`) when the lock
is released; the step returns once that write is durable. A deadline's job runs the same
steps (:mod:`bot.game.timekeeper`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from bot.clock import Clock
from bot.game.guards import acting_seat, require_host
from bot.game.messages.notifier import Notifier
from bot.game.tables import Tables
from bot.game.writes import StepWriter
from bot.locks import KeyedLocks
from bot.logs import bind, unbind
from record.log_events import LogEvent, encode
from record.table import Result, SeatInfo, Table
from storage.db import Database
from storage.repos.games import GameChange

log = logging.getLogger("bot.game")

# what every step that went through ends with (the host's panel follows the table), told
# whether the step was the host's own (:meth:`Steps.by_host`)
AfterStep = Callable[[Table, bool], Awaitable[None]]


class Steps:
    """The games' steps, one at a time per game, over the running games (:class:`Tables`)."""

    def __init__(self, db: Database, tables: Tables, notifier: Notifier, writes: StepWriter,
                 clock: Clock, after_step: AfterStep | None = None) -> None:
        self.db = db
        self.tables = tables
        self.notifier = notifier
        self.writes = writes  # the steps' writes, one chain per game
        self.clock = clock
        self.after_step = after_step
        self.locks: KeyedLocks[int] = KeyedLocks()  # a game's steps, one at a time
        # a step's log events so far, written with its messages when the step ends
        self._events: dict[int, list[tuple[int, str, dict[str, Any], datetime | None]]] = {}
        # a step that changed the lobby's seats: its table and the seats before it
        self._seats: dict[int, tuple[Table, dict[int, SeatInfo]]] = {}
        self._changes: dict[int, GameChange] = {}  # game -> its row's change in this step
        self._by_host: set[int] = set()  # the games whose step under way is the host's own

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """One step of a game under its lock, written in one transaction after it and returning
        once durable (:mod:`bot.game.writes`); nothing is sent."""
        written: asyncio.Future[None] | None = None
        try:
            async with self.locks.hold(game_id):
                token = self.notifier.begin()
                self._events[game_id] = []
                table = self.tables.by_id.get(game_id)
                # every line the step logs names its game and club (a timer's too)
                logged = bind(game_id=game_id, **({"club": table.chat_id} if table else {}))
                try:
                    yield
                    if table is not None and self.after_step is not None:
                        try:
                            await self.after_step(table, game_id in self._by_host)
                        except Exception:  # the panel never undoes the step it follows
                            log.exception("after the step of game %s", table.game_id)
                    if table is not None and not table.open:
                        await self.notifier.close_topic(table)  # the step's last request
                finally:
                    try:
                        written = self._hand_over(game_id, table)
                    finally:
                        self._events.pop(game_id, None)
                        self._seats.pop(game_id, None)
                        self._changes.pop(game_id, None)
                        self._by_host.discard(game_id)
                        self.notifier.end(token)
                        unbind(logged)
        except BaseException:
            if written is not None:  # the step's own error is what its caller hears
                with contextlib.suppress(Exception):
                    await asyncio.shield(written)
            raise
        if written is not None:
            await asyncio.shield(written)

    @property
    def stepping(self) -> bool:
        """Whether a step of some game holds its lock now."""
        return self.locks.locked()

    def by_host(self, table: Table, user_id: int) -> None:
        """Inside a step of ``table`` (under its lock): only its host may take it
        (:func:`~bot.game.guards.require_host`), and the step is the host's own (a press, a
        command, the Mini App), which :attr:`after_step` is told: the host's panel is redrawn
        at once after it, not a throttle's gap later."""
        require_host(table, user_id)
        self._by_host.add(table.game_id)

    def pressing_seat(self, table: Table, user_id: int, for_seat: int | None) -> int:
        """Inside a step: the seat a press acts for (:func:`~bot.game.guards.acting_seat`);
        a press for an offline seat is the host's own step (:meth:`by_host`)."""
        seat = acting_seat(table, user_id, for_seat)
        if for_seat is not None:
            self.by_host(table, user_id)
        return seat

    async def record(self, table: Table, event: LogEvent) -> Result | None:
        """Apply the event and keep it for the log (written with the step's messages when the
        step ends; a step that fails to apply is never logged): the log is the truth."""
        kind, body = encode(event)
        events = self._events.get(table.game_id)
        if events is None:  # outside a step: on its own, after the steps' writes
            await self.writes.settled(table.game_id)
            seq = await self.db.games.append_event(table.game_id, kind, body, at=self.clock())
            return table.apply(event, seq)
        seq = table.seq + 1
        result = table.apply(event, seq)
        events.append((seq, kind, body, self.clock()))
        return result

    async def record_now(self, table: Table, event: LogEvent,
                         change: GameChange | None = None) -> Result | None:
        """Log one event at once with ``change`` and what the step has said so far, in one
        transaction, then apply it: for an event whose write is checked against what only
        the transaction reads (a fine against the balance, ``InsufficientBalance``). A refusal
        writes nothing, forgets what the step said and leaves the table as it was; the caller
        checks the event with the engine first, so its apply cannot fail once it is logged."""
        if self._events.get(table.game_id):
            raise RuntimeError("record_now must come before the step records anything else")
        seq = table.seq + 1
        kind, body = encode(event)
        await self.writes.write_now(table.game_id, [(seq, kind, body, self.clock())],
                                    self.notifier.take(), change)
        return table.apply(event, seq)

    def seats_changed(self, table: Table, before: dict[int, SeatInfo]) -> None:
        """``table.seats`` changed in this step (from ``before``): written with its commit."""
        self._seats.setdefault(table.game_id, (table, before))

    def change_row(self, table: Table, change: GameChange) -> None:
        """The game's row (roles, status...) changes with this step: written with its commit."""
        kept = self._changes.get(table.game_id)
        self._changes[table.game_id] = change if kept is None else kept.then(change)

    async def flush(self, table: Table) -> None:
        """Write this step so far and wait until it is durable (before the game's points)."""
        if table.game_id in self._events:
            written = self._hand_over(table.game_id, table)
            if written is not None:
                await asyncio.shield(written)
        await self.writes.settled(table.game_id)

    def _hand_over(self, game_id: int, table: Table | None) -> asyncio.Future[None] | None:
        """What the step recorded, said and changed so far goes to its write (queued)."""
        recorded = self._events.get(game_id)
        events = list(recorded or [])
        if recorded is not None:
            recorded.clear()
        messages = self.notifier.take()
        if table is not None:
            messages = self.notifier.placed(table, messages)
        return self.writes.queue(game_id, events, messages,
                                 self._seats.pop(game_id, None),
                                 self._changes.pop(game_id, None))

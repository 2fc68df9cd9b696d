"""A game step's write, after its lock: the log events it recorded, the messages it said and
the seats it changed go to storage in one transaction once the game's lock is released, in
the order of the steps. Steps of one game that end while the game's previous write is still
under way are written together, in one transaction.

Why: were a step to hold its game's lock until its write is committed, a table whose players
all press "I play" at once would queue one commit per press, one after the other, behind every
other game's. The lock covers the step's work in memory only; each step still returns (and its
press is answered) only once its write is durable.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.game.messages.senders import Sender
from record.table import SeatInfo, Table
from storage.backends import DatabaseUnavailable
from storage.db import Database
from storage.repos.games import GameChange, Seating
from storage.repos.outbox import EDIT, Queued

log = logging.getLogger(__name__)
UNAVAILABLE_TRIES = 60  # a step's write waits up to a minute for a restarting database
UNAVAILABLE_PAUSE = 1.0

LogRow = tuple[int, str, dict[str, Any], datetime | None]  # written: seq, kind, body, at


class StepLost(RuntimeError):
    """A game's earlier write failed: the later ones are not written (no gap in the log)."""


@dataclass(eq=False)
class _Write:
    events: list[LogRow] = field(default_factory=list)
    messages: list[Queued] = field(default_factory=list)
    edits: dict[tuple[int, str], int] = field(default_factory=dict)  # (chat, key) -> index
    seats: list[tuple[int, int]] | None = None
    # (table, seats before, seats after) of each step that changed them: undone if not written
    reseated: list[tuple[Table, dict[int, SeatInfo], dict[int, SeatInfo]]] = field(
        default_factory=list)
    change: GameChange | None = None  # the games row and roles, after the events
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())
    failed: bool = False


class StepWriter:
    """The writes of the games' steps, one chain per game."""

    def __init__(self, db: Database, sender: Callable[[], Sender]) -> None:
        self.db = db
        self._sender = sender
        self._open: dict[int, _Write] = {}  # a game's write not started yet: steps join it
        self._last: dict[int, tuple[_Write, asyncio.Task[None]]] = {}
        # a lobby's seats as this writer last wrote them (seat -> player): the next write
        # stores what changed since; not known (a restart, a failed write): all of them
        self._stored: dict[int, dict[int, int]] = {}

    def queue(self, game_id: int, events: list[LogRow], messages: list[Queued],
              seated: tuple[Table, dict[int, SeatInfo]] | None,
              change: GameChange | None = None) -> asyncio.Future[None] | None:
        """Queue a step's write; the future is done once it is durable (or failed)."""
        if not events and not messages and seated is None and change is None:
            return None
        write = self._open.get(game_id)
        if write is None:
            write = self._open[game_id] = _Write()
            write.done.add_done_callback(_retrieve)
            before = self._last.get(game_id)
            task = asyncio.get_running_loop().create_task(
                self._write(game_id, write, None if before is None else before[0]))
            self._last[game_id] = (write, task)
            task.add_done_callback(lambda _: self._forget(game_id, write))
        write.events += events
        for message in messages:
            _add(write, message)
        if change is not None:
            write.change = change if write.change is None else write.change.then(change)
        if seated is not None:
            table, before_seats = seated
            write.seats = [(s.seat, s.tg_id) for s in table.seats.values()]
            write.reseated.append((table, before_seats, table.seats))
        return write.done

    async def write_now(self, game_id: int, events: list[LogRow], messages: list[Queued],
                        change: GameChange | None) -> None:
        """Write a step's events, messages and ``change`` at once, in one transaction after
        the game's earlier writes, for a write whose refusal the step must hear before it goes
        on (a fine its player can no longer pay: ``InsufficientBalance``). The caller holds
        the game's lock, so nothing of the game is queued meanwhile; a refusal writes nothing
        and the game's later writes go on."""
        await self.settled(game_id)
        last = self._last.get(game_id)
        if last is not None and last[0].failed:
            raise StepLost(f"an earlier write of game {game_id} failed")
        sender = self._sender()
        new: list[int] = []
        for attempt in range(UNAVAILABLE_TRIES):
            try:
                new = await self.db.games.append_events_with_messages(
                    game_id, events, messages if sender.durable else [], now=time.time(),
                    change=change)
                break
            except DatabaseUnavailable:
                if attempt == UNAVAILABLE_TRIES - 1:
                    raise
                await asyncio.sleep(UNAVAILABLE_PAUSE)
        await sender.queued(messages, set(new))

    @property
    def idle(self) -> bool:
        """No write queued or under way."""
        return not self._last

    async def settled(self, game_id: int) -> None:
        """Wait until the game's writes queued so far are done (written or failed)."""
        last = self._last.get(game_id)
        if last is not None:
            await asyncio.wait([last[1]])

    async def drain(self) -> None:
        """Every queued write done (at shutdown, before storage closes)."""
        tasks = [task for _, task in self._last.values()]
        if tasks:
            await asyncio.wait(tasks)

    def _forget(self, game_id: int, write: _Write) -> None:
        last = self._last.get(game_id)
        if last is not None and last[0] is write:
            del self._last[game_id]

    async def _write(self, game_id: int, write: _Write, before: _Write | None) -> None:
        try:
            if before is not None:
                await asyncio.wait([before.done])
            # from here on, steps that end start the next write
            if self._open.get(game_id) is write:
                del self._open[game_id]
            if before is not None and before.failed:
                raise StepLost(f"an earlier write of game {game_id} failed")
            sender = self._sender()
            stored = self._stored.pop(game_id, None)  # known again once this write is durable
            seating = None if write.seats is None else _seating(write.seats, stored)
            new: list[int] = []
            for attempt in range(UNAVAILABLE_TRIES):
                try:
                    new = await self.db.games.append_events_with_messages(
                        game_id, write.events, write.messages if sender.durable else [],
                        now=time.time(), seats=seating, change=write.change)
                    break
                except DatabaseUnavailable:
                    # PostgreSQL restarting: nothing of the transaction was written; the
                    # step (and the press waiting for it) waits for the server to come back
                    if attempt == UNAVAILABLE_TRIES - 1:
                        raise
                    await asyncio.sleep(UNAVAILABLE_PAUSE)
            if write.change is None or write.change.status is None:  # dealt, over: forgotten
                written = stored if write.seats is None else dict(write.seats)
                if written is not None:
                    self._stored[game_id] = written
            await sender.queued(write.messages, set(new))
        except BaseException as exc:
            write.failed = True
            for table, seats_before, seats_after in reversed(write.reseated):
                if table.seats is seats_after:  # nothing changed them since: as they were
                    table.seats = seats_before
            # The table in memory is ahead of its log: rebuilt from the log at the next start.
            log.exception("cannot write a step of game %s", game_id)
            if not write.done.done():
                write.done.set_exception(
                    exc if isinstance(exc, Exception) else StepLost("write cancelled"))
            if not isinstance(exc, Exception):
                raise
        else:
            write.done.set_result(None)


def _seating(seats: list[tuple[int, int]], stored: dict[int, int] | None) -> Seating:
    """``seats`` with what of them ``stored`` (as last written) holds already: the seats from
    1 up to the first that differs."""
    if stored is None:
        return Seating(seats)
    kept = 0
    for seat, tg_id in sorted(seats):
        if seat != kept + 1 or stored.get(seat) != tg_id:
            break
        kept = seat
    return Seating(seats, kept=kept, stored=len(stored))


def _add(write: _Write, message: Queued) -> None:
    """A message joins the write; an edit of a message this write edits already takes the
    earlier edit's place (as it would take its pending row in the outbox): twelve joins
    written together edit the lobby's post once, with the last list."""
    if message.method == EDIT and message.key is not None:
        at = write.edits.get((message.chat_id, message.key))
        if at is not None:
            write.messages[at] = message
            return
        write.edits[(message.chat_id, message.key)] = len(write.messages)
    write.messages.append(message)


def _retrieve(done: asyncio.Future[None]) -> None:
    if not done.cancelled():
        done.exception()  # the step's caller re-raises it; this only marks it seen

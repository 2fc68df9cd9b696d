"""``db.write()``'s queue and its batch: every write queued when the writer comes free, in one
trip, each in its own savepoint, with one ``COMMIT``.

Ten tables' night starts arrive together; written one after another, each would wait for the
trips of all before it (docs/storage.md, "Writes and how they are serialized"). The holder of the
writer takes every queued write of the foreground lane (the games' steps), or when there is
none the background ones (the delivery's marks, a sweep): a batch never mixes the two, so a
background write never lengthens a foreground one's trip nor keeps its group open. Knows no
SQL dialect of its own: ``SAVEPOINT``, ``RELEASE``, ``ROLLBACK TO`` and ``COMMIT``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from storage.sql import Connection
from storage.txn.commit_group import retrieve

QUEUED, TAKEN, SAVED, UNDONE, RELEASED = range(5)


class QueuedWrite:
    """One ``db.write(body)``: its caller waits for ``outcome`` (the trip's result for it),
    then for its group's commit."""

    def __init__(self, body: Callable[[Connection], Awaitable[Any]], background: bool) -> None:
        self.body = body
        self.background = background
        self.state = QUEUED
        self.result: Any = None
        self.error: BaseException | None = None
        self.outcome: asyncio.Future[tuple[Any, Any]] = (
            asyncio.get_running_loop().create_future())
        self.outcome.add_done_callback(retrieve)  # a cancelled caller's, dropped

    def settle(self, group: object) -> None:
        """Tell the caller: its body's exception, or the group to wait for and its result."""
        if self.outcome.done():
            return
        if isinstance(self.error, asyncio.CancelledError):
            self.outcome.cancel()
        elif self.error is not None:
            self.outcome.set_exception(self.error)
        else:
            self.outcome.set_result((group, self.result))

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.settle(None)


class WriteQueue:
    """The writes waiting for the writer, a FIFO per lane."""

    def __init__(self) -> None:
        self._lanes: dict[bool, deque[QueuedWrite]] = {False: deque(), True: deque()}

    def add(self, step: QueuedWrite) -> None:
        self._lanes[step.background].append(step)

    def remove(self, step: QueuedWrite) -> bool:
        """Take back a write still queued (its caller was cancelled): False if a batch has
        it already."""
        lane = self._lanes[step.background]
        if step.state != QUEUED or step not in lane:
            return False
        lane.remove(step)
        return True

    def waiting(self, background: bool) -> bool:
        return bool(self._lanes[background])

    def empty(self) -> bool:
        return not self._lanes[False] and not self._lanes[True]

    def take(self, background: bool, cap: int) -> list[QueuedWrite]:
        """Up to ``cap`` foreground writes; a background holder takes background ones only
        when no foreground one waits."""
        lane = self._lanes[False]
        if not lane and background:
            lane = self._lanes[True]
        steps: list[QueuedWrite] = []
        while lane and len(steps) < cap:
            step = lane.popleft()
            if step.outcome.done():  # its caller was cancelled, not yet told
                continue
            step.state = TAKEN
            steps.append(step)
        return steps

    def drop(self, background: bool) -> list[QueuedWrite]:
        """Every write of a lane (its holder was stopped before its turn)."""
        steps = list(self._lanes[background])
        self._lanes[background].clear()
        return steps


class Batch:
    """One trip: the group's ``BEGIN`` if it opens one, each write in its savepoint, the
    ``COMMIT`` if nobody waited when it began. ``begun``, ``current`` and each step's state
    say how far it got (set as it runs, on the connection's thread). The ``COMMIT`` releases
    the last savepoint with the group."""

    def __init__(self, begin: tuple[str, ...], steps: list[QueuedWrite], commit: bool) -> None:
        self.begin = begin
        self.steps = steps
        self.commit = commit
        self.begun = False
        # the write the trip would stop in: until its RELEASE (or undo) is confirmed
        self.current: QueuedWrite | None = None
        self.committed = False

    async def run(self, conn: Connection) -> None:
        before = list(self.begin)  # sent with the next SAVEPOINT
        for step in self.steps:
            if self.current is None:
                self.current = step
            await self._send(conn, [*before, "SAVEPOINT step"])
            self.begun = True
            self._ended()
            self.current = step
            step.state = SAVED
            try:
                step.result = await step.body(conn)
                before = ["RELEASE step"]
            except Exception as exc:  # undoes only this write; the batch goes on
                step.error = exc
                before = ["ROLLBACK TO step", "RELEASE step"]
        last = self.current
        if not (self.commit and last is not None and last.error is None):
            await self._send(conn, before)
            self._ended()
        self.current = None
        if self.commit:
            await conn.execute("COMMIT")
            if last is not None and last.state == SAVED:
                last.state = RELEASED
            self.committed = True

    def _ended(self) -> None:
        """The current write's RELEASE (or its undo) went through."""
        step = self.current
        if step is not None and step.state == SAVED:
            step.state = RELEASED if step.error is None else UNDONE

    async def _send(self, conn: Connection, statements: list[str]) -> None:
        for statement in statements:
            await conn.execute(statement)

    def released(self) -> int:
        return sum(step.state == RELEASED for step in self.steps)

    def rest(self) -> list[QueuedWrite]:
        """The writes after the one the trip stopped in (never run)."""
        if self.current is None:
            return []
        return self.steps[self.steps.index(self.current) + 1:]

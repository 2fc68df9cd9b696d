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

    def add(self, write: QueuedWrite) -> None:
        self._lanes[write.background].append(write)

    def remove(self, write: QueuedWrite) -> bool:
        """Take back a write still queued (its caller was cancelled): False if a batch has
        it already."""
        lane = self._lanes[write.background]
        if write.state != QUEUED or write not in lane:
            return False
        lane.remove(write)
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
        writes: list[QueuedWrite] = []
        while lane and len(writes) < cap:
            write = lane.popleft()
            if write.outcome.done():  # its caller was cancelled, not yet told
                continue
            write.state = TAKEN
            writes.append(write)
        return writes

    def drop(self, background: bool) -> list[QueuedWrite]:
        """Every write of a lane (its holder was stopped before its turn)."""
        writes = list(self._lanes[background])
        self._lanes[background].clear()
        return writes


class Batch:
    """One trip: the group's ``BEGIN`` if it opens one, each write in its savepoint, the
    ``COMMIT`` if nobody waited when it began. ``begun``, ``current`` and each write's state
    say how far it got (set as it runs, on the connection's thread). The ``COMMIT`` releases
    the last savepoint with the group."""

    def __init__(self, begin: tuple[str, ...], writes: list[QueuedWrite], commit: bool) -> None:
        self.begin = begin
        self.writes = writes
        self.commit = commit
        self.begun = False
        # the write the trip would stop in: until its RELEASE (or undo) is confirmed
        self.current: QueuedWrite | None = None
        self.committed = False

    async def run(self, conn: Connection) -> None:
        before = list(self.begin)  # sent with the next SAVEPOINT
        for write in self.writes:
            if self.current is None:
                self.current = write
            await self._send(conn, [*before, "SAVEPOINT one_write"])
            self.begun = True
            self._ended()
            self.current = write
            write.state = SAVED
            try:
                write.result = await write.body(conn)
                before = ["RELEASE one_write"]
            except Exception as exc:  # undoes only this write; the batch goes on
                write.error = exc
                before = ["ROLLBACK TO one_write", "RELEASE one_write"]
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
        write = self.current
        if write is not None and write.state == SAVED:
            write.state = RELEASED if write.error is None else UNDONE

    async def _send(self, conn: Connection, statements: list[str]) -> None:
        for statement in statements:
            await conn.execute(statement)

    def released(self) -> int:
        return sum(write.state == RELEASED for write in self.writes)

    def rest(self) -> list[QueuedWrite]:
        """The writes after the one the trip stopped in (never run)."""
        if self.current is None:
            return []
        return self.writes[self.writes.index(self.current) + 1:]

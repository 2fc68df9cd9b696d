"""Snapshot reads on the backend's reading connection, apart from the writer.

One consistent snapshot of what was committed, never another coroutine's uncommitted rows, and
no wait behind a write's ``fsync``. The connection's lock has two lanes
(:class:`storage.txn.writer_lock.LaneLock`): the delivery's reads of its queues (``background``)
wait until no game's, middleware's or handler's read is queued (docs/storage.md, "Writes and
how they are serialized").
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from storage.backends import Backend
from storage.sql import Connection, Row
from storage.txn.writer_lock import LaneLock

T = TypeVar("T")


class Reader:
    """``read()``, ``query()`` and ``snapshot()`` on ``backend.reader``; ``holder``: the task
    inside a ``read()`` or ``snapshot()`` now (a storage call from it would deadlock)."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._conn = backend.reader
        self.lock = LaneLock()
        self.holder: asyncio.Task[object] | None = None

    @asynccontextmanager
    async def read(self, *, background: bool = False) -> AsyncIterator[Connection]:
        async with self.lock.lane(background=background):
            self.holder = asyncio.current_task()
            try:
                await self._conn.execute(self._backend.begin_read)
                yield self._conn
            finally:
                self.holder = None
                await self._backend.end(self._conn)

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        async with self.lock.lane(background=background):
            return list(await self._conn.execute_fetchall(sql, params))

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        async def within(conn: Connection) -> T:
            await conn.execute(self._backend.begin_read)
            try:
                return await body(conn)
            finally:
                await conn.execute("ROLLBACK")

        async with self.lock.lane(background=background):
            self.holder = asyncio.current_task()
            try:
                return await self._backend.in_one_trip(self._conn, within)
            except BaseException:
                # a cancel, or the BEGIN or ROLLBACK failed
                await self._backend.end(self._conn)
                raise
            finally:
                self.holder = None

"""Transactions on a pool of PostgreSQL connections, side by side.

Each transaction and read takes a connection of its own: the writes of different clubs, and of
different processes, run at once. Nothing here serializes them; a write whose check and change
must see the same rows takes its own lock in its first statements (row locks in key order,
advisory locks per kind: :mod:`storage.sql`), one line per kind of write in docs/storage.md.
A deadlock or a serialization failure the server reports rolls the transaction back whole:
``write()`` runs its body again; ``transaction()`` raises :class:`WriteConflict`, which is a
:class:`DatabaseUnavailable` (nothing written, the same call may succeed in a moment).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import asyncpg

from storage.backends import DatabaseUnavailable
from storage.backends.postgres import PgBackend, PgConnection
from storage.sql import Connection, Row

T = TypeVar("T")

WRITE_ATTEMPTS = 6  # a write() rolled back by a deadlock or a serialization failure, retried
_CONFLICTS: tuple[type[BaseException], ...] = (
    asyncpg.DeadlockDetectedError, asyncpg.SerializationError)


class WriteConflict(DatabaseUnavailable):
    """The server rolled the transaction back to break a deadlock or a serialization conflict
    with another one: nothing of it was written; the same call may succeed at once."""


class PoolTransactions:
    """``transaction()``, ``write()``, ``read()``, ``query()`` and ``snapshot()`` on the
    backend's pool. ``background`` work (the delivery's marks and reads, a sweep) holds at most
    half the pool, so a game's step always finds a connection."""

    def __init__(self, backend: PgBackend) -> None:
        self._backend = backend
        self._background = asyncio.Semaphore(max(1, backend.size // 2))
        self._inside: set[asyncio.Task[Any]] = set()  # tasks in a transaction or read now

    @asynccontextmanager
    async def _lane(self, background: bool) -> AsyncIterator[None]:
        if not background:
            yield
            return
        async with self._background:
            yield

    def _refuse_inside(self) -> asyncio.Task[Any] | None:
        """As the SQLite writer does: a storage call from inside this task's own transaction
        would run on another connection and miss the transaction's rows."""
        task = asyncio.current_task()
        if task is not None and task in self._inside:
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock or miss the transaction's rows; use the yielded connection instead"
            )
        return task

    @asynccontextmanager
    async def _connection(self, background: bool, begin: str) -> AsyncIterator[PgConnection]:
        """A connection of the pool with ``begin`` run on it. A connection the server dropped
        while it sat in the pool (a restart) fails its ``BEGIN``, before anything is written:
        the next one is tried."""
        async with self._lane(background):
            conn: PgConnection | None = None
            for attempt in range(self._backend.size + 1):
                conn = PgConnection(await self._backend.acquire())
                try:
                    await conn.execute(begin)
                    break
                except DatabaseUnavailable:
                    await seen_through(self._backend.release(conn))
                    if attempt == self._backend.size:
                        raise
                except BaseException:  # a cancel: the connection goes back, nothing open
                    await seen_through(self._backend.end(conn))
                    await seen_through(self._backend.release(conn))
                    raise
            assert conn is not None
            try:
                yield conn
            finally:
                await seen_through(self._backend.release(conn))

    @asynccontextmanager
    async def transaction(self, *, background: bool = False) -> AsyncIterator[Connection]:
        """A write transaction, committed when the block ends without an exception (the call
        returns once it is), rolled back on any exception (a cancel included)."""
        task = self._refuse_inside()
        try:
            async with self._connection(background, "BEGIN") as conn:
                if task is not None:
                    self._inside.add(task)
                try:
                    yield cast(Connection, conn)
                except BaseException:
                    await seen_through(self._backend.end(conn))
                    raise
                finally:
                    self._inside.discard(cast(asyncio.Task[Any], task))
                try:
                    await seen_through(conn.execute("COMMIT"))
                except asyncio.CancelledError:
                    raise
                except BaseException:
                    await seen_through(self._backend.end(conn))
                    raise
        except _CONFLICTS as exc:
            raise WriteConflict(f"rolled back by the server: {exc}") from exc

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T:
        """A transaction whose statements are ``body(conn)``; returns what ``body`` returns,
        once committed. Rolled back by a deadlock or a serialization failure, it is run again
        (a few times, each after a short random wait)."""
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                async with self.transaction(background=background) as conn:
                    return await body(conn)
            except WriteConflict:
                if attempt == WRITE_ATTEMPTS:
                    raise
                await asyncio.sleep(random.uniform(0, 0.005 * attempt))
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def read(self, *, background: bool = False) -> AsyncIterator[Connection]:
        """A read-only snapshot of what was committed."""
        task = self._refuse_inside()
        async with self._connection(background, self._backend.begin_read) as conn:
            if task is not None:
                self._inside.add(task)
            try:
                yield cast(Connection, conn)
            finally:
                self._inside.discard(cast(asyncio.Task[Any], task))
                await seen_through(self._backend.end(conn))

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        """One statement, its own snapshot (no BEGIN): a read, so one the server dropped
        (a connection lost while it sat in the pool) is sent again on the next one."""
        self._refuse_inside()
        async with self._lane(background):
            for attempt in range(self._backend.size + 1):
                conn = PgConnection(await self._backend.acquire())
                try:
                    return list(await conn.execute_fetchall(sql, params))
                except DatabaseUnavailable:
                    if attempt == self._backend.size:
                        raise
                finally:
                    await seen_through(self._backend.release(conn))
        raise AssertionError("unreachable")

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        async with self.read(background=background) as conn:
            return await body(conn)

    async def set_cache(self, kib: int | None) -> None:
        return None  # the server's shared_buffers, not a connection's

    async def schema_version(self) -> int:
        return await self._backend.schema_version()

    async def backup(self, out: Path) -> Path:
        return await self._backend.backup(out)

    async def close(self) -> None:
        await self._backend.close()


async def seen_through(work: Awaitable[Any]) -> Any:
    """``work`` seen through even if the caller is cancelled meanwhile (a COMMIT, a ROLLBACK,
    a connection going back to the pool), the cancel raised after it — also when it comes in
    the very turn the work ends."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise  # the work itself was cancelled
            cancelled = True
        except BaseException:
            break
    if cancelled:
        with contextlib.suppress(BaseException):
            task.result()
        raise asyncio.CancelledError
    return task.result()

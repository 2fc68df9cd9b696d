"""Serialized, group-committed write transactions and snapshot reads over one backend.

Knows no SQL dialect: the statements it runs (SAVEPOINT, RELEASE, ROLLBACK TO, COMMIT) mean the
same on SQLite and PostgreSQL; how a group begins is the backend's (``begin_write``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from storage.backends import Backend, DatabaseUnavailable
from storage.sql import Connection, Row
from storage.writer_lock import LaneLock, WriterLock

T = TypeVar("T")

GROUP_MAX = 64  # transactions committed together at most: a busy writer still commits often
# seconds: a group older than this commits at the end of its current transaction even with
# writers waiting. The first of a group waits for every later one's statements before the
# COMMIT: under a steady queue (ten tables' steps) that was the whole queue (0.2-1.2 s in the
# load benchmark), where one more fsync costs about a millisecond.
GROUP_MAX_S = 0.025


class Transactions:
    """Writes go through one connection guarded by an :class:`asyncio.Lock` (``transaction()``),
    committed in groups: while other writers wait for the lock, a finished transaction is
    released as a savepoint of one open transaction, and the last of the group commits it
    for all (one ``fsync`` for many writers). Each ``transaction()`` returns only once its
    rows are committed, or raises. Reads (``read()``) go through a second, read-only
    connection with its own lock: one consistent snapshot of what was committed, never another
    coroutine's uncommitted rows, and no wait behind a write's ``fsync``. Other processes wait
    for the write lock the backend takes when a group begins.
    """

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._conn = backend.writer
        self._lock = WriterLock()
        self._holder: asyncio.Task[object] | None = None
        self._group: _Group | None = None  # the open transaction of the current group
        self.group_max_s: float | None = GROUP_MAX_S  # None: no age limit (size and queue only)
        self._writers = 0  # transactions waiting for the lock
        self._flushes: set[asyncio.Task[None]] = set()
        self._reader = backend.reader
        # two lanes: the delivery's reads of its queues (background) wait for the games' reads
        self._read_lock = LaneLock() if self._reader is not self._conn else self._lock
        self._read_holder: asyncio.Task[object] | None = None
        self._closed = False

    async def close(self) -> None:
        async with self._exclusive():
            if not self._closed:
                self._closed = True
                async with self._read_lock if self._reader is not self._conn else _nothing():
                    await self._backend.close()

    @asynccontextmanager
    async def _locked(self, background: bool = False) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock; use the yielded connection instead"
            )
        await self._lock.acquire(background=background)
        try:
            self._holder = task
            yield
        finally:
            self._holder = None
            self._lock.release()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        """The writing connection with no transaction open (an open group committed first)."""
        async with self._locked():
            await self._commit_group()
            yield

    @asynccontextmanager
    async def _writer(self, background: bool) -> AsyncIterator[None]:
        """The writer held, counted in ``_writers`` while queued for it (a group stays open
        while writers wait); a writer cancelled in the queue may have been left the group:
        it is committed later."""
        self._writers += 1
        waiting = True
        try:
            async with self._locked(background):
                self._writers -= 1
                waiting = False
                yield
        finally:
            if waiting:
                self._writers -= 1
                self._commit_later()

    @asynccontextmanager
    async def transaction(self, *, background: bool = False) -> AsyncIterator[Connection]:
        """A write transaction: its rows are committed when the block ends without an
        exception (the call returns once they are durable), rolled back on any exception
        (incl. cancel). Another transaction's failure never undoes it; a failed commit
        raises in every transaction of its group. ``background``: nobody waits to see it
        (the delivery's marks, a sweep): it waits for the writer until no other transaction
        is queued (:mod:`storage.writer_lock`).

        Not re-entrant: inside it, use the yielded connection, not the repositories.
        """
        conn = self._conn
        async with self._writer(background):
            group = await self._join_group()
            try:
                await conn.execute("SAVEPOINT step")
                yield conn
                await conn.execute("RELEASE step")
                group.size += 1
            except BaseException:
                await self._undo_step(group)
                raise
            finally:
                if self._group is group and (self._writers == 0
                                             or group.size >= GROUP_MAX
                                             or self._too_old(group)):
                    await self._commit_group()
        await group.durable()

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T:
        """A write transaction as :meth:`transaction` whose statements are ``body(conn)``,
        sent in one trip where the backend can (SQLite: run on the connection's thread, so
        ``body`` awaits nothing but ``conn``), with the group's ``BEGIN`` when it opens one
        and its ``COMMIT`` when no other writer waits; returns what ``body`` returns, once
        durable. Rolled back on any exception of ``body``; a write cancelled while its trip
        runs keeps what the trip did (committed with its group) and raises the cancel."""
        async with self._writer(background):
            group, result, cancelled = await self._trip(body)
        if cancelled:
            raise asyncio.CancelledError
        await group.durable()
        return result

    async def _trip(self, body: Callable[[Connection], Awaitable[T]]
                    ) -> tuple[_Group, T, bool]:
        """The write's one trip (the lock held); then what is left of the group's rules."""
        conn = self._conn
        group = self._group
        begin: tuple[str, ...] = ()
        if group is None:
            await self._backend.ready(conn)
            group, begin = _Group(), self._backend.begin_write
        commit = self._writers == 0 or group.size + 1 >= GROUP_MAX or self._too_old(group)
        plan = _Plan(begin, commit)
        error: BaseException | None = None
        cancelled = False
        result: Any = None
        try:
            result = await self._backend.in_one_trip(conn, partial(_planned, plan, body))
        except asyncio.CancelledError:
            cancelled = True
            await self._settle(conn)  # what the trip did is done; plan says how far it got
        except Exception as exc:
            error = exc
        if plan.reached == _NOTHING and begin:  # the group's BEGIN failed
            await self._backend.end(conn)
            raise error if error is not None else asyncio.CancelledError()
        if begin:
            self._group = group
        if plan.reached == _COMMITTED:
            self._group = None
            group.size += 1
            group.succeed()
        elif plan.reached == _RELEASED and error is None:
            group.size += 1
        elif plan.reached == _RELEASED:  # its COMMIT failed: the whole group with it
            self._group = None
            group.fail(error if isinstance(error, Exception) else RuntimeError(error))
            await self._backend.end(conn)
        elif plan.reached != _NOTHING:  # the body (or its savepoint) failed: only it undone
            await self._undo_step(group)
        if self._group is group and (self._writers == 0 or group.size >= GROUP_MAX
                                     or self._too_old(group)):
            await self._commit_group()
        if error is not None:
            raise error
        return group, result, cancelled

    async def _settle(self, conn: Connection) -> None:
        settled = asyncio.ensure_future(self._backend.settle(conn))
        while not settled.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(settled)

    def _too_old(self, group: _Group) -> bool:
        return self.group_max_s is not None and group.age() >= self.group_max_s

    async def _join_group(self) -> _Group:
        if self._group is None:
            await self._backend.ready(self._conn)
            try:
                for statement in self._backend.begin_write:
                    await self._conn.execute(statement)
            except BaseException:
                await self._backend.end(self._conn)
                raise
            self._group = _Group()
        return self._group

    async def _undo_step(self, group: _Group) -> None:
        """Roll back one transaction of the group; if the database rolled back the whole group
        (an I/O error, a full disk, a lost connection), the others fail too."""
        try:
            await self._conn.execute("ROLLBACK TO step")
            await self._conn.execute("RELEASE step")
        except BaseException as exc:
            # the caller's own exception goes on; the group's others learn why they failed
            if self._group is group:
                self._group = None
                lost: Exception = GroupRolledBack(
                    "rolled back with another transaction of its group")
                if isinstance(exc, DatabaseUnavailable):  # the server went away: retry later
                    lost = DatabaseUnavailable(str(exc))
                lost.__cause__ = exc
                group.fail(lost)
            await self._backend.end(self._conn)

    async def _commit_group(self) -> None:
        """COMMIT the open group (the lock held), seeing the statement through even if this
        task is cancelled meanwhile: the group's other transactions wait for its outcome."""
        group = self._group
        if group is None:
            return
        self._group = None
        commit = asyncio.ensure_future(_run(self._conn, "COMMIT"))
        cancelled = False
        while not commit.done():
            try:
                await asyncio.shield(commit)
            except asyncio.CancelledError:
                cancelled = True
            except Exception:
                break
        exc = commit.exception()
        if exc is None:
            group.succeed()
        else:
            group.fail(exc)
            await self._backend.end(self._conn)
        if cancelled:
            raise asyncio.CancelledError

    def _commit_later(self) -> None:
        if self._group is None or self._writers:
            return
        task = asyncio.get_running_loop().create_task(self._flush())
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _flush(self) -> None:
        async with self._exclusive():
            pass

    @asynccontextmanager
    async def read(self, *, background: bool = False) -> AsyncIterator[Connection]:
        """A read-only snapshot on the reading connection. ``background``: nobody waits to see
        it (the delivery): it waits for the reading connection until no other read is queued
        (:mod:`storage.writer_lock`; ignored where one connection both reads and writes)."""
        if self._reader is self._conn:
            async with self._exclusive():
                try:
                    await self._conn.execute(self._backend.begin_read)
                    yield self._conn
                finally:
                    await self._backend.end(self._conn)
            return
        self._refuse_read_inside()
        async with self._read_lock.lane(background=background):
            self._read_holder = asyncio.current_task()
            try:
                await self._backend.ready(self._reader)
                await self._reader.execute(self._backend.begin_read)
                yield self._reader
            finally:
                self._read_holder = None
                await self._backend.end(self._reader)

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        """One SELECT on the reading connection, in one trip (no BEGIN/ROLLBACK: a single
        statement is its own snapshot). The hot reads (an account, a club, a chat's queue)
        use it: under load every trip to a thread waits for a turn of the busy loop.
        ``background``: as :meth:`read`'s (the delivery's reads of its queues)."""
        self._refuse_read_inside()
        if self._reader is self._conn:
            async with self._exclusive():
                return list(await self._conn.execute_fetchall(sql, params))
        async with self._read_lock.lane(background=background):
            await self._backend.ready(self._reader)
            return list(await self._reader.execute_fetchall(sql, params))

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        """A read-only snapshot as :meth:`read` whose statements are ``body(conn)``, sent in one
        trip where the backend can (SQLite: its ``BEGIN``, the body's statements and the
        ``ROLLBACK`` run on the reading connection's thread at once, so ``body`` awaits nothing
        but ``conn``). :meth:`read` takes a trip to the thread and back per statement, each
        waiting for a turn of a busy loop, and every other read queues behind it meanwhile.
        ``background``: as :meth:`read`'s."""
        async def within(conn: Connection) -> T:
            await conn.execute(self._backend.begin_read)
            try:
                return await body(conn)
            finally:
                await conn.execute("ROLLBACK")

        self._refuse_read_inside()
        if self._reader is self._conn:
            async with self.read() as conn:
                return await body(conn)
        async with self._read_lock.lane(background=background):
            self._read_holder = asyncio.current_task()
            try:
                await self._backend.ready(self._reader)
                return await self._backend.in_one_trip(self._reader, within)
            except BaseException:
                # a cancel (PostgreSQL: mid-way), or the BEGIN or ROLLBACK failed
                await self._backend.end(self._reader)
                raise
            finally:
                self._read_holder = None

    def _refuse_read_inside(self) -> None:
        """A read from inside this task's own transaction or read would deadlock on the lock
        or miss the transaction's rows."""
        task = asyncio.current_task()
        if task is not None and task in (self._read_holder, self._holder):
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock or miss the transaction's rows; use the yielded connection instead"
            )

    async def set_cache(self, kib: int | None) -> None:
        """The writing connection's page cache in KiB (None: the default; SQLite only)."""
        async with self._exclusive():
            await self._backend.set_cache(kib)

    async def schema_version(self) -> int:
        async with self._exclusive():
            return await self._backend.schema_version()


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield


async def _run(conn: Connection, sql: str) -> None:
    await conn.execute(sql)


_NOTHING, _BEGUN, _SAVED, _RELEASED, _COMMITTED = range(5)


@dataclass
class _Plan:
    """A write's trip: the group's BEGIN if it opens one, the step in its savepoint, the
    COMMIT if nobody waited when it began; ``reached``: how far it got (set as it runs, on
    the connection's thread)."""

    begin: tuple[str, ...]
    commit: bool
    reached: int = _NOTHING


async def _planned(plan: _Plan, body: Callable[[Connection], Awaitable[T]],
                   conn: Connection) -> T:
    for statement in plan.begin:
        await conn.execute(statement)
    plan.reached = _BEGUN
    await conn.execute("SAVEPOINT step")
    plan.reached = _SAVED
    result = await body(conn)
    await conn.execute("RELEASE step")
    plan.reached = _RELEASED
    if plan.commit:
        await conn.execute("COMMIT")
        plan.reached = _COMMITTED
    return result


class GroupRolledBack(sqlite3.OperationalError):
    """A transaction lost because the database rolled back the whole group it was committed
    with (an ``sqlite3.OperationalError`` for the callers written against SQLite)."""


class _Group:
    """Transactions committed by one COMMIT; each waits for its outcome."""

    def __init__(self) -> None:
        self.size = 0
        loop = asyncio.get_running_loop()
        self._clock = loop.time
        self.started = loop.time()
        self._done: asyncio.Future[None] = loop.create_future()
        self._done.add_done_callback(_retrieve)

    def age(self) -> float:
        return self._clock() - self.started

    def succeed(self) -> None:
        if not self._done.done():
            self._done.set_result(None)

    def fail(self, exc: BaseException) -> None:
        if not self._done.done():
            self._done.set_exception(exc)

    async def durable(self) -> None:
        # shielded: one waiter cancelled does not cancel the outcome the others wait for
        await asyncio.shield(self._done)


def _retrieve(done: asyncio.Future[None]) -> None:
    if not done.cancelled():
        done.exception()  # each waiter re-raises it; this only marks it seen

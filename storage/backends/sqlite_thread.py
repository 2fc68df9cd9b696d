"""A SQLite connection on a thread of its own, with a whole write in one trip to it.

``sqlite3`` blocks, so each connection lives on one worker thread and the event loop hands it
work: :meth:`SqliteConnection.run` runs a function on that thread, in order with everything
else queued for it. A statement awaited alone is one such trip; under load every trip waits for
a turn of a busy loop, so a step of ten statements would hold the one writing connection for
ten turns. :func:`run_in_one_trip` runs a repository's ``async def body(conn)`` — the same code
the other backends run — on the thread at once: the :class:`Connection` it gets executes each
statement right there, so the coroutine never suspends and is driven to its end without the
loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

from storage.sql import Connection, Row

T = TypeVar("T")


ThreadCall = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]


def _serve(jobs: queue.SimpleQueue[ThreadCall | None]) -> None:
    """The connection's thread: each job in turn, its outcome handed back to its loop."""
    while (job := jobs.get()) is not None:
        loop, future, fn = job
        try:
            result, error = fn(), None
        except BaseException as e:  # handed to the caller, who raises it
            result, error = None, e
        # its loop closed meanwhile: nobody waits for the outcome, and the thread serves on
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # its caller was cancelled: the job ran all the same
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SqliteConnection:
    """The :class:`storage.sql.Connection` calls over one ``sqlite3`` connection, each run on
    the connection's own thread. Work handed to the thread runs even when its caller is
    cancelled meanwhile: a ``BEGIN`` or ``COMMIT`` whose await was cancelled still happens,
    before whatever is queued after it (``SqliteBackend.end`` relies on that)."""

    concurrent = False  # one writer: nothing runs beside a write transaction

    def __init__(self, raw: sqlite3.Connection, jobs: queue.SimpleQueue[ThreadCall | None]) -> None:
        self.raw = raw
        self.jobs = jobs
        self.closed = False
        # dropped without close(): its thread ends too instead of waiting for jobs forever
        self.stop = weakref.finalize(self, jobs.put, None)

    @classmethod
    async def connect(cls, path: Path, *, busy_wait: float) -> SqliteConnection:
        """``busy_wait``: the seconds a statement waits for another process's write lock."""
        jobs: queue.SimpleQueue[ThreadCall | None] = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name="sqlite", daemon=True).start()

        def open_() -> sqlite3.Connection:
            raw = sqlite3.connect(path, isolation_level=None, timeout=busy_wait,
                                  check_same_thread=False)  # the loop reads in_transaction
            raw.row_factory = sqlite3.Row
            return raw

        try:
            raw = await _call(jobs, open_)
        except BaseException:
            jobs.put(None)
            raise
        return cls(raw, jobs)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(raw)`` on the connection's thread, after what was queued before it."""
        if self.closed:
            raise ValueError("the database is closed")
        raw = self.raw
        return await _call(self.jobs, lambda: fn(raw))

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> _Result:
        return _Result(self, lambda raw: raw.execute(sql, _params(parameters)))

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _Result:
        return _Result(self, lambda raw: raw.executemany(sql, cast(Any, parameters)))

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> Iterable[Row]:
        return cast(Iterable[Row], await self.run(
            lambda raw: raw.execute(sql, _params(parameters)).fetchall()))

    async def set_trace_callback(self, callback: Callable[[str], object] | None) -> None:
        await self.run(lambda raw: raw.set_trace_callback(callback))

    async def backup(self, target: sqlite3.Connection) -> None:
        await self.run(lambda raw: raw.backup(target, pages=-1))

    async def close(self) -> None:
        if self.closed:
            return
        try:
            await self.run(lambda raw: raw.close())
        finally:
            self.closed = True
            self.stop()


async def _call(jobs: queue.SimpleQueue[ThreadCall | None], fn: Callable[[], T]) -> T:
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    jobs.put((asyncio.get_running_loop(), future, fn))
    return await future


class _Cursor:
    """A cursor whose rows are fetched on the connection's thread."""

    def __init__(self, conn: SqliteConnection, cursor: sqlite3.Cursor) -> None:
        self.conn = conn
        self.cursor = cursor

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount

    async def fetchone(self) -> Row | None:
        return cast(Row | None, await self.conn.run(lambda _: self.cursor.fetchone()))

    async def fetchall(self) -> Iterable[Row]:
        return cast(Iterable[Row], await self.conn.run(lambda _: self.cursor.fetchall()))

    async def close(self) -> None:
        await self.conn.run(lambda _: self.cursor.close())


class _Result:
    """A statement sent to the thread when awaited or entered; either gives its cursor."""

    def __init__(self, conn: SqliteConnection,
                 run: Callable[[sqlite3.Connection], sqlite3.Cursor]) -> None:
        self.conn = conn
        self.statement = run
        self.cursor: _Cursor | None = None

    async def _go(self) -> _Cursor:
        self.cursor = _Cursor(self.conn, await self.conn.run(self.statement))
        return self.cursor

    def __await__(self) -> Generator[Any, None, _Cursor]:
        return self._go().__await__()

    async def __aenter__(self) -> _Cursor:
        return await self._go()

    async def __aexit__(self, *exc: object) -> None:
        if self.cursor is not None:
            await self.cursor.close()


class NotOneTrip(RuntimeError):
    """The body awaited something other than its connection (it cannot run on the thread)."""


async def run_in_one_trip(conn: SqliteConnection,
                          body: Callable[[Connection], Awaitable[T]]) -> T:
    """``body`` run on ``conn``'s thread, in order with its other statements."""
    return await conn.run(lambda raw: drive(body(cast(Connection, _HereConnection(raw)))))


SUSPENSIONS_MAX = 1000  # a body that catches NotOneTrip and suspends again, and again


def drive(awaitable: Awaitable[T]) -> T:
    """Run a coroutine that never suspends to its end. Where it does suspend (a body awaits
    something other than its connection), :class:`NotOneTrip` is raised there, inside it: a
    batch's other writes go on, only that body fails (and is rolled back to its savepoint)."""
    coro = cast(Coroutine[Any, Any, T], awaitable)
    try:
        coro.send(None)
        for _ in range(SUSPENSIONS_MAX):
            coro.throw(NotOneTrip(
                "a one-trip write awaited something other than its connection"))
    except StopIteration as done:
        return cast(T, done.value)
    coro.close()
    raise NotOneTrip("a one-trip write kept awaiting something other than its connection")


class _HereCursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.cursor = cursor

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount

    async def fetchone(self) -> Row | None:
        return cast(Row | None, self.cursor.fetchone())

    async def fetchall(self) -> Iterable[Row]:
        return cast(Iterable[Row], self.cursor.fetchall())


class _HereResult:
    """A statement run when awaited or entered, here and now (on the connection's thread)."""

    def __init__(self, run: Callable[[], sqlite3.Cursor]) -> None:
        self.statement = run
        self.cursor: _HereCursor | None = None

    def _go(self) -> _HereCursor:
        self.cursor = _HereCursor(self.statement())
        return self.cursor

    def __await__(self) -> Generator[Any, None, _HereCursor]:
        return self._now()

    def _now(self) -> Generator[Any, None, _HereCursor]:
        return self._go()
        yield  # a generator that never yields: the await completes at once

    async def __aenter__(self) -> _HereCursor:
        return self._go()

    async def __aexit__(self, *exc: object) -> None:
        if self.cursor is not None:
            self.cursor.cursor.close()


class _HereConnection:
    """The :class:`storage.sql.Connection` calls over the raw connection, on its thread."""

    concurrent = False

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> _HereResult:
        return _HereResult(lambda: self.raw.execute(sql, _params(parameters)))

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _HereResult:
        return _HereResult(lambda: self.raw.executemany(sql, cast(Any, parameters)))

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> Iterable[Row]:
        return cast(Iterable[Row], self.raw.execute(sql, _params(parameters)).fetchall())


def _params(parameters: Iterable[Any] | None) -> Any:
    return [] if parameters is None else parameters

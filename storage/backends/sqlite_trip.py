"""A whole write in one trip to aiosqlite's thread.

aiosqlite runs each statement on its connection's thread and hands the result back through the
event loop: under load every ``await conn.execute(...)`` waits for a turn of a busy loop, so a
step of ten statements held the one writing connection for ten turns (40-70 ms in the load
benchmark, with ten tables' steps queued behind it). :func:`run_in_one_trip` runs a repository's
``async def body(conn)`` — the same code the other backends run — on that thread at once: the
:class:`Connection` it gets executes each statement right there, so the coroutine never
suspends and is driven to its end without the loop.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from typing import Any, TypeVar, cast

import aiosqlite

from storage.sql import Connection, Row

T = TypeVar("T")


class NotOneTrip(RuntimeError):
    """The body awaited something other than its connection (it cannot run on the thread)."""


async def run_in_one_trip(conn: aiosqlite.Connection,
                          body: Callable[[Connection], Awaitable[T]]) -> T:
    """``body`` run on ``conn``'s thread, in order with its other statements."""
    def run() -> T:
        raw = cast(sqlite3.Connection, cast(Any, conn)._conn)
        return drive(body(cast(Connection, _ThreadConnection(raw))))

    # aiosqlite's own way onto its thread (queued in order with every other statement)
    return cast(T, await cast(Any, conn)._execute(run))


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


class _Cursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    async def fetchone(self) -> Row | None:
        return cast(Row | None, self._cursor.fetchone())

    async def fetchall(self) -> Iterable[Row]:
        return cast(Iterable[Row], self._cursor.fetchall())


class _Result:
    """A statement run when awaited or entered (as aiosqlite's), here and now."""

    def __init__(self, run: Callable[[], sqlite3.Cursor]) -> None:
        self._run = run
        self._cursor: _Cursor | None = None

    def _go(self) -> _Cursor:
        self._cursor = _Cursor(self._run())
        return self._cursor

    def __await__(self) -> Generator[Any, None, _Cursor]:
        return self._now()

    def _now(self) -> Generator[Any, None, _Cursor]:
        return self._go()
        yield  # a generator that never yields: the await completes at once

    async def __aenter__(self) -> _Cursor:
        return self._go()

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            self._cursor._cursor.close()


class _ThreadConnection:
    """The :class:`storage.sql.Connection` calls over the raw ``sqlite3`` connection, on its
    own thread."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> _Result:
        return _Result(lambda: self._raw.execute(sql, _params(parameters)))

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _Result:
        return _Result(lambda: self._raw.executemany(sql, cast(Any, parameters)))

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> Iterable[Row]:
        return cast(Iterable[Row], self._raw.execute(sql, _params(parameters)).fetchall())


def _params(parameters: Iterable[Any] | None) -> Any:
    return [] if parameters is None else parameters

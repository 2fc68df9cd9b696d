"""The bottom of storage: what a repository sees of a database, whichever backend runs it.

A repository gets a :class:`Store` (``transaction()``, ``write()``, ``read()``, ``query()``)
and, inside a transaction or a read, a :class:`Connection`: ``write(body)`` is a transaction
whose statements are one ``async def body(conn)`` awaiting nothing but ``conn``, which SQLite
runs in one trip to its connection's thread (a hot write: a game's step, the delivery's marks).
On SQLite the connection is :class:`storage.backends.sqlite_thread.SqliteConnection`; on
PostgreSQL it is
:class:`storage.backends.postgres.PgConnection`, which offers the same few calls over asyncpg.
SQL is written once, in the part of the language both accept: ``?`` placeholders (``?N``
where one value is used twice), ``INSERT ... ON CONFLICT``, ``RETURNING`` for new ids,
``IS DISTINCT FROM``, ``CAST(? AS ...)`` where PostgreSQL cannot infer a type.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from enum import IntEnum
from itertools import islice
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Row(Protocol):
    """A result row: by position (fast) or by column name."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Executed(Protocol):
    """What ``execute`` returns: awaited, a cursor; or ``async with ... as cursor``."""

    def __await__(self) -> Generator[Any, None, Cursor]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None: ...


class Connection(Protocol):
    # True where other transactions run beside this one (PostgreSQL's pool): a check and the
    # write it allows take a lock first (lock_rows, lock_key); False on SQLite's one writer
    concurrent: bool

    def execute(self, sql: str, parameters: Iterable[Any] | None = ...) -> Executed: ...

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Executed: ...

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = ...) -> Iterable[Row]: ...


class Store(Protocol):
    """What repositories need of the database (implemented by ``storage.db.Database``)."""

    def transaction(self, *, background: bool = False
                    ) -> AbstractAsyncContextManager[Connection]: ...

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T: ...

    def read(self, *, background: bool = False) -> AbstractAsyncContextManager[Connection]: ...

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]: ...

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T: ...

    async def set_cache(self, kib: int | None) -> None: ...


class Lock(IntEnum):
    """What an advisory lock of :func:`lock_key` serializes (its first key)."""

    # "maf\x10", ...: apart from the sharing processes' classes (bot/cluster/share.py)
    # every write giving out a nickname (a player's, an offline account's, an import's): the
    # look-alike check of all the others, then the claim; taken after the players' row locks
    NICKNAME = 0x6D616610
    # a gift's name given out (a new gift, a renamed one): the names checked, then the write
    GIFT_NAME = 0x6D616611
    # a season of the network's dates set: the others checked for an overlap, then the write
    SEASON = 0x6D616612


async def lock_rows(conn: Connection, table: str, column: str, keys: Iterable[int]) -> None:
    """Lock these rows of ``table`` until the transaction ends, in key order: two writes of
    overlapping rows never wait for each other in a circle. Nothing where one writer runs
    (SQLite)."""
    if not conn.concurrent:
        return
    wanted = sorted(set(keys))
    if not wanted:
        return
    marks = ",".join("?" * len(wanted))
    await conn.execute_fetchall(
        f"SELECT 1 FROM {table} WHERE {column} IN ({marks}) ORDER BY {column} FOR UPDATE",
        wanted)


async def lock_key(conn: Connection, kind: Lock, key: str | int = "") -> None:
    """An advisory lock on ``(kind, key)`` until the transaction ends (PostgreSQL's
    ``pg_advisory_xact_lock`` of two int4 keys: ``kind`` and the key's hash); nothing on
    SQLite."""
    if not conn.concurrent:
        return
    await conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", (int(kind), str(key)))


async def insert_rows(conn: Connection, table: str, columns: str,
                      rows: Iterable[Sequence[object]], *, at_once: int, tail: str = "") -> None:
    """``rows`` into ``table`` (``columns``: its column list as SQL), ``at_once`` rows to one
    INSERT so a statement stays under either backend's limit of bound values; ``tail``: the
    statement's end (an ``ON CONFLICT`` clause). ``rows`` is read one statement's worth at a
    time, so a rebuild's million rows are never one list."""
    marks = "(" + ", ".join("?" * len(columns.split(","))) + ")"
    left = iter(rows)
    while chunk := list(islice(left, at_once)):
        await conn.execute(f"INSERT INTO {table} ({columns}) VALUES "
                           + ",".join([marks] * len(chunk)) + tail,
                           [v for row in chunk for v in row])

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


class Result(Protocol):
    """What ``execute`` returns: awaited, a cursor; or ``async with ... as cursor``."""

    def __await__(self) -> Generator[Any, None, Cursor]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Iterable[Any] | None = ...) -> Result: ...

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Result: ...

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

"""The connection layer, one module per backend (the bottom of storage).

Each backend opens its connections and applies its migrations. :class:`Backend` is SQLite's
shape (one writing and one reading connection, and how a write group begins), which
:mod:`storage.txn.transactions` runs; PostgreSQL's is a pool
(:class:`storage.backends.postgres.PgBackend`, run by :mod:`storage.txn.pool`).

May import: ``storage.schema``, ``storage.sql``, ``storage.errors``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol, TypeVar

from storage.sql import Connection

T = TypeVar("T")


class Backend(Protocol):
    name: str  # "sqlite"
    writer: Connection  # the one writing connection (group commit)
    reader: Connection  # the reading connection (the writer itself where there is none)
    begin_write: tuple[str, ...]  # statements opening a group: the write lock taken up front
    begin_read: str  # a read-only snapshot
    path: Path | None  # the SQLite file; None on a server

    async def end(self, conn: Connection) -> None:
        """End whatever transaction ``conn`` is in (none is fine)."""

    async def in_one_trip(self, conn: Connection,
                          body: Callable[[Connection], Awaitable[T]]) -> T:
        """``body(conn)`` with its statements run together on the connection's thread: one
        trip."""

    async def settle(self, conn: Connection) -> None:
        """Wait until the statements already sent on ``conn`` are done (a cancelled
        caller's included)."""

    async def set_cache(self, kib: int | None) -> None: ...

    async def schema_version(self) -> int: ...

    async def backup(self, out: Path) -> Path: ...

    async def close(self) -> None: ...


class DatabaseUrlError(ValueError):
    """A database URL that cannot be used (malformed, unreachable, refused); the message
    names it without its password."""


class DatabaseUnavailable(ConnectionError):
    """The database server cannot be reached right now (restarting, the network): nothing of
    the transaction was written; the same call may succeed in a moment."""


def is_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))

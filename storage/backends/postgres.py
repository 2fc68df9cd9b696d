"""PostgreSQL through asyncpg: a pool of connections to a server, transactions side by side.

:class:`PgConnection` offers a repository the same few calls as the SQLite connection
(``execute`` awaited or as ``async with``, ``execute_fetchall``, ``executemany``, a cursor's
``fetchone``/``fetchall``/``rowcount``), so the repositories' SQL is written once. The only
rewriting is the placeholders' spelling: ``?`` (qmark, as sqlite3 takes them) becomes asyncpg's
``$1, $2, ...`` and ``?N`` becomes ``$N``; nothing else of the SQL is touched.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Generator, Iterable
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import asyncpg

from storage.backends import DatabaseUnavailable, DatabaseUrlError
from storage.schema.postgres import migrate, user_version
from storage.sql import Row

CONNECT_TIMEOUT_S = 10.0
POOL_SIZE = 10  # connections of one process (the bot: DATABASE_POOL_SIZE)
APPLICATION = "mafia-bot"  # the pool's connections' application_name

# a quoted literal or identifier (left alone), or a placeholder
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?(\d*)")
_T = TypeVar("_T")
# the server went away (restart, shutdown, network): the statement's transaction is lost
LOST: tuple[type[BaseException], ...] = (
    OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
    asyncpg.OperatorInterventionError, asyncpg.CannotConnectNowError,
)
_UNREACHABLE: tuple[type[BaseException], ...] = (TimeoutError, *LOST)


@lru_cache(maxsize=4096)
def numbered(sql: str) -> tuple[str, bool]:
    """``sql`` with ``$N`` placeholders, and whether it returns rows."""
    counter = 0

    def spell(match: re.Match[str]) -> str:
        nonlocal counter
        text = match.group(0)
        if not text.startswith("?"):
            return text
        if match.group(1):
            return "$" + match.group(1)
        counter += 1
        return f"${counter}"

    out = _TOKEN.sub(spell, sql)
    head = out.lstrip().split(None, 1)[0].upper() if out.strip() else ""
    rows = head in ("SELECT", "WITH", "VALUES", "SHOW") or " RETURNING " in out.upper()
    return out, rows


def _count(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = None  # PostgreSQL has none: INSERT ... RETURNING id

    async def fetchone(self) -> Row | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Row]:
        return self._rows


class PgResult:
    """Awaited: the cursor. ``async with``: the cursor too (as the SQLite connection's
    ``execute``)."""

    def __init__(self, run: Awaitable[PgCursor]) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._run.__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc_val: BaseException | None, exc_tb: TracebackType | None) -> None:
        return None


class PgConnection:
    """One asyncpg connection, its statements run one after another in the order they were
    issued, each seen through even when its caller is cancelled (as the SQLite connection's
    thread does): the rollback that follows a cancel never finds the connection busy."""

    concurrent = True  # other processes' and this pool's transactions run beside this one

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn
        self._tail: asyncio.Future[Any] | None = None

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> PgResult:
        return PgResult(self._ordered(self._execute, sql, tuple(parameters or ())))

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> PgResult:
        return PgResult(self._ordered(self._executemany, sql,
                                      [tuple(p) for p in parameters]))

    async def execute_fetchall(self, sql: str,
                               parameters: Iterable[Any] | None = None) -> list[Row]:
        cursor = await self._ordered(self._execute, sql, tuple(parameters or ()))
        return await cursor.fetchall()

    async def _execute(self, sql: str, args: tuple[Any, ...]) -> PgCursor:
        query, rows = numbered(sql)
        try:
            if rows:
                found = cast(list[Row], await self.raw.fetch(query, *args))
                return PgCursor(found, len(found))
            return PgCursor([], _count(await self.raw.execute(query, *args)))
        except LOST as exc:
            raise DatabaseUnavailable(f"the database connection was lost: {exc}") from exc

    async def _executemany(self, sql: str, args: list[tuple[Any, ...]]) -> PgCursor:
        try:
            if args:
                await self.raw.executemany(numbered(sql)[0], args)
        except LOST as exc:
            raise DatabaseUnavailable(f"the database connection was lost: {exc}") from exc
        return PgCursor([], -1)

    async def _ordered(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        before = self._tail

        async def run() -> _T:
            if before is not None and not before.done():
                await asyncio.wait([before])
            return await fn(*args)

        task = asyncio.ensure_future(run())
        task.add_done_callback(_retrieve)
        self._tail = task
        return await asyncio.shield(task)

    async def settle(self) -> None:
        """Wait for the statements already issued (a cancelled caller's included)."""
        if self._tail is not None and not self._tail.done():
            await asyncio.wait([self._tail])

    def closed(self) -> bool:
        try:
            return bool(self.raw.is_closed())
        except asyncpg.InterfaceError:  # lost, the pool took it back: closed for its holder
            return True


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # the caller re-raises it; a cancelled caller's is dropped here


def describe(url: str) -> str:
    """The URL without its password (for messages)."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


async def connect(url: str) -> asyncpg.Connection:
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
            ValueError) as exc:
        # a ValueError's text may quote the URL, password included
        reason = "not a valid PostgreSQL URL" if isinstance(exc, ValueError) else _reason(exc)
        raise DatabaseUrlError(f"cannot connect to {describe(url)}: {reason}") from None
    return conn


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text


class PgBackend:
    """A pool of asyncpg connections (``acquire()``), used by
    :class:`storage.txn.pool.PoolTransactions`: no write lock of its own, each transaction on
    a connection of its own; what must be serialized takes its own lock (docs/storage.md)."""

    name = "postgresql"
    begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    def __init__(self, url: str, pool: asyncpg.Pool, size: int) -> None:
        self.url = url
        self.pool = pool
        self.size = size
        self.path: Path | None = None
        self.closed = False

    @classmethod
    async def open(cls, url: str, pool_size: int | None = None) -> PgBackend:
        size = max(1, pool_size or POOL_SIZE)
        raw = await connect(url)
        try:
            await migrate(raw)
        finally:
            await raw.close()
        # named in pg_stat_activity, as the share connection is: a server shared with other
        # deployments and programs shows whose connections these are (unless the URL names them)
        named = {} if "application_name=" in url else {"application_name": APPLICATION}
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=size,
                                             timeout=CONNECT_TIMEOUT_S, server_settings=named)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseUrlError(f"cannot connect to {describe(url)}: {_reason(exc)}") from None
        return cls(url, pool, size)

    async def acquire(self) -> asyncpg.Connection:
        """A connection of the pool; while the server is down this raises (the caller says
        "try again"). With every connection busy it waits for one, however long (as SQLite's
        callers wait for its writer): a busy evening is slow, not unavailable. Opening a new
        connection is bounded by ``CONNECT_TIMEOUT_S`` (the pool's own setting)."""
        if self.closed:
            raise ValueError("the database is closed")  # as the SQLite connection says it
        try:
            return await self.pool.acquire()
        except _UNREACHABLE as exc:
            raise DatabaseUnavailable(
                f"cannot reach {describe(self.url)}: {_reason(exc)}") from None

    async def release(self, conn: PgConnection) -> None:
        """Back to the pool once its statements are done (a lost one is replaced there)."""
        await conn.settle()
        await self.pool.release(conn.raw)

    async def end(self, conn: PgConnection) -> None:
        """End whatever transaction ``conn`` is in (none is fine)."""
        await conn.settle()
        if conn.closed():
            return  # the server went away: so did the transaction
        try:
            await conn.execute("ROLLBACK")
        except DatabaseUnavailable:
            if not conn.closed():
                raise

    async def schema_version(self) -> int:
        raw = await self.acquire()
        try:
            return await user_version(raw)
        finally:
            await self.pool.release(raw)

    async def backup(self, out: Path) -> Path:
        raise RuntimeError(
            "a PostgreSQL database is backed up with pg_dump: pg_dump -Fc -f OUT.dump"
            " DATABASE_URL (restore: pg_restore -d DATABASE_URL OUT.dump; docs/storage.md)")

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            await asyncio.wait_for(self.pool.close(), CONNECT_TIMEOUT_S)
        except TimeoutError:
            self.pool.terminate()

"""SQLite: one writing and one read-only connection on a WAL file, each on a thread of its own
(:mod:`storage.backends.sqlite_thread`)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar, cast

from storage.backends.sqlite_thread import SqliteConnection, run_in_one_trip
from storage.errors import BackupRefused
from storage.schema.sqlite import migrate, user_version
from storage.sql import Connection

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
CACHE_KIB = 8 * 1024  # the writing connection's page cache (SQLite's default is 2 MiB)
READ_CACHE_KIB = 8 * 1024  # the reading connection's


class SqliteBackend:
    name = "sqlite"
    # SQLite's write lock taken up front: other processes wait (busy_timeout)
    begin_write: tuple[str, ...] = ("BEGIN IMMEDIATE",)
    begin_read = "BEGIN"  # deferred: a snapshot of what was committed (WAL)

    def __init__(self, conn: SqliteConnection, path: Path,
                 reader: SqliteConnection | None) -> None:
        self.raw = conn
        self.raw_reader = reader if reader is not None else conn
        self.writer = cast(Connection, conn)
        self.reader = cast(Connection, self.raw_reader)
        self.path: Path | None = path

    @classmethod
    async def open(cls, path: Path, *, reader: bool = True) -> SqliteBackend:
        """Open (creating the file and its parent directory) and apply pending migrations."""
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await SqliteConnection.connect(path, busy_wait=BUSY_TIMEOUT_MS / 1000)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            async with conn.execute("PRAGMA journal_mode = WAL") as cur:
                mode = await cur.fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise RuntimeError(f"could not switch {path} to WAL mode: {mode!r}")
            # FULL: a committed transaction survives a power cut, not only a process crash.
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA temp_store = MEMORY")
            await conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            await migrate(conn)
            second = await _open_reader(path) if reader else None
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, second)

    async def end(self, conn: Connection) -> None:
        """Statements run in order on the connection's thread, so this also waits for a
        BEGIN/COMMIT whose await was cancelled: the next holder of the lock never finds the
        connection inside a transaction. "No transaction is active" is fine here."""
        try:
            await conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "no transaction is active" not in str(exc):
                raise

    async def in_one_trip(self, conn: Connection,
                          body: Callable[[Connection], Awaitable[T]]) -> T:
        raw = self.raw if conn is self.writer else self.raw_reader
        return await run_in_one_trip(raw, body)

    async def settle(self, conn: Connection) -> None:
        raw = self.raw if conn is self.writer else self.raw_reader
        await run_in_one_trip(raw, _nothing)  # the thread runs its queue in order

    async def set_cache(self, kib: int | None) -> None:
        await self.raw.execute(f"PRAGMA cache_size = -{int(kib or CACHE_KIB)}")

    async def schema_version(self) -> int:
        return await user_version(self.raw)

    async def backup(self, out: Path) -> Path:
        tmp = _partial(out)
        target = sqlite3.connect(tmp, check_same_thread=False)
        try:
            await self.raw.backup(target)
        finally:
            target.close()
        # reading the whole copy back takes a while on a big file: not on the event loop
        await asyncio.to_thread(_into_place, tmp, out)
        return out

    async def close(self) -> None:
        if self.raw_reader is not self.raw:
            await self.raw_reader.close()
        await self.raw.close()


async def _nothing(conn: Connection) -> None:
    return None


def _into_place(tmp: Path, out: Path) -> None:
    """The copy ``tmp`` checked (``PRAGMA integrity_check``, else :class:`BackupRefused` and
    it is removed), its bytes and its folder's entry on disk (``fsync``), then renamed to
    ``out`` and the folder synced again: a crash leaves the old backup or the whole new
    one, never a name pointing at a file the disk has not got."""
    check = sqlite3.connect(f"file:{tmp}?mode=ro", uri=True)
    try:
        rows = check.execute("PRAGMA integrity_check").fetchall()
        problem = "" if rows == [("ok",)] else str(rows[0][0] if rows else "no answer")
    except sqlite3.DatabaseError as e:
        problem = str(e)
    finally:
        check.close()
    if problem:
        tmp.unlink(missing_ok=True)
        raise BackupRefused(str(out), problem)
    _fsync(tmp)
    _fsync(tmp.parent)
    os.replace(tmp, out)
    _fsync(out.parent)


def _fsync(path: Path) -> None:
    """``path``'s data (a file) or entries (a folder) written through to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _partial(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    tmp.unlink(missing_ok=True)
    return tmp


async def _open_reader(path: Path) -> SqliteConnection:
    """The reading connection (WAL: readers never block the writer nor wait for it)."""
    reader = await SqliteConnection.connect(path, busy_wait=BUSY_TIMEOUT_MS / 1000)
    try:
        await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute("PRAGMA temp_store = MEMORY")
        await reader.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")
    except BaseException:
        await reader.close()
        raise
    return reader


def backup_file(db_path: str | Path, out_path: str | Path) -> Path:
    """Synchronous online backup of a database file (used by ``python -m storage backup``):
    copied to ``OUT.partial``, checked and synced, then renamed (:func:`_into_place`)."""
    src_path = Path(db_path)
    if not src_path.is_file():
        raise FileNotFoundError(src_path)
    out = Path(out_path)
    tmp = _partial(out)
    src = sqlite3.connect(src_path, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    _into_place(tmp, out)
    return out

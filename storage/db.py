"""The Database: one aiosqlite connection, migrations at open, serialized transactions."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from storage.migrations import migrate, user_version

BUSY_TIMEOUT_MS = 10_000
GROUP_MAX = 64  # transactions committed together at most: a busy writer still commits often
CACHE_KIB = 8 * 1024  # the writing connection's page cache (SQLite's default is 2 MiB)
SWEEP_CACHE_KIB = 32 * 1024  # the writer's, for the expiry catch-up only (storage/expiry.py)
READ_CACHE_KIB = 8 * 1024  # the reading connection's


class Database:
    """The club network's memory. Create with ``await Database.open(path)``.

    Writes go through one connection guarded by an :class:`asyncio.Lock` (``transaction()``),
    committed in groups: while other writers wait for the lock, a finished transaction is
    released as a savepoint of one ``BEGIN IMMEDIATE``, and the last of the group commits it
    for all (one ``fsync`` for many writers). Each ``transaction()`` returns only once its
    rows are committed, or raises. Reads (``read()``) go through a second, read-only
    connection with its own lock: a deferred transaction, so a read sees one consistent
    snapshot of what was committed (WAL) and never another coroutine's uncommitted rows — and
    it does not wait behind a write's ``fsync``. Other processes / other ``Database`` objects
    on the same file wait through ``busy_timeout``.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path,
                 reader: aiosqlite.Connection | None = None) -> None:
        from storage.clubs import Clubs
        from storage.expiry import Expiry
        from storage.games import Games
        from storage.imports import Imports
        from storage.ledger import Ledger
        from storage.outbox import Outbox
        from storage.players import Players
        from storage.records import AdminLog, Complaints, FirstDayKilled, Immunity
        from storage.stats import Stats

        self._conn = conn
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None
        self._group: _Group | None = None  # the open transaction of the current group
        self._writers = 0  # transactions waiting for the lock
        self._flushes: set[asyncio.Task[None]] = set()
        self._reader = reader if reader is not None else conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._read_holder: asyncio.Task[object] | None = None
        self._closed = False
        self.path = path
        self.players = Players(self)
        self.ledger = Ledger(self)
        self.expiry = Expiry(self)
        self.clubs = Clubs(self)
        self.games = Games(self)
        self.immunity = Immunity(self)
        self.first_day_killed = FirstDayKilled(self)
        self.complaints = Complaints(self)
        self.admin_log = AdminLog(self)
        self.stats = Stats(self)
        self.imports = Imports(self)
        self.outbox = Outbox(self)

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating the file and its parent directory) and apply pending migrations."""
        db_path = Path(path)
        db_path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(
            db_path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            async with conn.execute("PRAGMA journal_mode = WAL") as cur:
                mode = await cur.fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise RuntimeError(f"could not switch {db_path} to WAL mode: {mode!r}")
            # FULL: a committed transaction survives a power cut, not only a process crash.
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA temp_store = MEMORY")
            await conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            await migrate(conn)
            await _backfill(conn)
            reader = await _open_reader(db_path)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, db_path, reader)

    async def close(self) -> None:
        async with self._exclusive():
            if not self._closed:
                self._closed = True
                if self._reader is not self._conn:
                    async with self._read_lock:
                        await self._reader.close()
                await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock; use the yielded connection instead"
            )
        async with self._lock:
            self._holder = task
            try:
                yield
            finally:
                self._holder = None

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        """The writing connection with no transaction open (an open group committed first)."""
        async with self._locked():
            await self._commit_group()
            yield

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: its rows are committed when the block ends without an
        exception (the call returns once they are durable), rolled back on any exception
        (incl. cancel). Another transaction's failure never undoes it; a failed commit
        raises in every transaction of its group.

        Not re-entrant: inside it, use the yielded connection, not the repositories.
        """
        conn = self._conn
        self._writers += 1
        waiting = True
        try:
            async with self._locked():
                self._writers -= 1
                waiting = False
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
                                                 or group.size >= GROUP_MAX):
                        await self._commit_group()
        finally:
            if waiting:  # cancelled in the queue: the group may have been left to it
                self._writers -= 1
                self._commit_later()
        await group.durable()

    async def _join_group(self) -> _Group:
        if self._group is None:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except BaseException:
                await _end(self._conn)
                raise
            self._group = _Group()
        return self._group

    async def _undo_step(self, group: _Group) -> None:
        """Roll back one transaction of the group; if SQLite rolled back the whole group (an
        I/O error, a full disk), the others fail too."""
        try:
            await self._conn.execute("ROLLBACK TO step")
            await self._conn.execute("RELEASE step")
        except BaseException as exc:
            # the caller's own exception goes on; the group's others learn why they failed
            if self._group is group:
                self._group = None
                lost = GroupRolledBack("rolled back with another transaction of its group")
                lost.__cause__ = exc
                group.fail(lost)
            await _end(self._conn)

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
            await _end(self._conn)
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
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read-only snapshot (deferred transaction) on the reading connection."""
        if self._reader is self._conn:
            async with self._exclusive():
                try:
                    await self._conn.execute("BEGIN")
                    yield self._conn
                finally:
                    await self._rollback()
            return
        self._refuse_read_inside()
        async with self._read_lock:
            self._read_holder = asyncio.current_task()
            try:
                await self._reader.execute("BEGIN")
                yield self._reader
            finally:
                self._read_holder = None
                await _end(self._reader)

    async def query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        """One SELECT on the reading connection, in one trip to its thread (no BEGIN/ROLLBACK:
        a single statement is its own snapshot). The hot reads (an account, a club, a chat's
        queue) use it: under load every trip to a thread waits for a turn of the busy loop."""
        self._refuse_read_inside()
        if self._reader is self._conn:
            async with self._exclusive():
                return list(await self._conn.execute_fetchall(sql, params))
        async with self._read_lock:
            return list(await self._reader.execute_fetchall(sql, params))

    def _refuse_read_inside(self) -> None:
        """A read from inside this task's own transaction or read would deadlock on the lock
        or miss the transaction's rows."""
        task = asyncio.current_task()
        if task is not None and task in (self._read_holder, self._holder):
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock or miss the transaction's rows; use the yielded connection instead"
            )

    async def _rollback(self) -> None:
        await _end(self._conn)

    async def set_cache(self, kib: int) -> None:
        """The writing connection's page cache, in KiB (shrinking frees the pages over it)."""
        async with self._exclusive():
            await self._conn.execute(f"PRAGMA cache_size = -{int(kib)}")

    async def schema_version(self) -> int:
        async with self._exclusive():
            return await user_version(self._conn)

    async def backup(self, out_path: str | Path) -> Path:
        """Online backup to ``out_path`` (written to a temporary name, then renamed)."""
        out = Path(out_path)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".partial")
        tmp.unlink(missing_ok=True)
        target = sqlite3.connect(tmp, check_same_thread=False)
        try:
            async with self._exclusive():
                await self._conn.backup(target, pages=-1)
        finally:
            target.close()
        os.replace(tmp, out)
        return out


async def _end(conn: aiosqlite.Connection) -> None:
    """End whatever transaction the connection is in, if any.

    aiosqlite runs statements in order on its own thread, so this also waits for a
    BEGIN/COMMIT whose await was cancelled: the next holder of the lock never finds the
    connection inside a transaction. "No transaction is active" is fine here.
    """
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "no transaction is active" not in str(exc):
            raise


async def _run(conn: aiosqlite.Connection, sql: str) -> None:
    await conn.execute(sql)


class GroupRolledBack(sqlite3.OperationalError):
    """A transaction lost because SQLite rolled back the whole group it was committed with."""


class _Group:
    """Transactions committed by one COMMIT; each waits for its outcome."""

    def __init__(self) -> None:
        self.size = 0
        self._done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._done.add_done_callback(_retrieve)

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


async def _open_reader(path: Path) -> aiosqlite.Connection:
    """The reading connection (WAL: readers never block the writer nor wait for it)."""
    reader = await aiosqlite.connect(path, isolation_level=None,
                                     timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        reader.row_factory = sqlite3.Row
        await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute("PRAGMA temp_store = MEMORY")
        await reader.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _backfill(conn: aiosqlite.Connection) -> None:
    """Look-alike keys of nicknames written without one (a one-off after the migration)."""
    from storage.players import backfill_skeletons

    await conn.execute("BEGIN IMMEDIATE")
    try:
        await backfill_skeletons(conn)
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise


def backup_file(db_path: str | Path, out_path: str | Path) -> Path:
    """Synchronous online backup of a database file (used by ``python -m storage backup``)."""
    src_path = Path(db_path)
    if not src_path.is_file():
        raise FileNotFoundError(src_path)
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(src_path, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(tmp, out)
    return out

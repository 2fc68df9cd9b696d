"""SQLite's runner: serialized, group-committed write transactions and snapshot reads over
one writing and one reading connection (PostgreSQL's pool: :mod:`storage.txn.pool`).

How a group begins is the backend's (``begin_write``: ``BEGIN IMMEDIATE``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

from storage.backends import Backend, DatabaseUnavailable
from storage.sql import Connection, Row
from storage.txn.commit_group import Group, GroupRolledBack
from storage.txn.reads import Reader
from storage.txn.write_batch import TAKEN, Batch, QueuedWrite, WriteQueue
from storage.txn.writer_lock import WriterLock

__all__ = ["GROUP_MAX", "GROUP_MAX_S", "GroupRolledBack", "Transactions"]

T = TypeVar("T")

GROUP_MAX = 64  # transactions committed together at most: a busy writer still commits often
# seconds: a group older than this commits at the end of its current transaction even with
# writers waiting. The first of a group waits for every later one's statements before the
# COMMIT: under a steady queue (ten tables' steps) that would be the whole queue, where one
# more fsync costs about a millisecond.
GROUP_MAX_S = 0.025


class Transactions:
    """Writes go through one connection guarded by an :class:`asyncio.Lock` (``transaction()``),
    committed in groups: while other writers wait for the lock, a finished transaction is
    released as a savepoint of one open transaction, and the last of the group commits it
    for all (one ``fsync`` for many writers). Each ``transaction()`` returns only once its
    rows are committed, or raises. Reads (``read()``) go through a second, read-only
    connection with its own lock (:mod:`storage.txn.reads`). Other programs on the file
    wait for the write lock the backend takes when a group begins. ``write()``s queue: whoever gets
    the writer writes all those queued in one trip (:mod:`storage.txn.write_batch`).
    """

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._conn = backend.writer
        self._lock = WriterLock()
        self._holder: asyncio.Task[object] | None = None
        self._group: Group | None = None  # the open transaction of the current group
        self.group_max_s: float | None = GROUP_MAX_S  # None: no age limit (size and queue only)
        self._waiting = {False: 0, True: 0}  # writers queued for the lock, by lane
        self._queue = WriteQueue()  # db.write()'s writes not yet in a batch
        self._batcher = {False: False, True: False}  # a batch's task queued, by lane
        self._flushes: set[asyncio.Task[None]] = set()
        self._reader = backend.reader
        # None: one connection both reads and writes (reads take the writer)
        self._reads = Reader(backend) if self._reader is not self._conn else None
        self._closed = False

    async def close(self) -> None:
        async with self._exclusive():
            if not self._closed:
                self._closed = True
                async with self._reads.lock if self._reads is not None else _nothing():
                    await self._backend.close()

    def _refuse_reentry(self) -> asyncio.Task[Any] | None:
        """The calling task, unless it holds the writer already (it would wait for itself)."""
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError(
                "storage call inside db.transaction()/db.read() of the same task: it would"
                " deadlock; use the yielded connection instead"
            )
        return task

    @asynccontextmanager
    async def _locked(self, background: bool = False) -> AsyncIterator[None]:
        task = self._refuse_reentry()
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
        """The writer held, counted in ``_waiting`` while queued for it (a group stays open
        while writers wait); a writer cancelled in the queue may have been left the group:
        it is committed later."""
        self._waiting[background] += 1
        waiting = True
        try:
            async with self._locked(background):
                self._waiting[background] -= 1
                waiting = False
                yield
        finally:
            if waiting:
                self._waiting[background] -= 1
                self._commit_later()

    @asynccontextmanager
    async def transaction(self, *, background: bool = False) -> AsyncIterator[Connection]:
        """A write transaction: its rows are committed when the block ends without an
        exception (the call returns once they are durable), rolled back on any exception
        (incl. cancel). Another transaction's failure never undoes it; a failed commit
        raises in every transaction of its group. ``background``: nobody waits to see it
        (the delivery's marks, a sweep): it waits for the writer until no other transaction
        is queued (:mod:`storage.txn.writer_lock`).

        Not re-entrant: inside it, use the yielded connection, not the repositories.
        """
        conn = self._conn
        async with self._writer(background):
            group = await self._join_group()
            try:
                await conn.execute("SAVEPOINT one_write")
                yield conn
                await conn.execute("RELEASE one_write")
                group.size += 1
            except BaseException:
                await self._undo_write(group)
                raise
            finally:
                if self._group is group and self._commit_due(group, background):
                    await self._commit_group()
        await group.durable()

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T:
        """A write transaction as :meth:`transaction` whose statements are ``body(conn)``;
        returns what ``body`` returns, once durable. Queued: the task that gets the writer
        writes every write queued at that moment in one trip (:mod:`storage.txn.write_batch`;
        SQLite: on the connection's thread, so ``body`` awaits nothing but ``conn``), each in
        its own savepoint, with the group's ``BEGIN`` when it opens one and one ``COMMIT``
        when no other writer of its lane waits. Rolled back on any exception of ``body``
        (only this write); a write cancelled while queued changes nothing; one cancelled
        once its batch has it keeps what the trip does (committed with its group) and
        raises the cancel."""
        self._refuse_reentry()
        write = QueuedWrite(body, background)
        if (self._queue.empty() and not any(self._batcher.values())
                and self._lock.try_acquire()):
            await self._alone(write)
        else:
            self._queue.add(write)
            self._wake(background)
        try:
            # not shielded: a cancel cancels the outcome too, and a batch no longer takes it
            group, result = await write.outcome
        except asyncio.CancelledError:
            self._queue.remove(write)
            raise
        await group.durable()
        return cast(T, result)

    async def _alone(self, write: QueuedWrite) -> None:
        """The writer free and nothing queued: the caller writes its own write, in its own
        task (its cancel reaches no other caller's write; no turn of the loop for a batch's
        task to start and then to wake the caller). Writes queued meanwhile: the next batch."""
        self._holder = asyncio.current_task()
        write.state = TAKEN
        try:
            await self._batch([write])
        except BaseException as exc:
            write.fail(asyncio.CancelledError() if isinstance(exc, asyncio.CancelledError)
                       else exc)
            raise
        finally:
            self._holder = None
            self._lock.release()

    def _wake(self, background: bool) -> None:
        """A task queued for the writer in ``background``'s lane to write the queue, unless
        one is queued already. A task of its own: no caller's cancel reaches a trip that
        carries other callers' writes."""
        if self._batcher[background]:
            return
        self._batcher[background] = True
        self._waiting[background] += 1
        task = asyncio.get_running_loop().create_task(self._batches(background))
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _batches(self, background: bool) -> None:
        queued = True
        writes: list[QueuedWrite] = []
        try:
            async with self._locked(background):
                self._waiting[background] -= 1
                queued = False
                self._batcher[background] = False
                group = self._group
                writes = self._queue.take(background, GROUP_MAX - (group.size if group else 0))
                for lane in (False, True):  # the writes beyond the cap: the next batch
                    if self._queue.waiting(lane):
                        self._wake(lane)
                while writes:
                    writes = await self._batch(writes)
                if self._group is not None and not self._others_wait(background):
                    await self._commit_group()  # left open for writers since cancelled
        except BaseException as exc:
            if queued:  # stopped before its turn (the loop closing): nobody else would
                self._waiting[background] -= 1
                self._batcher[background] = False
                writes = self._queue.drop(background)
            stopped = isinstance(exc, asyncio.CancelledError) or not isinstance(exc, Exception)
            for write in writes:  # the callers hear it (their writes' outcome), not the loop
                write.fail(asyncio.CancelledError() if stopped else exc)
            if stopped:
                raise

    async def _batch(self, writes: list[QueuedWrite]) -> list[QueuedWrite]:
        """One trip for ``steps`` (the lock held), then what is left of the group's rules;
        returns the writes the trip stopped before (a new trip writes them)."""
        conn = self._conn
        group = self._group
        begin: tuple[str, ...] = ()
        if group is None:
            group, begin = Group(), self._backend.begin_write
        background = all(write.background for write in writes)
        commit = self._commit_due(group, background, adding=len(writes))
        batch = Batch(begin, writes, commit)
        error: BaseException | None = None
        cancelled = False
        try:
            await self._backend.in_one_trip(conn, batch.run)
        except asyncio.CancelledError:
            cancelled = True
            error = asyncio.CancelledError()
            await self._settle(conn)  # what the trip did is done; the batch says how far
        except Exception as exc:
            error = exc
        if begin and not batch.begun:  # the group's BEGIN failed: nothing was written
            await self._backend.end(conn)
            raise error if error is not None else RuntimeError("the group did not begin")
        if begin:
            self._group = group
        group.size += batch.released()
        stopped, rest = batch.current, batch.rest()
        if batch.committed:
            self._group = None
            group.succeed()
        elif stopped is None and error is not None and not cancelled:  # its COMMIT failed
            self._group = None
            group.fail(error)
            await self._backend.end(conn)
        elif stopped is not None:  # stopped in a write: it alone undone, unless the group is
            if stopped.error is None:
                stopped.error = error
            await self._undo_write(group)
        for write in writes[:len(writes) - len(rest)]:
            write.settle(group)
        if (not rest or cancelled) and self._group is group and self._commit_due(group,
                                                                                background):
            await self._commit_group()
        if cancelled:  # the writes not run hear it (_batches); a lone caller, its own cancel
            raise asyncio.CancelledError
        return rest

    def _commit_due(self, group: Group, background: bool, adding: int = 0) -> bool:
        """Whether ``group`` commits now (with ``adding`` more writes in it): nobody it stays
        open for waits, it is full, or it is old."""
        return (not self._others_wait(background) or group.size + adding >= GROUP_MAX
                or self._too_old(group))

    def _others_wait(self, background: bool) -> bool:
        """Writers a group stays open for: a foreground one's, the foreground lane's only
        (its callers never wait for a background writer's turn)."""
        return self._waiting[False] > 0 or (background and self._waiting[True] > 0)

    async def _settle(self, conn: Connection) -> None:
        settled = asyncio.ensure_future(self._backend.settle(conn))
        while not settled.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(settled)

    def _too_old(self, group: Group) -> bool:
        return self.group_max_s is not None and group.age() >= self.group_max_s

    async def _join_group(self) -> Group:
        if self._group is None:
            try:
                for statement in self._backend.begin_write:
                    await self._conn.execute(statement)
            except BaseException:
                await self._backend.end(self._conn)
                raise
            self._group = Group()
        return self._group

    async def _undo_write(self, group: Group) -> None:
        """Roll back one transaction of the group; if the database rolled back the whole group
        (an I/O error, a full disk, a lost connection), the others fail too."""
        try:
            await self._conn.execute("ROLLBACK TO one_write")
            await self._conn.execute("RELEASE one_write")
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
        if self._group is None or self._waiting[False] or self._waiting[True]:
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
        (:mod:`storage.txn.reads`; ignored where one connection both reads and writes)."""
        if self._reads is None:
            async with self._exclusive():
                try:
                    await self._conn.execute(self._backend.begin_read)
                    yield self._conn
                finally:
                    await self._backend.end(self._conn)
            return
        self._refuse_read_inside()
        async with self._reads.read(background=background) as conn:
            yield conn

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        """One SELECT on the reading connection, in one trip (no BEGIN/ROLLBACK: a single
        statement is its own snapshot). The hot reads (an account, a club, a chat's queue)
        use it: under load every trip to a thread waits for a turn of the busy loop.
        ``background``: as :meth:`read`'s (the delivery's reads of its queues)."""
        self._refuse_read_inside()
        if self._reads is None:
            async with self._exclusive():
                return list(await self._conn.execute_fetchall(sql, params))
        return await self._reads.query(sql, params, background=background)

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        """A read-only snapshot as :meth:`read` whose statements are ``body(conn)``, sent in one
        trip where the backend can (SQLite: its ``BEGIN``, the body's statements and the
        ``ROLLBACK`` run on the reading connection's thread at once, so ``body`` awaits nothing
        but ``conn``). :meth:`read` takes a trip to the thread and back per statement, each
        waiting for a turn of a busy loop, and every other read queues behind it meanwhile.
        ``background``: as :meth:`read`'s."""
        self._refuse_read_inside()
        if self._reads is None:
            async with self.read() as conn:
                return await body(conn)
        return await self._reads.snapshot(body, background=background)

    def _refuse_read_inside(self) -> None:
        """A read from inside this task's own transaction or read would deadlock on the lock
        or miss the transaction's rows."""
        task = asyncio.current_task()
        reading = self._reads.holder if self._reads is not None else None
        if task is not None and task in (reading, self._holder):
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

    async def backup(self, out: Path) -> Path:
        async with self._exclusive():
            return await self._backend.backup(out)


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield


async def _run(conn: Connection, sql: str) -> None:
    await conn.execute(sql)

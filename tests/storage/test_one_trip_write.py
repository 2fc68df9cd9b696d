"""``db.write(body)``: a transaction whose statements SQLite runs in one trip to its thread,
with the same outcomes as ``db.transaction()``; and the writer's two lanes (the games' steps
before background writes)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from storage import Database
from storage.backends.sqlite_thread import NotOneTrip
from storage.db import GroupRolledBack
from storage.sql import Connection
from storage.txn.writer_lock import WriterLock
from tests.storage.conftest import sqlite_transactions, sqlite_writer
from tests.storage.holding import hold_writer, insert_zero
from tests.storage.test_group_commit import (
    INTEGRITY,
    _commits,
    _deferred_tables,
    _rows,
    _table,
)

# SQLite's one writer and its group commit (PostgreSQL's pool: test_pool.py)
pytestmark = pytest.mark.sqlite_only


async def _several(conn: Connection) -> tuple[int, int | None, list[int]]:
    """Every call a repository makes: execute awaited and entered, executemany, a cursor's
    fetchone/fetchall/rowcount, execute_fetchall."""
    await conn.execute("INSERT INTO t (x) VALUES (?)", (1,))
    await conn.executemany("INSERT INTO t (x) VALUES (?)", [(2,), (3,)])
    cur = await conn.execute("UPDATE t SET x = x + 10 WHERE x >= ?", (2,))
    async with conn.execute("SELECT max(x) FROM t") as c:
        row = await c.fetchone()
    every = [int(r[0]) for r in await conn.execute_fetchall("SELECT x FROM t ORDER BY x")]
    return cur.rowcount, None if row is None else int(row[0]), every


async def test_a_write_returns_the_bodys_result_once_committed(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    assert await db.write(_several) == (2, 13, [1, 12, 13])
    assert await _rows(db_target) == [1, 12, 13]  # another connection sees it: committed


@pytest.mark.sqlite_only  # the one trip is SQLite's (PostgreSQL sends each statement)
async def test_on_sqlite_a_write_is_one_trip_to_the_thread(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    raw: Any = sqlite_writer(db)
    trips: list[object] = []
    execute = raw.run

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await execute(fn, *args, **kwargs)

    raw.run = counted
    try:
        await db.write(_several)
    finally:
        raw.run = execute
    # the lone write's group: BEGIN, the body's seven statements in a savepoint, COMMIT
    assert len(trips) == 1
    assert await _rows(db_target) == [1, 12, 13]


async def test_a_failing_write_undoes_only_itself(db: Database, db_target: str | Path) -> None:
    await _table(db)

    async def fails(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (5)")
        await conn.execute("INSERT INTO t (x) VALUES (0)")  # taken by the first: refused

    async def fine(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (6)")

    bad, good = await _queued_writes(db, [fails, fine])
    assert isinstance(bad, INTEGRITY)
    assert good is None
    assert await _rows(db_target) == [0, 6]


@pytest.mark.sqlite_only  # the one trip is SQLite's (PostgreSQL sends each statement)
async def test_a_body_awaiting_anything_else_writes_nothing(
        db: Database, db_target: str | Path) -> None:
    await _table(db)

    async def sleeps(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (1)")
        await asyncio.sleep(0)

    with pytest.raises(NotOneTrip):
        await db.write(sleeps)
    await db.write(_several)  # the writer is usable after it
    assert await _rows(db_target) == [1, 12, 13]


@pytest.mark.sqlite_only  # the one trip is SQLite's (PostgreSQL sends each statement)
async def test_a_write_cancelled_in_its_trip_is_seen_through(
        db: Database, db_target: str | Path) -> None:
    """Its statements are on the thread already: it commits, its caller hears the cancel,
    and the writer goes on."""
    await _table(db)
    started = asyncio.Event()
    raw: Any = sqlite_writer(db)
    execute = raw.run

    async def slow(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trip = asyncio.ensure_future(execute(fn, *args, **kwargs))  # sent to the thread
        if "run_in_one_trip" in fn.__qualname__:  # the write's trip: its answer comes late
            started.set()
            await asyncio.sleep(0.05)
        return await trip

    async def one(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (1)")

    raw.run = slow
    try:
        task = asyncio.create_task(db.write(one))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        raw.run = execute
    await db.write(lambda conn: _insert(conn, 3))
    assert await _rows(db_target) == [1, 3]


async def _insert(conn: Connection, x: int) -> None:
    await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))


async def test_a_games_step_goes_before_queued_background_writes(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    sqlite_transactions(db).group_max_s = None
    order: list[int] = []

    async def one(x: int, background: bool) -> None:
        async with db.transaction(background=background) as conn:
            order.append(x)
            await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))

    head, release = await hold_writer(db, insert_zero)
    tasks = [asyncio.create_task(one(1, True)), asyncio.create_task(one(2, True)),
             asyncio.create_task(one(3, False)),
             asyncio.create_task(db.write(lambda conn: _noted(conn, 4, order))),
             asyncio.create_task(db.write(lambda conn: _noted(conn, 5, order),
                                          background=True))]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(head, *tasks)
    assert order == [3, 4, 1, 2, 5]  # the foreground lane first, each lane in order
    assert await _rows(db_target) == [0, 1, 2, 3, 4, 5]


async def _noted(conn: Connection, x: int, order: list[int]) -> None:
    order.append(x)
    await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))


async def test_the_writer_lock_passes_on_when_a_waiter_is_cancelled() -> None:
    lock = WriterLock()
    await lock.acquire()
    got: list[str] = []

    async def take(name: str, background: bool) -> None:
        await lock.acquire(background=background)
        got.append(name)
        lock.release()

    cancelled = asyncio.create_task(take("cancelled", False))
    background = asyncio.create_task(take("background", True))
    foreground = asyncio.create_task(take("foreground", False))
    await asyncio.sleep(0)
    lock.release()  # handed to the first waiter...
    cancelled.cancel()  # ...cancelled before it ran: it passes the lock on
    await asyncio.gather(cancelled, background, foreground, return_exceptions=True)
    assert got == ["foreground", "background"]
    assert not lock.locked()
    with pytest.raises(RuntimeError):
        lock.release()


async def _queued_writes(db: Database, bodies: list[Any]) -> list[BaseException | None]:
    """``bodies`` as writes queued behind a transaction that holds the writer: one group."""
    sqlite_transactions(db).group_max_s = None

    head, release = await hold_writer(db, insert_zero)
    tasks = [asyncio.create_task(db.write(b)) for b in bodies]
    await asyncio.sleep(0)
    release.set()
    outcomes = await asyncio.gather(head, *tasks, return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in outcomes[1:]]


def _one(x: int) -> Any:
    async def body(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))
    return body


async def test_queued_writes_share_one_commit_the_last_ones_trip(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    assert await _queued_writes(db, [_one(x) for x in range(1, 11)]) == [None] * 10
    assert await _rows(db_target) == list(range(11))
    assert len(commits) == 1


async def test_a_failed_commit_in_a_writes_trip_fails_its_whole_group(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    await _deferred_tables(db)

    async def dangling(conn: Connection) -> None:
        await conn.execute("INSERT INTO c (p) VALUES (99)")  # checked at COMMIT

    outcomes = await _queued_writes(db, [_one(1), dangling, _one(3)])
    assert all(isinstance(o, INTEGRITY) for o in outcomes)  # the last one's trip committed
    assert await _rows(db_target) == []
    await db.write(_one(4))  # and the writer goes on
    assert await _rows(db_target) == [4]


async def test_a_write_that_loses_the_group_fails_its_earlier_members(
        db: Database, db_target: str | Path) -> None:
    await _table(db)

    async def loses_everything(conn: Connection) -> None:
        await conn.execute("ROLLBACK")  # what SQLite does itself on an I/O error
        raise sqlite3.OperationalError("disk I/O error")

    outcomes = await _queued_writes(db, [_one(1), loses_everything, _one(3)])
    assert isinstance(outcomes[0], GroupRolledBack)
    assert isinstance(outcomes[1], sqlite3.OperationalError)
    assert outcomes[2] is None  # a new group after the loss
    assert await _rows(db_target) == [3]

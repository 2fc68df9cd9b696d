"""``db.write()``s queued together are written by whoever gets the writer in one trip, each in
its own savepoint, with one COMMIT (storage/txn/write_batch.py); each caller keeps its own
outcome."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import Database, DatabaseUnavailable
from storage.backends.sqlite_thread import NotOneTrip
from storage.db import GROUP_MAX
from storage.sql import Connection
from tests.storage.conftest import sqlite_transactions, sqlite_writer
from tests.storage.holding import hold_writer
from tests.storage.test_group_commit import (
    INTEGRITY,
    _commits,
    _deferred_tables,
    _rows,
    _table,
)

# SQLite's one writer and its group commit (PostgreSQL's pool: test_pool.py)
pytestmark = pytest.mark.sqlite_only

Body = Callable[[Connection], Awaitable[Any]]


def _trips(db: Database, hold: asyncio.Event | None = None,
           started: asyncio.Event | None = None) -> list[object]:
    """Each trip the writer makes (``in_one_trip``); with ``hold``, a trip's answer waits for
    it (its statements run meanwhile: SQLite's on the thread, PostgreSQL's in their task)."""
    backend: Any = db.transactions._backend
    real = backend.in_one_trip
    trips: list[object] = []

    async def counted(conn: Connection, body: Body) -> Any:
        trips.append(body)
        trip = asyncio.ensure_future(real(conn, body))
        if hold is not None:
            if started is not None:
                started.set()
            await hold.wait()
        return await trip

    backend.in_one_trip = counted
    return trips


def _one(x: int, seen: list[str] | None = None) -> Body:
    async def body(conn: Connection) -> int:
        if seen is not None:
            seen.append(f"write {x}")
        await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))
        return x
    return body


async def _held(db: Database, writes: list[tuple[Body, bool]],
                cancel: tuple[int, ...] = ()) -> list[asyncio.Task[Any]]:
    """``writes`` (body, background) queued while a transaction holds the writer (those at
    ``cancel`` cancelled while queued); their tasks, once each has its outcome."""
    head, release = await hold_writer(db)
    tasks = [asyncio.create_task(db.write(b, background=bg)) for b, bg in writes]
    await asyncio.sleep(0)  # every one queued
    for i in cancel:
        tasks[i].cancel()
    release.set()
    await asyncio.wait([head, *tasks])  # the head shares the batch's group: its fate too
    return tasks


def _outcomes(tasks: list[asyncio.Task[Any]]) -> list[Any]:
    return [t.exception() or t.result() for t in tasks]


async def test_writes_queued_while_the_writer_is_held_are_one_trip_and_one_commit(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    trips = _trips(db)
    tasks = await _held(db, [(_one(x), False) for x in range(1, 11)])
    assert [t.result() for t in tasks] == list(range(1, 11))  # each its own body's result
    assert len(trips) == 1
    assert len(commits) == 1
    assert await _rows(db_target) == list(range(1, 11))


async def test_a_lone_write_goes_at_once_and_those_behind_it_in_one_trip(
        db: Database, db_target: str | Path) -> None:
    """The writer free and nothing queued, the first write goes in its caller's task; the
    nine started with it queue during its trip and go in the next one."""
    await _table(db)
    commits = await _commits(db)
    trips = _trips(db)
    assert await asyncio.gather(*(db.write(_one(x)) for x in range(10))) == list(range(10))
    assert len(trips) == 2
    assert len(commits) == 2
    assert await _rows(db_target) == list(range(10))


async def test_a_body_raising_in_the_middle_of_a_batch_fails_only_its_caller(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    trips = _trips(db)

    async def fails(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (50)")
        raise ValueError("a refused step")

    bodies = [_one(x) for x in range(1, 6)] + [fails] + [_one(x) for x in range(6, 11)]
    tasks = await _held(db, [(b, False) for b in bodies])
    assert isinstance(tasks[5].exception(), ValueError)
    assert [t.result() for t in tasks if t is not tasks[5]] == list(range(1, 11))
    assert len(trips) == 1
    assert await _rows(db_target) == list(range(1, 11))  # 50 undone with its savepoint


async def test_a_constraint_error_in_a_batch_undoes_only_its_write(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    trips = _trips(db)

    async def duplicate(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (40)")
        await conn.execute("INSERT INTO t (x) VALUES (1)")  # the first write's: refused

    tasks = await _held(db, [(_one(1), False), (duplicate, False), (_one(2), False)])
    assert isinstance(tasks[1].exception(), INTEGRITY)
    assert (tasks[0].result(), tasks[2].result()) == (1, 2)
    assert len(trips) == 1
    assert await _rows(db_target) == [1, 2]


async def test_a_write_cancelled_while_queued_changes_nothing(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    trips = _trips(db)
    tasks = await _held(db, [(_one(x), False) for x in range(1, 6)], cancel=(2,))
    assert tasks[2].cancelled()
    assert [t.result() for t in tasks if t is not tasks[2]] == [1, 2, 4, 5]
    assert len(trips) == 1
    assert await _rows(db_target) == [1, 2, 4, 5]


async def test_a_caller_cancelled_during_its_batchs_trip_leaves_the_batch_whole(
        db: Database, db_target: str | Path) -> None:
    """Its write is in the trip already: committed with the others, which all return; only
    the cancelled caller hears the cancel, and the writer goes on."""
    await _table(db)
    hold, started = asyncio.Event(), asyncio.Event()
    trips = _trips(db, hold, started)

    head, release = await hold_writer(db)
    tasks = [asyncio.create_task(db.write(_one(x))) for x in range(1, 6)]
    await asyncio.sleep(0)  # every one queued
    release.set()
    await started.wait()
    tasks[0].cancel()  # the caller whose write woke the batch's task
    tasks[3].cancel()
    await asyncio.sleep(0.01)
    hold.set()
    await asyncio.wait([head, *tasks])
    assert tasks[0].cancelled() and tasks[3].cancelled()
    assert [tasks[i].result() for i in (1, 2, 4)] == [2, 3, 5]
    assert len(trips) == 1
    assert await _rows(db_target) == [1, 2, 3, 4, 5]
    assert await db.write(_one(6)) == 6
    assert await _rows(db_target) == [1, 2, 3, 4, 5, 6]


async def test_a_failed_commit_fails_every_write_of_the_batch(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    await _deferred_tables(db)
    trips = _trips(db)

    async def dangling(conn: Connection) -> None:
        await conn.execute("INSERT INTO c (p) VALUES (99)")  # checked at COMMIT

    outcomes = _outcomes(await _held(db, [(_one(1), False), (dangling, False),
                                          (_one(3), False)]))
    assert all(isinstance(o, INTEGRITY) for o in outcomes)
    assert len(trips) == 1
    assert await _rows(db_target) == []
    assert await db.write(_one(4)) == 4  # the writer goes on
    assert await _rows(db_target) == [4]


async def test_foreground_writes_are_a_batch_before_the_background_ones(
        db: Database, db_target: str | Path) -> None:
    """Queued after three background writes, three foreground ones are written first, in a
    trip of their own that commits before any background body runs: their callers never
    wait for a background write."""
    await _table(db)
    seen = await _commits(db)  # "COMMIT" as the writer runs it; the bodies note themselves
    trips = _trips(db)
    tasks = await _held(db, [(_one(x, seen), True) for x in (1, 2, 3)]
                        + [(_one(x, seen), False) for x in (4, 5, 6)])
    assert [t.result() for t in tasks] == [1, 2, 3, 4, 5, 6]
    # the holder's group left open for the foreground batch, which commits it
    assert seen == ["write 4", "write 5", "write 6", "COMMIT",
                    "write 1", "write 2", "write 3", "COMMIT"]
    assert len(trips) == 2
    assert await _rows(db_target) == [1, 2, 3, 4, 5, 6]


async def test_a_batch_holds_at_most_group_max_writes(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    trips = _trips(db)
    count = GROUP_MAX + 6
    tasks = await _held(db, [(_one(x), False) for x in range(count)])
    assert _outcomes(tasks) == list(range(count))
    assert len(trips) == 2
    assert len(commits) == 2
    assert await _rows(db_target) == list(range(count))


async def test_a_write_from_inside_a_transaction_of_the_same_task_is_refused(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    with pytest.raises(RuntimeError, match="deadlock"):
        async with db.transaction():
            await db.write(_one(1))
    assert await db.write(_one(2)) == 2  # the writer was released
    assert await _rows(db_target) == [2]


@pytest.mark.sqlite_only  # the one trip is SQLite's (PostgreSQL's bodies may await anything)
async def test_a_body_awaiting_anything_else_fails_alone_in_its_batch(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    trips = _trips(db)

    async def sleeps(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (9)")
        await asyncio.sleep(0)

    outcomes = _outcomes(await _held(db, [(_one(1), False), (sleeps, False),
                                          (_one(2), False)]))
    assert outcomes[0] == 1 and outcomes[2] == 2
    assert isinstance(outcomes[1], NotOneTrip)
    assert len(trips) == 1
    assert await _rows(db_target) == [1, 2]


async def test_a_connection_lost_in_a_batch_fails_the_writes_it_carried(
        db: Database, db_target: str | Path) -> None:
    """The database rolls the whole group back in the middle of a batch (an I/O error): the
    writes already in the group fail with it; the ones after are written in a new group."""
    await _table(db)
    trips = _trips(db)

    async def lost(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (9)")
        await conn.execute("ROLLBACK")  # what SQLite does itself on an I/O error
        raise DatabaseUnavailable("disk I/O error")

    outcomes = _outcomes(await _held(db, [(_one(1), False), (lost, False),
                                          (_one(3), False)]))
    assert isinstance(outcomes[0], Exception)
    assert isinstance(outcomes[1], DatabaseUnavailable)
    assert outcomes[2] == 3
    assert len(trips) == 2  # the third write's trip on a new group (a new connection)
    assert await _rows(db_target) == [3]


async def _statements(db: Database) -> list[str]:
    """The writer's statements as its thread runs them."""
    seen: list[str] = []
    sqlite_transactions(db).group_max_s = None
    await sqlite_writer(db).set_trace_callback(lambda s: seen.append(" ".join(s.split())))
    return seen


async def test_a_batchs_statements_one_savepoint_each_and_one_commit(db: Database) -> None:
    """Each body in its savepoint, the group's BEGIN before the first; the COMMIT releases the
    last savepoint."""
    await _table(db)
    seen = await _statements(db)
    assert await db.write(_one(0)) == 0  # alone
    lone = seen[:]
    seen.clear()
    assert _outcomes(await _held(db, [(_one(x), False) for x in (1, 2, 3)])) == [1, 2, 3]
    batch = seen[seen.index("RELEASE one_write") + 1:]  # after the holding transaction's
    insert = "INSERT INTO t (x) VALUES ({})".format
    assert lone == ["BEGIN IMMEDIATE", "SAVEPOINT one_write", insert(0), "COMMIT"]
    assert batch == ["SAVEPOINT one_write", insert(1), "RELEASE one_write",
                     "SAVEPOINT one_write", insert(2), "RELEASE one_write",
                     "SAVEPOINT one_write", insert(3), "COMMIT"]


async def test_a_failed_body_between_others_is_undone_in_the_batch(db: Database) -> None:
    await _table(db)
    seen = await _statements(db)

    async def fails(conn: Connection) -> None:
        raise ValueError("refused")

    outcomes = _outcomes(await _held(db, [(_one(1), False), (fails, False), (_one(3), False)]))
    assert outcomes[0] == 1 and isinstance(outcomes[1], ValueError) and outcomes[2] == 3
    batch = seen[seen.index("RELEASE one_write") + 1:]
    undo = ["ROLLBACK TO one_write", "RELEASE one_write", "SAVEPOINT one_write"]
    assert batch[2:7] == ["RELEASE one_write", "SAVEPOINT one_write", *undo]
    assert batch[-1] == "COMMIT" and batch.count("COMMIT") == 1

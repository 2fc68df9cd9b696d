"""``db.snapshot(body)``: a read-only snapshot whose statements SQLite runs in one trip to the
reading connection's thread (the deal's read, ``storage/repos/deal_reads.py``), with the outcomes of
``db.read()``: what was committed, nothing written, the reader usable after a failure or a
cancel."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from storage import Database
from storage.backends.sqlite_thread import NotOneTrip
from storage.errors import UnknownClub
from storage.sql import Connection
from tests.storage.conftest import CLUB, NOW, add_players, sqlite_transactions
from tests.storage.test_group_commit import _rows, _table

DAY = date(2026, 3, 10)


async def _several(conn: Connection) -> tuple[int | None, list[int]]:
    """What a repository's read calls: a cursor entered and fetched, execute_fetchall."""
    async with conn.execute("SELECT max(x) FROM t") as cur:
        row = await cur.fetchone()
    every = [int(r[0]) for r in await conn.execute_fetchall("SELECT x FROM t ORDER BY x")]
    return None if row is None or row[0] is None else int(row[0]), every


async def _fill(db: Database, *xs: int) -> None:
    async with db.transaction() as conn:
        for x in xs:
            await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))


def _count_trips(raw: Any, trips: list[object]) -> Any:
    execute = raw.run

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await execute(fn, *args, **kwargs)

    raw.run = counted
    return execute


async def test_a_snapshot_returns_what_was_committed(db: Database) -> None:
    await _table(db)
    await _fill(db, 3, 1, 2)
    assert await db.snapshot(_several) == (3, [1, 2, 3])


async def test_a_snapshot_writes_nothing(db: Database, db_target: str | Path) -> None:
    await _table(db)

    async def writes(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (7)")

    with pytest.raises(Exception):  # noqa: B017  (read-only: each backend says it its way)
        await db.snapshot(writes)
    assert await _rows(db_target) == []
    assert await db.snapshot(_several) == (None, [])  # the reader works on


@pytest.mark.sqlite_only  # the one trip is SQLite's (PostgreSQL sends each statement)
async def test_on_sqlite_a_snapshot_is_one_trip_to_the_reading_thread(db: Database) -> None:
    await _table(db)
    await _fill(db, 1, 2)
    raw: Any = sqlite_transactions(db)._reader
    trips: list[object] = []
    execute = _count_trips(raw, trips)
    try:
        assert await db.snapshot(_several) == (2, [1, 2])
    finally:
        raw.run = execute
    assert len(trips) == 1  # BEGIN, four statements, ROLLBACK


@pytest.mark.sqlite_only
async def test_the_deals_read_is_one_trip(db: Database) -> None:
    """Twelve trips as a ``db.read()``, each waiting for a turn of a busy loop."""
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await add_players(db, 1, 2, 3)
    await db.clubs.save_preset(CLUB, 3, ["mafia", "civilian", "civilian"])
    game = await db.games.create(CLUB, 9, created_at=NOW, seats=[(1, 1), (2, 2), (3, 3)])
    await db.first_day_killed.mark(CLUB, DAY, 2)
    order = await db.immunity.order(game, 1, 3, announce_name=True)
    raw: Any = sqlite_transactions(db)._reader
    trips: list[object] = []
    execute = _count_trips(raw, trips)
    try:
        inputs = await db.deal_reads.read(chat_id=CLUB, game_id=game, tg_ids=(1, 2, 3, 4),
                                          day=DAY, preset_size=3)
    finally:
        raw.run = execute
    assert len(trips) == 1
    assert inputs.preset == ["mafia", "civilian", "civilian"]
    assert sorted(inputs.players) == [1, 2, 3]  # 4 has no account
    assert inputs.killed_today == {2}
    assert [o.id for o in inputs.orders] == [order.id]


async def test_the_deals_read_refuses_an_unknown_club_and_reads_on(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    with pytest.raises(UnknownClub):
        await db.deal_reads.read(chat_id=CLUB - 1, game_id=1, tg_ids=(), day=DAY,
                                 preset_size=None)
    game = await db.games.create(CLUB, 9, created_at=NOW)
    inputs = await db.deal_reads.read(chat_id=CLUB, game_id=game, tg_ids=(), day=DAY,
                                      preset_size=None)
    assert (inputs.preset, inputs.players, inputs.killed_today, inputs.orders) == (
        None, {}, set(), [])


async def test_a_failing_body_raises_and_the_reader_reads_on(db: Database) -> None:
    await _table(db)
    await _fill(db, 5)

    async def fails(conn: Connection) -> None:
        await conn.execute_fetchall("SELECT x FROM t")
        raise LookupError("the body's own error")

    with pytest.raises(LookupError):
        await db.snapshot(fails)
    # no snapshot left open on the reader: a new one sees a later commit
    await _fill(db, 6)
    assert await db.snapshot(_several) == (6, [5, 6])
    assert [int(r[0]) for r in await db.query("SELECT x FROM t ORDER BY x")] == [5, 6]


@pytest.mark.sqlite_only
async def test_a_body_awaiting_anything_else_is_refused_and_the_reader_reads_on(
        db: Database) -> None:
    await _table(db)

    async def sleeps(conn: Connection) -> None:
        await conn.execute_fetchall("SELECT x FROM t")
        await asyncio.sleep(0)

    with pytest.raises(NotOneTrip):
        await db.snapshot(sleeps)
    await _fill(db, 1)
    assert await db.snapshot(_several) == (1, [1])


async def test_a_cancelled_snapshot_leaves_the_reader_usable(db: Database) -> None:
    await _table(db)
    await _fill(db, 1)
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with db.read():
            held.set()
            await release.wait()

    first = asyncio.create_task(holder())
    await held.wait()
    if db.backend == "sqlite":  # one reading connection (PostgreSQL's pool has another)
        waiting = asyncio.create_task(db.snapshot(_several))  # queued behind the read
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    release.set()
    await first
    for _ in range(3):  # cancelled in the middle of its trip (SQLite) or its statements
        task = asyncio.create_task(db.snapshot(_several))
        await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await _fill(db, 2)
    assert await db.snapshot(_several) == (2, [1, 2])


async def test_a_snapshot_inside_the_same_tasks_read_is_refused(db: Database) -> None:
    await _table(db)
    async with db.read():
        with pytest.raises(RuntimeError, match="inside"):
            await db.snapshot(_several)

"""Group commit: transactions that queue for the writer share one COMMIT, yet each keeps its
own outcome (a failure or a cancel undoes only itself) and returns only once durable."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from storage import Database
from storage.db import GROUP_MAX, GroupRolledBack
from storage.sql import Connection
from tests.storage.conftest import sqlite_transactions, sqlite_writer

# SQLite's one writer and its group commit (PostgreSQL's pool: test_pool.py)
pytestmark = pytest.mark.sqlite_only

INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
Body = Callable[[Connection], Awaitable[None]]


async def _table(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")


async def _deferred_tables(db: Database) -> None:
    """``c`` referencing ``p`` with the check at COMMIT: a row of ``c`` alone fails the commit."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE p (id INTEGER PRIMARY KEY)")
        await conn.execute("CREATE TABLE c (p INTEGER REFERENCES p (id)"
                           " DEFERRABLE INITIALLY DEFERRED)")


async def _rows(target: str | Path) -> list[int]:
    """What another connection sees: only committed rows."""
    if isinstance(target, str):
        pg = await asyncpg.connect(target)
        try:
            return [r[0] for r in await pg.fetch("SELECT x FROM t ORDER BY x")]
        finally:
            await pg.close()
    conn = sqlite3.connect(target)
    try:
        return [r[0] for r in conn.execute("SELECT x FROM t ORDER BY x")]
    finally:
        conn.close()


def _insert(x: int) -> Body:
    async def body(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))
    return body


async def _commits(db: Database) -> list[str]:
    seen: list[str] = []
    sqlite_transactions(db).group_max_s = None  # count by queue and size, not time
    await sqlite_writer(db).set_trace_callback(  # the writer's statements, as SQLite runs them
        lambda s: seen.append(s) if s.strip().upper() == "COMMIT" else None)
    return seen


async def _queued(db: Database, bodies: list[Body]) -> list[BaseException | None]:
    """Run ``bodies`` as transactions queued behind a first one that holds the writer, so
    that they form one group; their outcomes in order."""
    sqlite_transactions(db).group_max_s = None  # one group however long the first holds the writer
    release = asyncio.Event()
    holding = asyncio.Event()

    async def first() -> None:
        async with db.transaction() as conn:
            holding.set()
            await release.wait()
            await conn.execute("INSERT INTO t (x) VALUES (0)")

    async def run(body: Body) -> None:
        async with db.transaction() as conn:
            await body(conn)

    head = asyncio.create_task(first())
    await holding.wait()
    tasks = [asyncio.create_task(run(b)) for b in bodies]
    await asyncio.sleep(0)  # every one of them queued for the writer
    release.set()
    outcomes: list[BaseException | None] = []
    for task in [head, *tasks]:
        try:
            await task
            outcomes.append(None)
        except BaseException as exc:  # the outcome is what is asserted
            outcomes.append(exc)
    return outcomes[1:]


async def test_queued_transactions_share_one_commit(db: Database, db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    outcomes = await _queued(db, [_insert(x) for x in range(1, 11)])
    assert outcomes == [None] * 10
    assert await _rows(db_target) == list(range(11))
    assert len(commits) == 1


async def test_a_lone_transaction_commits_at_once(db: Database, db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO t (x) VALUES (7)")
    # returned: committed, visible to another connection
    assert await _rows(db_target) == [7]
    assert len(commits) == 1


async def test_each_returns_only_once_its_rows_are_committed(db: Database,
                                                             db_target: str | Path) -> None:
    await _table(db)
    seen: dict[int, list[int]] = {}

    async def write_then_look(x: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))
        seen[x] = await _rows(db_target)

    await asyncio.gather(*(write_then_look(x) for x in range(20)))
    assert all(x in rows for x, rows in seen.items())


async def test_a_failing_transaction_undoes_only_itself(db: Database,
                                                        db_target: str | Path) -> None:
    await _table(db)

    async def fails(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (2)")
        raise RuntimeError("boom")

    outcomes = await _queued(db, [_insert(1), fails, _insert(3)])
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], RuntimeError)
    assert await _rows(db_target) == [0, 1, 3]


async def test_a_constraint_error_undoes_only_its_transaction(db: Database,
                                                              db_target: str | Path) -> None:
    await _table(db)

    async def duplicate(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (5)")
        await conn.execute("INSERT INTO t (x) VALUES (1)")  # taken by the one before

    outcomes = await _queued(db, [_insert(1), duplicate, _insert(6)])
    assert isinstance(outcomes[1], INTEGRITY)
    assert await _rows(db_target) == [0, 1, 6]


async def test_a_cancelled_transaction_undoes_only_itself(db: Database,
                                                          db_target: str | Path) -> None:
    await _table(db)
    inside = asyncio.Event()

    async def hangs(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (2)")
        inside.set()
        await asyncio.Event().wait()

    async def cancel_when_inside() -> None:
        await inside.wait()
        victim.cancel()

    async def run(body: Body) -> None:
        async with db.transaction() as conn:
            await body(conn)

    first = asyncio.create_task(run(_insert(1)))
    victim = asyncio.create_task(run(hangs))
    last = asyncio.create_task(run(_insert(3)))
    await cancel_when_inside()
    await first
    with pytest.raises(asyncio.CancelledError):
        await victim
    await last
    assert await _rows(db_target) == [1, 3]


@pytest.mark.parametrize("turns", [0, 1, 2, 3, 5, 8])
async def test_cancelled_while_queued_the_group_still_commits(db: Database, db_target: str | Path,
                                                               turns: int) -> None:
    """The last of a group leaves the COMMIT to a writer still queued; if that writer is
    cancelled before its turn (at any point around the release), the group is committed
    anyway and nobody waits forever."""
    await _table(db)
    release = asyncio.Event()
    holding = asyncio.Event()

    async def first() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t (x) VALUES (1)")
            holding.set()
            await release.wait()

    async def queued_writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t (x) VALUES (2)")

    head = asyncio.create_task(first())
    await holding.wait()
    queued = asyncio.create_task(queued_writer())
    await asyncio.sleep(0)
    release.set()
    for _ in range(turns):
        await asyncio.sleep(0)
    queued.cancel()
    await asyncio.wait_for(head, 10)  # a guard against a hang, not a measure of speed
    with contextlib.suppress(asyncio.CancelledError):
        await queued
    rows = await _rows(db_target)
    assert rows in ([1], [1, 2])  # 2 only if the writer got its turn before the cancel
    assert sqlite_transactions(db)._group is None


async def test_a_failed_commit_fails_every_transaction_of_the_group(
        db: Database, db_target: str | Path) -> None:
    await _table(db)
    await _deferred_tables(db)

    async def dangling(conn: Connection) -> None:
        await conn.execute("INSERT INTO c (p) VALUES (99)")  # checked at COMMIT

    outcomes = await _queued(db, [_insert(1), dangling, _insert(3)])
    assert all(isinstance(o, INTEGRITY) for o in outcomes)
    assert await _rows(db_target) == []
    # and the writer goes on
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO t (x) VALUES (4)")
    assert await _rows(db_target) == [4]


async def test_a_whole_group_rolled_back_fails_its_earlier_transactions(
        db: Database, db_target: str | Path) -> None:
    """SQLite rolls a whole transaction back on some errors (I/O, a full disk): the group's
    earlier transactions then fail too, never report success for lost rows."""
    await _table(db)

    async def loses_everything(conn: Connection) -> None:
        await conn.execute("ROLLBACK")  # what SQLite does itself on such an error
        raise sqlite3.OperationalError("disk I/O error")

    outcomes = await _queued(db, [_insert(1), loses_everything, _insert(3)])
    assert isinstance(outcomes[0], GroupRolledBack)
    assert isinstance(outcomes[1], sqlite3.OperationalError)
    assert outcomes[2] is None  # a new group after the loss
    assert await _rows(db_target) == [3]


async def test_a_busy_writer_still_commits_every_group_max(db: Database,
                                                           db_target: str | Path) -> None:
    await _table(db)
    commits = await _commits(db)
    count = GROUP_MAX * 2 + 5
    outcomes = await _queued(db, [_insert(x) for x in range(1, count + 1)])
    assert outcomes == [None] * count
    assert len(await _rows(db_target)) == count + 1
    assert len(commits) == 3


async def test_close_commits_an_open_group(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    await _table(db)
    release = asyncio.Event()
    holding = asyncio.Event()

    async def first() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t (x) VALUES (1)")
            holding.set()
            await release.wait()

    async def second() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO t (x) VALUES (2)")

    head = asyncio.create_task(first())
    await holding.wait()
    closing = asyncio.create_task(db.close())  # queued before the second writer
    await asyncio.sleep(0)
    tail = asyncio.create_task(second())
    await asyncio.sleep(0)
    release.set()
    await head  # left its COMMIT to the writer behind it; the close committed it
    await closing
    with pytest.raises(ValueError):  # the connection is closed by then
        await tail
    assert await _rows(db_target) == [1]


async def test_a_group_older_than_its_limit_commits_with_writers_still_waiting(
        db: Database, db_target: str | Path) -> None:
    """The first of a group does not wait for the whole queue behind it: a group commits
    once it is ``group_max_s`` old, at the end of the transaction under way."""
    await _table(db)
    commits = await _commits(db)
    sqlite_transactions(db).group_max_s = 0.05
    seen: list[tuple[str, int]] = []

    def slow(x: int) -> Body:
        async def body(conn: Connection) -> None:
            seen.append(("began", x))
            await asyncio.sleep(0.02)  # a transaction's statements under a busy loop
            await conn.execute("INSERT INTO t (x) VALUES (?)", (x,))
        return body

    async def run(x: int) -> None:
        async with db.transaction() as conn:
            await slow(x)(conn)
        seen.append(("durable", x))

    await asyncio.gather(*(run(x) for x in range(1, 21)))
    assert await _rows(db_target) == list(range(1, 21))
    assert 3 <= len(commits) < 20  # groups of a few, not one of 20 nor 20 of one
    # the first was durable before the last began
    assert seen.index(("durable", 1)) < seen.index(("began", 20))

"""The writers benchmark (benchmarks/bench_writers.py): its "one lock" mode really makes every
write of every ``Database`` wait for one lock, as before the pool, while the pool's writes do
not; and its table puts both modes side by side."""

from __future__ import annotations

import asyncio

from benchmarks.bench_writers import ONE_LOCK, OneWriteLock, WriterRun, table
from storage import Database
from storage.sql import Connection
from tests import pg_cluster as clusters
from tests.pg_cluster import Cluster

pg_cluster, pg = clusters.pg_cluster, clusters.pg  # the fixtures


async def _waits_for_the_lock(db: Database) -> bool:
    rows = await db.query(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND (classid::bigint << 32 | objid::bigint) = ? AND database ="
        " (SELECT oid FROM pg_database WHERE datname = current_database())", (ONE_LOCK,))
    return int(rows[0][0]) == 1


async def test_one_lock_holds_every_other_write_back_and_the_pool_none(pg: Cluster) -> None:
    url = await pg.new_database()
    first, second = await Database.open(url), await Database.open(url)
    try:
        async with first.transaction() as conn:
            await conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
        opened, finish = asyncio.Event(), asyncio.Event()

        async def held() -> None:
            async with OneWriteLock(first).transaction() as conn:
                await conn.execute("INSERT INTO t VALUES (1)")
                opened.set()
                await finish.wait()

        async def insert(conn: Connection, x: int) -> None:
            await conn.execute("INSERT INTO t VALUES (?)", (x,))

        holder = asyncio.create_task(held())
        await opened.wait()
        # the pool's write is not held back (a bound far above its milliseconds, so that a
        # write held back fails the test rather than hang it)
        await asyncio.wait_for(second.write(lambda conn: insert(conn, 2)), 60)
        waiting = asyncio.create_task(OneWriteLock(second).write(lambda conn: insert(conn, 3)))
        for _ in range(3000):  # until the server shows it waiting (a generous bound)
            if await _waits_for_the_lock(first):
                break
            await asyncio.sleep(0.01)
        assert await _waits_for_the_lock(first)
        assert not waiting.done()
        finish.set()
        await asyncio.gather(holder, waiting)
        assert [r[0] for r in await first.query("SELECT x FROM t ORDER BY x")] == [1, 2, 3]
    finally:
        await first.close()
        await second.close()


def test_the_table_puts_both_modes_side_by_side() -> None:
    rows = [
        WriterRun("pool", 2, 2.0, 2000, [1.0] * 99 + [9.0], 1.0, 0.5, 500, 0.6, 0.5),
        WriterRun("one lock", 2, 2.0, 1000, [2.0] * 100, 1.0, None, None, None, None),
        WriterRun("one lock", 4, 2.0, 1000, [2.0] * 100, 1.0, None, None, None, None),
    ]
    lines = table(rows).splitlines()
    assert lines[2] == ("| 2 | 1,000 (500) | 1.00 / 9.00 | 500 (250) | 2.00 / 2.00"
                        " | 0.50 / 0.25 | 4.0 | 60 % / 0.5 % |")
    assert lines[3] == "| 4 | — | — | 500 (125) | 2.00 / 2.00 | — | — | — |"

"""The clubs lock (storage/backends/pg_lock.py, bot/standby.py) on a real server: one holder;
a waiter granted it when the holder's session ends; a holder whose connection was cut and whose
lock another took says LOST, and the watch stops the process."""

from __future__ import annotations

import asyncio

import asyncpg

from bot.standby import watch
from storage.backends.pg_lock import Holding, SessionLock
from tests.pg_cluster import Cluster


async def test_one_holder_the_waiter_takes_over_the_cut_holder_stops(pg: Cluster) -> None:
    url = await pg.new_database()
    key = 4242
    first, second = SessionLock(url, key), SessionLock(url, key)
    try:
        assert await first.try_acquire() is True
        assert await second.try_acquire() is False
        assert await first.check() is Holding.HELD
        waiting = asyncio.create_task(second.acquire(every=0.1))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # queued in the server
        # the first one's lock connection dies (its process killed, its machine gone)
        first_conn = first._conn
        assert first_conn is not None
        first_conn.terminate()
        await asyncio.wait_for(waiting, 10)  # granted the moment that session ended
        assert await second.check() is Holding.HELD
        assert await first.check() is Holding.LOST  # reconnected: someone else holds it
        lost: list[bool] = []
        await asyncio.wait_for(watch(first, lambda: lost.append(True), every=0.05), 10)
        assert lost == [True]
    finally:
        await first.release()
        await second.release()


async def test_a_holder_whose_session_the_server_ended_takes_it_back_when_free(
    pg: Cluster
) -> None:
    url = await pg.new_database()
    lock = SessionLock(url, 4343)
    try:
        assert await lock.try_acquire() is True
        conn = lock._conn
        assert conn is not None
        pid = conn.get_server_pid()
        admin = await asyncpg.connect(url)
        try:
            await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        await asyncio.sleep(0.2)
        assert await lock.check() is Holding.HELD  # nobody took it: taken again
        assert lock._conn is not None and lock._conn.get_server_pid() != pid
    finally:
        await lock.release()

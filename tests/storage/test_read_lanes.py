"""The reading connection's lock has two lanes: a game's reads (the default) go before the
delivery's (``background=True``: storage/repos/outbox.py's reads of its queues), which still run
whenever no foreground read waits; a read cancelled while queued leaves the lock usable."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import pytest

from storage import Database
from storage.repos.outbox import SEND, Queued, enqueue_in
from storage.sql import Connection
from storage.txn.writer_lock import LaneLock
from tests.storage.test_group_commit import _table

# SQLite's one writer and its group commit (PostgreSQL's pool: test_pool.py)
pytestmark = pytest.mark.sqlite_only


@asynccontextmanager
async def _reader_held(db: Database) -> AsyncIterator[None]:
    """The reading connection held by a read until the block ends: whatever is started in
    the block queues for it."""
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with db.read() as conn:
            await conn.execute_fetchall("SELECT 1")
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await holding.wait()
    try:
        yield
    finally:
        release.set()
        await holder


def _noted(order: list[str], name: str, read: Awaitable[Any]) -> asyncio.Task[Any]:
    async def run() -> Any:
        result = await read
        order.append(name)
        return result
    return asyncio.create_task(run())


async def _max(conn: Connection) -> int:
    rows = list(await conn.execute_fetchall("SELECT max(x) FROM t"))
    return int(rows[0][0])


async def test_foreground_reads_go_before_queued_background_ones(db: Database) -> None:
    await _table(db)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO t (x) VALUES (7)")

    async def background_read() -> int:
        async with db.read(background=True) as conn:
            return await _max(conn)

    order: list[str] = []
    async with _reader_held(db):
        tasks = [
            _noted(order, "bg query", db.query("SELECT max(x) FROM t", background=True)),
            _noted(order, "bg read", background_read()),
            _noted(order, "bg snapshot", db.snapshot(_max, background=True)),
            _noted(order, "fg query", db.query("SELECT max(x) FROM t")),
            _noted(order, "fg snapshot", db.snapshot(_max)),
        ]
        await asyncio.sleep(0)  # all queued, in this order
    results = await asyncio.gather(*tasks)
    # the foreground lane first, each lane in order; the background ones still ran
    assert order == ["fg query", "fg snapshot", "bg query", "bg read", "bg snapshot"]
    assert [r if isinstance(r, int) else r[0][0] for r in results] == [7] * 5


async def test_the_delivery_reads_its_queue_after_a_games_read(db: Database) -> None:
    await _table(db)
    async with db.transaction() as conn:
        await enqueue_in(conn, [Queued(10, SEND, {"text": "x"}, key="a")], now=1.0)
    order: list[str] = []
    async with _reader_held(db):
        tasks = [_noted(order, "chats", db.outbox.pending_chats()),
                 _noted(order, "queue", db.outbox.pending(10)),
                 _noted(order, "sent?", db.outbox.message_id(10, "a")),
                 _noted(order, "game", db.query("SELECT count(*) FROM t"))]
        await asyncio.sleep(0)
    chats, queue, sent, game = await asyncio.gather(*tasks)
    assert order == ["game", "chats", "queue", "sent?"]
    assert (chats, [r.key for r in queue], sent, game[0][0]) == ([10], ["a"], ("pending", None), 0)


@pytest.mark.parametrize("lane", ["foreground", "background"])
async def test_a_read_cancelled_in_the_queue_leaves_the_reader_usable(
        db: Database, lane: str) -> None:
    await _table(db)
    queued: list[Callable[[], Coroutine[Any, Any, Any]]] = [
        lambda: db.query("SELECT 1", background=lane == "background"),
        lambda: db.snapshot(_max, background=lane == "background"),
    ]
    order: list[str] = []
    async with _reader_held(db):
        cancelled = [asyncio.create_task(read()) for read in queued]
        after = [_noted(order, "bg", db.query("SELECT 2", background=True)),
                 _noted(order, "fg", db.query("SELECT 3"))]
        await asyncio.sleep(0)
        for task in cancelled:
            task.cancel()
    for task in cancelled:
        with pytest.raises(asyncio.CancelledError):
            await task
    assert [r[0][0] for r in await asyncio.gather(*after)] == [2, 3]
    assert order == ["fg", "bg"]
    assert (await db.query("SELECT 4", background=True))[0][0] == 4
    assert (await db.query("SELECT 5"))[0][0] == 5


async def test_a_background_waiter_handed_the_lock_as_it_is_cancelled_passes_it_on() -> None:
    lock = LaneLock()
    await lock.acquire()
    got: list[str] = []

    async def take(name: str, background: bool) -> None:
        async with lock.lane(background=background):
            got.append(name)

    cancelled = asyncio.create_task(take("cancelled", True))
    background = asyncio.create_task(take("background", True))
    await asyncio.sleep(0)
    lock.release()  # handed to the first background waiter...
    cancelled.cancel()  # ...cancelled before it ran: it passes the lock on
    await asyncio.gather(cancelled, background, return_exceptions=True)
    assert got == ["background"]
    assert not lock.locked()
    await lock.acquire(background=True)  # free: taken at once
    assert lock.locked()
    lock.release()

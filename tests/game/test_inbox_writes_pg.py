"""The inbox's own writes on PostgreSQL (bot/cluster/sharing.py, docs/scaling.md "Where a press
waited"): the poller's rows and the handled marks go on the share connection, each batch in one
statement, never waiting for another process's transaction, which may stay open for a while.
Then the batching of the marks itself."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, cast

from bot.cluster.club_calls import CallsHeard, ClubCalls
from bot.cluster.handled_marks import HandledMarks
from bot.cluster.outbox_notices import OutboxNotices
from bot.cluster.sharing import Sharing
from bot.telegram.updates import RawUpdate
from bot.wiring import share_connection
from storage.db import Database
from tests.pg_cluster import Cluster

CLUB, PLAYER, HOST = -100_800_001, 801, 802


def update(update_id: int, text: str, chat: dict[str, Any], uid: int = PLAYER) -> RawUpdate:
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "chat": chat, "text": text,
        "from": {"id": uid, "is_bot": False, "first_name": "P"}}}


async def test_the_inbox_is_written_and_marked_while_another_process_writes(
    pg: Cluster
) -> None:
    url = await pg.new_database()
    db = await Database.open(url)
    other = await Database.open(url)  # another process, in the middle of a long write
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for uid in (PLAYER, HOST):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
    await db.games.create(CLUB, HOST, seats=[(1, PLAYER)], created_at=datetime.now(UTC))
    heard = CallsHeard()
    conn = share_connection(url, db, lambda: None, heard)  # as bot/wiring.py's
    sharing = Sharing(conn, cast(Any, None),
                      cast(Any, type("D", (), {})()), cast(Any, None), cast(Any, None), db,
                      marks=HandledMarks(conn.mark_handled), calls=ClubCalls(conn, heard),
                      notices=OutboxNotices(conn), arm_expiry=lambda: None, webhook=True,
                      in_flight=10)
    await sharing.conn.join()
    held, release = asyncio.Event(), asyncio.Event()

    async def long_write() -> None:
        async with other.transaction():  # open until released
            held.set()
            await release.wait()

    writing = asyncio.create_task(long_write())
    tasks: list[asyncio.Future[Any]] = []
    try:
        await asyncio.wait_for(held.wait(), 10)
        group = {"id": CLUB, "type": "supergroup", "title": "Club"}
        private = {"id": PLAYER, "type": "private", "first_name": "P"}
        batch = [update(1, "/newgame", group), update(2, "/myrole", private),
                 update(3, "/help", {"id": 9, "type": "private", "first_name": "S"}, 9)]
        for step in (lambda: sharing.receive(batch),
                     lambda: sharing.receive([batch[0], update(4, "/start", private)]),
                     lambda: asyncio.gather(*(sharing.marks.mark(u, time.time())
                                              for u in (1, 2, 4)))):
            task = asyncio.ensure_future(step())
            tasks.append(task)
            await asyncio.wait([task], timeout=5)  # not cancelled: a write waits it through
            assert task.done(), "the inbox waited for another process's transaction"
        assert not writing.done()
        rows = await db.query("SELECT update_id, club, handled IS NOT NULL FROM inbox"
                              " ORDER BY update_id")
        assert [tuple(r) for r in rows] == [(1, CLUB, True), (2, CLUB, True), (3, None, False),
                                            (4, CLUB, True)]
    finally:
        release.set()
        await writing
        await asyncio.gather(*tasks)
        await sharing.close()
        await other.close()
        await db.close()


async def test_the_marks_of_handlers_returning_together_are_one_write() -> None:
    writes: list[list[int]] = []
    first, failing = asyncio.Event(), {97}

    async def write(ids: Iterable[int], now: float) -> None:
        writes.append(sorted(ids))
        if len(writes) == 1:
            await first.wait()  # the first batch in flight: the others gather meanwhile
        if failing & set(ids):
            raise ConnectionError("the server went away")

    marks = HandledMarks(write)
    one = asyncio.create_task(marks.mark(1, 0.0))
    await asyncio.sleep(0)
    more = [asyncio.create_task(marks.mark(u, 0.0)) for u in range(2, 12)]
    await asyncio.sleep(0)
    first.set()
    await asyncio.gather(one, *more)
    assert writes == [[1], list(range(2, 12))]
    # a failed write fails its own batch's waiters (the rows stay unhandled), not the next
    failed = asyncio.gather(marks.mark(97, 0.0), marks.mark(98, 0.0), return_exceptions=True)
    assert [type(e) for e in await failed] == [ConnectionError, ConnectionError]
    await marks.mark(99, 0.0)
    assert writes[-2:] == [[97, 98], [99]]
    await marks.close()

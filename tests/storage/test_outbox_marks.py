"""The delivery's marks of sent rows: written in batches (one transaction for the marks that
queue while one is written), each caller answered for its own row once durable."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from storage import Database
from storage.repos.outbox import EDIT, SEND, Queued
from tests.storage.holding import hold_writer


async def _queue(db: Database, chats: int) -> None:
    await db.outbox.enqueue([Queued(c, SEND, {"text": f"t{c}"}, key="k") for c in range(chats)]
                            + [Queued(0, SEND, {"photo": "AAAA", "caption": "c"}, key="pic")],
                            now=1.0)


async def test_marks_that_queue_together_are_one_transaction(db: Database) -> None:
    await _queue(db, 10)
    rows = [r for c in range(10) for r in await db.outbox.pending(c)]
    writes: list[Any] = []
    write = db.write

    async def counted(body: Any, **kw: Any) -> Any:
        writes.append(kw)
        return await write(body, **kw)

    db.write = counted  # type: ignore[method-assign]
    sent = await asyncio.gather(*(db.outbox.mark_sent(r, 100 + r.id, now=2.0) for r in rows))
    assert sent == [True] * 11
    assert writes == [{"background": True}]  # one transaction, behind the games' steps
    stored = await db.outbox.rows()
    assert len(stored) == 11
    assert all((r["status"], r["message_id"]) == ("sent", 100 + r["id"]) for r in stored)
    picture = next(r for r in stored if r["key"] == "pic")
    assert '"photo"' not in picture["payload"]  # a sent picture's bytes are dropped
    assert await db.outbox.pending_chats() == []


async def test_each_caller_learns_its_own_rows_outcome(db: Database) -> None:
    """An edit coalesced while in flight (its rev moved on) is False, the others True."""
    await db.outbox.enqueue([Queued(1, SEND, {"text": "board"}, key="b"),
                             Queued(2, SEND, {"text": "x"}, key="x")], now=1.0)
    board, other = (await db.outbox.pending(1))[0], (await db.outbox.pending(2))[0]
    assert await db.outbox.mark_sent(board, 7, now=2.0)
    await db.outbox.enqueue([Queued(1, EDIT, {"text": "v1"}, key="b")], now=3.0)
    edit = (await db.outbox.pending(1))[0]
    await db.outbox.enqueue([Queued(1, EDIT, {"text": "v2"}, key="b")], now=4.0)  # rev + 1
    results = await asyncio.gather(db.outbox.mark_sent(edit, 7, now=5.0),
                                   db.outbox.mark_sent(other, 8, now=5.0))
    assert list(results) == [False, True]
    assert [(r["method"], r["status"]) for r in await db.outbox.rows(1)] == [
        ("send", "sent"), ("edit", "pending")]  # the coalesced edit goes out again


async def test_a_mark_cancelled_before_its_batch_began_is_not_written(db: Database) -> None:
    await _queue(db, 2)
    first, second = (await db.outbox.pending(0))[0], (await db.outbox.pending(1))[0]
    holder, release = await hold_writer(db)
    kept = asyncio.create_task(db.outbox.mark_sent(first, 1, now=2.0))
    for _ in range(3):
        await asyncio.sleep(0)  # its batch began: it waits for the writer
    dropped = asyncio.create_task(db.outbox.mark_sent(second, 2, now=2.0))
    await asyncio.sleep(0)  # queued for the next batch
    dropped.cancel()
    release.set()
    await holder
    assert await kept
    assert dropped.cancelled()
    picture = next(r for r in await db.outbox.pending(0) if r.key == "pic")
    assert await db.outbox.mark_sent(picture, 3, now=2.0)  # every batch before it is written
    assert [r.id for r in await db.outbox.pending(1)] == [second.id]  # sent again later
    assert [r["status"] for r in await db.outbox.rows(0) if r["id"] == first.id] == ["sent"]


async def test_a_sent_keyed_message_s_id_is_known_without_a_read(db: Database) -> None:
    """Every edit needs the id of the message it edits: a keyed send this process marked
    sent is answered from memory (a send's key is its chat's once); others are read."""
    await db.outbox.enqueue([Queued(1, SEND, {"text": "board"}, key="b"),
                             Queued(1, SEND, {"text": "plain"}),
                             Queued(2, SEND, {"text": "other"}, key="o")], now=1.0)
    board, plain = await db.outbox.pending(1)
    other = (await db.outbox.pending(2))[0]
    assert await db.outbox.mark_sent(board, 7, now=2.0)
    assert await db.outbox.mark_sent(plain, 8, now=2.0)
    assert await db.outbox.message_id(2, "o") == ("pending", None)  # read: not sent yet
    reads: list[str] = []
    store = db.outbox._db
    query = store.query

    async def counted(sql: str, *args: Any, **kw: Any) -> Any:
        reads.append(sql)
        return await query(sql, *args, **kw)

    store.query = counted  # type: ignore[method-assign]
    assert await db.outbox.message_id(1, "b") == ("sent", 7)
    assert reads == []
    assert await db.outbox.mark_sent(other, 9, now=3.0)
    assert await db.outbox.message_id(2, "o") == ("sent", 9)
    assert await db.outbox.message_id(3, "never") is None  # read
    assert len(reads) == 1


@pytest.mark.postgresql_only
async def test_a_mark_behind_a_write_coalescing_its_edit_sees_the_new_rev(
        db: Database, db_target: str) -> None:
    """Another process's transaction coalesced a new text into the edit being sent (and holds
    the row): the mark waits for it, then finds the rev moved on: the edit stays queued with
    the new text, to be sent again."""
    await db.outbox.enqueue([Queued(1, SEND, {"text": "board"}, key="b")], now=1.0)
    assert await db.outbox.mark_sent((await db.outbox.pending(1))[0], 7, now=2.0)
    await db.outbox.enqueue([Queued(1, EDIT, {"text": "v1"}, key="b")], now=3.0)
    edit = (await db.outbox.pending(1))[0]
    other = await asyncpg.connect(str(db_target))
    try:
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE outbox SET payload = $1, rev = rev + 1 WHERE id = $2",
                            '{"text": "v2"}', edit.id)
        mark = asyncio.create_task(db.outbox.mark_sent(edit, 7, now=4.0))
        await asyncio.sleep(0.3)
        assert not mark.done()  # waits for the row
        await tx.commit()
        assert await asyncio.wait_for(mark, 10) is False
    finally:
        await other.close()
    [row] = await db.outbox.pending(1)
    assert (row.id, row.payload) == (edit.id, {"text": "v2"})

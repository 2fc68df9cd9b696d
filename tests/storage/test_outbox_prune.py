"""Sent outbox rows are pruned after the days kept (``Outbox.prune``; docs/storage.md, "What is
pruned"): their words go, what a later edit or a repeated key needs stays."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from storage import Database
from storage.repos import outbox as outbox_module
from storage.repos.outbox import EDIT, MERGED_INTO, PARTS, SEND, Queued
from storage.sql import Connection

T = TypeVar("T")

DAY = 86_400.0
OLD, NEW = 10 * DAY, 30 * DAY  # sent_at of old and recent rows; the cut is at 20 days


async def _sent(db: Database, messages: list[Queued], at: float) -> list[int]:
    """Queued and marked sent at ``at``: the rows' ids."""
    await db.outbox.enqueue(messages, now=at)
    ids = []
    for chat in sorted({m.chat_id for m in messages}):
        for row in await db.outbox.pending(chat):
            assert await db.outbox.mark_sent(row, 500 + row.id, now=at)
            ids.append(row.id)
    return ids


async def test_sent_rows_lose_their_words_and_keep_what_edits_need(db: Database) -> None:
    role_card = Queued(7, SEND, {"text": "Your role: Mafia"}, key="card:1:3")
    await _sent(db, [role_card, Queued(7, SEND, {"text": "an answer"}),
                     Queued(-100, SEND, {"text": "Night 1.", MERGED_INTO: 1}, key="post:2"),
                     Queued(-100, SEND, {"text": "Day 1.", PARTS: [["post:2", "Night 1."]]},
                            key="post:3")], at=OLD)
    await _sent(db, [Queued(7, EDIT, {"text": "Your role: Mafia (dead)"}, key="card:1:3")],
                at=OLD)
    recent = await _sent(db, [Queued(8, SEND, {"text": "Your role: Doctor"}, key="card:2:1")],
                         at=NEW)
    await db.outbox.enqueue([Queued(9, SEND, {"text": "not yet sent"}, key="p")], now=OLD)

    assert await db.outbox.prune(before=20 * DAY) == 5  # two deleted, three emptied
    rows = {r["key"] or r["id"]: r for r in await db.outbox.rows()}
    assert set(rows) == {"card:1:3", "post:2", "post:3", "card:2:1", "p"}
    card = rows["card:1:3"]
    assert (card["method"], card["status"], json.loads(card["payload"])) == (
        "send", "sent", {"pruned": True})
    assert "Mafia" not in json.dumps([r["payload"] for r in rows.values()])
    assert json.loads(rows["post:2"]["payload"]) == {"pruned": True, MERGED_INTO: 1}
    assert json.loads(rows["post:3"]["payload"]) == {
        "pruned": True, PARTS: [["post:2", "Night 1."]]}
    assert json.loads(rows["card:2:1"]["payload"]) == {"text": "Your role: Doctor"}
    assert rows["p"]["status"] == "pending" and "not yet sent" in rows["p"]["payload"]
    # a later edit of a pruned send still finds its message, and its key is still taken
    assert await db.outbox.message_id(7, "card:1:3") == ("sent", 500 + card["id"])
    await db.outbox.enqueue([role_card], now=NEW)
    assert await db.outbox.pending(7) == []
    assert recent and await db.outbox.prune(before=20 * DAY) == 0  # done once


async def test_a_big_prune_goes_in_bounded_transactions(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox_module, "_PRUNED_AT_ONCE", 4)
    await _sent(db, [Queued(1, SEND, {"text": f"t{n}"}) for n in range(10)]
                + [Queued(1, SEND, {"text": f"k{n}"}, key=f"k{n}") for n in range(9)], at=OLD)
    writes: list[dict[str, bool]] = []
    write = db.write

    async def counted(body: Callable[[Connection], Awaitable[T]], *,
                      background: bool = False) -> T:
        writes.append({"background": background})
        return await write(body, background=background)

    monkeypatch.setattr(db, "write", counted)
    assert await db.outbox.prune(before=20 * DAY) == 19
    assert len(writes) == 6 and all(kw == {"background": True} for kw in writes)
    assert len(await db.outbox.rows()) == 9

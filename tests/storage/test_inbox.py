"""The inbox (storage/repos/inbox.py) on both backends: an update_id is written once, pending until
marked handled, pruned a day after."""

from __future__ import annotations

from storage import Database
from storage.repos.inbox import KEEP_HANDLED_S


async def test_written_once_pending_until_handled_then_pruned(db: Database) -> None:
    assert await db.inbox.add(7, '{"update_id": 7}', 100.0)
    assert not await db.inbox.add(7, '{"update_id": 7, "again": 1}', 101.0)  # second delivery
    assert await db.inbox.add(3, '{"update_id": 3}', 102.0)
    assert await db.inbox.pending() == [(3, '{"update_id": 3}'), (7, '{"update_id": 7}')]
    await db.inbox.handled(7, 200.0)
    await db.inbox.handled(7, 300.0)  # once marked, it keeps its first time
    assert await db.inbox.pending() == [(3, '{"update_id": 3}')]
    assert not await db.inbox.add(7, "{}", 400.0)  # handled: still a second delivery
    assert await db.inbox.prune(200.0 + KEEP_HANDLED_S - 1) == 0
    assert await db.inbox.prune(200.0 + KEEP_HANDLED_S + 1) == 1
    assert await db.inbox.pending() == [(3, '{"update_id": 3}')]  # never pruned unhandled

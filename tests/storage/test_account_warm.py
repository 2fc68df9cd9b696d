"""``Players.warm``: the accounts of a batch of updates' senders read in one query and kept as
``Players.cached`` keeps them (bot/cluster/sharing.py warms a claimed batch before its handlers
run)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage import Database
from storage.models import Player
from tests.storage.conftest import ADMIN, NOW, add_players
from tests.storage.holding import stall_after_read


def _no_single_reads(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    async def read_one(tg_id: int) -> Player | None:
        raise AssertionError(f"account {tg_id} read alone: it was warmed")

    monkeypatch.setattr(db.players, "get", read_one)


async def test_warmed_accounts_are_read_once_for_the_batch(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    await add_players(db, 1, 2, 3)
    reads: list[list[int]] = []
    get_many = db.players.get_many

    async def counted(tg_ids: Any) -> dict[int, Player]:
        reads.append(sorted(tg_ids))
        return await get_many(tg_ids)

    monkeypatch.setattr(db.players, "get_many", counted)
    await db.players.cached(3)  # in memory already: not read again
    await db.players.warm([1, 2, 3, 2, 9])
    assert reads == [[1, 2, 9]]
    _no_single_reads(db, monkeypatch)
    assert [(p.tg_id, p.nickname) for p in [await db.players.cached(i) for i in (1, 2, 3)]
            if p is not None] == [(1, "nick1"), (2, "nick2"), (3, "nick3")]
    assert await db.players.cached(9) is None  # not registered: remembered as such
    await db.players.warm([1, 2, 3, 9])
    assert reads == [[1, 2, 9]]  # nothing missing: no read


async def test_a_write_during_the_warming_read_is_not_hidden_by_it(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    await add_players(db, 1)
    gate = stall_after_read(monkeypatch, db.players, "get_many")
    warming = asyncio.create_task(db.players.warm([1]))
    await asyncio.sleep(0.05)
    await db.players.block(1, reason="x", admin_id=ADMIN, now=NOW)  # committed meanwhile
    gate.set()
    await warming
    player = await db.players.cached(1)
    assert player is not None and player.blocked  # the stale read was not kept

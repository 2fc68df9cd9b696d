from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import Database, UnknownPlayer
from storage.backends.sqlite_thread import SqliteConnection
from storage.dates import add_months, expiry_cutoff, expiry_of
from storage.db import CACHE_KIB, SWEEP_CACHE_KIB
from tests.storage.conftest import ADMIN, NOW, add_players

LAST = date(2026, 1, 15)  # expires 2026-03-15, warning from 2026-03-08


async def played(db: Database, tg_id: int, day: date, points: int = 0) -> None:
    await db.players.record_game_played([tg_id], day)
    if points:
        await db.ledger.adjust(tg_id, points, reason="game", admin_id=ADMIN, now=NOW)


def test_calendar_months() -> None:
    assert expiry_of(date(2026, 1, 15)) == date(2026, 3, 15)
    assert expiry_of(date(2025, 12, 31)) == date(2026, 2, 28)
    assert expiry_of(date(2027, 12, 31)) == date(2028, 2, 29)
    assert expiry_of(date(2026, 11, 30)) == date(2027, 1, 30)
    assert add_months(date(2026, 3, 31), -1) == date(2026, 2, 28)
    assert expiry_cutoff(date(2026, 2, 28)) == date(2025, 12, 31)
    assert expiry_cutoff(date(2026, 3, 15)) == date(2026, 1, 15)


@given(st.dates(min_value=date(2000, 3, 1), max_value=date(2100, 1, 1)))
def test_cutoff_is_the_exact_boundary(today: date) -> None:
    cutoff = expiry_cutoff(today)
    assert expiry_of(cutoff) <= today
    assert expiry_of(cutoff + timedelta(days=1)) > today


async def test_warning_window_and_sent_once(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    await played(db, 1, LAST, points=20)
    await played(db, 2, LAST + timedelta(days=1), points=5)
    await played(db, 3, LAST)
    await db.players.record_game_played([3], date(2026, 3, 1))  # came back: safe
    assert await db.expiry.warn_due(date(2026, 3, 7)) == []
    due = await db.expiry.warn_due(date(2026, 3, 8))
    assert [p.tg_id for p in due] == [1]
    assert [p.tg_id for p in await db.expiry.warn_due(date(2026, 3, 9))] == [1, 2]
    warned = await db.expiry.mark_warned(1, date(2026, 3, 8))
    assert warned.expiry_warned_on == date(2026, 3, 8)
    assert [p.tg_id for p in await db.expiry.warn_due(date(2026, 3, 9))] == [2]
    assert await db.expiry.warn_due(date(2026, 3, 15)) == [
        await db.players.get(2)]  # 1 is expiring today: sweep, not warning
    # a new game, then a new absence: a new warning is due for it
    await played(db, 1, date(2026, 3, 10))
    assert [p.tg_id for p in await db.expiry.warn_due(date(2026, 5, 3))] == [1]


async def test_sweep_burns_nickname_and_points_once(db: Database) -> None:
    await add_players(db, 1, 2, 3, 4)
    await played(db, 1, LAST, points=20)
    await played(db, 2, LAST + timedelta(days=1), points=5)
    await played(db, 3, LAST)  # nickname, no points
    # 4 never played: never expires
    assert await db.expiry.sweep(date(2026, 3, 14)) == []
    burnt = await db.expiry.sweep(date(2026, 3, 15))
    assert [(p.tg_id, p.nickname) for p in burnt] == [(1, "nick1"), (3, "nick3")]
    p1 = await db.players.get(1)
    assert p1 is not None and p1.nickname is None
    assert await db.ledger.balance(1) == 0
    row = (await db.ledger.recent(1, 1))[0]
    assert (row.kind, row.points, row.reason, row.day) == (
        "expiry_burn", -20, "expired", date(2026, 3, 15))
    assert len(await db.ledger.recent(3)) == 0  # no zero rows
    assert await db.players.by_nickname("nick1") is None
    assert await db.expiry.sweep(date(2026, 3, 15)) == []  # idempotent
    assert [p.tg_id for p in await db.expiry.sweep(date(2026, 4, 1))] == [2]
    # a returning player's new nickname is not swept before it plays again
    await db.players.set_nickname(1, "Back again")
    assert await db.expiry.sweep(date(2026, 4, 2)) == []
    assert await db.expiry.warn_due(date(2026, 4, 2)) == []
    await played(db, 1, date(2026, 4, 5))
    assert [p.tg_id for p in await db.expiry.sweep(date(2026, 6, 5))] == [1]
    p4 = await db.players.get(4)
    assert p4 is not None and p4.nickname == "nick4"


async def test_mark_warned_unknown_player(db: Database) -> None:
    with pytest.raises(UnknownPlayer):
        await db.expiry.mark_warned(9, date(2026, 1, 1))


async def test_sweep_in_small_batches_burns_everyone_once(db: Database) -> None:
    ids = list(range(1, 12))
    await add_players(db, *ids)
    for tg_id in ids:
        await played(db, tg_id, LAST, points=tg_id)
    burnt = await db.expiry.sweep(date(2026, 3, 15), batch=3)
    assert [p.tg_id for p in burnt] == ids
    assert all(p.nickname == f"nick{p.tg_id}" for p in burnt)
    for tg_id in ids:
        assert await db.ledger.balance(tg_id) == 0
        assert [r.kind for r in await db.ledger.recent(tg_id)] == ["expiry_burn", "adjust"]
    assert await db.expiry.sweep(date(2026, 3, 15), batch=3) == []
    with pytest.raises(ValueError):
        await db.expiry.sweep(date(2026, 3, 15), batch=0)


async def writer_cache(db: Database) -> int:
    async with db.transaction() as conn, conn.execute("PRAGMA cache_size") as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.sqlite_only
async def test_the_sweep_alone_gets_the_big_page_cache(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    assert await writer_cache(db) == -CACHE_KIB
    await add_players(db, 1, 2)
    await played(db, 1, LAST, points=5)
    statements: list[str] = []
    async with db.transaction() as conn:
        assert isinstance(conn, SqliteConnection)
        await conn.set_trace_callback(statements.append)
    assert [p.tg_id for p in await db.expiry.sweep(date(2026, 3, 15))] == [1]
    caches = [i for i, s in enumerate(statements) if s.startswith("PRAGMA cache_size")]
    burns = [i for i, s in enumerate(statements) if s.startswith("INSERT INTO ledger")]
    assert [statements[i] for i in caches] == [f"PRAGMA cache_size = -{SWEEP_CACHE_KIB}",
                                               f"PRAGMA cache_size = -{CACHE_KIB}"]
    assert caches[0] < burns[0] < caches[1]  # raised for the burn, lowered after it
    assert await writer_cache(db) == -CACHE_KIB

    async def broken(today: date, batch: int) -> list[object]:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(db.expiry, "_sweep_batch", broken)
    with pytest.raises(RuntimeError):
        await db.expiry.sweep(date(2026, 3, 15))
    assert await writer_cache(db) == -CACHE_KIB  # lowered again after a failed sweep

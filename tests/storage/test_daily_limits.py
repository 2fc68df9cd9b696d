"""Every "at most N" holds under a burst, on both backends (on PostgreSQL the pool runs the
burst's transactions side by side): the check and the write are one transaction under one
lock (docs/storage.md, "Writes and how they are serialized")."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.errors import UserError
from bot.services.accounts import COMPLAINTS_PER_DAY, Accounts
from storage import Database, InvalidOrder
from storage.errors import DailyLimit, GiftRefused
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

BURST = 100


async def _count(db: Database, sql: str, *args: object) -> int:
    rows = await db.query(sql, args)
    return int(rows[0][0])


async def test_a_burst_of_complaints_stores_exactly_the_daily_cap(db: Database) -> None:
    await add_players(db, 1, 2)
    accounts = Accounts(db, default_locale="en", clock=lambda: NOW)
    outcomes = await asyncio.gather(
        *(accounts.complain(1, f"nick2 rude {n}") for n in range(BURST)), return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, UserError)]
    assert len(refused) == BURST - COMPLAINTS_PER_DAY
    assert {r.key for r in refused} == {"club.complain.limit"}
    assert await db.complaints.count_from(1, NOW.date()) == COMPLAINTS_PER_DAY
    # the next day the player may complain again; the other player's cap is their own
    tomorrow = Accounts(db, default_locale="en", clock=lambda: NOW + timedelta(days=1))
    await tomorrow.complain(1, "nick2 rude again")
    await accounts.complain(2, "nick1 rude too")
    assert await _count(db, "SELECT count(*) FROM complaints") == COMPLAINTS_PER_DAY + 2


async def test_the_complaints_cap_is_storage_s_own(db: Database) -> None:
    await add_players(db, 1, 2)
    for n in range(2):
        await db.complaints.add(1, 2, f"rude {n}", NOW, per_day=2)
    with pytest.raises(DailyLimit) as err:
        await db.complaints.add(1, 2, "rude again", NOW, per_day=2)
    assert (err.value.tg_id, err.value.limit) == (1, 2)
    await db.complaints.add(1, 2, "no cap asked", NOW)  # an admin's tools may pass none
    assert await db.complaints.count_from(1, NOW.date()) == 3


async def test_a_burst_of_friend_orders_keeps_one_per_player_and_game(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2), (3, 3)],
                                    created_at=NOW)
    outcomes = await asyncio.gather(
        *(db.immunity.order(game_id, 1, 2 + n % 2, announce_name=False) for n in range(BURST)),
        return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, InvalidOrder) for o in outcomes if isinstance(o, Exception))
    assert len(await db.immunity.for_game(game_id)) == 1


async def test_a_burst_of_gift_requests_stays_within_points_and_stock(db: Database) -> None:
    await add_players(db, 1)
    await db.ledger.adjust(1, 100, reason="gift", admin_id=ADMIN, now=NOW)
    mug = await db.gifts.add("Mug", 30, 50, admin_id=ADMIN, now=NOW)
    outcomes = await asyncio.gather(
        *(db.gift_requests.ask(1, mug.id, price=30, card=n, now=NOW) for n in range(BURST)),
        return_exceptions=True)
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(made) == 3  # 100 points hold three requests of 30
    assert {o.reason for o in outcomes if isinstance(o, GiftRefused)} == {"insufficient"}
    assert await db.gift_requests.reserved(1) == 90

from __future__ import annotations

from datetime import date, timedelta

import pytest

from storage import (
    Database,
    ImmunityAlreadyUsed,
    InvalidOrder,
    InvalidValue,
    UnknownGame,
    UnknownOrder,
    UnknownPlayer,
)
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players


async def game_with(db: Database, *tg_ids: int) -> int:
    await add_players(db, *tg_ids)
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    return await db.games.create(CLUB, ADMIN, seats=list(enumerate(tg_ids, 1)), created_at=NOW)


async def test_immunity_order_accept_use(db: Database) -> None:
    game_id = await game_with(db, 1, 2, 3)
    order = await db.immunity.order(game_id, 1, 3, announce_name=True)
    assert (order.game_id, order.orderer_id, order.holder_id) == (game_id, 1, 3)
    assert order.announce_name and not order.accepted and not order.used
    other = await db.immunity.order(game_id, 2, 1, announce_name=False)
    assert (await db.immunity.accept(order.id)).accepted
    used = await db.immunity.mark_used(order.id)
    assert used.used and used.accepted
    with pytest.raises(ImmunityAlreadyUsed) as err:
        await db.immunity.mark_used(order.id)
    assert err.value.order_id == order.id
    assert [o.id for o in await db.immunity.for_game(game_id)] == [order.id, other.id]


async def test_immunity_order_errors(db: Database) -> None:
    game_id = await game_with(db, 1, 2, 3)
    await add_players(db, 4)
    cases = [((1, 1), "self"), ((1, 4), "not_seated"), ((4, 1), "not_seated")]
    for (orderer, holder), reason in cases:
        with pytest.raises(InvalidOrder) as err:
            await db.immunity.order(game_id, orderer, holder, announce_name=False)
        assert err.value.reason == reason
    await db.immunity.order(game_id, 1, 2, announce_name=False)
    with pytest.raises(InvalidOrder) as err:
        await db.immunity.order(game_id, 1, 3, announce_name=False)
    assert err.value.reason == "duplicate"
    with pytest.raises(UnknownPlayer):
        await db.immunity.order(game_id, 1, 99, announce_name=False)
    with pytest.raises(UnknownGame):
        await db.immunity.order(404, 1, 2, announce_name=False)
    with pytest.raises(UnknownGame):
        await db.immunity.for_game(404)
    for call in (db.immunity.accept(77), db.immunity.mark_used(77)):
        with pytest.raises(UnknownOrder):
            await call
    await db.games.set_status(game_id, "aborted")
    with pytest.raises(InvalidOrder) as err:
        await db.immunity.order(game_id, 2, 3, announce_name=False)
    assert err.value.reason == "game_closed"
    assert len(await db.immunity.for_game(game_id)) == 1


async def test_first_day_killed(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    day = date(2026, 3, 10)
    await db.first_day_killed.mark(CLUB, day, 7)
    await db.first_day_killed.mark(CLUB, day, 7)
    await db.first_day_killed.mark(CLUB, day, 8)
    assert await db.first_day_killed.has(CLUB, day, 7)
    assert not await db.first_day_killed.has(CLUB, day + timedelta(days=1), 7)
    assert not await db.first_day_killed.has(CLUB + 1, day, 7)
    assert await db.first_day_killed.for_day(CLUB, day) == {7, 8}
    assert await db.first_day_killed.for_day(CLUB, day - timedelta(days=1)) == set()


async def test_complaints(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    first = await db.complaints.add(1, 2, "  shouts at everyone ", NOW)
    assert (first.from_id, first.about_id, first.text, first.at) == (
        1, 2, "shouts at everyone", NOW)
    await db.complaints.add(3, 2, "rude", NOW)
    await db.complaints.add(2, 3, "rude too", NOW)
    counts = [(p.tg_id, n) for p, n in await db.complaints.counts()]
    assert counts == [(2, 2), (3, 1)]
    assert [c.text for c in await db.complaints.about(2)] == ["rude", "shouts at everyone"]
    for args, reason in (((1, 1, "x"), "self"), ((1, 2, "   "), "empty"),
                         ((1, 2, "x" * 2001), "too_long")):
        with pytest.raises(InvalidValue) as err:
            await db.complaints.add(*args, NOW)
        assert err.value.reason == reason
    with pytest.raises(UnknownPlayer):
        await db.complaints.add(1, 42, "who?", NOW)
    assert sum(n for _, n in await db.complaints.counts()) == 3


async def test_admin_log(db: Database) -> None:
    first = await db.admin_log.record(ADMIN, "export", "balances.csv", NOW)
    second = await db.admin_log.record(ADMIN + 1, "note", "", NOW + timedelta(minutes=1))
    assert second > first
    recent = await db.admin_log.recent(10)
    assert [(a.id, a.admin_id, a.action, a.at) for a in recent] == [
        (second, ADMIN + 1, "note", NOW + timedelta(minutes=1)), (first, ADMIN, "export", NOW)]
    assert len(await db.admin_log.recent(1)) == 1
    with pytest.raises(InvalidValue):
        await db.admin_log.record(ADMIN, "", "", NOW)

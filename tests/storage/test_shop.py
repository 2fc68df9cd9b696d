"""The gift shop's storage on both backends: the catalogue, requests that reserve points and
items, a handover's ledger row, the burns that close open requests, the telling of each change
once, and the races (two players on the last item, a double press, a handover beside a cancel
or a block) run with real concurrency: tasks on one database, and on PostgreSQL two
``Database`` objects standing for two processes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from datetime import date, timedelta

import pytest

from storage import Database
from storage.errors import GiftRefused, InsufficientBalance, InvalidValue, UnknownClub
from storage.models import KIND_REDEEM, GiftRequest
from storage.repos.outbox import SEND, Queued
from tests.present import present
from tests.storage.conftest import ADMIN, NOW, add_players

ROUNDS = 12


async def _points(db: Database, tg_id: int, points: int) -> None:
    await db.ledger.adjust(tg_id, points, reason="won", admin_id=ADMIN, now=NOW)


async def _refusal(work: Awaitable[object]) -> str:
    with pytest.raises(GiftRefused) as caught:
        await work
    return caught.value.reason


@contextlib.asynccontextmanager
async def two_sides(db: Database, db_target: object, backend: str
                    ) -> AsyncIterator[tuple[Database, Database]]:
    """Two writers at once: on PostgreSQL a second ``Database`` (another process), on SQLite
    the same one (its one writer is what serializes them)."""
    if backend == "sqlite":
        yield db, db
        return
    other = await Database.open(str(db_target), pool_size=4)
    try:
        yield db, other
    finally:
        await other.close()


async def test_the_catalogue(db: Database) -> None:
    mug = await db.gifts.add("  Mug   with logo ", 30, 5, admin_id=ADMIN, now=NOW)
    assert (mug.name, mug.price, mug.stock, mug.reserved, mug.active, mug.photo) == (
        "Mug with logo", 30, 5, 0, True, None)
    cap = await db.gifts.add("Cap", 20, 0, admin_id=ADMIN, now=NOW)
    assert await _refusal(db.gifts.add("MUG  WITH LOGO", 1, 1, admin_id=ADMIN, now=NOW)) \
        == "name_taken"
    edited = await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, price=35, stock=7,
                                 photo="AgACAgIAAx")
    assert (edited.price, edited.stock, edited.photo) == (35, 7, "AgACAgIAAx")
    assert (await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, photo=None)).photo is None
    retired = await db.gifts.edit(cap.id, admin_id=ADMIN, now=NOW, active=False)
    assert not retired.active
    # a retired gift keeps its name
    assert await _refusal(db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, name="cap")) \
        == "name_taken"
    assert [g.name for g in await db.gifts.catalogue()] == ["Mug with logo", "Cap"]
    assert [g.name for g in await db.gifts.catalogue(active_only=True)] == ["Mug with logo"]
    for bad in ({"price": 0}, {"stock": -1}, {"name": "  "}, {"name": "x" * 65},
                {"name": "a\x00b"}):
        with pytest.raises(InvalidValue):
            await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, **bad)
    assert await _refusal(db.gifts.edit(999, admin_id=ADMIN, now=NOW, price=3)) == "unknown_gift"
    actions = [a.action for a in await db.admin_log.recent(20)]
    assert actions.count("gift_add") == 2 and "gift_edit" in actions


async def test_a_request_reserves_points_and_an_item(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    mug = await db.gifts.add("Mug", 30, 2, admin_id=ADMIN, now=NOW)
    request = await db.gift_requests.ask(1, mug.id, price=30, card=10, now=NOW)
    assert (request.status, request.points, request.gift_name, request.announced) == (
        "open", 30, "Mug", False)
    assert await db.gift_requests.reserved(1) == 30
    assert await db.ledger.balance(1) == 50  # no ledger row until it is handed over
    gift = await db.gifts.get(mug.id)
    assert gift is not None and (gift.stock, gift.reserved, gift.left) == (2, 1, 1)
    # the second request would reserve 60 of 50 points
    with pytest.raises(GiftRefused) as caught:
        await db.gift_requests.ask(1, mug.id, price=30, card=11, now=NOW)
    assert (caught.value.reason, caught.value.available) == ("insufficient", 20)
    # the same card pressed again is the same request
    with pytest.raises(GiftRefused) as caught:
        await db.gift_requests.ask(1, mug.id, price=30, card=10, now=NOW)
    assert caught.value.reason == "duplicate" and caught.value.request == request
    assert [r.id for r in await db.gift_requests.open_of(1)] == [request.id]


async def test_what_a_request_is_refused_for(db: Database) -> None:
    await add_players(db, 1, 2)
    await _points(db, 1, 100)
    mug = await db.gifts.add("Mug", 30, 1, admin_id=ADMIN, now=NOW)
    cap = await db.gifts.add("Cap", 20, 0, admin_id=ADMIN, now=NOW)
    old = await db.gifts.add("Pen", 5, 9, admin_id=ADMIN, now=NOW)
    await db.gifts.edit(old.id, admin_id=ADMIN, now=NOW, active=False)
    assert await _refusal(db.gift_requests.ask(1, cap.id, price=20, card=1, now=NOW)) \
        == "out_of_stock"
    assert await _refusal(db.gift_requests.ask(1, old.id, price=5, card=2, now=NOW)) \
        == "retired"
    assert await _refusal(db.gift_requests.ask(1, mug.id, price=25, card=3, now=NOW)) \
        == "price_changed"
    assert await _refusal(db.gift_requests.ask(1, 999, price=25, card=4, now=NOW)) \
        == "unknown_gift"
    assert await _refusal(db.gift_requests.ask(2, mug.id, price=30, card=5, now=NOW)) \
        == "insufficient"
    await db.players.block(1, reason="cheat", admin_id=ADMIN, now=NOW)
    assert await _refusal(db.gift_requests.ask(1, mug.id, price=30, card=6, now=NOW)) \
        == "blocked"
    assert await db.gift_requests.open_of(1) == []
    assert present(await db.gifts.get(mug.id)).reserved == 0


async def test_handed_over_writes_the_redeem_row_and_takes_the_item(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    mug = await db.gifts.add("Mug", 30, 2, admin_id=ADMIN, now=NOW)
    request = await db.gift_requests.ask(1, mug.id, price=30, card=10, now=NOW)
    # the price changes: the open request keeps the price it reserved
    await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, price=40)
    later = NOW + timedelta(hours=2)
    closed, balance = await db.gift_requests.hand_over(request.id, admin_id=ADMIN, now=later)
    assert (closed.status, closed.closed_by, closed.closed_at, balance) == (
        "handed_over", ADMIN, later, 20)
    row = (await db.ledger.recent(1, limit=1))[0]
    assert (row.id, row.kind, row.points, row.reason, row.admin_id) == (
        closed.ledger_id, KIND_REDEEM, -30, "Mug", ADMIN)
    assert await db.ledger.balance(1) == 20 and await db.gift_requests.reserved(1) == 0
    gift = await db.gifts.get(mug.id)
    assert gift is not None and (gift.stock, gift.reserved) == (1, 0)
    with pytest.raises(GiftRefused) as caught:  # a second press
        await db.gift_requests.hand_over(request.id, admin_id=ADMIN, now=later)
    assert caught.value.reason == "closed" and caught.value.request == closed
    assert await _refusal(db.gift_requests.cancel(request.id, admin_id=ADMIN, now=later)) \
        == "closed"
    assert await db.ledger.balance(1) == 20
    assert await _refusal(db.gift_requests.hand_over(999, admin_id=ADMIN, now=later)) \
        == "unknown_request"
    assert "gift_handed_over" in [a.action for a in await db.admin_log.recent(5)]


async def test_cancel_withdraw_and_expire_free_the_reservation(db: Database) -> None:
    await add_players(db, 1, 2)
    await _points(db, 1, 100)
    mug = await db.gifts.add("Mug", 10, 5, admin_id=ADMIN, now=NOW)
    first, second, third = [
        await db.gift_requests.ask(1, mug.id, price=10, card=c, now=NOW + timedelta(days=c))
        for c in (1, 2, 3)]
    assert await db.gift_requests.reserved(1) == 30
    cancelled = await db.gift_requests.cancel(first.id, admin_id=ADMIN, now=NOW)
    assert (cancelled.status, cancelled.closed_by) == ("cancelled", ADMIN)
    assert await _refusal(db.gift_requests.withdraw(second.id, tg_id=2, now=NOW)) == "not_yours"
    withdrawn = await db.gift_requests.withdraw(second.id, tg_id=1, now=NOW)
    assert (withdrawn.status, withdrawn.closed_by) == ("withdrawn", None)
    # asked on day 3: still open on day 3 + 7 with a cut-off of day 2 (asked by day 2 expire)
    assert await db.gift_requests.expire(NOW + timedelta(days=2), now=NOW) == 0
    assert await db.gift_requests.expire(NOW + timedelta(days=3), now=NOW) == 1
    expired = await db.gift_requests.get(third.id)
    assert expired is not None and expired.status == "expired"
    assert await db.gift_requests.reserved(1) == 0
    assert await db.ledger.balance(1) == 100
    assert present(await db.gifts.get(mug.id)).stock == 5


async def test_the_stock_never_goes_below_the_reserved_items(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 100)
    mug = await db.gifts.add("Mug", 10, 3, admin_id=ADMIN, now=NOW)
    for card in (1, 2):
        await db.gift_requests.ask(1, mug.id, price=10, card=card, now=NOW)
    with pytest.raises(GiftRefused) as caught:
        await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, stock=1)
    assert (caught.value.reason, caught.value.available) == ("below_reserved", 2)
    assert (await db.gifts.edit(mug.id, admin_id=ADMIN, now=NOW, stock=2)).left == 0


async def test_redeem_and_adjust_leave_the_reserved_points(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    mug = await db.gifts.add("Mug", 30, 1, admin_id=ADMIN, now=NOW)
    await db.gift_requests.ask(1, mug.id, price=30, card=1, now=NOW)
    with pytest.raises(InsufficientBalance) as caught:
        await db.ledger.redeem(1, 21, reason="pin", admin_id=ADMIN, now=NOW)
    assert (caught.value.balance, caught.value.reserved) == (50, 30)
    with pytest.raises(InsufficientBalance):
        await db.ledger.adjust(1, -21, reason="typo", admin_id=ADMIN, now=NOW)
    assert await db.ledger.redeem(1, 20, reason="pin", admin_id=ADMIN, now=NOW) == 30
    assert await db.ledger.adjust(1, 5, reason="bonus", admin_id=ADMIN, now=NOW) == 35


async def test_a_block_burns_the_open_requests(db: Database) -> None:
    await add_players(db, 1, 2)
    await _points(db, 1, 50)
    await _points(db, 2, 50)
    mug = await db.gifts.add("Mug", 30, 2, admin_id=ADMIN, now=NOW)
    mine = await db.gift_requests.ask(1, mug.id, price=30, card=1, now=NOW)
    theirs = await db.gift_requests.ask(2, mug.id, price=30, card=1, now=NOW)
    await db.players.block(1, reason="cheat", admin_id=ADMIN, now=NOW)
    burned = await db.gift_requests.get(mine.id)
    assert burned is not None and (burned.status, burned.told) == ("burned", False)
    assert await db.ledger.balance(1) == 0 and await db.gift_requests.reserved(1) == 0
    assert present(await db.gift_requests.get(theirs.id)).status == "open"
    assert present(await db.gifts.get(mug.id)).left == 1
    await db.players.unblock(1, admin_id=ADMIN, now=NOW)  # burned stays burned
    assert present(await db.gift_requests.get(mine.id)).status == "burned"


async def test_the_two_months_expiry_burns_the_open_requests(db: Database) -> None:
    await add_players(db, 1, 2)
    for tg_id in (1, 2):
        await db.players.record_game_played([tg_id], date(2026, 1, 5))
        await _points(db, tg_id, 40)
    mug = await db.gifts.add("Mug", 30, 5, admin_id=ADMIN, now=NOW)
    mine = await db.gift_requests.ask(1, mug.id, price=30, card=1, now=NOW)
    assert await db.expiry.sweep(date(2026, 3, 4)) == []
    burnt = await db.expiry.sweep(date(2026, 3, 5))
    assert {p.tg_id for p in burnt} == {1, 2}
    request = await db.gift_requests.get(mine.id)
    assert request is not None and request.status == "burned" and request.closed_at is not None
    assert await db.ledger.balance(1) == 0 and await db.gift_requests.reserved(1) == 0


async def test_each_change_is_told_once(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    mug = await db.gifts.add("Mug", 10, 5, admin_id=ADMIN, now=NOW)
    request = await db.gift_requests.ask(1, mug.id, price=10, card=1, now=NOW)

    def notice(r: GiftRequest, what: str) -> list[Queued]:
        return [Queued(ADMIN, SEND, {"text": f"{what} {r.id}"}, key=f"t:{r.id}:{what}")]

    [seen] = await db.gift_requests.untold()
    assert seen == request
    # told as it was read: the mark and the message are written together
    done = await db.gift_requests.mark_told([(seen, notice(seen, "new"))], NOW, 1.0)
    assert [chats for _, chats in done] == [[ADMIN]]
    assert await db.gift_requests.untold() == []
    # a second teller with the same stale read writes nothing
    assert await db.gift_requests.mark_told([(seen, notice(seen, "new"))], NOW, 1.0) == []
    cancelled = await db.gift_requests.cancel(request.id, admin_id=ADMIN, now=NOW)
    [seen] = await db.gift_requests.untold()
    assert seen == cancelled and seen.announced
    # a teller that read it open (before the cancel) tells nothing now
    assert await db.gift_requests.mark_told([(request, notice(request, "x"))], NOW, 1.0) == []
    assert len(await db.gift_requests.mark_told([(seen, notice(seen, "end"))], NOW, 1.0)) == 1
    assert await db.gift_requests.untold() == []
    texts = [r["payload"] for r in await db.outbox.rows(ADMIN)]
    assert texts == [f'{{"text": "new {request.id}"}}', f'{{"text": "end {request.id}"}}']


async def test_the_export_rows(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    mug = await db.gifts.add("Mug", 10, 5, admin_id=ADMIN, now=NOW)
    request = await db.gift_requests.ask(1, mug.id, price=10, card=1, now=NOW)
    closed, _ = await db.gift_requests.hand_over(request.id, admin_id=ADMIN, now=NOW)
    assert await db.gift_requests.export_rows() == [[
        request.id, "2026-03-10T21:30:00+00:00", "nick1", 1, mug.id, "Mug", 10, "handed_over",
        "2026-03-10T21:30:00+00:00", ADMIN, closed.ledger_id]]


# ---------------------------------------------------------------- races, both backends


async def test_the_last_item_asked_by_two_players_at_once_goes_to_one(
        db: Database, db_target: object, backend: str) -> None:
    async with two_sides(db, db_target, backend) as (one, two):
        await add_players(one, *range(1, 2 * ROUNDS + 1))
        for round_ in range(ROUNDS):
            a, b = 2 * round_ + 1, 2 * round_ + 2
            await _points(one, a, 30)
            await _points(one, b, 30)
            gift = await one.gifts.add(f"Mug {round_}", 30, 1, admin_id=ADMIN, now=NOW)
            outcomes = await asyncio.gather(
                one.gift_requests.ask(a, gift.id, price=30, card=1, now=NOW),
                two.gift_requests.ask(b, gift.id, price=30, card=1, now=NOW),
                return_exceptions=True)
            won = [o for o in outcomes if isinstance(o, GiftRequest)]
            lost = [o for o in outcomes if isinstance(o, GiftRefused)]
            assert len(won) == 1 and len(lost) == 1, outcomes
            assert lost[0].reason == "out_of_stock"
            fresh = await one.gifts.get(gift.id)
            assert fresh is not None and (fresh.stock, fresh.reserved) == (1, 1)


async def test_a_players_two_requests_at_once_never_reserve_more_than_its_balance(
        db: Database, db_target: object, backend: str) -> None:
    async with two_sides(db, db_target, backend) as (one, two):
        await add_players(one, 1)
        gift = await one.gifts.add("Mug", 30, 1000, admin_id=ADMIN, now=NOW)
        for round_ in range(ROUNDS):
            await _points(one, 1, 30)  # enough for one more request, not two
            outcomes = await asyncio.gather(
                one.gift_requests.ask(1, gift.id, price=30, card=2 * round_, now=NOW),
                two.gift_requests.ask(1, gift.id, price=30, card=2 * round_ + 1, now=NOW),
                return_exceptions=True)
            assert sorted(type(o).__name__ for o in outcomes) == ["GiftRefused", "GiftRequest"]
            assert await one.gift_requests.reserved(1) == 30 * (round_ + 1)
        assert await one.ledger.balance(1) == 30 * ROUNDS


async def test_a_double_press_is_one_request(db: Database, db_target: object,
                                             backend: str) -> None:
    async with two_sides(db, db_target, backend) as (one, two):
        await add_players(one, 1)
        await _points(one, 1, 10_000)
        gift = await one.gifts.add("Mug", 1, 1000, admin_id=ADMIN, now=NOW)
        for card in range(ROUNDS):
            outcomes = await asyncio.gather(
                one.gift_requests.ask(1, gift.id, price=1, card=card, now=NOW),
                two.gift_requests.ask(1, gift.id, price=1, card=card, now=NOW),
                return_exceptions=True)
            refused = [o for o in outcomes if isinstance(o, GiftRefused)]
            assert len(refused) == 1 and refused[0].reason == "duplicate", outcomes
        assert len(await one.gift_requests.open_of(1)) == ROUNDS


async def test_handed_over_beside_a_cancel_or_a_block_is_one_of_them(
        db: Database, db_target: object, backend: str) -> None:
    async with two_sides(db, db_target, backend) as (one, two):
        await add_players(one, *range(1, ROUNDS + 1))
        gift = await one.gifts.add("Mug", 10, 1000, admin_id=ADMIN, now=NOW)
        for tg_id in range(1, ROUNDS + 1):
            await _points(one, tg_id, 25)
            request = await one.gift_requests.ask(tg_id, gift.id, price=10, card=1, now=NOW)
            other = (two.gift_requests.cancel(request.id, admin_id=ADMIN + 1, now=NOW)
                     if tg_id % 2 else
                     two.players.block(tg_id, reason="x", admin_id=ADMIN + 1, now=NOW))
            handed, _ = await asyncio.gather(
                one.gift_requests.hand_over(request.id, admin_id=ADMIN, now=NOW), other,
                return_exceptions=True)
            final = await one.gift_requests.get(request.id)
            assert final is not None
            balance = await one.ledger.balance(tg_id)
            if isinstance(handed, BaseException):
                assert isinstance(handed, GiftRefused) and handed.reason == "closed"
                assert final.status in ("cancelled", "burned")
                assert balance == (25 if tg_id % 2 else 0)
            else:
                assert final.status == "handed_over"
                # blocked after the handover: the rest burned
                assert balance == (15 if tg_id % 2 else 0)
        rows = await one.query("SELECT count(*) FROM ledger WHERE kind = 'redeem'")
        handed_over = await one.query(
            "SELECT count(*), coalesce(sum(points), 0) FROM gift_requests"
            " WHERE status = 'handed_over'")
        assert int(rows[0][0]) == int(handed_over[0][0])
        fresh = await one.gifts.get(gift.id)
        assert fresh is not None and fresh.stock == 1000 - int(handed_over[0][0])


async def test_a_request_names_the_club_where_it_is_collected(db: Database) -> None:
    await add_players(db, 1)
    await _points(db, 1, 50)
    await db.clubs.ensure(-100777, title="Far club", locale="ru")
    mug = await db.gifts.add("Mug", 10, 5, admin_id=ADMIN, now=NOW)
    there = await db.gift_requests.ask(1, mug.id, price=10, card=1, now=NOW,
                                       club_chat_id=-100777)
    assert there.club_chat_id == -100777
    assert present(await db.gift_requests.get(there.id)).club_chat_id == -100777
    nowhere = await db.gift_requests.ask(1, mug.id, price=10, card=2, now=NOW)
    assert nowhere.club_chat_id is None
    with pytest.raises(UnknownClub):
        await db.gift_requests.ask(1, mug.id, price=10, card=3, now=NOW, club_chat_id=-5)
    assert [r.id for r in await db.gift_requests.open_of(1)] == [there.id, nowhere.id]

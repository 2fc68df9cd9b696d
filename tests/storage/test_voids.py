"""Voided games and appeals on both backends: every ledger row of the game reversed in one
transaction, the games and last game dates counted again without it, a second void refused,
two voids at once (one wins), a void beside a redeem that spent the points (never below zero,
what it could not take back kept), the appeals' one decision."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from datetime import date, timedelta

import pytest

from storage import Database, GamePoints
from storage.errors import InsufficientBalance, InvalidValue, VoidRefused
from storage.models import Fine
from storage.repos.games import GameChange
from storage.repos.outbox import SEND, Queued
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

DAY = date(2026, 3, 10)
VOIDER = 4242


async def _game(db: Database, seats: tuple[int, ...], points: dict[int, int], *,
                day: date = DAY, fines: dict[int, int] | None = None) -> int:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=list(enumerate(seats, start=1)),
                                    created_at=NOW)
    await db.games.set_status(game_id, "running")
    if fines:
        await db.games.append_events_with_messages(
            game_id, [(1, "foul", {}, NOW)], [], now=0.0,
            change=GameChange(fines=tuple(Fine(tg_id, -price, "foul_other", "day_1", day)
                                          for tg_id, price in fines.items())))
    await db.games.finish(game_id, status="finished", day=day, points=[
        GamePoints(tg_id, pts, "win_mafia") for tg_id, pts in points.items()])
    return game_id


async def _sum_of_game(db: Database, game_id: int) -> dict[int, int]:
    rows = await db.query(
        "SELECT tg_id, sum(points) FROM ledger WHERE game_id = ? GROUP BY tg_id", (game_id,))
    return {int(r[0]): int(r[1]) for r in rows}


async def _refusal(work: Awaitable[object]) -> str:
    with pytest.raises(VoidRefused) as caught:
        await work
    return caught.value.reason


@contextlib.asynccontextmanager
async def _two_sides(db: Database, db_target: object, backend: str
                     ) -> AsyncIterator[tuple[Database, Database]]:
    """On PostgreSQL a second ``Database`` (another process, its own pool); on SQLite the same
    one (its one writer serializes them)."""
    if backend == "sqlite":
        yield db, db
        return
    other = await Database.open(str(db_target), pool_size=4)
    try:
        yield db, other
    finally:
        await other.close()


async def test_a_void_reverses_every_row_and_counts_the_game_no_more(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    earlier = await _game(db, (1, 2, 3), {1: 4}, day=DAY - timedelta(days=5))
    await db.ledger.adjust(2, 10, reason="gift back", admin_id=ADMIN, now=NOW)
    game_id = await _game(db, (1, 2, 3), {1: 7, 2: 3}, fines={2: 2})
    before = {p: await db.ledger.balance(p) for p in (1, 2, 3)}
    assert before == {1: 11, 2: 11, 3: 0}
    assert present(await db.players.get(1)).last_game_date == DAY

    told: list[int] = []

    def tell(voided: object) -> list[Queued]:
        told.append(1)
        return [Queued(1, SEND, {"text": "voided"}, key="void:1")]

    voided, chats = await db.voids.void(game_id, by=VOIDER, reason="  fake  seats ",
                                        now=NOW, tell=tell, wall=1.0)
    assert told == [1] and chats == [1]
    assert voided.game.voided and voided.game.voided_by == VOIDER
    assert voided.game.void_reason == "fake seats"
    assert {line.tg_id: (line.returned, line.short) for line in voided.lines} == {
        1: (-7, 0), 2: (-1, 0), 3: (0, 0)}
    assert {p: await db.ledger.balance(p) for p in (1, 2, 3)} == {1: 4, 2: 10, 3: 0}
    assert await _sum_of_game(db, game_id) == {1: 0, 2: 0}
    reasons = await db.query(
        "SELECT points, reason, admin_id FROM ledger WHERE game_id = ? ORDER BY id", (game_id,))
    # player by player; a fine given back before the points taken back; by the admin
    assert [(int(r[0]), r[1], r[2]) for r in reasons][-3:] == [
        (-7, "void", VOIDER), (2, "void", VOIDER), (-3, "void", VOIDER)]
    for tg_id in (1, 2, 3):  # as if only the earlier game was played
        player = await db.players.get(tg_id)
        assert player is not None
        assert (player.games_played, player.last_game_date, player.first_game_date) == (
            1, DAY - timedelta(days=5), DAY - timedelta(days=5))
    assert (await db.games.get(earlier)).voided_at is None
    log = await db.admin_log.recent(1)
    assert (log[0].admin_id, log[0].action) == (VOIDER, "void")
    assert f"game={game_id}" in log[0].details and "fake seats" in log[0].details


async def test_a_second_void_changes_nothing(db: Database) -> None:
    await add_players(db, 1, 2)
    game_id = await _game(db, (1, 2), {1: 5})
    await db.voids.void(game_id, by=VOIDER, reason="fraud", now=NOW)
    rows = await db.query("SELECT count(*) FROM ledger")
    with pytest.raises(VoidRefused) as caught:
        await db.voids.void(game_id, by=ADMIN, reason="again", now=NOW)
    assert caught.value.reason == "already_voided"
    assert caught.value.game is not None and caught.value.game.voided_by == VOIDER
    assert await db.query("SELECT count(*) FROM ledger") == rows
    assert await db.ledger.balance(1) == 0
    assert (await db.games.get(game_id)).void_reason == "fraud"


async def test_only_a_finished_game_is_voided_with_a_reason(db: Database) -> None:
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    lobby = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
    assert await _refusal(db.voids.void(lobby, by=VOIDER, reason="x", now=NOW)) \
        == "not_finished"
    game_id = await _game(db, (1, 2), {1: 5})
    with pytest.raises(InvalidValue):
        await db.voids.void(game_id, by=VOIDER, reason="   ", now=NOW)
    assert not (await db.games.get(game_id)).voided
    assert await db.ledger.balance(1) == 5


async def test_two_voids_at_once_one_wins(db: Database, db_target: object,
                                          backend: str) -> None:
    await add_players(db, 1, 2, 3)
    games = [await _game(db, (1, 2, 3), {1: 3, 2: 2}) for _ in range(4)]
    async with _two_sides(db, db_target, backend) as (one, other):
        for game_id in games:
            outcomes = await asyncio.gather(
                one.voids.void(game_id, by=VOIDER, reason="a", now=NOW),
                other.voids.void(game_id, by=ADMIN, reason="b", now=NOW),
                return_exceptions=True)
            refused = [o for o in outcomes if isinstance(o, VoidRefused)]
            assert len(refused) == 1 and refused[0].reason == "already_voided"
            assert await _sum_of_game(db, game_id) == {1: 0, 2: 0}
    assert (await db.ledger.balance(1), await db.ledger.balance(2)) == (0, 0)
    assert present(await db.players.get(1)).games_played == 0


async def test_a_void_after_a_redeem_takes_what_is_left(db: Database) -> None:
    await add_players(db, 1, 2)
    game_id = await _game(db, (1, 2), {1: 10})
    await db.ledger.redeem(1, 7, reason="mug", admin_id=ADMIN, now=NOW)
    voided, _ = await db.voids.void(game_id, by=VOIDER, reason="fraud", now=NOW)
    assert {line.tg_id: (line.returned, line.short) for line in voided.lines}[1] == (-3, 7)
    assert await db.ledger.balance(1) == 0
    assert await db.voids.shortfalls(game_id) == {1: 7}
    log = await db.admin_log.recent(1)
    assert "taken=3 short=7" in log[0].details


async def test_a_void_leaves_the_points_a_gift_request_holds(db: Database) -> None:
    await add_players(db, 1, 2)
    await db.ledger.adjust(1, 5, reason="old", admin_id=ADMIN, now=NOW)
    game_id = await _game(db, (1, 2), {1: 10})
    gift = await db.gifts.add("Mug", 12, 1, admin_id=ADMIN, now=NOW)
    await db.gift_requests.ask(1, gift.id, price=12, card=1, now=NOW)
    voided, _ = await db.voids.void(game_id, by=VOIDER, reason="fraud", now=NOW)
    assert {line.tg_id: line.short for line in voided.lines}[1] == 7
    assert await db.ledger.balance(1) == 12  # the request's 12 points stay


async def test_a_void_races_a_redeem_never_below_zero(db: Database, db_target: object,
                                                      backend: str) -> None:
    await add_players(db, 1, 2)
    async with _two_sides(db, db_target, backend) as (one, other):
        for _ in range(6):
            game_id = await _game(db, (1, 2), {1: 10})
            balance = await db.ledger.balance(1)
            outcomes = await asyncio.gather(
                one.voids.void(game_id, by=VOIDER, reason="fraud", now=NOW),
                other.ledger.redeem(1, balance, reason="mug", admin_id=ADMIN, now=NOW),
                return_exceptions=True)
            voided = outcomes[0]
            assert not isinstance(voided, BaseException)
            line = {line.tg_id: line for line in voided[0].lines}[1]
            if isinstance(outcomes[1], InsufficientBalance):  # the void came first
                assert (line.returned, line.short) == (-10, 0)
                assert await db.ledger.balance(1) == balance - 10
            else:  # the redeem came first: nothing left to take
                assert not isinstance(outcomes[1], BaseException)
                assert (line.returned, line.short) == (0, 10)
                assert await db.ledger.balance(1) == 0
            assert await db.ledger.balance(1) >= 0
            await db.ledger.adjust(1, 10, reason="top up", admin_id=ADMIN, now=NOW)


async def test_appeals_are_one_per_seated_player_and_decided_once(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    game_id = await _game(db, (1, 2), {1: 5})
    assert await _refusal(db.voids.appeal(game_id, 3, "unfair", now=NOW)) == "not_seated"
    appeal, chats = await db.voids.appeal(
        game_id, 2, " seat 1 was   not there ", now=NOW, wall=1.0,
        tell=lambda a: [Queued(ADMIN, SEND, {"text": f"appeal {a.id}"}, key=f"appeal:{a.id}")])
    assert chats == [ADMIN]
    assert (appeal.reason, appeal.status, appeal.tg_id) == ("seat 1 was not there", "open", 2)
    assert await _refusal(db.voids.appeal(game_id, 2, "again", now=NOW)) == "duplicate"
    kept, _ = await db.voids.keep(appeal.id, by=VOIDER, now=NOW)
    assert (kept.status, kept.closed_by) == ("kept", VOIDER)
    assert await _refusal(db.voids.keep(appeal.id, by=ADMIN, now=NOW)) == "closed"
    assert await _refusal(db.voids.keep(appeal.id + 100, by=ADMIN, now=NOW)) \
        == "unknown_appeal"
    other, _ = await db.voids.appeal(game_id, 1, "mine too", now=NOW)
    voided, _ = await db.voids.void(game_id, by=VOIDER, reason="fraud", now=NOW)
    assert [a.id for a in voided.appeals] == [other.id]
    assert present(await db.voids.get_appeal(other.id)).status == "voided"
    assert await _refusal(db.voids.keep(other.id, by=ADMIN, now=NOW)) == "closed"
    assert await _refusal(db.voids.appeal(game_id, 1, "late", now=NOW)) in (
        "already_voided", "duplicate")


async def test_a_game_ends_at_its_last_event(db: Database) -> None:
    await add_players(db, 1, 2)
    plain = await _game(db, (1, 2), {1: 5})
    _, ended = await db.voids.ended(plain)  # no event logged: the finish day's start
    assert ended is not None and (ended.date(), ended.hour) == (DAY, 0)
    await db.ledger.adjust(2, 5, reason="old", admin_id=ADMIN, now=NOW)
    logged = await _game(db, (1, 2), {}, fines={2: 1})
    _, at = await db.voids.ended(logged)
    assert at == NOW

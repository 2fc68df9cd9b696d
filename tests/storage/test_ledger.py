from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from storage import (
    Database,
    GamePoints,
    InsufficientBalance,
    InvalidAmount,
    InvalidValue,
    UnknownGame,
    UnknownPlayer,
)
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, DB_ERRORS, NOW, add_players

DAY = date(2026, 3, 10)


async def new_game(db: Database, *tg_ids: int) -> int:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    return await db.games.create(
        CLUB, ADMIN, seats=list(enumerate(tg_ids, start=1)), created_at=NOW
    )


async def ledger_sums(db: Database) -> dict[int, int]:
    async with db.read() as conn, conn.execute(
        "SELECT p.tg_id, coalesce(sum(l.points), 0) FROM players p"
        " LEFT JOIN ledger l ON l.tg_id = p.tg_id GROUP BY p.tg_id"
    ) as cur:
        return {int(r[0]): int(r[1]) for r in await cur.fetchall()}


async def test_recent_grouped_reads_a_game_as_one_line_per_reason(db: Database) -> None:
    await add_players(db, 1, 2)
    first, second = await new_game(db, 1, 2), await new_game(db, 1, 2)
    # a game's rows as the engine writes them: reasons interleaved, phase by phase
    assert await db.ledger.record_game(first, [
        GamePoints(1, 1, "survived_night", "night 1"), GamePoints(1, 5, "vote_for_mafia", "day 1"),
        GamePoints(1, 1, "survived_day", "day 1"), GamePoints(1, 1, "survived_night", "night 2"),
        GamePoints(1, 5, "vote_for_mafia", "day 2"), GamePoints(1, 1, "survived_day", "day 2"),
        GamePoints(1, 6, "team_win", "end"), GamePoints(2, 1, "survived_night", "night 1"),
    ], day=DAY) is True
    await db.ledger.adjust(1, 3, reason="bonus", admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(1, 2, reason="bonus", admin_id=ADMIN, now=NOW)  # two lines
    assert await db.ledger.record_game(second, [
        GamePoints(1, 1, "survived_night", "night 1"),  # one kind only: named as it is
    ], day=DAY) is True
    lines = [(r.kind, r.game_id, r.reason, r.points)
             for r in await db.ledger.recent_grouped(1)]
    assert lines == [
        ("game", second, "survived_night", 1),
        ("adjust", None, "bonus", 2), ("adjust", None, "bonus", 3),
        ("game", first, "team_win", 6), ("game", first, "survived", 4),
        ("game", first, "vote_for_mafia", 10),
    ]
    assert sum(p for *_, p in lines) == await db.ledger.balance(1)
    assert [r.reason for r in await db.ledger.recent_grouped(1, limit=2)] == [
        "survived_night", "bonus"]
    assert [r.points for r in await db.ledger.recent_grouped(2)] == [1]


async def cached_balances(db: Database) -> dict[int, int]:
    async with db.read() as conn, conn.execute("SELECT tg_id, points FROM balances") as cur:
        return {int(r[0]): int(r[1]) for r in await cur.fetchall()}


async def test_record_game_writes_rows_once(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    game = await new_game(db, 1, 2, 3)
    rows = [
        GamePoints(1, 1, "survived_night", "night 1"),
        GamePoints(1, 5, "vote_for_mafia", "day 1"),
        GamePoints(2, 6, "team_win", "end"),
        GamePoints(2, 0, "nothing", "end"),  # zero awards are not written
    ]
    assert await db.ledger.record_game(game, rows, day=DAY) is True
    assert await db.ledger.record_game(game, rows, day=DAY) is False
    assert await db.ledger.balance(1) == 6
    assert await db.ledger.balance(2) == 6
    recent = await db.ledger.recent(1)
    assert [(r.points, r.reason, r.phase, r.game_id, r.kind, r.day) for r in recent] == [
        (5, "vote_for_mafia", "day 1", game, "game", DAY),
        (1, "survived_night", "night 1", game, "game", DAY),
    ]
    # every seated player counts the game once, even without points
    for tg_id in (1, 2, 3):
        player = await db.players.get(tg_id)
        assert player is not None
        assert (player.games_played, player.last_game_date) == (1, DAY)


async def test_record_game_errors_write_nothing(db: Database) -> None:
    await add_players(db, 1)
    game = await new_game(db, 1)
    with pytest.raises(UnknownGame) as err:
        await db.ledger.record_game(4242, [GamePoints(1, 1, "x")], day=DAY)
    assert err.value.game_id == 4242
    with pytest.raises(UnknownPlayer):
        await db.ledger.record_game(game, [GamePoints(1, 1, "x"), GamePoints(77, 1, "x")],
                                    day=DAY)
    with pytest.raises(InvalidAmount):
        await db.ledger.record_game(game, [GamePoints(1, -3, "x")], day=DAY)
    with pytest.raises(InvalidValue):
        await db.ledger.record_game(game, [GamePoints(1, 3, "")], day=DAY)
    assert await db.ledger.balance(1) == 0
    assert present(await db.players.get(1)).games_played == 0
    # the failed attempts did not mark the game as applied
    assert await db.ledger.record_game(game, [GamePoints(1, 2, "x")], day=DAY)
    assert await db.ledger.balance(1) == 2


async def test_redeem_and_adjust(db: Database) -> None:
    await add_players(db, 1)
    assert await db.ledger.adjust(1, 30, reason="tournament", admin_id=ADMIN, now=NOW) == 30
    assert await db.ledger.redeem(1, 12, reason="mug", admin_id=ADMIN, now=NOW) == 18
    assert await db.ledger.adjust(1, -8, reason="typo", admin_id=ADMIN, now=NOW) == 10
    rows = await db.ledger.recent(1, limit=2)
    assert [(r.kind, r.points, r.admin_id, r.at) for r in rows] == [
        ("adjust", -8, ADMIN, NOW), ("redeem", -12, ADMIN, NOW)]
    assert len(await db.ledger.recent(1)) == 3
    log = await db.admin_log.recent(3)
    assert [a.action for a in log] == ["adjust", "redeem", "adjust"]
    assert "points=-12" in log[1].details and log[1].admin_id == ADMIN


@pytest.mark.parametrize("points", [0, -1])
async def test_redeem_refuses_non_positive(db: Database, points: int) -> None:
    await add_players(db, 1)
    with pytest.raises(InvalidAmount) as err:
        await db.ledger.redeem(1, points, reason="x", admin_id=ADMIN, now=NOW)
    assert err.value.points == points


async def test_balance_never_below_zero(db: Database) -> None:
    await add_players(db, 1)
    await db.ledger.adjust(1, 10, reason="x", admin_id=ADMIN, now=NOW)
    with pytest.raises(InsufficientBalance) as err:
        await db.ledger.redeem(1, 11, reason="tv", admin_id=ADMIN, now=NOW)
    assert (err.value.balance, err.value.requested) == (10, 11)
    with pytest.raises(InsufficientBalance):
        await db.ledger.adjust(1, -11, reason="x", admin_id=ADMIN, now=NOW)
    with pytest.raises(InvalidAmount):
        await db.ledger.adjust(1, 0, reason="x", admin_id=ADMIN, now=NOW)
    with pytest.raises(InvalidValue):
        await db.ledger.adjust(1, 1, reason="  ", admin_id=ADMIN, now=NOW)
    assert await db.ledger.balance(1) == 10
    assert len(await db.ledger.recent(1)) == 1
    assert len(await db.admin_log.recent()) == 1
    assert await db.ledger.redeem(1, 10, reason="all", admin_id=ADMIN, now=NOW) == 0


async def test_ledger_is_append_only_and_cache_check_holds(db: Database) -> None:
    await add_players(db, 1)
    await db.ledger.adjust(1, 5, reason="x", admin_id=ADMIN, now=NOW)
    for sql in ("UPDATE ledger SET points = 50", "DELETE FROM ledger",
                "UPDATE balances SET points = -1"):
        with pytest.raises(DB_ERRORS):
            async with db.transaction() as conn:
                await conn.execute(sql)
    assert await db.ledger.balance(1) == 5


async def test_unknown_player_in_ledger_calls(db: Database) -> None:
    for call in (
        db.ledger.balance(5),
        db.ledger.balance_with_rank(5),
        db.ledger.recent(5),
        db.ledger.redeem(5, 1, reason="x", admin_id=ADMIN, now=NOW),
        db.ledger.adjust(5, 1, reason="x", admin_id=ADMIN, now=NOW),
        db.ledger.expiry_date(5),
    ):
        with pytest.raises(UnknownPlayer):
            await call


async def test_rank_and_top(db: Database) -> None:
    await add_players(db, 1, 2, 3, 4, 5)
    await add_players(db, 6, nick=False)
    for tg_id, points in {1: 10, 2: 30, 3: 10, 4: 5, 6: 100}.items():
        await db.ledger.adjust(tg_id, points, reason="x", admin_id=ADMIN, now=NOW)
    info = await db.ledger.balance_with_rank(3)
    assert (info.points, info.rank, info.players_ranked) == (10, 2, 4)
    assert (await db.ledger.balance_with_rank(2)).rank == 1
    assert (await db.ledger.balance_with_rank(4)).rank == 4
    assert (await db.ledger.balance_with_rank(5)).rank is None  # zero points
    assert (await db.ledger.balance_with_rank(6)).rank is None  # no nickname
    top = await db.ledger.top()
    assert [(t.nickname, t.points, t.rank, t.tg_id) for t in top] == [
        ("nick2", 30, 1, 2), ("nick1", 10, 2, 1), ("nick3", 10, 2, 3), ("nick4", 5, 4, 4)]
    assert len(await db.ledger.top(limit=2)) == 2
    # nickname given: ranked; blocked: out
    await db.players.set_nickname(6, "Rich")
    assert (await db.ledger.balance_with_rank(6)).rank == 1
    await db.players.block(6, reason="x", admin_id=ADMIN, now=NOW)
    assert (await db.ledger.top())[0].nickname == "nick2"


async def test_expiry_date(db: Database) -> None:
    await add_players(db, 1)
    assert await db.ledger.expiry_date(1) is None
    await db.players.record_game_played([1], date(2025, 12, 31))
    assert await db.ledger.expiry_date(1) == date(2026, 2, 28)


async def test_export_csv(db: Database) -> None:
    await add_players(db, 1, 2)
    await add_players(db, 3, nick=False)
    await db.players.set_nickname(1, "Анна Ж")
    await db.ledger.adjust(1, 7, reason="x", admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(3, 2, reason="x", admin_id=ADMIN, now=NOW)
    text = await db.ledger.export_csv()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [
        ["nickname", "points", "games_played", "last_game_date", "telegram_id", "username",
         "no_shows", "status"],
        ["Анна Ж", "7", "0", "", "1", "", "0", ""],
        ["", "2", "0", "", "3", "", "0", ""],
        ["nick2", "0", "0", "", "2", "", "0", ""],
    ]


async def test_cache_equals_ledger_sum_after_everything(db: Database) -> None:
    await add_players(db, *range(1, 11))
    game = await new_game(db, *range(1, 11))
    await db.games.finish(game, status="finished", day=date(2026, 1, 2),
                          points=[GamePoints(i, i, "x") for i in range(1, 11)])
    await db.ledger.redeem(3, 2, reason="x", admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(4, -4, reason="x", admin_id=ADMIN, now=NOW)
    await db.players.block(5, reason="x", admin_id=ADMIN, now=NOW)
    await db.expiry.sweep(date(2026, 3, 2))
    sums = await ledger_sums(db)
    assert sums == await cached_balances(db)
    assert all(v == 0 for v in sums.values())

"""The players' counted games as stored (``rating_history``), on both backends: hand-made games
summed by card, by side and by rival and checked by hand; the rating after each game equal to
the ratings; ``rerate`` rebuilding the very same rows; a voided game leaving the history."""

from __future__ import annotations

import random

from engine import Winner
from standing.rating import Side, rerate
from standing.roles import Record, Rival, SeatResult, by_side
from storage import Database
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players
from tests.storage.test_ratings import a_game

PLAYERS = range(1, 13)


async def rows(db: Database) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.query(
        "SELECT tg_id, seq, game_id, role, team, result, mu, sigma FROM rating_history"
        " ORDER BY tg_id, seq")]


async def three_games(db: Database) -> None:
    """Roles by ``a_game``: the first ``mafia`` seats the Mafia, the next the Doctor, the rest
    the Lucky. G1 [1,2,3,4] one Mafia (1), civilians win; G2 [2,1,3,4] one Mafia (2), the
    Mafia win; an aborted game; G3 [1,2,5,6] two Mafia (1, 2), a draw."""
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await a_game(db, [1, 2, 3, 4], 1, winner=Winner.CIVILIANS)
    await a_game(db, [2, 1, 3, 4], 1, winner=Winner.MAFIA)
    await a_game(db, [1, 2, 3, 4], 1, status="aborted", winner=Winner.MAFIA)
    await a_game(db, [1, 2, 5, 6], 2, winner=Winner.DRAW)


async def test_records_by_card_and_side_of_hand_made_games(db: Database) -> None:
    await three_games(db)
    # player 1: Mafia in G1 (lost) and G3 (draw), the Doctor in G2 (lost)
    assert await db.history.roles(1) == {"mafia": Record(2, 0, 1), "doctor": Record(1, 0, 0)}
    # player 2: the Doctor in G1 (won), Mafia in G2 (won) and G3 (draw)
    assert await db.history.roles(2) == {"doctor": Record(1, 1, 0), "mafia": Record(2, 1, 1)}
    assert await db.history.roles(7) == {}  # never played
    assert by_side(await db.history.roles(1)) == {
        Side.CIVILIANS: Record(1, 0, 0), Side.MAFIA: Record(2, 0, 1)}
    # everyone: each seat dealt the card is a game
    assert await db.history.everyone() == {
        "mafia": Record(4, 1, 2),  # G1 1 lost, G2 2 won, G3 1 and 2 drew
        "doctor": Record(3, 1, 1),  # G1 2 won, G2 1 lost, G3 5 drew
        "lucky": Record(5, 2, 1),  # G1 3, 4 won; G2 3, 4 lost; G3 6 drew
    }
    assert await db.history.everyone("doctor") == {"doctor": Record(3, 1, 1)}
    assert await db.history.everyone("judge") == {}


async def test_rivals_of_hand_made_games(db: Database) -> None:
    await three_games(db)
    assert await db.history.rivals(1) == [
        Rival(2, "nick2", 1, 0, 2, 0),  # G3 together (a draw); G1, G2 against, both lost
        Rival(3, "nick3", 1, 0, 1, 0),  # G2 together (lost); G1 against (lost)
        Rival(4, "nick4", 1, 0, 1, 0),
        Rival(5, "nick5", 0, 0, 1, 0),
        Rival(6, "nick6", 0, 0, 1, 0),
    ]
    assert (await db.history.rivals(2))[0] == Rival(1, "nick1", 1, 0, 2, 2)
    assert [r.tg_id for r in await db.history.rivals(1, limit=2)] == [2, 3]
    assert await db.history.rivals(7) == []


async def test_a_rival_is_named_by_the_nickname_held_now(db: Database) -> None:
    """Never by the Telegram name: a rival whose nickname is gone (an expired one) has none."""
    await three_games(db)
    async with db.transaction() as conn:
        await conn.execute("UPDATE players SET nickname = NULL, nickname_key = NULL"
                           " WHERE tg_id = 2")
    assert [(r.tg_id, r.nickname) for r in await db.history.rivals(1)] == [
        (2, None), (3, "nick3"), (4, "nick4"), (5, "nick5"), (6, "nick6")]


async def test_top_role_ranks_by_win_rate_from_the_minimum_of_games(db: Database) -> None:
    await three_games(db)
    assert await db.history.top_role("mafia") == []  # nobody has 5 games with it
    top = await db.history.top_role("mafia", min_games=2)
    assert [(r.rank, r.tg_id, r.record) for r in top] == [
        (1, 2, Record(2, 1, 1)), (2, 1, Record(2, 0, 1))]
    lucky = await db.history.top_role("lucky", min_games=2)
    assert [(r.rank, r.tg_id, r.nickname) for r in lucky] == [(1, 3, "nick3"), (1, 4, "nick4")]
    assert await db.history.top_role("judge", min_games=0) == []
    await db.players.block(3, reason="cheat", admin_id=ADMIN, now=NOW)  # on no board
    assert [(r.rank, r.tg_id) for r in await db.history.top_role("lucky", min_games=2)] == [
        (1, 4)]


async def test_the_graph_is_the_rating_after_each_counted_game(db: Database) -> None:
    await three_games(db)
    points = await db.history.points(1)
    assert [(p.role, p.result) for p in points] == [
        ("mafia", SeatResult.LOSS), ("doctor", SeatResult.LOSS), ("mafia", SeatResult.DRAW)]
    assert [p.seq for p in points] == sorted(p.seq for p in points)
    ratings = await db.ratings.of(1)
    assert (points[-1].mu, points[-1].sigma) == (ratings[Side.ALL].mu, ratings[Side.ALL].sigma)
    assert await db.history.points(7) == []


async def test_rerate_rebuilds_the_same_rows_and_drops_a_voided_game(db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    rnd = random.Random(11)
    played = [await a_game(db, rnd.sample(list(PLAYERS), rnd.randint(4, 10)), rnd.randint(1, 3),
                           winner=rnd.choice(list(Winner))) for _ in range(25)]
    at_the_ends = await rows(db)
    assert len(at_the_ends) == sum(len(g.seats) for g in played)
    assert await db.ratings.rerate() == 25
    assert await rows(db) == at_the_ends  # the same floats, not just close ones
    # each player's last point is the rating the fold of every game gives
    folded = rerate(played)
    for tg_id in PLAYERS:
        points = await db.history.points(tg_id)
        if points:
            assert (points[-1].mu, points[-1].sigma) == (folded[(tg_id, Side.ALL)].mu,
                                                         folded[(tg_id, Side.ALL)].sigma)
    voided = played[3]
    await db.voids.void(voided.game_id, by=ADMIN, reason="a mistake", now=NOW)
    left = await rows(db)
    assert {r[2] for r in left} == {g.game_id for g in played} - {voided.game_id}
    assert await db.ratings.rerate() == 24 and await rows(db) == left

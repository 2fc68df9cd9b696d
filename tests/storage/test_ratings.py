"""The ratings as stored, on both backends: written at a game's end with its points (once),
never for a game that did not finish with a winner, equal to ``rerate``'s rebuild, and rebuilt
by ``python -m storage rerate`` from the logs of games that ended before the outcomes were
kept."""

from __future__ import annotations

import asyncio
import random
from datetime import date
from pathlib import Path

from engine import Role, Winner
from standing.rating import PROVISIONAL_GAMES, RatedGame, Rating, Side, rerate
from storage import Database, GamePoints
from storage.__main__ import main as storage_main
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players
from tests.storage.played import play_games

DAY = date(2026, 3, 10)
PLAYERS = range(1, 13)


async def stored(db: Database) -> dict[tuple[int, Side], Rating]:
    rows = await db.query("SELECT tg_id, side, mu, sigma, games, wins FROM ratings")
    return {(int(r[0]), Side(r[1])): Rating(float(r[2]), float(r[3]), int(r[4]), int(r[5]))
            for r in rows}


async def a_game(db: Database, seats: list[int], mafia: int, *, status: str = "finished",
                 winner: Winner | None = Winner.CIVILIANS) -> RatedGame:
    """A game dealt (its first ``mafia`` seats the Mafia) and ended with ``winner``."""
    game_id = await db.games.create(CLUB, ADMIN, seats=list(enumerate(seats, start=1)),
                                    created_at=NOW)
    roles = {s: (Role.MAFIA if s <= mafia else Role.DOCTOR if s == mafia + 1 else Role.LUCKY)
             for s in range(1, len(seats) + 1)}
    # (two Lucky cards break no storage rule; the rating reads only the card's team)
    await db.games.set_roles(game_id, {s: str(r) for s, r in roles.items()})
    await db.games.set_status(game_id, "running")
    assert await db.games.finish(game_id, status=status, day=DAY, points=[
        GamePoints(seats[0], 1, "survival")], winner=None if winner is None else str(winner))
    return RatedGame(game_id, tuple((tg, roles[s].team) for s, tg in enumerate(seats, 1)),
                     winner or Winner.DRAW)


async def test_each_games_end_rates_it_and_rerate_rebuilds_the_same_numbers(
        db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    rnd = random.Random(5)
    played = []
    for _ in range(30):
        seats = rnd.sample(list(PLAYERS), rnd.randint(4, 10))
        played.append(await a_game(db, seats, rnd.randint(1, 3),
                                   winner=rnd.choice(list(Winner))))
    after_each_end = await stored(db)
    assert after_each_end == rerate(played)  # the same floats, not just close ones
    assert await db.ratings.rerate() == 30
    assert await stored(db) == after_each_end
    mine = await db.ratings.of(played[0].seats[0][0])
    assert mine[Side.ALL] == after_each_end[(played[0].seats[0][0], Side.ALL)]


async def test_a_game_rates_once_and_only_when_it_finished_with_a_winner(db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await a_game(db, [1, 2, 3, 4], 1, status="aborted", winner=Winner.MAFIA)
    await a_game(db, [1, 2, 3, 4], 1, winner=None)
    running = await db.games.create(CLUB, ADMIN, seats=[(1, 5), (2, 6)], created_at=NOW)
    await db.games.set_roles(running, {1: "mafia", 2: "doctor"})
    await db.games.set_status(running, "running")
    assert await stored(db) == {}
    game = await a_game(db, [1, 2, 3, 4], 1, winner=Winner.MAFIA)
    once = await stored(db)
    assert once == rerate([game])
    assert not await db.games.finish(game.game_id, status="finished", points=[], day=DAY,
                                     winner="civilians")
    assert await stored(db) == once
    assert await db.ratings.rerate() == 1 and await stored(db) == once


async def test_the_leaderboard_by_rating_ranks_by_ordinal_without_provisional_ratings(
        db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    for _ in range(PROVISIONAL_GAMES):
        await a_game(db, [1, 2, 3, 4], 2, winner=Winner.MAFIA)  # 1, 2 win every game
    await a_game(db, [5, 6], 1, winner=Winner.MAFIA)  # one game: provisional
    top = await db.ratings.top(Side.ALL)
    assert [(r.rank, r.tg_id) for r in top] == [(1, 1), (1, 2), (3, 3), (3, 4)]
    assert top[0].nickname == "nick1" and top[0].rating.games == PROVISIONAL_GAMES
    assert top[0].rating.ordinal > top[2].rating.ordinal
    everyone = await db.ratings.top(Side.ALL, provisional=True, limit=100)
    assert {r.tg_id for r in everyone} == {1, 2, 3, 4, 5, 6}
    assert [r.tg_id for r in await db.ratings.top(Side.MAFIA, limit=1)] == [1]
    assert await db.ratings.top(Side.ALL, club_chat_id=-1) == []
    # a blocked account is on no board (as on the board by points), back once unblocked
    await db.players.block(1, reason="cheat", admin_id=ADMIN, now=NOW)
    assert [(r.rank, r.tg_id) for r in await db.ratings.top(Side.ALL)] == [
        (1, 2), (2, 3), (2, 4)]
    assert [(r.rank, r.tg_id) for r in await db.ratings.top(Side.ALL, club_chat_id=CLUB)] == [
        (1, 2), (2, 3), (2, 4)]
    assert [r.tg_id for r in await db.ratings.top(Side.MAFIA, limit=1)] == [2]
    assert (await db.ratings.of(1))[Side.ALL].games == PROVISIONAL_GAMES  # the rating stays
    await db.players.unblock(1, admin_id=ADMIN, now=NOW)
    assert [(r.rank, r.tg_id) for r in await db.ratings.top(Side.ALL)] == [
        (1, 1), (1, 2), (3, 3), (3, 4)]


async def test_a_player_without_a_nickname_keeps_a_place_on_every_board_by_no_name(
        db: Database) -> None:
    """The boards by rating, by card and of the season name a player by the nickname held
    now: a player without one (never taken, or expired) keeps the place the games gave and
    is named by nothing (None), never by the Telegram name, which here is even another
    player's nickname."""
    await add_players(db, 2, 3, 4)
    await db.players.register(1, display_name="nick2", language="ru")  # no nickname
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    for _ in range(PROVISIONAL_GAMES):  # 1 and 2 the Mafia, winning every game
        await a_game(db, [1, 2, 3, 4], 2, winner=Winner.MAFIA)
    named = {2: "nick2", 3: "nick3", 4: "nick4"}
    assert {r.tg_id: r.nickname for r in await db.ratings.top(Side.ALL)} == {1: None, **named}
    assert {r.tg_id: r.nickname for r in await db.ratings.top(
        Side.ALL, club_chat_id=CLUB)} == {1: None, **named}
    assert [(r.rank, r.tg_id, r.nickname) for r in await db.history.top_role(
        str(Role.MAFIA))] == [(1, 1, None), (1, 2, "nick2")]
    season = await db.seasons.of_day(DAY)
    for boards in (await db.seasons.boards(season), await db.seasons.fame(season),
                   await db.seasons.boards(season, club_chat_id=CLUB)):
        assert {p.tg_id: p.nickname for p in boards.rating} == {1: None, **named}
        assert [(p.rank, p.tg_id, p.nickname) for p in boards.points] == [(1, 1, None)]
    assert [p.nickname for p in await db.seasons.top_ten(season.key)].count(None) == 1


async def test_rerate_reads_the_outcomes_of_games_that_ended_before_they_were_kept(
        db_target: str | Path, tmp_path: Path) -> None:
    """Real games played by the game service: their ends rated them; with the outcomes
    forgotten (as the games ended before the table) and the ratings gone, ``python -m storage
    rerate`` reads the winners from the logs and writes the same numbers."""
    games = await play_games(db_target, tmp_path, sizes=(8, 10))
    db = await Database.open(db_target)
    try:
        rated = await stored(db)
        assert {tg for tg, _ in rated} == {
            s.tg_id for g in games for s in (await db.games.get(g)).seats}
        async with db.transaction() as conn:
            await conn.execute("UPDATE game_outcomes SET winner = NULL")
            await conn.execute("DELETE FROM ratings")
        assert await db.ratings.unread() == games
    finally:
        await db.close()
    # the command line runs its own event loop: on a thread of its own here
    assert await asyncio.to_thread(storage_main, ["rerate", str(db_target)]) == 0
    db = await Database.open(db_target)
    try:
        assert await stored(db) == rated
        assert await db.ratings.unread() == []
    finally:
        await db.close()


async def test_a_voided_game_counts_no_more_and_the_ratings_are_rebuilt(db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    first = await a_game(db, [1, 2, 3, 4], 1, winner=Winner.MAFIA)
    voided = await a_game(db, [1, 2, 5, 6], 2, winner=Winner.CIVILIANS)
    last = await a_game(db, [1, 3, 5, 7], 1, winner=Winner.MAFIA)
    assert await stored(db) == rerate([first, voided, last])
    await db.voids.void(voided.game_id, by=ADMIN, reason="a mistake", now=NOW)
    assert await stored(db) == rerate([first, last])
    assert (6, Side.ALL) not in await stored(db)  # player 6 sat in the voided game only
    assert await db.ratings.rerate() == 2 and await stored(db) == rerate([first, last])


async def test_a_friendly_game_is_never_rated(db: Database) -> None:
    """A game of a club the network had not approved ends with no points: no outcome, no
    rating."""
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW,
                                    friendly=True)
    await db.games.set_roles(game_id, {1: "mafia", 2: "doctor"})
    await db.games.set_status(game_id, "running")
    await db.games.finish(game_id, status="finished", points=[], day=DAY, winner="mafia")
    assert (await db.games.get(game_id)).status == "finished"
    assert await stored(db) == {}
    assert await db.query("SELECT game_id FROM game_outcomes") == []
    assert await db.ratings.rerate() == 0 and await stored(db) == {}

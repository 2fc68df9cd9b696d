"""The seasons as stored, on both backends: each counted game's season from the day it ended,
each season's own rating written at the game's end and rebuilt by ``rerate`` to the same
numbers, the boards by rating and by points (voided and friendly games left out), per club and
network-wide, the Hall of Fame's places, and the empties."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from engine import Role, Winner
from standing.achievements import Count
from standing.rating import PROVISIONAL_GAMES, RatedGame, Rating, Side, rerate
from standing.seasons import Custom, Season, closes_at
from storage import Database, GamePoints
from storage.__main__ import main as storage_main
from storage.standing.seasons import write as write_season_ratings
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

OTHER = -100456
PLAYERS = range(1, 13)
Q1, Q2 = Season(date(2026, 1, 1), date(2026, 3, 31)), Season(date(2026, 4, 1), date(2026, 6, 30))


async def a_game(db: Database, seats: list[int], mafia: int, ended_on: date, *,
                 club: int = CLUB, winner: Winner = Winner.CIVILIANS,
                 points: int = 1) -> RatedGame:
    """A game dealt (its first ``mafia`` seats the Mafia), ended on ``ended_on`` with
    ``winner``; every winner earns ``points``."""
    game_id = await db.games.create(club, ADMIN, seats=list(enumerate(seats, start=1)),
                                    created_at=NOW)
    roles = {s: (Role.MAFIA if s <= mafia else Role.DOCTOR if s == mafia + 1 else Role.LUCKY)
             for s in range(1, len(seats) + 1)}
    await db.games.set_roles(game_id, {s: str(r) for s, r in roles.items()})
    await db.games.set_status(game_id, "running")
    won = [tg for s, tg in enumerate(seats, 1)
           if (roles[s] is Role.MAFIA) == (winner is Winner.MAFIA) and winner is not Winner.DRAW]
    assert await db.games.finish(game_id, status="finished", day=NOW.date(), points=[
        GamePoints(tg, points, "win") for tg in won], winner=str(winner), ended_on=ended_on)
    return RatedGame(game_id, tuple((tg, roles[s].team) for s, tg in enumerate(seats, 1)),
                     winner)


async def season_rows(db: Database) -> dict[tuple[str, int], Rating]:
    rows = await db.query("SELECT season, tg_id, mu, sigma, games, wins FROM season_ratings")
    return {(str(r[0]), int(r[1])): Rating(float(r[2]), float(r[3]), int(r[4]), int(r[5]))
            for r in rows}


async def ledger_and_balances(db: Database) -> tuple[list[tuple[object, ...]], ...]:
    ledger = await db.query("SELECT id, tg_id, points, kind, game_id FROM ledger ORDER BY id")
    balances = await db.query("SELECT * FROM balances ORDER BY tg_id")
    return [tuple(r) for r in ledger], [tuple(r) for r in balances]


async def test_each_end_rates_its_season_and_rerate_rebuilds_the_same_numbers(
        db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    rnd = random.Random(11)
    played: dict[str, list[RatedGame]] = {Q1.key: [], Q2.key: []}
    for index in range(24):
        season = Q1 if index % 3 else Q2
        day = season.start if index % 2 else season.end
        seats = rnd.sample(list(PLAYERS), rnd.randint(4, 10))
        played[season.key].append(await a_game(db, seats, rnd.randint(1, 3), day,
                                                winner=rnd.choice(list(Winner))))
    at_the_ends = await season_rows(db)
    expected = {(key, tg): rating for key, games in played.items()
                for (tg, side), rating in rerate(games).items() if side is Side.ALL}
    assert at_the_ends == expected  # each season folded alone: the same floats
    outcomes = await db.query("SELECT game_id, season FROM game_outcomes ORDER BY seq")
    assert {int(r[0]): str(r[1]) for r in outcomes} == {
        g.game_id: key for key, games in played.items() for g in games}
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM season_ratings")
    assert await db.ratings.rerate() == 24
    assert await season_rows(db) == at_the_ends
    # the overall rating is every season's games together
    overall = await db.query("SELECT count(*) FROM ratings WHERE side = 'all'")
    assert int(overall[0][0]) == len({tg for games in played.values() for g in games
                                      for tg, _ in g.seats})


async def test_the_boards_by_rating_and_by_points_of_a_season(db: Database) -> None:
    await add_players(db, *PLAYERS)
    for club in (CLUB, OTHER):
        await db.clubs.ensure(club, title=f"Club {club}", locale="ru")
    for _ in range(PROVISIONAL_GAMES):  # 1 and 2 win every game of Q1 at CLUB
        await a_game(db, [1, 2, 3, 4], 2, Q1.end, winner=Winner.MAFIA, points=3)
    await a_game(db, [5, 6, 7, 8], 1, Q1.start, club=OTHER, winner=Winner.MAFIA, points=4)
    await a_game(db, [1, 2, 3, 4], 2, Q2.start, winner=Winner.CIVILIANS, points=100)
    by_rating = await db.seasons.by_rating(Q1.key)
    assert [(p.rank, p.tg_id) for p in by_rating] == [(1, 1), (1, 2), (3, 3), (3, 4)]
    assert by_rating[0].rating is not None and by_rating[0].rating.games == PROVISIONAL_GAMES
    assert await db.seasons.by_rating(Q1.key, club_chat_id=OTHER) == []  # 5..8: one game
    by_points = await db.seasons.by_points(Q1.key)
    assert [(p.rank, p.tg_id, p.value) for p in by_points] == [(1, 1, 30.0), (1, 2, 30.0),
                                                               (3, 5, 4.0)]
    assert [p.tg_id for p in await db.seasons.by_points(Q1.key, club_chat_id=OTHER)] == [5]
    q2 = await db.seasons.by_points(Q2.key)
    assert [(p.tg_id, p.value) for p in q2] == [(3, 100.0), (4, 100.0)]
    mine = await db.seasons.mine(Q1, 1)
    assert mine.points == 30 and mine.rating is not None and mine.rating.wins == 10
    assert [s.key for s in await db.seasons.played()] == [Q2.key, Q1.key]
    assert [s.key for s in await db.seasons.played(before=Q2.start)] == [Q1.key]
    assert [s.key for s in await db.seasons.played(club_chat_id=OTHER)] == [Q1.key]


async def test_a_blocked_player_is_on_no_season_board_and_keeps_the_rows(db: Database) -> None:
    """As on the all-time boards: blocked, a player leaves the season's boards by rating and
    by points (the club's and the network's, the Hall of Fame, the top ten) and the others
    move up; the season's rows stay, and unblocked the player is back."""
    await add_players(db, *PLAYERS)
    for club in (CLUB, OTHER):
        await db.clubs.ensure(club, title=f"Club {club}", locale="ru")
    for _ in range(PROVISIONAL_GAMES):  # 1 and 2 win every game of Q1 at CLUB
        await a_game(db, [1, 2, 3, 4], 2, Q1.end, winner=Winner.MAFIA, points=3)
    await a_game(db, [5, 6, 7, 8], 1, Q1.start, club=OTHER, winner=Winner.MAFIA, points=4)
    before = await season_rows(db)

    async def seen() -> list[list[tuple[int, int]]]:
        boards = [await db.seasons.boards(Q1), await db.seasons.boards(Q1, club_chat_id=CLUB),
                  await db.seasons.fame(Q1), await db.seasons.fame(Q1, club_chat_id=CLUB)]
        return [[(p.rank, p.tg_id) for p in lines] for b in boards
                for lines in (b.rating, b.points)] + [
            [(p.rank, p.tg_id) for p in await db.seasons.top_ten(Q1.key)]]

    everyone = await seen()
    assert everyone == [[(1, 1), (1, 2), (3, 3), (3, 4)], [(1, 1), (1, 2), (3, 5)],
                        [(1, 1), (1, 2), (3, 3), (3, 4)], [(1, 1), (1, 2)],
                        [(1, 1), (1, 2), (3, 3), (3, 4)], [(1, 1), (1, 2), (3, 5)],
                        [(1, 1), (1, 2), (3, 3), (3, 4)], [(1, 1), (1, 2)],
                        [(1, 1), (1, 2), (3, 3), (3, 4)]]
    await db.players.block(1, reason="cheat", admin_id=ADMIN, now=NOW)
    assert await seen() == [[(1, 2), (2, 3), (2, 4)], [(1, 2), (2, 5)],
                            [(1, 2), (2, 3), (2, 4)], [(1, 2)],
                            [(1, 2), (2, 3), (2, 4)], [(1, 2), (2, 5)],
                            [(1, 2), (2, 3), (2, 4)], [(1, 2)],
                            [(1, 2), (2, 3), (2, 4)]]
    assert await season_rows(db) == before  # the season stays as the player left it
    mine = await db.seasons.mine(Q1, 1)
    assert mine.points == 30 and mine.rating == before[(Q1.key, 1)]
    await db.players.unblock(1, admin_id=ADMIN, now=NOW)
    assert await seen() == everyone


async def test_the_hall_of_fame_keeps_the_first_places_with_their_ties(db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    for index, tg in enumerate((1, 2, 3, 4, 5)):
        points = (9, 7, 7, 3, 1)[index]
        await a_game(db, [tg, 6], 1, Q1.end, winner=Winner.MAFIA, points=points)
    fame = await db.seasons.fame(Q1, club_chat_id=CLUB)
    assert [(p.rank, p.tg_id) for p in fame.points] == [(1, 1), (2, 2), (2, 3)]
    fame = await db.seasons.fame(Q1, places=4)
    assert [(p.rank, p.tg_id) for p in fame.points] == [(1, 1), (2, 2), (2, 3), (4, 4)]
    assert fame.rating == []  # nobody has the season's ten games


async def test_a_voided_game_leaves_the_season_and_a_friendly_one_never_enters(
        db: Database) -> None:
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    kept = await a_game(db, [1, 2, 3, 4], 1, Q1.end, winner=Winner.MAFIA, points=2)
    voided = await a_game(db, [1, 2, 3, 4], 1, Q1.end, winner=Winner.MAFIA, points=5)
    assert [(p.tg_id, p.value) for p in await db.seasons.by_points(Q1.key)] == [(1, 7.0)]
    await db.voids.void(voided.game_id, by=ADMIN, reason="wrong deal", now=NOW)
    assert [(p.tg_id, p.value) for p in await db.seasons.by_points(Q1.key)] == [(1, 2.0)]
    assert (await db.seasons.mine(Q1, 1)).points == 2
    await db.ratings.rerate()  # the void's own rebuild, as the service runs it
    assert await season_rows(db) == {
        (Q1.key, tg): r for (tg, side), r in rerate([kept]).items() if side is Side.ALL}


def quarter(year: int, number: int) -> Season:
    start = date(year, 3 * number - 2, 1)
    after = date(year + 1, 1, 1) if number == 4 else date(year, 3 * number + 1, 1)
    return Season(start, after - timedelta(days=1))


async def test_a_seasons_top_ten_is_read_from_the_closed_seasons_boards(db: Database) -> None:
    """The top ten of the network's board by rating of each closed season: 1 in five seasons
    (level 5), 11 at 11th in the one closed board it is on (nothing) and first of the season
    under way (nothing until it is over on every clock)."""
    await add_players(db, *PLAYERS)
    q4 = quarter(2025, 4)
    ratings = [(q4.key, tg, Rating(40.0 - tg, 1.0, PROVISIONAL_GAMES, 5)) for tg in PLAYERS]
    ratings += [(quarter(year, n).key, 1, Rating(30.0, 1.0, PROVISIONAL_GAMES, 5))
                for year, n in ((2024, 4), (2025, 1), (2025, 2), (2025, 3))]
    ratings += [(Q1.key, 11, Rating(30.0, 1.0, PROVISIONAL_GAMES + 2, 9)),
                (Q1.key, 1, Rating(20.0, 1.0, PROVISIONAL_GAMES, 1))]
    async with db.transaction() as conn:
        await write_season_ratings(conn, ratings)
    assert [(p.rank, p.tg_id) for p in await db.seasons.top_ten(q4.key)] == [
        (rank, rank) for rank in range(1, 11)]
    mine = await db.seasons.top_tens(1, NOW)
    assert [(s.key, rank) for s, rank in mine] == [
        ("2024-10-01", 1), ("2025-01-01", 1), ("2025-04-01", 1), ("2025-07-01", 1),
        (q4.key, 1)]  # Q1 2026 is under way at NOW
    assert (await db.achievements.progress(1, NOW))["season_top"] == Count(5, 5)
    assert [(s.key, rank) for s, rank in await db.seasons.top_tens(10, NOW)] == [(q4.key, 10)]
    assert await db.seasons.top_tens(11, NOW) == []
    assert "season_top" not in await db.achievements.progress(11, NOW)
    assert "season_top" not in await db.achievements.progress(12, NOW)
    # Q1 2026 is over once the last clock on earth (UTC-12) is past 00:15 on 1 April
    over = closes_at(Q1)
    assert over == datetime(2026, 4, 1, 12, 15, tzinfo=UTC)
    just_before = over - timedelta(microseconds=1)
    assert "season_top" not in await db.achievements.progress(11, just_before)
    assert (await db.achievements.progress(11, over))["season_top"] == Count(1, 1)
    assert (await db.achievements.progress(1, over))["season_top"] == Count(6, 6)


async def test_a_void_that_moves_a_player_off_the_board_takes_the_season_away(
        db: Database) -> None:
    """Read from the seasons' ratings, the top ten follows a void and its rebuild: four
    players each one game short of the board have nothing."""
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    games = [await a_game(db, [1, 2, 3, 4], 2, Q1.end, winner=Winner.MAFIA)
             for _ in range(PROVISIONAL_GAMES)]
    after = closes_at(Q1)
    assert {tg: (await db.achievements.progress(tg, after)).get("season_top")
            for tg in (1, 2, 3, 4, 5)} == {1: Count(1, 1), 2: Count(1, 1), 3: Count(1, 1),
                                            4: Count(1, 1), 5: None}
    assert [(p.rank, p.tg_id) for p in await db.seasons.top_ten(Q1.key)] == [
        (1, 1), (1, 2), (3, 3), (3, 4)]
    await db.voids.void(games[0].game_id, by=ADMIN, reason="wrong deal", now=NOW)
    await db.ratings.rerate()  # the void's own rebuild, as the service runs it
    assert await db.seasons.top_ten(Q1.key) == []
    for tg in (1, 2, 3, 4):
        assert "season_top" not in await db.achievements.progress(tg, after), tg


async def test_the_empties(db: Database) -> None:
    """A season without games has empty boards; a player with one game has a provisional
    season's rating and no place on the board; a blocked player's season stays, and an
    expired one's (the points burnt are no game's), its line with no name."""
    await add_players(db, *PLAYERS)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    assert await db.seasons.boards(Q1) == (Q1, None, [], [])
    assert await db.seasons.mine(Q1, 1) == (Q1, None, 0)
    assert await db.seasons.played() == []
    await a_game(db, [1, 2], 1, Q1.end, winner=Winner.MAFIA, points=2)
    mine = await db.seasons.mine(Q1, 1)
    assert mine.points == 2 and mine.rating is not None and mine.rating.provisional
    assert await db.seasons.by_rating(Q1.key) == []
    before = await season_rows(db)
    await db.players.block(2, reason="cheat", admin_id=ADMIN, now=NOW)
    assert await season_rows(db) == before
    assert (await db.seasons.mine(Q1, 2)).rating == before[(Q1.key, 2)]
    # absent two months (the game's day, 10 March): nickname and points go, the season stays
    assert [p.tg_id for p in await db.expiry.sweep(date(2026, 5, 10))] == [1, 2]
    player = await db.players.get(1)
    assert player is not None and player.nickname is None and await db.ledger.balance(1) == 0
    assert await season_rows(db) == before
    assert (await db.seasons.mine(Q1, 1)).points == 2
    # still on the board, by no name: never the Telegram name (which players are not shown)
    assert [(p.tg_id, p.nickname, p.value) for p in await db.seasons.by_points(Q1.key)] == [
        (1, None, 2.0)]


async def test_custom_seasons_set_by_the_network_are_logged_and_move_no_point(
        db: Database) -> None:
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await a_game(db, [1, 2], 1, Q1.end, winner=Winner.MAFIA, points=2)
    money = await ledger_and_balances(db)
    cup = Custom(date(2026, 5, 1), date(2026, 5, 31), "May cup")
    await db.network.set_season(cup, admin_id=ADMIN, now=NOW, earliest=date(2026, 3, 12))
    assert await db.seasons.customs() == [cup]
    assert await db.seasons.of_day(date(2026, 5, 3)) == Season(cup.start, cup.end, "May cup")
    assert await db.seasons.of_day(date(2026, 4, 30)) == Season(date(2026, 4, 1),
                                                                date(2026, 4, 30))
    log = [(a.admin_id, a.action, a.details) for a in await db.admin_log.recent(5)]
    assert log == [(ADMIN, "network_season", "2026-05-01 .. 2026-05-31 May cup")]
    assert await ledger_and_balances(db) == money
    # a game the season's dates would move, or an overlap: refused, nothing written
    for bad, why in ((Custom(date(2026, 3, 11), date(2026, 3, 20), ""), "past"),
                     (Custom(date(2026, 5, 31), date(2026, 6, 5), ""), "overlap")):
        refusal = await db.network.set_season(bad, admin_id=ADMIN, now=NOW,
                                              earliest=date(2026, 3, 12))
        assert refusal == why
    assert await db.seasons.customs() == [cup]
    assert len(await db.admin_log.recent(5)) == 1
    assert await ledger_and_balances(db) == money


async def test_a_custom_season_is_deleted_only_before_it_may_hold_a_game(
        db: Database) -> None:
    """Deleted, logged, its days back in their quarter; refused, nothing written, for a day
    no season starts on, a season starting before ``earliest``, and one a game ended in."""
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    cup = Custom(date(2026, 5, 1), date(2026, 5, 31), "May cup")
    june = Custom(date(2026, 6, 1), date(2026, 6, 30), "June")
    for custom in (cup, june):
        await db.network.set_season(custom, admin_id=ADMIN, now=NOW, earliest=date(2026, 3, 12))
    await a_game(db, [1, 2], 1, date(2026, 6, 2), winner=Winner.MAFIA, points=2)  # in June
    money, log = await ledger_and_balances(db), await db.admin_log.recent(10)
    for day, earliest, refusal in ((date(2026, 5, 2), date(2026, 3, 12), (None, "unknown")),
                                   (cup.start, date(2026, 5, 2), (cup, "started")),
                                   (june.start, date(2026, 3, 12), (june, "started"))):
        assert await db.network.delete_season(day, admin_id=ADMIN, now=NOW,
                                              earliest=earliest) == refusal
    assert await db.seasons.customs() == [cup, june]
    assert await db.admin_log.recent(10) == log
    assert await db.network.delete_season(cup.start, admin_id=ADMIN, now=NOW,
                                          earliest=cup.start) == (cup, None)
    assert await db.seasons.customs() == [june]
    # its days back in the quarter, cut around June's season
    assert await db.seasons.of_day(date(2026, 5, 3)) == Season(date(2026, 4, 1),
                                                               date(2026, 5, 31))
    latest = (await db.admin_log.recent(1))[0]
    assert (latest.admin_id, latest.action, latest.details) == (
        ADMIN, "network_season_delete", "2026-05-01 .. 2026-05-31 May cup")
    assert await ledger_and_balances(db) == money


async def test_python_m_storage_rerate_rebuilds_the_seasons(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    try:
        await add_players(db, *PLAYERS)
        await db.clubs.ensure(CLUB, title="Club", locale="ru")
        for day in (Q1.end, Q2.start, Q2.end):
            await a_game(db, [1, 2, 3, 4, 5], 2, day, winner=Winner.MAFIA)
        at_the_ends = await season_rows(db)
        assert {key for key, _ in at_the_ends} == {Q1.key, Q2.key}
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM season_ratings")
    finally:
        await db.close()
    # the command line runs its own event loop: on a thread of its own here
    assert await asyncio.to_thread(storage_main, ["rerate", str(db_target)]) == 0
    db = await Database.open(db_target)
    try:
        assert await season_rows(db) == at_the_ends
    finally:
        await db.close()

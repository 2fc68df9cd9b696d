"""Read-only statistics queries: games played, club tables, totals, a game's points."""

from __future__ import annotations

from datetime import date, timedelta

from storage import Database, Fine, GamePoints
from storage.repos.games import GameChange
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

OTHER_CLUB = -100777
DAY = date(2026, 3, 10)


async def finished_game(db: Database, club: int, seats: list[int], points: dict[int, int],
                        day: date = DAY, roles: dict[int, str] | None = None) -> int:
    game_id = await db.games.create(club, 1, seats=list(enumerate(seats, 1)), created_at=NOW)
    if roles:
        await db.games.set_roles(game_id, roles)
    rows = [GamePoints(tg, p, "win") for tg, p in points.items()]
    await db.games.finish(game_id, status="finished", points=rows, day=day)
    return game_id


async def setup(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Bravo club", locale="ru")
    await db.clubs.ensure(OTHER_CLUB, title="Alpha club", locale="en")
    await add_players(db, 1, 2, 3, 4)


async def test_played_games_lists_finished_games_newest_first_with_cards(db: Database) -> None:
    await setup(db)
    first = await finished_game(db, CLUB, [1, 2], {1: 3}, roles={1: "mafia", 2: "doctor"})
    second = await finished_game(db, OTHER_CLUB, [2, 1], {}, roles={1: "mafia", 2: "civilian"})
    running = await db.games.create(CLUB, 1, seats=[(1, 1)], created_at=NOW)
    games = await db.stats.played_games(1)
    assert [g.game_id for g in games] == [second, first]
    assert running not in [g.game_id for g in games]
    assert (games[0].seat, games[0].role, games[0].club_title) == (2, "civilian", "Alpha club")
    assert (games[1].seat, games[1].role, games[1].finished_on) == (1, "mafia", DAY)
    assert await db.stats.played_games(4) == []
    assert len(await db.stats.played_games(1, limit=1)) == 1


async def test_points_totals_split_earned_and_spent(db: Database) -> None:
    await setup(db)
    await finished_game(db, CLUB, [1], {1: 10})
    await db.ledger.redeem(1, 4, reason="mug", admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(1, -1, reason="fix", admin_id=ADMIN, now=NOW)
    assert await db.stats.points_totals(1) == (10, 5)
    assert await db.stats.points_totals(2) == (0, 0)


async def test_an_undone_foul_changes_neither_earned_nor_spent(db: Database) -> None:
    await setup(db)
    await db.ledger.adjust(1, 10, reason="start", admin_id=ADMIN, now=NOW)
    game_id = await db.games.create(CLUB, 1, seats=[(1, 1), (2, 2)], created_at=NOW)
    fine, back = Fine(1, -3, "foul_at_night", "night 1", DAY), Fine(1, 3, "foul_undone",
                                                                     "night 1", DAY)
    await db.games.append_events_with_messages(
        game_id, [(1, "foul", {"seat": 1, "points": 3}, None)], [], now=0.0,
        change=GameChange(fines=(fine,)))
    await db.games.append_events_with_messages(
        game_id, [(2, "foul", {"seat": 1, "points": 3}, None)], [], now=0.0,
        change=GameChange(fines=(fine,)))
    assert await db.stats.points_totals(1) == (10, 6)
    await db.games.append_events_with_messages(
        game_id, [(3, "foul_undone", {"number": 1}, None)], [], now=0.0,
        change=GameChange(fines=(back,)))
    assert await db.stats.points_totals(1) == (10, 3)  # the other fine stands
    # an admin's correction named like the reversal is no reversal: it is earned
    await db.ledger.adjust(1, 2, reason="foul_undone", admin_id=ADMIN, now=NOW)
    assert await db.stats.points_totals(1) == (12, 3)
    assert await db.ledger.balance(1) == 12 - 3


async def test_club_top_counts_only_the_clubs_games_in_the_period(db: Database) -> None:
    await setup(db)
    await finished_game(db, CLUB, [1, 2, 3], {1: 5, 2: 7, 3: 5})
    await finished_game(db, OTHER_CLUB, [1, 2], {1: 100, 2: 1})
    await finished_game(db, CLUB, [1], {1: 50}, day=DAY - timedelta(days=90))
    await db.ledger.adjust(3, 40, reason="bonus", admin_id=ADMIN, now=NOW)  # not a game row
    top = await db.stats.club_top(CLUB, since=DAY - timedelta(days=30), until=DAY)
    assert [(e.nickname, e.points, e.rank) for e in top] == [
        ("nick2", 7, 1), ("nick1", 5, 2), ("nick3", 5, 2)]
    other = await db.stats.club_top(OTHER_CLUB, since=DAY, until=DAY)
    assert [(e.tg_id, e.points) for e in other] == [(1, 100), (2, 1)]
    # a blocked player and one without a nickname are not on the table
    await db.players.block(2, reason="x", admin_id=ADMIN, now=NOW)
    top = await db.stats.club_top(CLUB, since=DAY - timedelta(days=30), until=DAY, limit=1)
    assert [e.tg_id for e in top] == [1]


async def test_clubs_and_finished_games(db: Database) -> None:
    await setup(db)
    await db.clubs.ensure(-100999, title="Empty", locale="ru")
    assert await db.stats.clubs() == []
    game = await finished_game(db, CLUB, [1, 2], {1: 1})
    aborted = await db.games.create(CLUB, 1, seats=[(1, 1)], created_at=NOW)
    await db.games.finish(aborted, status="aborted", points=[], day=DAY)
    assert [c.title for c in await db.stats.clubs()] == ["Bravo club"]
    assert [g.game_id for g in await db.stats.finished_games(CLUB)] == [game]
    assert await db.stats.finished_games(OTHER_CLUB) == []


async def test_game_points_and_nicknames(db: Database) -> None:
    await setup(db)
    game = await finished_game(db, CLUB, [1, 2], {1: 3, 2: 2})
    await db.ledger.adjust(1, 1, reason="x", admin_id=ADMIN, now=NOW)
    rows = await db.stats.game_points(game)
    assert [(r.tg_id, r.points, r.reason) for r in rows] == [(1, 3, "win"), (2, 2, "win")]
    await db.players.register(9, display_name="No nick", language="ru")
    assert await db.stats.nicknames([1, 9]) == {1: "nick1", 9: None}
    assert await db.stats.nicknames([]) == {}

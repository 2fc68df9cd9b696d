"""The network's caps on fines, on both backends: the defaults, a club's fine refused above the
cap, a lowered cap lowering every club's fine above it in the same transaction (and the admin
log saying so), a running game's fines held under both caps by the step's own transaction, a
cap lowered while a club raises its fine ending consistent, and an old database migrating."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest

from storage import Database
from storage.errors import FineAboveCap, InvalidValue
from storage.models import DEFAULT_FINE_CAPS, Club, Fine, FineCaps
from storage.network import MAX_GAME_FINE_CAP
from storage.repos.games import GameChange
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

DAY = date(2026, 3, 10)
OTHER = -100456


async def test_the_defaults_until_an_admin_sets_a_cap(db: Database) -> None:
    assert await db.network.fine_caps() == DEFAULT_FINE_CAPS == FineCaps(fine=10, game=20)
    change = await db.network.set_cap("game_fine_cap", 35, admin_id=ADMIN, now=NOW)
    assert (change.old, change.new, change.lowered) == (20, 35, ())
    assert await db.network.fine_caps() == FineCaps(fine=10, game=35)
    log = await db.admin_log.recent(5)
    assert [(a.admin_id, a.action, a.details) for a in log] == [
        (ADMIN, "network_game_fine_cap", "20 -> 35")]


@pytest.mark.parametrize(("name", "value"), [("fine_cap", -1), ("fine_cap", 1001),
                                             ("game_fine_cap", MAX_GAME_FINE_CAP + 1),
                                             ("fine_cap", True), ("other_cap", 5)])
async def test_a_bad_cap_is_refused_and_nothing_changes(db: Database, name: str,
                                                        value: int) -> None:
    with pytest.raises(InvalidValue):
        await db.network.set_cap(name, value, admin_id=ADMIN, now=NOW)
    assert await db.network.fine_caps() == DEFAULT_FINE_CAPS
    assert await db.admin_log.recent(5) == []


async def test_a_clubs_fine_above_the_cap_is_refused(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await db.clubs.set_fouls(CLUB, points=10)  # the cap itself is allowed
    with pytest.raises(FineAboveCap) as refused:
        await db.clubs.set_fouls(CLUB, points=11, limit=2)
    assert (refused.value.scope, refused.value.value, refused.value.cap) == ("fine", 11, 10)
    club = await db.clubs.get(CLUB)
    assert club is not None and (club.foul_points, club.foul_limit) == (10, 4)
    await db.network.set_cap("fine_cap", 50, admin_id=ADMIN, now=NOW)
    assert (await db.clubs.set_fouls(CLUB, points=50)).foul_points == 50


async def test_a_lowered_cap_lowers_every_club_fine_above_it(db: Database) -> None:
    await db.network.set_cap("fine_cap", 30, admin_id=ADMIN, now=NOW)
    for chat_id, points in ((CLUB, 25), (OTHER, 5)):
        await db.clubs.ensure(chat_id, title=f"Club {chat_id}", locale="en")
        await db.clubs.set_fouls(chat_id, points=points)
    assert (await db.clubs.cached(CLUB)) is not None  # kept in memory: must be forgotten
    change = await db.network.set_cap("fine_cap", 7, admin_id=ADMIN + 1, now=NOW)
    assert (change.old, change.new) == (30, 7)
    assert [(club.chat_id, club.foul_points, before) for club, before in change.lowered] == [
        (CLUB, 7, 25)]
    cached = await db.clubs.cached(CLUB)
    assert cached is not None and cached.foul_points == 7
    other = await db.clubs.get(OTHER)
    assert other is not None and other.foul_points == 5
    log = [(a.admin_id, a.action, a.details) for a in await db.admin_log.recent(2)]
    assert sorted(log) == [(ADMIN + 1, "club_fine_lowered", f"club={CLUB} 25 -> 7"),
                           (ADMIN + 1, "network_fine_cap", "30 -> 7")]


async def running_game(db: Database) -> int:
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    return await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)


async def fine(db: Database, game_id: int, tg_id: int, points: int) -> None:
    await db.games.append_events_with_messages(
        game_id, [], [], now=0.0,
        change=GameChange(fines=(Fine(tg_id, points, "foul_other", "day 1", DAY),)))


async def test_a_games_fines_stay_under_both_caps(db: Database) -> None:
    """The step's transaction refuses a fine above one foul's cap, or one that takes the
    player's fines in this game above the game's cap (nothing of it written); an undone fine
    gives its room back; another game counts apart."""
    game_id = await running_game(db)
    await db.network.set_cap("fine_cap", 4, admin_id=ADMIN, now=NOW)
    await db.network.set_cap("game_fine_cap", 6, admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(1, 100, reason="start", admin_id=ADMIN, now=NOW)
    with pytest.raises(FineAboveCap) as one:
        await fine(db, game_id, 1, -5)
    assert (one.value.scope, one.value.cap) == ("fine", 4)
    await fine(db, game_id, 1, -4)
    with pytest.raises(FineAboveCap) as game:
        await fine(db, game_id, 1, -3)
    assert (game.value.scope, game.value.value, game.value.cap) == ("game", 7, 6)
    await fine(db, game_id, 1, -2)  # 6: the cap itself
    assert await db.ledger.balance(1) == 94
    await fine(db, game_id, 1, 4)  # an undone foul's fine comes back: room for 4 again
    await fine(db, game_id, 1, -4)
    assert await db.ledger.balance(1) == 94
    with pytest.raises(FineAboveCap):
        await fine(db, game_id, 1, -1)
    await add_players(db, 3)
    second = await db.games.create(CLUB, ADMIN, seats=[(1, 3)], created_at=NOW)
    await db.ledger.adjust(3, 10, reason="start", admin_id=ADMIN, now=NOW)
    await fine(db, second, 3, -4)
    assert [r.points for r in await db.stats.game_points(game_id)] == [-4, -2, 4, -4]
    assert [r.points for r in await db.stats.game_points(second)] == [-4]


async def test_a_cap_lowered_while_a_club_raises_its_fine_ends_consistent(
        db_target: str | Path) -> None:
    """Two processes (two pools on PostgreSQL): one lowers the cap, the other raises a club's
    fine at the same moment, many times over. Whichever goes first, the club's fine ends at
    most the cap (never a fine above a cap both of them saw committed)."""
    first, second = await Database.open(db_target), await Database.open(db_target)
    try:
        await first.clubs.ensure(CLUB, title="Club", locale="ru")
        for round_ in range(12):
            await first.network.set_cap("fine_cap", 20, admin_id=ADMIN, now=NOW)
            await first.clubs.set_fouls(CLUB, points=1)
            raised, lowered = await asyncio.gather(
                second.clubs.set_fouls(CLUB, points=15),
                first.network.set_cap("fine_cap", 5 + round_ % 3, admin_id=ADMIN, now=NOW),
                return_exceptions=True)
            assert not isinstance(lowered, BaseException)
            assert isinstance(raised, Club | FineAboveCap)
            club = await second.clubs.get(CLUB)
            cap = (await second.network.fine_caps()).fine
            assert club is not None and cap == 5 + round_ % 3 and club.foul_points <= cap
    finally:
        await first.close()
        await second.close()


async def test_an_old_database_gets_the_default_cap(backend: str, db_target: str | Path,
                                                    request: pytest.FixtureRequest) -> None:
    """A club's fine set before the network had caps is lowered to the default cap when the
    database migrates; a fine under it stays."""
    from storage.schema import postgres, sqlite

    migrations = sqlite.MIGRATIONS if backend == "sqlite" else postgres.MIGRATIONS
    before = next(i for i, (name, _) in enumerate(migrations)
                  if name.startswith("the network's settings"))
    clubs = "INSERT INTO clubs (chat_id, title, locale, foul_points) VALUES (-1, 'A', 'ru', 50)," \
        " (-2, 'B', 'ru', 3)"
    if backend == "sqlite":
        from storage.backends.sqlite_thread import SqliteConnection

        conn = await SqliteConnection.connect(Path(db_target), busy_wait=10)
        await sqlite.migrate(conn, migrations[:before])
        await conn.execute(clubs)
        await conn.close()
    else:
        import asyncpg

        db_target = await request.getfixturevalue("pg_cluster").empty_database()
        pg = await asyncpg.connect(str(db_target))
        try:
            await postgres.migrate(pg, migrations[:before])
            await pg.execute(clubs)
        finally:
            await pg.close()
    async with await Database.open(db_target) as db:
        fines = [(c.chat_id, c.foul_points) for c in
                 [await db.clubs.get(-1), await db.clubs.get(-2)] if c is not None]
        assert fines == [(-1, DEFAULT_FINE_CAPS.fine), (-2, 3)]
        assert await db.network.fine_caps() == DEFAULT_FINE_CAPS

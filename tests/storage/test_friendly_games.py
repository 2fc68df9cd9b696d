"""A friendly game (its club not approved when its lobby opened) writes no ledger row of any
kind and counts toward nothing: every way of writing a game's points or fines refuses it."""

from __future__ import annotations

from datetime import date

import pytest

from storage import Database, Fine, FriendlyGame, GamePoints
from storage.repos.games import GameChange
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

DAY = date(2026, 3, 10)
POINTS = [GamePoints(1, 6, "team_win", "end"), GamePoints(2, 1, "survived_day", "day 1")]


async def _game(db: Database, *, friendly: bool) -> int:
    await add_players(db, 1, 2, 3, 4)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(s, s) for s in range(1, 5)],
                                    created_at=NOW, friendly=friendly)
    await db.games.set_status(game_id, "running")
    return game_id


async def _ledger_rows(db: Database) -> int:
    return int((await db.query("SELECT count(*) FROM ledger"))[0][0])


async def test_a_friendly_game_ends_without_points_and_counts_for_nobody(db: Database) -> None:
    game_id = await _game(db, friendly=True)
    await db.ledger.adjust(1, 10, reason="start", admin_id=ADMIN, now=NOW)
    before = await _ledger_rows(db)
    assert (await db.games.get(game_id)).friendly
    # its points refused, whichever way they come; nothing written, the game still runs
    with pytest.raises(FriendlyGame):
        await db.games.finish(game_id, status="finished", points=POINTS, day=DAY)
    with pytest.raises(FriendlyGame):
        await db.ledger.record_game(game_id, POINTS, day=DAY)
    assert (await db.games.get(game_id)).status == "running"
    # its fines too, and the step that carried them is not written either
    with pytest.raises(FriendlyGame):
        await db.games.append_events_with_messages(
            game_id, [(1, "foul", {"seat": 1}, None)], [], now=0.0,
            change=GameChange(fines=(Fine(1, -2, "foul_other", "day 1", DAY),)))
    assert await db.games.events(game_id) == []
    # the end itself: finished, no ledger row, no game counted, no last game date moved
    assert not await db.games.finish(game_id, status="finished", points=[], day=DAY)
    game = await db.games.get(game_id)
    assert (game.status, game.finished_on) == ("finished", DAY)
    assert await _ledger_rows(db) == before
    assert await db.ledger.balance(1) == 10
    for tg_id in (1, 2, 3, 4):
        player = await db.players.get(tg_id)
        assert player is not None
        assert (player.games_played, player.last_game_date) == (0, None)
    # nor on any statistics: the player's games, the club's games, the clubs' list
    assert await db.stats.played_games(1) == []
    assert await db.stats.finished_games(CLUB) == []
    assert await db.stats.clubs() == []
    assert await db.stats.club_top(CLUB, since=DAY, until=DAY) == []


async def test_a_game_that_counts_beside_it_still_counts(db: Database) -> None:
    game_id = await _game(db, friendly=False)
    assert not (await db.games.get(game_id)).friendly
    assert await db.games.finish(game_id, status="finished", points=POINTS, day=DAY)
    assert await db.ledger.balance(1) == 6
    player = await db.players.get(3)
    assert player is not None and player.games_played == 1
    assert [g.game_id for g in await db.stats.played_games(1)] == [game_id]
    assert [g.game_id for g in await db.stats.finished_games(CLUB)] == [game_id]

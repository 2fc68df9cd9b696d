"""An aborted game's fines come back with the abort itself: the reversing rows and the
status are one transaction (``GameChange`` with both), on both backends."""

from __future__ import annotations

from datetime import date

import pytest

from storage import Database, Fine, GameClosed, UnknownPlayer
from storage.repos.games import GameChange
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

DAY = date(2026, 3, 10)


async def test_the_abort_and_its_fines_reversal_are_one_write(db: Database) -> None:
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
    await db.games.set_status(game_id, "running")
    await db.ledger.adjust(1, 5, reason="start", admin_id=ADMIN, now=NOW)
    await db.games.append_events_with_messages(
        game_id, [(1, "foul", {"seat": 1}, None)], [], now=0.0,
        change=GameChange(fines=(Fine(1, -2, "foul_other", "day 1", DAY),)))
    assert await db.ledger.balance(1) == 3
    # a reversal that cannot be written (an unknown account): the abort is not written either
    with pytest.raises(UnknownPlayer):
        await db.games.append_events_with_messages(
            game_id, [(2, "aborted", {}, None)], [], now=0.0,
            change=GameChange(status="aborted",
                              fines=(Fine(1, 2, "game_aborted", "day 1", DAY),
                                     Fine(77, 2, "game_aborted", "day 1", DAY))))
    assert (await db.games.get(game_id)).status == "running"
    assert await db.ledger.balance(1) == 3
    await db.games.append_events_with_messages(
        game_id, [(2, "aborted", {}, None)], [], now=0.0,
        change=GameChange(status="aborted",
                          fines=(Fine(1, 2, "game_aborted", "day 1", DAY),)))
    assert (await db.games.get(game_id)).status == "aborted"
    assert await db.ledger.balance(1) == 5
    assert await db.stats.points_totals(1) == (5, 0)
    # once aborted, nothing more is written for it
    with pytest.raises(GameClosed):
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0,
            change=GameChange(fines=(Fine(1, 2, "game_aborted", "day 1", DAY),)))
    assert await db.ledger.balance(1) == 5

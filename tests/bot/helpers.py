"""Small helpers for flow tests (seeding storage directly where a game would)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, date, datetime

from bot.app import App
from storage import Database, GamePoints

CLUB_ID = -1001


async def give_game_points(
    db: Database, tg_id: int, points: int, day: date, reason: str = "survived_night"
) -> int:
    """Record a game of an approved club with one award for ``tg_id`` (as the game layer
    will)."""
    created = datetime(day.year, day.month, day.day, 18, tzinfo=UTC)
    if await db.clubs.get(CLUB_ID) is None:  # a club the network approved: its games count
        await db.clubs.ensure(CLUB_ID, title="Club", locale="ru")
        await db.clubs.set_status(CLUB_ID, "approved", by=0, now=created, expect=("pending",))
    game_id = await db.games.create(CLUB_ID, 1, seats=[(1, tg_id)], created_at=created)
    await db.ledger.record_game(game_id, [GamePoints(tg_id, points, reason, "n1")], day=day)
    return game_id


async def clubs_held(app: App, *chats: int) -> None:
    """On PostgreSQL, wait until this process holds ``chats`` with their games restored: a
    game a test writes straight to the database before that could be restored half-made (a
    lobby between its ``create`` and its ``finish``), and its lobby posted."""
    sharing = app.sharing
    if sharing is None:
        return
    deadline = time.monotonic() + 10
    while not all(sharing.holds(chat) for chat in chats):
        assert time.monotonic() < deadline, f"clubs {chats} not held"
        await asyncio.sleep(0.01)

"""Whole games played by the real game service into a database (storage tests that need real
game logs: ``python -m storage copy`` replays them)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from storage import Database
from tests.game.conftest import FakeClock, make_harness, packaged_translator
from tests.game.harness import CHAT

START = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


async def play_games(target: str | Path, tmp_path: Path, sizes: tuple[int, ...] = (8,),
                     seed: int = 7) -> list[int]:
    """One game per size, each played to its end (every vote against the Mafia); their ids."""
    db = await Database.open(target)
    played = []
    try:
        await db.clubs.ensure(CHAT, title="Club", locale="ru")
        clock = FakeClock(START)
        h = make_harness(db, clock, packaged_translator(), tmp_path, seed=seed)
        first = 1001
        for n in sizes:
            await h.dealt(n, first=first)
            await h.play_to_end()
            assert (await db.games.get(h.game_id)).status == "finished"
            played.append(h.game_id)
            first += n
    finally:
        await db.close()
    return played

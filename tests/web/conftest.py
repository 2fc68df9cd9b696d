"""A database with real finished games, played through the game service (tests/game)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.i18n import Translator
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness, packaged_translator
from tests.game.harness import CHAT, Harness


@dataclass
class Played:
    db: Database
    h: Harness
    game_id: int  # a finished game
    running_id: int  # a game dealt and under way


@pytest.fixture
def translator() -> Translator:
    return packaged_translator()


@pytest.fixture
async def played(tmp_path: Path, translator: Translator) -> AsyncIterator[Played]:
    async with played_games(tmp_path, translator) as games:
        yield games


@asynccontextmanager
async def played_games(tmp_path: Path, translator: Translator) -> AsyncIterator[Played]:
    db = await Database.open(tmp_path / "web.sqlite3")
    clock = FakeClock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
    await db.clubs.ensure(CHAT, title="Club <Night>", locale="ru")
    h = make_harness(db, clock, translator, tmp_path)
    await h.dealt(10)
    await h.play_to_end()
    finished = h.game_id
    # a second game with the same players, dealt but not over
    table = await h.service.open_lobby(CHAT, "Club", 500, is_admin=False)
    h.game_id = table.game_id
    for tg in range(1001, 1011):
        await h.service.join(table.game_id, tg)
    await h.service.deal(CHAT, 500)
    try:
        yield Played(db, h, finished, table.game_id)
    finally:
        await db.close()

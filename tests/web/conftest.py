"""A database with real finished games, played through the game service (tests/game)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from aiohttp.web import Application, Request

from storage.db import Database
from tests.game.conftest import (  # noqa: F401  (fixtures: the game tests' harness, ``h``)
    FakeClock,
    db,
    fake_clock,
    h,
    make_harness,
    packaged_translator,
)
from tests.game.harness import CHAT, Harness
from tests.sqlite_template import migrated
from views.i18n import Translator

Client = TestClient[Request, Application]  # aiohttp's test client of a web app


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
    database = await Database.open(migrated(tmp_path / "web.sqlite3"))
    clock = FakeClock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
    await database.clubs.ensure(CHAT, title="Club <Night>", locale="ru")
    harness = make_harness(database, clock, translator, tmp_path)
    await harness.dealt(10)
    await harness.play_to_end()
    finished = harness.game_id
    # a second game with the same players, dealt but not over
    table = await harness.service.open_lobby(CHAT, "Club", 500, is_admin=False)
    harness.game_id = table.game_id
    for tg in range(1001, 1011):
        await harness.service.join(table.game_id, tg)
    await harness.service.deal(CHAT, 500)
    try:
        yield Played(database, harness, finished, table.game_id)
    finally:
        await database.close()

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import Database

NOW = datetime(2026, 3, 10, 21, 30, tzinfo=UTC)
CLUB = -100123
ADMIN = 999


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    return tmp_path / "data" / "club.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


async def add_players(db: Database, *tg_ids: int, nick: bool = True) -> None:
    for tg_id in tg_ids:
        await db.players.register(tg_id, display_name=f"User {tg_id}", language="ru")
        if nick:
            await db.players.set_nickname(tg_id, f"nick{tg_id}")

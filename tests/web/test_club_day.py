"""A club's board on the pages ends on the club's own day (its time zone), as ``/top`` in its
chat does, not on the network's: at 20:00 UTC on 30 November it is already 1 December in
Vladivostok, so a game the club ended that morning is on its board, and the first day of the
61 is 2 October."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from storage import Database, GamePoints
from tests.sqlite_template import migrated
from tests.storage.conftest import ADMIN, add_players
from tests.web.conftest import Client
from views.i18n import Translator
from web.app import create_web_app

EAST = -100777  # a club in Vladivostok (UTC+10)
WEST = -100888  # a club on the network's time zone
NOW = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)  # 23:00 in Moscow, 06:00 on 1 Dec in Vladivostok


async def a_game(db: Database, club: int, winner: int, loser: int, day: date) -> None:
    """A game of ``club`` ended on ``day`` (its ledger's day): ``winner`` earns 3 points."""
    game = await db.games.create(club, ADMIN, seats=[(1, winner), (2, loser)], created_at=NOW)
    await db.games.set_roles(game, {1: "mafia", 2: "lucky"})
    await db.games.set_status(game, "running")
    assert await db.games.finish(game, status="finished", day=day, winner="mafia",
                                 ended_on=day, points=[GamePoints(winner, 3, "team_win")])


@pytest.fixture
async def client(tmp_path: Path, translator: Translator) -> AsyncIterator[Client]:
    db = await Database.open(migrated(tmp_path / "days.sqlite3"))
    await add_players(db, 1, 2, 3, 4)
    for club, title in ((EAST, "East"), (WEST, "West")):
        await db.clubs.ensure(club, title=title, locale="en")
    await db.clubs.set_details(EAST, by=ADMIN, now=NOW, time_zone="Asia/Vladivostok")
    await a_game(db, EAST, 1, 2, date(2026, 12, 1))  # this morning in Vladivostok
    await a_game(db, EAST, 2, 1, date(2026, 10, 1))  # 62 days ago there, 61 in Moscow
    await a_game(db, WEST, 3, 4, date(2026, 10, 1))  # 61 days ago in Moscow: still in
    app = create_web_app(db, translator=translator, now=lambda: NOW, zone="Europe/Moscow")
    try:
        async with TestClient(TestServer(app)) as c:
            yield c
    finally:
        await db.close()


async def test_a_clubs_board_ends_on_the_clubs_own_day(client: Client) -> None:
    response = await client.get(f"/club/{EAST}?lang=en")
    assert response.status == 200
    east = await response.text()
    assert "2026-10-02 – 2026-12-01" in east
    assert 'href="../player/nick1?lang=en"' in east and "nick2" not in east
    response = await client.get(f"/club/{WEST}?lang=en")
    west = await response.text()
    assert "2026-10-01 – 2026-11-30" in west and "nick3" in west
    # the home page: each club's board on its own day, the network's on the network's
    home = await (await client.get("/?lang=en")).text()
    assert "current balances, 2026-11-30" in home
    assert "2026-10-02 – 2026-12-01" in home and "2026-10-01 – 2026-11-30" in home

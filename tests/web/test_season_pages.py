"""The seasons' pages, in Russian and English: ``/season`` (the season under way, its network
boards, the Hall of Fame of the seasons that ended, linked to each) and ``/season/{first
day}`` (one season's network and club boards); an unknown season is not found."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from standing.rating import PROVISIONAL_GAMES
from storage import Database, GamePoints
from tests.storage.conftest import add_players
from tests.web.conftest import Client
from views.i18n import Translator
from web.app import create_web_app

CLUB = -100777
TODAY = date(2026, 5, 10)  # the second quarter of 2026
NOON = datetime.combine(TODAY, time(12), UTC)  # the pages' clock: noon that day


async def won(db: Database, winner: int, loser: int, ended_on: date, points: int) -> None:
    game = await db.games.create(CLUB, 1, seats=[(1, winner), (2, loser)],
                                 created_at=datetime(2026, 1, 1, tzinfo=UTC))
    await db.games.set_roles(game, {1: "mafia", 2: "doctor"})
    await db.games.set_status(game, "running")
    await db.games.finish(game, status="finished", day=ended_on, winner="mafia",
                          ended_on=ended_on, points=[GamePoints(winner, points, "team_win")])


@pytest.fixture
async def client(tmp_path: Path, translator: Translator) -> AsyncIterator[Client]:
    db = await Database.open(tmp_path / "seasons.sqlite3")
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="Club <7>", locale="en")
    for _ in range(PROVISIONAL_GAMES):  # the first quarter: nick1 wins every game
        await won(db, 1, 2, date(2026, 3, 31), 2)
    await won(db, 2, 1, date(2026, 4, 1), 7)  # this season: nick2's one win
    app = create_web_app(db, translator=translator, now=lambda: NOON)
    try:
        async with TestClient(TestServer(app)) as c:
            yield c
    finally:
        await db.close()


async def page(client: Client, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status == status, path
    return await response.text()


async def test_the_season_page_and_the_hall_of_fame(client: Client) -> None:
    en = await page(client, "/season?lang=en")
    assert "<h1>Season Q2 2026</h1>" in en and "01.04.2026 – 30.06.2026" in en
    boards = en.split('id="season-boards"', 1)[1].split('id="fame"', 1)[0]
    assert "nick2</a></td><td class=\"num\">7</td>" in boards  # the season's points
    assert "nick1" not in boards.split("The season's points", 1)[1]  # no points this season
    fame = en.split('id="fame"', 1)[1]
    assert '<a href="./season/2026-01-01?lang=en">Q1 2026</a>' in fame
    assert "nick1</a></td><td class=\"num\">20</td>" in fame
    assert './season?lang=en' in await page(client, "/?lang=en")
    ru = await page(client, "/season?lang=ru")
    assert "Сезон: 2-й квартал 2026" in ru and "Зал славы" in ru


async def test_a_closed_seasons_page_has_the_network_and_the_clubs(client: Client) -> None:
    en = await page(client, "/season/2026-01-01?lang=en")
    assert "<h1>Season Q1 2026</h1>" in en and "Club &lt;7&gt;" in en
    assert en.count("nick1</a></td><td class=\"num\">20</td>") == 2  # the network, the club
    for bad in ("/season/2026-01-02", "/season/nonsense", "/season/2026-13-01"):
        await page(client, bad + "?lang=en", status=404)

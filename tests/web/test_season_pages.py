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
from tests.sqlite_template import migrated
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
    db = await Database.open(migrated(tmp_path / "seasons.sqlite3"))
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


async def test_a_player_without_a_nickname_is_on_the_boards_by_no_name_and_no_link(
        tmp_path: Path, translator: Translator) -> None:
    """The season's boards and the Hall of Fame name a player without a nickname «—»,
    unlinked, never by the Telegram name: player 1's is player 3's nickname (a link there
    would open player 3's page), player 2's is markup."""
    db = await Database.open(tmp_path / "nameless.sqlite3")
    await add_players(db, 3, 4)
    await db.players.register(1, display_name="nick3", language="en")
    await db.players.register(2, display_name="<b>Dan</b> & Co", language="en")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for _ in range(PROVISIONAL_GAMES):  # the first quarter: 1 and 2 win every game
        await won(db, 1, 3, date(2026, 3, 31), 2)
        await won(db, 2, 4, date(2026, 3, 31), 1)
    await won(db, 1, 3, date(2026, 4, 1), 7)  # this season
    app = create_web_app(db, translator=translator, now=lambda: NOON)
    try:
        async with TestClient(TestServer(app)) as c:
            current = await page(c, "/season?lang=en")
            closed = await page(c, "/season/2026-01-01?lang=en")
    finally:
        await db.close()
    # this season's points (1), the Hall of Fame's rating (1, 2; 3, 4) and points (1, 2)
    assert current.count("<td>—</td>") == 5 and current.count('player/nick') == 2
    assert "<td>—</td><td class=\"num\">7</td>" in current
    assert current.count('player/nick3?lang=en">nick3</a>') == 1
    # the closed season's network and club boards: by rating 1, 2, 3, 4, by points 1, 2
    assert closed.count("<td>—</td>") == 8 and closed.count('player/nick') == 4
    assert closed.count('player/nick3?lang=en">nick3</a>') == 2
    assert closed.count("<td>—</td><td class=\"num\">20</td>") == 2
    for html in (current, closed):
        assert html.count("/player/") == html.count("player/nick")  # no other link to a player
        assert "Dan" not in html and "&lt;b&gt;" not in html

"""The skill rating on the pages: a player's ratings (one finished game counted, the game
still running not), and the page that tells how the rating works, in Russian and English."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from standing.rating import Side
from tests.web.conftest import Client, Played
from views.i18n import Translator
from web.app import create_web_app


@pytest.fixture
async def client(played: Played, translator: Translator) -> AsyncIterator[Client]:
    async with TestClient(TestServer(create_web_app(played.db, translator=translator))) as c:
        yield c


async def page(client: Client, path: str) -> str:
    response = await client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_a_players_page_shows_the_rating_of_the_finished_game_only(
        client: Client, played: Played) -> None:
    ratings = await played.db.ratings.of(1001)
    assert ratings[Side.ALL].games == 1  # the second game is dealt and running: not counted
    html = await page(client, "/player/player1?lang=en")
    section = html.split('id="ratings"', 1)[1].split("</table>", 1)[0]
    assert "All games" in section and "provisional" in section
    assert f"<td class=\"num\">{ratings[Side.ALL].ordinal:.1f}</td>" not in section  # marked
    assert f"{ratings[Side.ALL].ordinal:.1f} (provisional)" in section
    side = "Civilians" if Side.CIVILIANS in ratings else "Mafia"
    assert side in section
    assert './rating?lang=en' in html
    assert "Рейтинг мастерства" in await page(client, "/player/player1?lang=ru")


async def test_the_rating_page_tells_how_it_works_in_both_languages(
        client: Client) -> None:
    en = await page(client, "/rating?lang=en")
    assert "apart from points" in en and "Plackett–Luce" in en
    assert "Until 10 games it is marked provisional" in en
    assert "Nobody has 10 finished games yet" in en  # one game played: nobody on the table
    ru = await page(client, "/rating?lang=ru")
    assert "отдельно от баллов" in ru and "Пока не сыграно 10 игр" in ru
    assert "./rating?lang=en" in await page(client, "/?lang=en")

"""The skill rating on the pages: a player's ratings (one finished game counted, the game
still running not), and the page that tells how the rating works, in Russian and English."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine import Winner
from standing.rating import PROVISIONAL_GAMES, Side
from storage import Database
from tests.storage.conftest import CLUB, add_players
from tests.storage.test_ratings import a_game
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


async def test_a_player_without_a_nickname_is_on_the_board_by_no_name_and_no_link(
        tmp_path: Path, translator: Translator) -> None:
    """The page's board names a player without a nickname «—», unlinked, never by the
    Telegram name: player 1's is player 3's nickname (a link there would open player 3's
    page), player 2's is markup."""
    db = await Database.open(tmp_path / "nameless.sqlite3")
    try:
        await add_players(db, 3, 4)
        await db.players.register(1, display_name="nick3", language="en")
        await db.players.register(2, display_name="<b>Dan</b> & Co", language="en")
        await db.clubs.ensure(CLUB, title="Club", locale="en")
        for _ in range(PROVISIONAL_GAMES):  # 1 and 2 the Mafia, winning every game
            await a_game(db, [1, 2, 3, 4], 2, winner=Winner.MAFIA)
        async with TestClient(TestServer(create_web_app(db, translator=translator))) as c:
            html = await page(c, "/rating?lang=en")
    finally:
        await db.close()
    board = html.split('id="rating-board"', 1)[1]
    names = [row.split("</td><td", 2)[1] for row in board.split("<tr>")[2:]]
    assert names == ['>—', '>—', '><a href="./player/nick3?lang=en">nick3</a>',
                     '><a href="./player/nick4?lang=en">nick4</a>']
    assert "Dan" not in html and "&lt;b&gt;" not in html

"""The web pages over HTTP (aiohttp's test server): content, languages, escaping, 404s."""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time

import pytest
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from tests.game.harness import role_names
from tests.web.conftest import Client, Played
from views.i18n import Translator
from web.app import create_web_app

TODAY = date(2026, 11, 30)
NOON = datetime.combine(TODAY, time(12), UTC)  # the pages' clock: noon that day


@pytest.fixture
async def client(played: Played, translator: Translator) -> AsyncIterator[Client]:
    app = create_web_app(played.db, translator=translator, now=lambda: NOON)
    async with TestClient(TestServer(app)) as c:
        yield c


async def get(client: Client, path: str, status: int = 200, *,
              accept_language: str | None = None) -> str:
    headers = {} if accept_language is None else {"Accept-Language": accept_language}
    response = await client.get(path, headers=headers)
    assert response.status == status, path
    return await response.text()


async def test_home_shows_the_network_and_the_club_with_periods(client: Client) -> None:
    html = await get(client, "/?lang=en")
    assert "current balances, 2026-11-30" in html
    assert "Points from this club&#39;s games, 2026-10-01 – 2026-11-30." in html or \
        "Points from this club's games, 2026-10-01 – 2026-11-30." in html
    assert "Club &lt;Night&gt;" in html and "Club <Night>" not in html
    assert 'href="./player/Player' in html
    ru = await get(client, "/", accept_language="ru-RU,ru;q=0.9")
    assert "текущие балансы" in ru
    assert "текущие балансы" in await get(client, "/?lang=ru", accept_language="en")
    assert "current balances" in await get(client, "/", accept_language="de, en;q=0.5")


async def test_player_page_has_nickname_history_games_and_expiry_only(
        client: Client, played: Played) -> None:
    html = await get(client, "/player/player1?lang=en")
    assert "Player Player1" in html
    assert "2027-01-30" in html  # expiry: the game day + 2 months
    assert not re.search(r"\b\d\d\.\d\d\.\d{4}\b", html)  # every English date one way
    assert f"/game/{played.game_id}?lang=en" in html
    assert "game #" in html  # a ledger reason
    assert "1001" not in html and "User 1001" not in html  # no Telegram id or name
    await get(client, "/player/nobody?lang=en", status=404)


async def test_game_page_shows_the_finished_game_and_checks_the_deal(
        client: Client, played: Played, translator: Translator) -> None:
    html = await get(client, f"/game/{played.game_id}?lang=en")
    # the check speaks the chat's words: the deal's fingerprint and its key
    assert ('<p id="verdict" class="verdict">✓ The fingerprint published before the game '
            "matches the key revealed at the end, and the key gives exactly the cards played."
            "</p>") in html
    assert "<dt>Fingerprint of the deal, published before the game</dt>" in html
    assert "commitment" not in html.replace('id="commitment"', "").lower()
    assert "seed" not in html.replace('id="seed"', "").lower()
    # the outcome reads as a sentence, never "Winner: the civilians win"
    assert re.search(r'<p class="meta">Club &lt;Night&gt;, 2026-11-30: '
                     r"(the civilians win|the Mafia wins|a draw)\.</p>", html), html
    ru = await get(client, f"/game/{played.game_id}?lang=ru")
    assert "<dt>Ключ раздачи, раскрытый в конце</dt>" in ru
    assert "Обязательство" not in ru and "зерн" not in ru.lower()
    assert re.search(r'<p class="meta">Club &lt;Night&gt;, 30\.11\.2026: '
                     r"(победили мирные жители|победила Мафия|ничья)\.</p>", ru), ru
    assert "Night 1" in html and "The deal" in html
    game = await played.db.games.get(played.game_id)
    assert game.commitment is not None and game.commitment in html
    assert any(translator.t("en", f"game.role.{s.role}") in html for s in game.seats)
    assert "User 10" not in html and "1001" not in html
    picture = await client.get(f"/game/{played.game_id}/table.png?lang=ru")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert Image.open(io.BytesIO(await picture.read())).size == (720, 720)


async def test_nothing_of_a_running_game_is_shown(client: Client,
                                                  played: Played,
                                                  translator: Translator) -> None:
    html = await get(client, f"/game/{played.running_id}?lang=en", status=404)
    assert "not finished" in html
    main = html.split("<main>", 1)[1].split("</main>", 1)[0]  # (the site is "Mafia club")
    assert not [r for r in role_names(translator) if r in main]
    await get(client, f"/game/{played.running_id}/table.png", status=404)
    await get(client, "/game/abc", status=404)
    await get(client, "/game/999999", status=404)
    await get(client, "/club/xyz", status=404)
    await get(client, "/club/5", status=404)


async def test_names_are_escaped(client: Client, played: Played) -> None:
    await played.db.players.register(77, display_name="x", language="en")
    await played.db.players.set_nickname(77, "Evil-b")
    html = await get(client, "/player/Evil-b?lang=en")
    assert "Player Evil-b" in html
    club = await get(client, "/club/-1001?lang=en")
    assert "<h1>Club &lt;Night&gt;</h1>" in club
    assert f"/game/{played.game_id}?lang=en" in club


async def test_every_link_stays_under_a_path_prefix(client: Client,
                                                    played: Played) -> None:
    """WEB_URL=https://club.example/mafia behind a proxy that strips /mafia: every link,
    picture, stylesheet and script of every page resolves under /mafia and is found there."""
    import re
    from urllib.parse import urljoin, urlsplit

    prefix = "https://club.example/mafia"
    pages = ["/?lang=en", "/club/-1001?lang=en", "/player/player1?lang=en",
             f"/game/{played.game_id}?lang=en"]
    checked = 0
    for path in pages:
        html = await get(client, path)
        links = re.findall(r'(?:href|src)="([^"]+)"', html)
        assert links
        for link in links:
            if link.startswith("https://"):
                continue
            url = urljoin(prefix + path, link.replace("&amp;", "&"))
            assert url.startswith(prefix + "/"), (path, link)
            inner = url[len(prefix):]
            response = await client.get(urlsplit(inner).path + "?" + urlsplit(inner).query)
            assert response.status == 200, (path, link)
            checked += 1
    assert checked > 10


async def test_a_voided_game_says_so_on_its_page_and_protocol(
        client: Client, played: Played) -> None:
    """The admin who voided it is named by nickname, else «—»: never by a Telegram name."""
    db = played.db
    await db.players.register(77, display_name="Admin <Anna>", language="en")
    before = await get(client, f"/game/{played.game_id}?lang=en")
    assert 'id="voided"' not in before
    await db.voids.void(played.game_id, by=77, reason="two seats <one> person",
                        now=datetime(2026, 11, 30, 22, 0, tzinfo=UTC))
    html = await get(client, f"/game/{played.game_id}?lang=en")
    assert ('<p id="voided" class="voided">Voided: two seats &lt;one&gt; person, by —. '
            "Its points were taken back and it counts toward nothing.</p>") in html
    assert "Anna" not in html and "77" not in html.split('id="voided"')[1].split("</p>")[0]
    # the points as the game gave them, never the void's rows
    assert "game voided" not in html
    ru = await get(client, f"/game/{played.game_id}?lang=ru")
    assert "Игра аннулирована: two seats &lt;one&gt; person. Администратор: —." in ru
    assert "Anna" not in ru
    response = await client.get(f"/game/{played.game_id}/protocol.json")
    protocol = json.loads(await response.text())
    assert protocol["voided"] == {"reason": "two seats <one> person", "by": "—",
                                  "at": "2026-11-30T22:00:00+00:00"}
    assert protocol["players"] and protocol["steps"]
    # with a nickname, the admin is named by it
    await db.players.set_nickname(77, "Arbiter")
    html = await get(client, f"/game/{played.game_id}?lang=en")
    assert "by Arbiter." in html and "Anna" not in html

"""The achievements on a player's page: the ones earned with their icon, level and line, the
levelled ones on their way; a running game adds nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from tests.web.conftest import Client, Played
from views.i18n import Translator
from web.app import create_web_app


@pytest.fixture
async def client(played: Played, translator: Translator) -> AsyncIterator[Client]:
    async with TestClient(TestServer(create_web_app(played.db, translator=translator))) as c:
        yield c


async def section(client: Client, path: str) -> str:
    response = await client.get(path)
    assert response.status == 200, path
    html = await response.text()
    return html.split('id="achievements"', 1)[1].split("<h2", 1)[0]


async def test_a_players_page_lists_the_achievements_of_the_finished_game(
        client: Client, played: Played) -> None:
    earned = {(a.achievement, a.level) for a in await played.db.achievements.of(1001)}
    assert ("games", 1) in earned  # one counted game: the running one adds nothing
    assert ("games", 10) not in earned
    en = await section(client, "/player/player1?lang=en")
    assert en.startswith(">Achievements</h2>")
    assert "<li>🎲 <b>Regular</b> · 1 — Counted games played.</li>" in en
    assert en.count("<li>") >= len(earned)  # the earned ones, then those on the way
    assert "<h3>On the way</h3>" in en and "<li>🎲 Regular: 1 of 10</li>" in en
    ru = await section(client, "/player/player1?lang=ru")
    assert "<li>🎲 <b>Завсегдатай</b> · 1 — Сыгранные засчитанные игры.</li>" in ru
    assert "<li>🎲 Завсегдатай: 1 из 10</li>" in ru

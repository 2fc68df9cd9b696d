from __future__ import annotations

from typing import Any

from bot.app import App
from tests.fakes.telegram_server import FakeTelegram


async def test_start_registers_and_greets(app: App, fake: FakeTelegram, ask: Any) -> None:
    user = fake.user(1, "Анна", language_code="ru")
    reply = await ask(user, "/start")
    assert "Анна" in reply.text
    assert reply.parse_mode == "HTML"
    player = await app.services.db.players.get(1)
    assert player is not None and player.display_name == "Анна"

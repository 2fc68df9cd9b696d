from __future__ import annotations

from bot.app import App
from tests.bot.conftest import Ask
from tests.fakes.telegram_server import FakeTelegram


async def test_start_registers_and_greets(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(1, "Анна", language_code="ru")
    reply = await ask(user, "/start")
    assert "Анна" in reply.said
    assert reply.parse_mode == "HTML"
    player = await app.services.db.players.get(1)
    assert player is not None and player.display_name == "Анна"

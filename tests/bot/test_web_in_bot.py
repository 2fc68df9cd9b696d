"""WEB_PORT: the bot's own process serves the read-only pages, and stops them with itself."""

from __future__ import annotations

import logging
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import App
from bot.config import Settings
from tests.bot.conftest import HOST_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import running
from tests.web.initdata import sign_init_data


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT = free_port()


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"web_port": PORT, "web_host": "127.0.0.1"}


async def test_the_bot_serves_the_pages(app: App) -> None:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{PORT}/?lang=en") as response:
        assert response.status == 200
        assert "current balances" in await response.text()
    assert app.web_runner is not None


async def test_the_bot_serves_the_hosts_mini_app(app: App, fake: FakeTelegram) -> None:
    """The Mini App's routes live in the bot's process (where the games are), checked with
    the bot's token and the games' clock; ``python -m web`` has none (tests/web)."""
    base = f"http://127.0.0.1:{PORT}/host/1"
    signed = sign_init_data(fake.token, HOST_ID, datetime.now(UTC))
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}?lang=en") as response:
            assert response.status == 200
            assert "/static/host.js" in await response.text()
        async with session.get(f"{base}/state") as response:
            assert response.status == 401
        async with session.get(f"{base}/state?lang=en",
                               headers={"Authorization": f"tma {signed}"}) as response:
            assert response.status == 404  # signed by this bot's token: no such game
            assert (await response.json())["text"] == "This game is not found or is over."


async def test_a_public_web_url_without_web_port_is_warned_of(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The panel's button would open a Mini App that no process serves."""
    caplog.set_level(logging.WARNING, logger="bot")
    async with running(fake, tmp_path, web_url="https://mafia.example.org"):
        pass
    assert any("WEB_PORT is unset" in r.getMessage() for r in caplog.records)
    caplog.clear()
    async with running(fake, tmp_path, web_url="http://mafia.example.org"):
        pass
    assert not any("WEB_PORT is unset" in r.getMessage() for r in caplog.records)


def test_web_port_setting_is_checked() -> None:
    base = {"bot_token": "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678"}
    assert Settings(**base, web_port="").web_port is None  # type: ignore[arg-type]
    assert Settings(**base, web_port="8080").web_port == 8080  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Settings(**base, web_port=70000)  # type: ignore[arg-type]

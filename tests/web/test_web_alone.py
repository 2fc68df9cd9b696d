"""``python -m web`` serves the read-only pages without importing aiogram (its import is
seconds of CPU on a small host, and nothing of Telegram is needed to read the database)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from tests.game.harness import CHAT
from tests.web.conftest import Played
from views.i18n import Translator
from web.app import create_web_app

ROOT = Path(__file__).resolve().parents[2]

# in a fresh interpreter: python -m web's module, then every page served from the database
PAGES = """
import asyncio, sys
from pathlib import Path
import web.__main__
from aiohttp.test_utils import TestClient, TestServer
from storage.db import Database
from web.app import create_web_app

async def pages(path: str, game: str) -> None:
    db = await Database.open(Path(path))
    try:
        async with TestClient(TestServer(create_web_app(db))) as client:
            for url in ("/", "/club/" + sys.argv[3], "/player/" + sys.argv[4],
                        "/game/" + game + "/table.png", "/game/" + game + "?lang=en"):
                response = await client.get(url)
                assert response.status == 200, url
                body = await response.read()
        sys.stdout.write(body.decode())
    finally:
        await db.close()

asyncio.run(pages(sys.argv[1], sys.argv[2]))
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "aiogram")
assert not loaded, loaded[:5]
"""


def test_python_m_web_imports_no_aiogram() -> None:
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys, web.__main__; assert 'aiogram' not in sys.modules, 'aiogram imported'"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


async def test_the_pages_are_served_without_aiogram(played: Played,
                                                    translator: Translator) -> None:
    player = await played.db.players.get(1001)
    assert player is not None and player.nickname is not None
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PAGES, str(played.db.path), str(played.game_id), str(CHAT),
        player.nickname, cwd=ROOT, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    async with asyncio.timeout(120):
        out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    # the game's events read as the bot's own notifier renders them (the page in this process)
    async with TestClient(TestServer(create_web_app(played.db, translator=translator))) as c:
        page = await c.get(f"/game/{played.game_id}?lang=en")
        assert out.decode() == await page.text()

"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Skipped locally when chromium is missing; with CI=true a missing chromium fails. Screenshots of
each page are written to docs/img/ (small PNGs, committed).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from tests.web.conftest import Played, played_games
from views.i18n import Translator
from web.app import create_web_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("chromium is missing on CI (apt-get install -y chromium)",
                    pytrace=False)
    pytest.skip("chromium is not installed (apt-get install -y chromium)",
                allow_module_level=True)

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402

# One Chromium per module and worker (Playwright's driver and a browser's launch cost about 2 s
# of CPU, more than most of these tests), so the tests and their async fixtures run in the
# module's event loop; each test's pages are in contexts of their own, closed after it.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="module")
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    assert chromium.contexts == []  # nothing left by an earlier test
    yield chromium
    for context in chromium.contexts:
        await context.close()


@pytest_asyncio.fixture(loop_scope="module")
async def played(tmp_path: Path, translator: Translator) -> AsyncIterator[Played]:
    """tests/web/conftest.py's, in the module's event loop."""
    async with played_games(tmp_path, translator) as games:
        yield games


async def serve(played: Played, translator: Translator) -> TestServer:
    server = TestServer(create_web_app(played.db, translator=translator,
                                       now=lambda: datetime(2026, 11, 30, 12, tzinfo=UTC)))
    await server.start_server()
    return server


async def shot(page: Page, name: str) -> None:
    """Screenshots for docs/img are refreshed on request only (SCREENSHOTS=1), so a test run
    never rewrites tracked files; otherwise the screenshot is still taken (it must render)."""
    if os.environ.get("SCREENSHOTS") == "1":
        IMG.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(IMG / name), type="png")
    else:
        assert (await page.screenshot(type="png")).startswith(b"\x89PNG")


async def test_pages_load_links_work_and_the_deal_checks(
        played: Played, translator: Translator, browser: Browser) -> None:
    server = await serve(played, translator)
    try:
        page = await browser.new_page(viewport={"width": 900, "height": 700},
                                      locale="en-US")
        base = str(server.make_url("/"))
        await page.goto(base)
        assert await page.title() == "Mafia club"
        assert "current balances" in await page.inner_text("#network")
        await shot(page, "web-home.png")
        # home -> the club
        await page.click("section.club h2 a")
        assert await page.inner_text("h1") == "Club <Night>"
        await shot(page, "web-club.png")
        # club -> the finished game
        await page.click("ul.games a")
        assert await page.inner_text("h1") == f"Game #{played.game_id}"
        assert (await page.inner_text("#verdict")).startswith("✓")
        assert await page.inner_text("#opens") == "✓"
        # the picture is drawn on request: the click's navigation does not wait for it
        await page.wait_for_function("document.getElementById('picture').complete")
        loaded = await page.evaluate("document.getElementById('picture').naturalWidth")
        assert loaded == 720
        await shot(page, "web-game.png")
        # game -> a player
        await page.click("#seats tbody tr:first-child a")
        assert (await page.inner_text("h1")).startswith("Player Player")
        assert "Points history" in await page.inner_text("main")
        await shot(page, "web-player.png")
        # the language switch
        await page.click("#lang")
        assert (await page.inner_text("h1")).startswith("Игрок Player")
        # a running game shows nothing
        response = await page.goto(str(server.make_url(f"/game/{played.running_id}")))
        assert response is not None and response.status == 404
        assert "not finished" in await page.inner_text("main")
    finally:
        await server.close()


async def test_a_tampered_deal_shows_the_cross(played: Played, translator: Translator,
                                               browser: Browser) -> None:
    async with played.db.transaction() as conn:
        await conn.execute("DROP TRIGGER IF EXISTS game_events_append_only_u")
        await conn.execute(
            "UPDATE game_events SET payload = json_set(payload, '$.seed', ?)"
            " WHERE game_id = ? AND kind = 'deal'", ("cd" * 32, played.game_id))
    server = await serve(played, translator)
    try:
        page = await browser.new_page(viewport={"width": 900, "height": 700}, locale="ru-RU")
        await page.goto(str(server.make_url(f"/game/{played.game_id}")))
        assert (await page.inner_text("#verdict")).startswith("✗")
        assert await page.inner_text("#opens") == "✗"
        await page.locator("#verdict").scroll_into_view_if_needed()
        await shot(page, "web-game-tampered.png")
    finally:
        await server.close()

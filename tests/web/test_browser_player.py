"""The player's Mini App in headless Chromium, served by the real bot's process (WEB_PORT, a
public HTTPS WEB_URL) over the fake Bot API: initData signed with the bot's token as Telegram
signs it, put where Telegram puts it (``#tgWebAppData``); telegram-web-app.js blocked (the page
works without it). A game is played by the players' presses: while it runs the app shows
nothing of it; at its end the game, the rating, the shop with a gift's photo and an evening are
on the page, and a gift is asked for and an evening signed up for from it."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
import pytest_asyncio
from PIL import Image
from playwright.async_api import Browser, Page, Route, ViewportSize

from engine import Role
from tests.bot.conftest import ADMIN_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, free_port, running
from tests.web.initdata import forge, sign_init_data
from tests.web.test_browser import browser, chromium, shot
from views.i18n import default_translator

__all__ = ["browser", "chromium"]  # the fixtures, shared with the pages' browser tests
pytestmark = pytest.mark.asyncio(loop_scope="module")

PHONE: ViewportSize = {"width": 390, "height": 820}
PORT = free_port()
PUBLIC = "https://mafia.example.org"


@pytest_asyncio.fixture(loop_scope="module")
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def flow(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[Flow]:
    """A dealt 10-player game in the real bot (English), whose process serves the pages."""
    async with running(fake, tmp_path, web_port=PORT, web_host="127.0.0.1", web_url=PUBLIC,
                       night_seconds=60, mafia_agree_seconds=30, vote_turn_seconds=60) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        yield flow


def signed(fake: FakeTelegram, user: int, *, age: float = 30) -> str:
    return sign_init_data(fake.token, user, datetime.now(UTC) - timedelta(seconds=age))


async def open_app(browser: Browser, init_data: str | None) -> Page:
    page = await browser.new_page(viewport=PHONE, locale="en-US")

    async def offline(route: Route) -> None:
        await route.abort()

    await page.route("https://telegram.org/**", offline)
    url = f"http://127.0.0.1:{PORT}/app/player"
    if init_data is not None:
        url += f"#tgWebAppData={quote(init_data)}&tgWebAppVersion=7.0"
    await page.goto(url)
    return page


async def me(fake: FakeTelegram, user: int) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, http.get(
            f"http://127.0.0.1:{PORT}/app/player/me",
            headers={"Authorization": f"tma {signed(fake, user)}"}) as r:
        assert r.status == 200
        body: dict[str, Any] = await r.json()
        return body


def photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (320, 200), (180, 40, 40)).save(buffer, "JPEG")
    return buffer.getvalue()


async def shop_with_a_photo(flow: Flow) -> None:
    fake = flow.fake
    fake.user(ADMIN_ID, "Admin", language_code="en")
    await fake.send(ADMIN_ID, "/start")
    await fake.next_message(ADMIN_ID)
    await fake.send(ADMIN_ID, "/gift_add 1 3 Club mug")
    await fake.next_message(ADMIN_ID)
    await fake.send_photo(ADMIN_ID, caption="/gift_photo 1", content=photo())
    assert "Photo: yes." in (await fake.next_message(ADMIN_ID)).body


async def test_nothing_of_the_running_game_then_the_whole_record(
        browser: Browser, flow: Flow) -> None:
    player = flow.table.seats[1].tg_id
    cards_of = {info.tg_id: flow.table.game.player(seat).role
             for seat, info in flow.table.seats.items()}
    tr = default_translator()
    roles = {tr.t(lang, f"game.role.{r}") for r in Role for lang in ("en", "ru")}
    await flow.night()
    assert not flow.over
    # mid-game: the record, the rating and the games are as before the game
    during = await me(flow.fake, player)
    assert during["games"] == [] and during["rating"]["rows"] == []
    assert during["graph"] is None and during["roles"]["cards"] == []
    assert during["roles"]["rivals"] == [] and during["roles"]["killed_by"] == []
    assert during["profile"]["lines"][0] == "Points: 0"
    assert during["achievements"]["earned"] == [] and during["achievements"]["next"] == []
    dump = json.dumps(during, ensure_ascii=False)
    assert "game/" not in dump
    assert not [r for r in roles if r in dump], "a card's name mid-game"
    page = await open_app(browser, signed(flow.fake, player))
    await page.wait_for_selector("#me[data-state=live]")
    await page.click("#tabs button[data-tab=games]")
    assert await page.inner_text("#games-none") == "No finished games yet."
    assert not [r for r in roles if r in await page.inner_text("body")]
    await page.close()

    await flow.play_to_end(night_first=False)  # the night was played: the day votes next
    await flow.delivered()
    await shop_with_a_photo(flow)
    evenings = flow.app.container.evenings
    club = await flow.app.services.db.clubs.get(CLUB)
    assert club is not None
    await evenings.announce(club, HOST, datetime.now(UTC) + timedelta(days=2), 1, 10)

    # a player the game gave points (enough for the gift)
    db = flow.app.services.db
    balances = {uid: await db.ledger.balance(uid) for uid in flow.players}
    player = max(flow.players, key=lambda uid: (balances[uid], -uid))
    assert balances[player] > 0
    nick = f"Player{flow.players.index(player) + 1}"
    page = await open_app(browser, signed(flow.fake, player))
    await page.wait_for_selector("#me[data-state=live]")
    assert await page.inner_text("#nickname") == nick
    facts = await page.inner_text("#facts")
    assert "Finished games: 1" in facts and "Points: " in facts
    assert await page.locator("#ratings tbody tr").count() == 2  # overall, and the side played
    assert "provisional" in await page.inner_text("#ratings")
    # the achievements of the first counted game, and the way on
    games = page.locator("#achievements li[data-achievement=games]")
    assert await games.inner_text() == "🎲 Regular · 1\nCounted games played."
    assert await page.inner_text("#achievements-next-title") == "On the way"
    assert await page.get_attribute("#achievements-next li[data-achievement=games] progress",
                                    "max") == "10"
    assert await page.get_attribute("#my-page", "href") == f"../player/{nick}?lang=en"
    # the season under way: the player's line of its one game, no season ended yet
    assert (await page.inner_text("#season-title")).startswith("🗓 Season Q")
    assert "(1 game)" in await page.inner_text("#season-mine")
    assert (await page.inner_text("#fame-none")).startswith("🏆 The Hall of Fame fills")
    assert await page.get_attribute("#season-link", "href") == "../season?lang=en"
    await shot(page, "player-miniapp.png")
    # the card played, beside everyone's win rate with it; the players met
    await page.click("#tabs button[data-tab=roles]")
    cards = await page.locator("#cards tbody tr").all_inner_texts()
    assert len(cards) == 1 and cards[0].startswith(tr.t("en", f"game.role.{cards_of[player]}"))
    rivals = await page.locator("#rivals li .nick").all_inner_texts()
    assert len(rivals) == 5 and set(rivals) <= {f"Player{i}" for i in range(1, 11)}
    assert nick not in rivals
    await shot(page, "player-miniapp-roles.png")
    await page.click("#tabs button[data-tab=games]")
    game = page.locator(f"#game-list li[data-game='{flow.game_id}']")
    assert await game.count() == 1
    assert tr.t("en", f"game.role.{cards_of[player]}") in await game.inner_text()
    link = game.locator("a")
    assert await link.get_attribute("href") == f"../game/{flow.game_id}?lang=en"
    # the shop: the photo comes through the bot; the exchange from the page
    await page.click("#tabs button[data-tab=shop]")
    await page.wait_for_function("() => { const i = document.querySelector('.gift img');"
                                 " return i && i.naturalWidth === 320; }")
    await page.click("button[data-exchange='1']")
    assert "Collect it at:" in await page.inner_text(".gift[data-gift='1']")
    await shot(page, "player-miniapp-shop.png")
    await page.evaluate("() => { const b = document.getElementById('confirm');"
                        " b.click(); b.click(); }")  # a double press
    await page.wait_for_function("() => /Requested/.test("
                                 "document.getElementById('notice').textContent)")
    await page.wait_for_selector("button[data-withdraw]")
    rows = await flow.app.services.db.query(
        "SELECT tg_id, status, club_chat_id FROM gift_requests")
    assert [tuple(r) for r in rows] == [(player, "open", CLUB)]
    # the evening: signed up from the page
    await page.click("#tabs button[data-tab=evenings]")
    await page.click("button[data-in]")
    await page.wait_for_selector("button[data-out]")
    assert "seat 1 of 10" in await page.inner_text("#evening-list")
    assert await page.inner_text("#notice") == "You're signed up: seat 1 of 10."
    await shot(page, "player-miniapp-evenings.png")
    mine = await evenings.mine(player)
    assert [e.place for e in mine] == [1]


async def test_a_forged_old_or_missing_proof_shows_nothing(
        browser: Browser, flow: Flow, fake: FakeTelegram) -> None:
    player, other = flow.table.seats[1].tg_id, flow.table.seats[2].tg_id
    stranger = 4242
    cases = {
        "forged": forge(signed(fake, other), player),
        "expired": signed(fake, player, age=2 * 3600),
        "stranger": signed(fake, stranger),
        "none": None,
    }
    for case, init_data in cases.items():
        page = await open_app(browser, init_data)
        await page.wait_for_selector("#fatal:not([hidden])")
        text = await page.inner_text("#fatal")
        assert text == {
            "forged": "Telegram's proof of who you are is missing, wrong or more than an hour"
                      " old: open the app again from the chat with the bot.",
            "expired": "Telegram's proof of who you are is missing, wrong or more than an hour"
                       " old: open the app again from the chat with the bot.",
            "stranger": "You have no account with the bot yet: send /start to the bot, then"
                        " open the app again.",
            "none": "Open this page from the chat with the bot: the button under /profile or"
                    " the menu button.",
        }[case], case
        html = await page.content()
        assert all(info.name not in html for info in flow.table.seats.values())
        assert await page.locator("#tabs").is_hidden()
        await page.close()

"""The host's Mini App in headless Chromium, served by the real bot's process (WEB_PORT) over
the fake Bot API: initData signed with the bot's token as Telegram signs it, put where
Telegram puts it (the launch URL's ``#tgWebAppData``). telegram-web-app.js is blocked: the
page must work without it (tests never need the network)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, Route, ViewportSize

import engine
from engine import Role
from record.table import MAFIA_DL, NIGHT_DL, Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, free_port, running, wait_until
from tests.game.test_flow_panel import data, panel_of
from tests.web.initdata import forge, sign_init_data
from tests.web.test_browser import browser, chromium, shot

__all__ = ["browser", "chromium"]  # the fixtures, shared with the pages' browser tests
# one Chromium per module and worker (tests/web/test_browser.py): the module's event loop
pytestmark = pytest.mark.asyncio(loop_scope="module")

PHONE: ViewportSize = {"width": 390, "height": 800}


@pytest_asyncio.fixture(loop_scope="module")
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


PORT = free_port()
PUBLIC = "https://mafia.example.org"  # WEB_URL: the panel's button opens the Mini App there


def mini_app_buttons(fake: FakeTelegram, chat: int) -> list[str]:
    """The Mini App buttons' addresses in the messages (and their edits) sent to ``chat``."""
    return [b["web_app"]["url"] for m in fake.messages(chat) if m.reply_markup
            for row in m.reply_markup.get("inline_keyboard", []) for b in row if "web_app" in b]


@pytest_asyncio.fixture(loop_scope="module")
async def flow(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[Flow]:
    """A dealt 10-player game in the real bot, whose process serves the pages on PORT."""
    async with running(fake, tmp_path, web_port=PORT, web_host="127.0.0.1", web_url=PUBLIC,
                       night_seconds=60, mafia_agree_seconds=30, vote_turn_seconds=60) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        yield flow


def signed(fake: FakeTelegram, user: int, *, age: float = 30) -> str:
    return sign_init_data(fake.token, user, datetime.now(UTC) - timedelta(seconds=age))


async def open_app(browser: Browser, flow: Flow, init_data: str | None) -> Page:
    page = await browser.new_page(viewport=PHONE, locale="en-US")

    async def offline(route: Route) -> None:
        await route.abort()

    await page.route("https://telegram.org/**", offline)
    url = f"http://127.0.0.1:{PORT}/host/{flow.game_id}?lang=en"
    if init_data is not None:
        url += f"#tgWebAppData={quote(init_data)}&tgWebAppVersion=7.0"
    await page.goto(url)
    return page


async def test_the_host_sees_the_table_and_starts_the_vote(browser: Browser, flow: Flow) -> None:
    # the host's panel in private carries the button; the page is at its address's path
    await wait_until(lambda: mini_app_buttons(flow.fake, HOST), 10, "the panel's button")
    assert mini_app_buttons(flow.fake, HOST)[-1] == f"{PUBLIC}/host/{flow.game_id}"
    assert not any(mini_app_buttons(flow.fake, uid) for uid in flow.players)
    assert not mini_app_buttons(flow.fake, CLUB)
    page = await open_app(browser, flow, signed(flow.fake, HOST))
    await page.wait_for_selector("#host[data-state=live]")
    assert await page.locator(".seat").count() == 10
    assert await page.inner_text("#title") == f"Game #{flow.game_id}: the host's table"
    assert await page.inner_text("#phase") == "cards dealt"
    first = flow.table.seats[1].name
    assert first in await page.inner_text(".seat[data-seat='1']")
    labels = await page.locator("#actions button").all_inner_texts()
    assert "Start the vote" in labels and "Start the night" in labels
    # a technical death: the seat picker, then the confirmation
    await page.click("button[data-action=tech]")
    assert "Tap the seat" in await page.inner_text("#prompt")
    await page.click(".seat[data-seat='3']")
    assert "Technical death for №3" in await page.inner_text("#prompt")
    await page.click("#confirm")
    await page.wait_for_selector(".seat.dead[data-seat='3']")
    assert not flow.table.game.player(3).alive
    # the vote, from its button: the club chat gets its board
    await page.click("button[data-action=vote]")
    await page.wait_for_selector("#host[data-stage=vote]")
    assert flow.table.stage is Stage.VOTE
    await wait_until(lambda: any("Vote, day 1" in t for t in flow.club_texts()), 10,
                     "the vote's board in the club chat")
    table = flow.table
    voter = table.current_voter()
    assert voter is not None
    assert await page.inner_text("#phase") == f"Day 1 · vote · №{voter} votes now"
    await page.wait_for_selector(f".seat.turn[data-seat='{voter}']")
    # the vote's time: nine voters' minutes; the voter's own minute beside it
    assert re.fullmatch(r"9:00|8:5\d", await page.inner_text("#countdown"))
    assert re.fullmatch(rf"№{voter}'s turn: (1:00|0:5\d)", await page.inner_text("#window"))
    assert await page.locator("button[data-action=vote]").count() == 0
    # the voter votes on the phone: the page shows the vote and the next turn
    target = next(c for c in engine.vote_candidates(table.game, voter) if c != voter)
    uid, prefix = flow.presser(voter, "v")
    await flow.press(uid, await flow.prompt(uid, prefix), prefix + str(target))
    await page.wait_for_selector(f".seat.acted[data-seat='{voter}']")
    assert await page.inner_text("#choices-title") == "The vote so far"
    assert await page.inner_text("#choices") == f"№{voter} → №{target}"
    assert await page.locator(f".seat.turn[data-seat='{voter}']").count() == 0
    await shot(page, "host-miniapp.png")


async def test_the_night_comes_in_live(browser: Browser, flow: Flow) -> None:
    """Choices made on the players' phones appear on the host's table as they come in."""
    page = await open_app(browser, flow, signed(flow.fake, HOST))
    await page.wait_for_selector("#host[data-state=live]")
    await page.click("button[data-action=night]")
    await page.wait_for_selector("#host[data-stage=night]")
    assert await page.inner_text("#phase") == "Night 1"
    table = flow.table
    doctor = next(p.seat for p in table.game if p.role is Role.DOCTOR)
    target = engine.legal_targets(table.game, doctor)[0]
    uid, prefix = flow.presser(doctor, "n")
    await flow.press(uid, await flow.prompt(uid, prefix), prefix + str(target))
    await page.wait_for_selector(f".seat.acted[data-seat='{doctor}']")
    assert await page.inner_text("#choices") == f"№{doctor} Doctor → №{target}"
    # the night's clock runs (60 s; it reads 1:00 for the first of them, however quick)
    minutes, seconds = (await page.inner_text("#countdown")).split(":")
    assert 0 < int(minutes) * 60 + int(seconds) <= 60
    await shot(page, "host-miniapp-night.png")


async def test_a_seat_picker_follows_the_table(browser: Browser, flow: Flow) -> None:
    """Half-way through a press (the seat picker open), the table changes elsewhere (the host
    types /tech 3 in the club chat): the picker stays and no longer offers the dead seat."""
    page = await open_app(browser, flow, signed(flow.fake, HOST))
    await page.wait_for_selector("#host[data-state=live]")
    await page.click("button[data-action=tech]")
    await page.wait_for_selector(".seat.pick[data-seat='3']")
    await flow.host_says("/tech 3", "№3")
    await page.wait_for_selector(".seat.dead[data-seat='3']")
    assert await page.locator(".seat.pick[data-seat='3']").count() == 0
    assert await page.locator(".seat.pick").count() == 9
    assert "Tap the seat" in await page.inner_text("#prompt")


async def test_inside_telegram_and_an_hour_later(browser: Browser, flow: Flow) -> None:
    """With Telegram's own object (what telegram-web-app.js gives inside the client): initData
    is taken from it. The page stays open past the hour its initData is good for: the next
    poll is refused, and the page offers to close (the panel's button opens a fresh one)."""
    page = await browser.new_page(viewport=PHONE, locale="en-US")

    async def offline(route: Route) -> None:
        await route.abort()

    await page.route("https://telegram.org/**", offline)
    init_data = signed(flow.fake, HOST, age=3600 - 6)  # good for six more seconds
    await page.add_init_script(script=(
        "window.Telegram = {WebApp: {initData: " + json.dumps(init_data) + ","
        " ready: function () { window.readied = true; }, expand: function () {},"
        " close: function () { window.closedApp = true; }}};"))
    await page.goto(f"http://127.0.0.1:{PORT}/host/{flow.game_id}?lang=en")  # no #tgWebAppData
    await page.wait_for_selector("#host[data-state=live]")
    assert await page.evaluate("window.readied") is True
    assert await page.locator(".seat").count() == 10
    await page.wait_for_selector("#fatal:not([hidden])", timeout=20_000)
    assert "more than an hour old" in await page.inner_text("#fatal")
    assert await page.locator("#actions button").all_inner_texts() == ["Close"]
    await page.click("#close")
    assert await page.evaluate("window.closedApp") is True


@pytest.mark.parametrize("case", ["forged", "expired", "player", "none"])
async def test_anyone_else_is_refused(browser: Browser, flow: Flow, case: str) -> None:
    player = flow.table.seats[1].tg_id
    init_data = {
        "forged": forge(signed(flow.fake, player), HOST),
        "expired": signed(flow.fake, HOST, age=2 * 3600),
        "player": signed(flow.fake, player),
        "none": None,
    }[case]
    await flow.delivered()  # the deal's posts are out: whatever the club gets now is this test's
    seq, stage, sent = flow.table.seq, flow.table.stage, len(flow.fake.messages(CLUB))
    page = await open_app(browser, flow, init_data)
    await page.wait_for_selector("#fatal:not([hidden])")
    text = await page.inner_text("#fatal")
    assert text == {
        "forged": "Telegram's proof of who you are is missing, wrong or more than an hour old:"
                  " open the table again from your panel.",
        "expired": "Telegram's proof of who you are is missing, wrong or more than an hour old:"
                   " open the table again from your panel.",
        "player": "Only this game's host may do that.",
        "none": "Open this table from the button on your panel in Telegram.",
    }[case]
    assert await page.locator(".seat").count() == 0
    assert await page.locator("#actions button").count() == 0
    assert first_name_absent(await page.content(), flow)
    await flow.delivered()  # anything the refused page made the bot post would be out by now
    assert (flow.table.seq, flow.table.stage, len(flow.fake.messages(CLUB))) == (seq, stage, sent)
    if case == "forged":
        await shot(page, "host-miniapp-refused.png")


def first_name_absent(html: str, flow: Flow) -> bool:
    return all(info.name not in html for info in flow.table.seats.values())


async def test_a_foul_and_its_undo_from_the_phone(browser: Browser, flow: Flow) -> None:
    """A foul on the phone: the seat, then what for (the panel's reasons); the same reason
    tapped twice at once records one foul; the seat shows it; the undo lists it."""
    page = await open_app(browser, flow, signed(flow.fake, HOST))
    await page.wait_for_selector("#host[data-state=live]")
    await page.click("button[data-action=foul]")
    assert "tap the seat" in await page.inner_text("#prompt")
    await page.click(".seat[data-seat='2']")
    assert "A foul against №2: what for?" in await page.inner_text("#prompt")
    options = await page.locator("#prompt button.option").all_inner_texts()
    assert options == ["speaking out of turn", "speaking at night", "a gesture",
                       "another breach"]
    await page.evaluate("() => { const b = document.querySelector("
                        "'#prompt button[data-option=gesture]'); b.click(); b.click(); }")
    await page.wait_for_function("() => /Foul|recorded already/.test("
                                 "document.getElementById('notice').textContent)")
    await page.wait_for_selector(".seat[data-seat='2'] .marks")
    assert "🟨1" in await page.inner_text(".seat[data-seat='2'] .marks")
    await flow.delivered()
    assert [(f.seat, str(f.reason)) for f in flow.table.game.fouls] == [(2, "gesture")]
    assert [e for e in await flow.log_kinds() if e == "foul"] == ["foul"]
    await page.click("button[data-action=unfoul]")
    assert "Which foul" in await page.inner_text("#prompt")
    await page.click("#prompt button[data-option='1']")
    await page.wait_for_function("() => /is undone/.test("
                                 "document.getElementById('notice').textContent)")
    assert flow.table.game.fouls[0].undone
    await page.wait_for_selector("button[data-action=unfoul]", state="detached")


async def seconds_on(page: Page, selector: str) -> int:
    text = await page.inner_text(selector)
    m = re.search(r"(\d+):(\d\d)$", text)
    assert m is not None, text
    return int(m[1]) * 60 + int(m[2])


async def clock_is_true(page: Page, flow: Flow) -> None:
    """The page's countdown is the night's time left, within a second of the truth (its
    window: the Mafia's agreement, by its name)."""
    def truth(name: str) -> float:
        table = flow.table
        if table.paused:
            return table.remaining[name]
        return (table.deadlines[name] - datetime.now(UTC)).total_seconds()
    before = truth(NIGHT_DL), truth(MAFIA_DL)
    shown = await seconds_on(page, "#countdown"), await seconds_on(page, "#window")
    after = truth(NIGHT_DL), truth(MAFIA_DL)
    assert (await page.inner_text("#window")).startswith("The Mafia agree: ")
    for i in (0, 1):
        assert after[i] - 0.5 <= shown[i] <= before[i] + 1.5, (shown, before, after)


async def test_the_countdown_is_the_nights_paused_and_extended(browser: Browser,
                                                               flow: Flow) -> None:
    """A 60 s night with the Mafia's 30 s inside it: the big countdown is the night's, the
    Mafia's beside it, both true when paused (the time left at resume) and after +30 s. And a
    press made right after the host's previous one: "Start the night" on the panel, then
    "Pause" on the page before its next look at the table (its buttons drawn before the
    night): the night is paused."""
    page = await open_app(browser, flow, signed(flow.fake, HOST))
    await page.wait_for_selector("#host[data-state=live]")
    held = asyncio.Event()

    async def hold(route: Route) -> None:  # the page keeps the buttons drawn before the night
        await held.wait()
        await route.continue_()

    await page.route("**/state*", hold)
    panel = panel_of(flow)
    assert panel is not None
    assert await flow.press(HOST, panel, data(flow, "night")) == "The night began."
    await page.click("button[data-action=pause]")
    await wait_until(lambda: flow.table.paused, 10, "the pause, right after the night")
    held.set()
    await page.unroute("**/state*")
    await page.wait_for_selector("#host[data-stage=night]")
    await page.wait_for_selector("#paused:not([hidden])")
    assert flow.table.stage is Stage.NIGHT
    await clock_is_true(page, flow)  # paused: what is left when the game resumes
    await page.click("button[data-action=resume]")
    await page.wait_for_selector("#paused", state="hidden")
    await page.click("button[data-action=extend]")
    await wait_until(lambda: flow.table.deadlines[NIGHT_DL] - datetime.now(UTC)
                     > timedelta(seconds=61), 10, "the night extended")
    for _ in range(200):  # the page's next look at the table (every 1.5 s)
        if await seconds_on(page, "#countdown") > 60:
            break
        await asyncio.sleep(0.05)
    await clock_is_true(page, flow)  # the night's 60 s and 30 more, less what passed

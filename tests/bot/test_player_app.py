"""The player's Mini App over HTTP, served by the whole application (WEB_PORT, a public HTTPS
WEB_URL) polling the fake Bot API: initData signed as Telegram signs it (tests/web/initdata.py).
Every route refuses a missing, forged, old or another bot's initData; a player reads only its
own rows; the exchange and the sign-up go through the shop's and the evenings' own paths (the
same rows as the chat's buttons), and every refusal changes nothing."""

from __future__ import annotations

import struct
import zlib
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from bot.app import App
from bot.miniapp.photos import GiftPhotos, PhotoUnavailable, content_type
from tests.bot.conftest import ADMIN_ID, HOST_ID, Ask, FixedClock
from tests.bot.helpers import CLUB_ID
from tests.bot.test_shop import NEO, TRIN, add_gift, request_gift, requests_of, setup
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import free_port, wait_until
from tests.storage.conftest import CLUB as STORAGE_CLUB
from tests.storage.conftest import add_players
from tests.storage.test_achievements import logged_game, saves
from tests.storage.test_history import three_games
from tests.web.initdata import forge, sign_init_data

PORT = free_port()
PUBLIC = "https://mafia.example.org"
STRANGER = 77  # a Telegram user with no account
OTHER_BOT = "654321:ZYXwvuTSRqpoNMLkjiHGFedcba987654321"


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"web_port": PORT, "web_host": "127.0.0.1", "web_url": PUBLIC}


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(f"http://127.0.0.1:{PORT}") as session:
        yield session


def png() -> bytes:
    """A 1×1 PNG: the gift's photo as Telegram would hand it over."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def auth(fake: FakeTelegram, clock: FixedClock, user: int, *, age: float = 60,
         token: str | None = None, language: str = "en") -> dict[str, str]:
    signed = sign_init_data(token or fake.token, user, clock.now - timedelta(seconds=age),
                            language_code=language)
    return {"Authorization": f"tma {signed}"}


async def get(http: aiohttp.ClientSession, path: str,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    async with http.get(f"/app/player{path}", headers=headers or {}) as r:
        if r.content_type == "application/json":
            return r.status, await r.json()
        return r.status, await r.read()


async def post(http: aiohttp.ClientSession, path: str, body: Any,
               headers: dict[str, str] | None = None) -> tuple[int, Any]:
    async with http.post(f"/app/player{path}", json=body, headers=headers or {}) as r:
        return r.status, await r.json()


async def announce(app: App, clock: FixedClock, *, tables: int = 1, seats: int = 10) -> int:
    """An evening of the players' club (the host's /evening, through its service), two days
    after both the services' clock and the scheduler's (the real one), so no timer of it
    fires during the test."""
    club = await app.services.db.clubs.get(CLUB_ID)
    assert club is not None
    listed = await app.container.evenings.announce(
        club, HOST_ID, max(clock.now, datetime.now(UTC)) + timedelta(days=2), tables, seats)
    return int(listed.evening.id)


async def state(app: App) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the requests, the ledger, the lists."""
    db = app.services.db
    rows = await db.gift_requests.open_all()
    lists = [await db.evenings.get(e.id) for e in await db.evenings.live()]
    return ([(r.id, r.tg_id, r.status, r.points) for r in rows],
            await db.ledger.balance(NEO), await db.ledger.balance(TRIN),
            [tuple(s.tg_id for s in listed.signups) for listed in lists if listed])


ROUTES = [("GET", "/me", None), ("GET", "/photo/1", None),
          ("POST", "/exchange", {"gift": 1, "price": 30, "club": CLUB_ID, "card": -5}),
          ("POST", "/withdraw", {"request": 1}),
          ("POST", "/evening", {"evening": 1, "action": "in"})]


async def call(http: aiohttp.ClientSession, method: str, path: str, body: Any,
               headers: dict[str, str]) -> tuple[int, Any]:
    return await (get(http, path, headers) if method == "GET"
                  else post(http, path, body, headers))


async def test_every_route_refuses_a_missing_forged_old_or_foreign_proof(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask, TRIN, name="Mug", exchange="Обменять", yes="Да")
    await announce(app, clock)
    before = await state(app)
    good = auth(fake, clock, NEO)["Authorization"].removeprefix("tma ")
    proofs = {
        "missing": {},
        "not tma": {"Authorization": f"Bearer {good}"},
        "empty": {"Authorization": "tma "},
        "forged": {"Authorization": "tma " + forge(good, TRIN)},
        "old": auth(fake, clock, NEO, age=2 * 3600),
        "future": auth(fake, clock, NEO, age=-3600),
        "another bot's": auth(fake, clock, NEO, token=OTHER_BOT),
    }
    for method, path, body in ROUTES:
        for name, headers in proofs.items():
            status, answer = await call(http, method, path, body, headers)
            assert status == 401, (path, name, answer)
            assert answer["error"] == "unauthorized"
            assert "старше часа" in answer["text"]  # the default language: no proof, no account
        # a valid proof of a Telegram user without an account: 403, in its language
        status, answer = await call(http, method, path, body,
                                    auth(fake, clock, STRANGER, language="ru"))
        assert status == 403 and answer["error"] == "not_registered", (path, answer)
        assert "отправьте боту /start" in answer["text"]
    assert await state(app) == before
    # the page itself holds nothing: the same for anyone, with no proof
    async with http.get("/app/player") as r:
        assert r.status == 200
        page = await r.text()
        assert "script-src 'self' https://telegram.org" in r.headers["Content-Security-Policy"]
    assert "Neo" not in page and "Mug" not in page


async def test_a_player_reads_only_its_own_record(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask, TRIN, name="Mug", exchange="Обменять", yes="Да")
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    assert status == 200
    assert mine["locale"] == "en" and mine["profile"]["nickname"] == "Neo"
    assert mine["profile"]["page"] == "player/Neo"
    assert "Points: 50" in mine["profile"]["lines"]
    assert mine["shop"]["requests"] == []  # Trinity's request is hers
    assert mine["shop"]["balance"] == ("Your points: 50; reserved by your requests: 0; "
                                       "available: 50.")
    # no parameter names another player: whatever is asked, the proof's player is answered
    status, again = await get(http, f"/me?tg_id={TRIN}&nick=Тринити", auth(fake, clock, NEO))
    assert again == mine
    status, hers = await get(http, "/me", auth(fake, clock, TRIN, language="en"))
    assert hers["locale"] == "ru"  # her account's language, whatever the phone's
    assert hers["texts"]["tab_shop"] == "Подарки"
    assert hers["profile"]["nickname"] == "Тринити"
    assert [r["line"].split(" —")[0] for r in hers["shop"]["requests"]] == ["№1 Mug <3"]
    # Neo cannot withdraw her request: refused, still open
    before = await state(app)
    status, answer = await post(http, "/withdraw", {"request": 1}, auth(fake, clock, NEO))
    assert status == 409, answer
    assert await state(app) == before
    request = await app.services.db.gift_requests.get(1)
    assert request is not None and request.open and request.tg_id == TRIN


async def test_the_exchange_makes_the_commands_request_once(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask, stock=3)
    await request_gift(fake, ask, TRIN, name="Mug", exchange="Обменять", yes="Да")
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    gift = mine["shop"]["gifts"][0]
    assert gift["name"] == "Mug <3" and gift["why"] is None
    assert gift["exchange"] == "Exchange for 30 points"
    assert mine["shop"]["home"] == CLUB_ID
    assert [c["id"] for c in mine["shop"]["clubs"]] == [CLUB_ID]
    notices = len(fake.messages(ADMIN_ID))
    press = {"gift": gift["id"], "price": gift["price"], "club": CLUB_ID, "card": -42}
    status, answer = await post(http, "/exchange", press, auth(fake, clock, NEO))
    assert status == 200, answer
    assert answer["text"] == "Requested: Mug <3"
    (chat,), (app_made,) = await requests_of(app, TRIN), await requests_of(app, NEO)
    # the same row as the chat's card makes: open, the price reserved, at the club
    assert (app_made.tg_id, app_made.status, app_made.points, app_made.club_chat_id) == (
        NEO, "open", 30, CLUB_ID)
    assert (chat.status, chat.points, chat.club_chat_id) == ("open", 30, CLUB_ID)
    assert await app.services.db.gift_requests.reserved(NEO) == 30
    # told as the chat's request is: the admins' notice with its buttons, the player's Withdraw
    await wait_until(lambda: len(fake.messages(ADMIN_ID)) > notices, 10, "the admins' notice")
    assert "Gift request #2" in fake.messages(ADMIN_ID)[-1].body
    await wait_until(lambda: any("Withdraw request #2" in b for m in fake.messages(NEO)
                                 for b, _ in m.buttons()), 10, "the player's Withdraw")
    # the same Yes again (a double press, a retry): the same request, nothing new
    before = await state(app)
    status, answer = await post(http, "/exchange", press, auth(fake, clock, NEO))
    assert status == 409 and answer["error"] == "shop.refused.duplicate", answer
    assert await state(app) == before
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    assert [r["id"] for r in mine["shop"]["requests"]] == [2]
    assert mine["shop"]["gifts"][0]["why"] == "you need 10 points more"
    # withdrawn from the app: the points free again; a second press changes nothing
    status, answer = await post(http, "/withdraw", {"request": 2}, auth(fake, clock, NEO))
    assert status == 200 and answer["text"] == "Request #2 withdrawn"
    assert await app.services.db.gift_requests.reserved(NEO) == 0
    status, answer = await post(http, "/withdraw", {"request": 2}, auth(fake, clock, NEO))
    assert status == 409 and answer["error"] == "shop.refused.closed_withdrawn"


@pytest.mark.parametrize("body", [
    None, [], "gift", {"gift": 1, "price": 30, "club": CLUB_ID},  # no card
    {"gift": 1, "price": 30, "club": CLUB_ID, "card": 5},  # a chat message's id
    {"gift": 1, "price": "30", "club": CLUB_ID, "card": -1},
    {"gift": True, "price": 30, "club": CLUB_ID, "card": -1},
    {"gift": 1, "price": 30.0, "club": CLUB_ID, "card": -1},
    {"gift": 1, "price": 30, "club": CLUB_ID, "card": -(2 ** 60)},
    {"gift": 2 ** 70, "price": 30, "club": CLUB_ID, "card": -1},
])
async def test_a_malformed_exchange_is_400(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession, body: Any) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    before = await state(app)
    status, answer = await post(http, "/exchange", body, auth(fake, clock, NEO))
    assert status == 400 and answer["error"] == "bad_request", answer
    assert answer["text"] == "The request was not understood; nothing changed."
    assert await state(app) == before


async def test_refused_exchanges_change_nothing(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask, price=30)
    await add_gift(fake, ask, price=80, name="Hat")
    before = await state(app)
    cases = [
        ({"gift": 1, "price": 20, "club": CLUB_ID, "card": -1}, "shop.refused.price_changed"),
        ({"gift": 2, "price": 80, "club": CLUB_ID, "card": -2}, "shop.refused.insufficient"),
        ({"gift": 9, "price": 30, "club": CLUB_ID, "card": -3}, "shop.refused.unknown_gift"),
        ({"gift": 1, "price": 30, "club": -999, "card": -4}, "shop.refused.club"),
    ]
    for body, error in cases:
        status, answer = await post(http, "/exchange", body, auth(fake, clock, NEO))
        assert (status, answer["error"]) == (409, error), answer
    assert await state(app) == before
    # a blocked player: refused by the same check as the chat's button
    await ask(ADMIN_ID, "/block Neo cheating")
    before = await state(app)
    status, answer = await post(http, "/exchange",
                                {"gift": 1, "price": 30, "club": CLUB_ID, "card": -9},
                                auth(fake, clock, NEO))
    assert (status, answer["error"]) == (409, "misc.account_blocked")
    assert answer["text"] == "Your account is blocked by the administration."
    assert await state(app) == before
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    assert status == 200  # the record stays readable
    assert mine["profile"]["blocked"] == "Your account is blocked by the administration."
    assert mine["shop"]["closed"] == "Your account is blocked by the administration."


async def test_the_gifts_photo_comes_through_the_bot(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await add_gift(fake, ask, name="Hat")
    picture = png()
    await fake.send_photo(ADMIN_ID, caption="/gift_photo 1", content=picture)
    assert "Photo: yes." in (await fake.next_message(ADMIN_ID)).body
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    assert [g["photo"] for g in mine["shop"]["gifts"]] == [True, False]
    for _ in range(2):
        async with http.get("/app/player/photo/1", headers=auth(fake, clock, NEO)) as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert await r.read() == picture
            assert fake.token not in str(r.headers)
    assert fake.method_calls["getFile"] == 1  # kept: asked of Telegram once
    status, answer = await get(http, "/photo/2", auth(fake, clock, NEO))  # no photo
    assert status == 404 and answer["text"] == "This gift has no photo."
    status, answer = await get(http, "/photo/9", auth(fake, clock, NEO))
    assert status == 404
    # a retired gift's photo is not shown
    await ask(ADMIN_ID, "/gift_retire 1")
    status, answer = await get(http, "/photo/1", auth(fake, clock, NEO))
    assert status == 404


async def test_signing_up_for_an_evening(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock,
        http: aiohttp.ClientSession) -> None:
    await setup(app, fake, ask)
    evening = await announce(app, clock, tables=1, seats=1)
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    listed = mine["evenings"]
    assert [e["id"] for e in listed] == [evening]
    assert listed[0]["in"] == "✅ I'm in" and listed[0]["out"] is None
    assert listed[0]["club"] == "Club" and listed[0]["place"] is None
    assert listed[0]["line"] == "1 table of 1; signed up: 0 of 1"
    status, answer = await post(http, "/evening", {"evening": evening, "action": "in"},
                                auth(fake, clock, NEO))
    assert status == 200 and answer["text"] == "You're signed up: seat 1 of 1."
    before = await state(app)  # the second press: refused, the place unchanged
    status, answer = await post(http, "/evening", {"evening": evening, "action": "in"},
                                auth(fake, clock, NEO))
    assert status == 409 and answer["text"] == "You're signed up already: seat 1 of 1."
    assert await state(app) == before
    status, answer = await post(http, "/evening", {"evening": evening, "action": "in"},
                                auth(fake, clock, TRIN))
    assert status == 200 and "листе ожидания" in answer["text"]
    status, mine = await get(http, "/me", auth(fake, clock, NEO))
    assert mine["evenings"][0]["place"] == "seat 1 of 1"
    assert mine["evenings"][0]["out"] == "Cancel" and mine["evenings"][0]["in"] is None
    assert mine["evenings"][0]["line"] == "1 table of 1; signed up: 1 of 1, waitlist: 1"
    # the post in the club chat follows, as after its own buttons
    listed_now = await app.services.db.evenings.get(evening)
    assert listed_now is not None and [s.tg_id for s in listed_now.signups] == [NEO, TRIN]
    for body in ({"evening": evening, "action": "maybe"}, {"evening": "1", "action": "in"}):
        status, answer = await post(http, "/evening", body, auth(fake, clock, NEO))
        assert status == 400
    status, answer = await post(http, "/evening", {"evening": 999, "action": "in"},
                                auth(fake, clock, NEO))
    assert status == 409 and answer["text"] == "There is no such evening."
    status, answer = await post(http, "/evening", {"evening": evening, "action": "out"},
                                auth(fake, clock, NEO))
    assert status == 200 and answer["text"] == "Your sign-up is cancelled."
    listed_now = await app.services.db.evenings.get(evening)
    assert listed_now is not None and [s.tg_id for s in listed_now.signups] == [TRIN]


async def test_profile_and_the_menu_open_the_app(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    reply = await ask(NEO, "/profile")
    buttons = [b for row in (reply.reply_markup or {}).get("inline_keyboard", []) for b in row]
    assert buttons == [{"text": "📱 Open my club",
                        "web_app": {"url": f"{PUBLIC}/app/player"}}]
    assert fake.menu_buttons[None] == {"type": "web_app", "text": "Мой клуб",
                                       "web_app": {"url": f"{PUBLIC}/app/player"}}


@pytest.mark.parametrize("settings_overrides", [{"web_port": None, "web_url": PUBLIC},
                                                {"web_port": PORT, "web_host": "127.0.0.1"}])
async def test_no_button_where_the_app_cannot_open(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """Without WEB_PORT (nothing serves it) or an HTTPS WEB_URL (Telegram would not open it):
    no button under /profile, and the menu button is Telegram's own."""
    await setup(app, fake, ask)
    reply = await ask(NEO, "/profile")
    assert not reply.reply_markup
    assert fake.menu_buttons[None] == {"type": "default"}


async def test_the_rating_graph_cards_rivals_and_kills(
        app: App, fake: FakeTelegram, clock: FixedClock, http: aiohttp.ClientSession) -> None:
    """Three counted games by hand (tests/storage/test_history.py's): player 1 was the Mafia in
    two, the Doctor in one; the app draws the rating after each, the cards beside everyone's
    win rate with them, the players met most; player 7 never played."""
    await three_games(app.services.db)
    status, mine = await get(http, "/me", auth(fake, clock, 1))
    assert status == 200
    history = await app.services.db.history.points(1)
    assert mine["graph"]["points"] == [round(p.ordinal, 2) for p in history]
    assert len(mine["graph"]["games"]) == 3
    roles = mine["roles"]
    assert roles["none"] is None
    assert roles["head"] == ["Карта", "Игр", "Побед", "У всех"]
    # Mafia: 2 games, none won (a draw is no win); everyone with it: 1 of 4
    assert roles["cards"] == [
        {"name": "Мафия", "games": 2, "won": "0%", "everyone": "25%", "few": True},
        {"name": "Доктор", "games": 1, "won": "0%", "everyone": "33%", "few": True}]
    assert [s["name"] for s in roles["sides"]] == ["Мирные жители", "Мафия"]
    assert roles["side_head"][0] == "Команда"
    assert roles["rivals"][0] == {
        "nickname": "nick2",
        "line": "в одной команде: 1 (побед 0), против: 2 (побед 0)"}
    assert roles["killed_by"] == [] and roles["killed"] == []  # no night in these games
    # one counted game is no line; none: no cards either, and nothing of another's
    status, never = await get(http, "/me", auth(fake, clock, 7))
    assert never["graph"] is None and never["roles"]["cards"] == []
    assert never["roles"]["none"].startswith("Засчитанных игр пока нет")
    assert never["roles"]["rivals"] == []
    # the season under way (the first quarter of 2026 on the clock): its three games
    season = mine["season"]
    assert season["title"] == "🗓 Сезон: 1-й квартал 2026 (01.01.2026 – 31.03.2026)"
    rating = (await app.services.db.seasons.mine(
        await app.services.db.seasons.of_day(date(2026, 3, 10)), 1)).rating
    assert rating is not None and rating.games == 3
    assert season["mine"].startswith(f"Вы в этом сезоне: рейтинг {rating.ordinal:.1f}"
                                     .replace(".", ","))
    assert season["fame"] == [] and season["fame_title"] is None
    assert season["fame_none"].startswith("🏆 Зал славы заполнится")
    assert (season["link"], season["link_text"]) == ("season", "Сезоны")
    assert never["season"]["mine"] == "В этом сезоне у вас пока нет засчитанных игр."


async def test_a_rival_without_a_nickname_is_not_named(
        app: App, fake: FakeTelegram, clock: FixedClock, http: aiohttp.ClientSession) -> None:
    """A rival whose nickname is gone (cleared as an expired one is) reads «—», as on the
    public page: the Telegram name it registered with is never shown to another player."""
    db = app.services.db
    await three_games(db)
    async with db.transaction() as conn:
        await conn.execute("UPDATE players SET nickname = NULL, nickname_key = NULL"
                           " WHERE tg_id = 2")
    status, mine = await get(http, "/me", auth(fake, clock, 1))
    assert status == 200
    rivals = mine["roles"]["rivals"]
    assert [r["nickname"] for r in rivals] == ["—", "nick3", "nick4", "nick5", "nick6"]
    assert rivals[0]["line"] == "в одной команде: 1 (побед 0), против: 2 (побед 0)"
    assert "User 2" not in str(mine)


async def test_profile_names_a_rival_without_a_nickname_as_the_app_does(
        app: App, fake: FakeTelegram) -> None:
    """``/profile``'s cards and rivals: a rival without a nickname reads «—» as in the Mini
    App and on the page (never the Telegram name), and a nickname is escaped."""
    db = app.services.db
    await three_games(db)
    async with db.transaction() as conn:
        await conn.execute("UPDATE players SET nickname = NULL, nickname_key = NULL"
                           " WHERE tg_id = 2")
        await conn.execute("UPDATE players SET nickname = '<i>3</i>' WHERE tg_id = 3")
    await fake.send(1, "/profile")
    await wait_until(lambda: any((m.text or "").startswith("<b>По картам</b>")
                                 for m in fake.messages(1)), 10)
    rivals = next(m.text for m in fake.messages(1)
                  if (m.text or "").startswith("<b>По картам</b>"))
    assert rivals is not None and "User 2" not in rivals and "<i>3</i>" not in rivals
    lines = rivals.split("\n")
    at = lines.index("<b>С кем вы играете чаще всего</b>")
    assert lines[at + 1:at + 3] == [
        "— — в одной команде: 1 (побед 0), против: 2 (ваших побед 0)",
        "&lt;i&gt;3&lt;/i&gt; — в одной команде: 1 (побед 0), против: 1 (ваших побед 0)"]


async def test_the_achievements_earned_and_on_their_way(
        app: App, fake: FakeTelegram, clock: FixedClock, http: aiohttp.ClientSession) -> None:
    """Two games with their logs: the Doctor (player 3) saved three times, then once; the app
    lists what the games earned at their highest level and the levelled ones on their way,
    the nearest first; player 7 has none, and reads nothing of another's."""
    db = app.services.db
    await add_players(db, *range(1, 8))
    await db.clubs.ensure(STORAGE_CLUB, title="Club", locale="ru")
    await logged_game(db, saves(3), range(1, 7))
    await logged_game(db, saves(1), range(1, 7))
    status, mine = await get(http, "/me", auth(fake, clock, 3))
    assert status == 200
    a = mine["achievements"]
    assert a["title"] == "Достижения" and a["none"] is None
    highest: dict[str, int] = {}
    for x in await db.achievements.of(3):
        highest[x.achievement] = max(highest.get(x.achievement, 0), x.level)
    assert {e["id"]: e["level"] or 1 for e in a["earned"]} == highest
    assert a["earned"][0] == {"id": "games", "icon": "🎲", "name": "Завсегдатай", "level": 1,
                              "text": "Сыгранные засчитанные игры."}
    triple = next(e for e in a["earned"] if e["id"] == "doctor_triple")
    assert triple["level"] == 1 and triple["name"] == "Чудо-доктор"
    assert a["next"][0] == {"id": "doctor_saves", "value": 4, "next": 5,
                            "line": "💉 Доктор на посту: 4 из 5"}
    assert {"id": "games", "value": 2, "next": 10,
            "line": "🎲 Завсегдатай: 2 из 10"} in a["next"]
    status, never = await get(http, "/me", auth(fake, clock, 7))
    assert never["achievements"]["earned"] == [] and never["achievements"]["next"] == []
    assert never["achievements"]["none"].startswith("Достижений пока нет")


async def test_the_photos_cache_is_bounded_and_keeps_no_failure() -> None:
    asked: list[str] = []
    failing = {"gone"}

    async def fetch(file_id: str) -> bytes | None:
        asked.append(file_id)
        if file_id in failing:
            raise RuntimeError("Bad Request: wrong file_id")
        return None if file_id == "huge" else file_id.encode() * 3  # 6 bytes for "ab"

    photos = GiftPhotos(fetch, cache_bytes=10)
    assert await photos.get("ab") == b"ababab"
    assert await photos.get("ab") == b"ababab" and asked == ["ab"]  # kept
    assert await photos.get("cd") == b"cdcdcd"  # 12 bytes would be over 10: "ab" goes
    assert await photos.get("ab") == b"ababab" and asked == ["ab", "cd", "ab"]
    for missing in ("gone", "huge"):
        for _ in range(2):  # a failure is not kept: asked again next time
            with pytest.raises(PhotoUnavailable):
                await photos.get(missing)
    assert asked[-4:] == ["gone", "gone", "huge", "huge"]
    assert content_type(png()) == "image/png" and content_type(b"\xff\xd8\xff") == "image/jpeg"

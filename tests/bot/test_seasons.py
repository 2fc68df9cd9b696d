"""The seasons over HTTP: ``/network season`` (the network's own dates) on SQLite and on
PostgreSQL, refused to a stranger and a club admin with nothing changed, refused for a day a
game may have ended on, logged when set or deleted (only before it may hold a game) and moving
no point; ``/season`` with the season under
way, the reader's line, the boards and the Hall of Fame of the season that ended."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime
from typing import Any

import pytest

from bot.app import App
from standing.rating import PROVISIONAL_GAMES
from standing.seasons import Custom, Season
from storage import GamePoints
from tests.bot.conftest import ADMIN_ID, Ask, FixedClock
from tests.bot.helpers import clubs_held
from tests.fakes.telegram_server import FakeTelegram

CLUB = -1007
STRANGER, CLUB_ADMIN = 70, 71
ANN, BOB = 80, 81


@pytest.fixture(params=["sqlite", "postgresql"])
async def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    if isinstance(request.param, dict):  # a test's own settings, on SQLite
        return request.param
    if request.param == "postgresql":
        return {"database_url": await request.getfixturevalue("pg").new_database()}
    return {}


async def money(app: App) -> tuple[list[tuple[object, ...]], ...]:
    db = app.services.db
    return ([tuple(r) for r in await db.query("SELECT * FROM ledger ORDER BY id")],
            [tuple(r) for r in await db.query("SELECT * FROM balances ORDER BY tg_id")])


async def won(app: App, winner: int, loser: int, ended_on: date, points: int) -> None:
    """A counted game of two: ``winner`` the Mafia, who wins and earns ``points``."""
    db = app.services.db
    await clubs_held(app, CLUB)
    game = await db.games.create(CLUB, 1, seats=[(1, winner), (2, loser)],
                                 created_at=datetime(2025, 12, 1, tzinfo=UTC))
    await db.games.set_roles(game, {1: "mafia", 2: "doctor"})
    await db.games.set_status(game, "running")
    await db.games.finish(game, status="finished", day=ended_on, winner="mafia",
                          ended_on=ended_on, points=[GamePoints(winner, points, "team_win")])


async def test_the_networks_seasons_only_by_its_admins(app: App, fake: FakeTelegram, ask: Ask,
                                                        clock: FixedClock) -> None:
    db = app.services.db
    for uid, name in ((ADMIN_ID, "Owner"), (STRANGER, "Stranger"), (CLUB_ADMIN, "Clubby")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await db.staff.grant_club_admin(CLUB, CLUB_ADMIN, by=ADMIN_ID, now=clock())
    before = await money(app)
    refusal = "Only the network's admins can change the network's settings."
    for uid in (STRANGER, CLUB_ADMIN):
        for typed in ("/network season", "/network season 2026-06-01 2026-08-31 Cup"):
            assert (await ask(uid, typed)).text == refusal, (uid, typed)
    assert await db.seasons.customs() == []
    assert [a for a in await db.admin_log.recent(20) if a.action == "network_season"] == []

    # the owner: today is 10 March in Moscow, so 12 March is the earliest first day
    said = await ask(ADMIN_ID, "/network season 11.03.2026 31.03.2026 Spring")
    assert said.text == ("A season may start on 12.03.2026 at the earliest: the games played"
                         " already keep their season.")
    said = await ask(ADMIN_ID, "/network season 2026-06-01 2026-08-31 Summer <cup>")
    assert said.text == "🗓 Season set: 01.06.2026 – 31.08.2026 Summer &lt;cup&gt;."
    assert await db.seasons.customs() == [
        Custom(date(2026, 6, 1), date(2026, 8, 31), "Summer <cup>")]
    said = await ask(ADMIN_ID, "/network season 2026-08-01 2026-09-30")
    assert said.text == "That overlaps a season the network already set."
    assert (await ask(ADMIN_ID, "/network season 2026-06")).said.startswith(
        "<code>/network season START END [NAME]</code>")
    listing = (await ask(ADMIN_ID, "/network season")).said
    assert "01.06.2026 – 31.08.2026 Summer &lt;cup&gt;" in listing
    log = [(a.admin_id, a.action, a.details) for a in await db.admin_log.recent(20)
           if a.action == "network_season"]
    assert log == [(ADMIN_ID, "network_season", "2026-06-01 .. 2026-08-31 Summer <cup>")]
    assert await money(app) == before  # a season moves no point


async def test_a_season_not_started_is_deleted_by_the_networks_admins_only(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    """``/network season delete START``: a stranger and a club admin are refused and nothing
    changes; the owner deletes a season that has not started (logged, its days back in the
    quarters, no point moved), and is refused, naming why, a season that may hold games
    already, a day no season starts on, and a malformed command."""
    db = app.services.db
    for uid, name in ((ADMIN_ID, "Owner"), (STRANGER, "Stranger"), (CLUB_ADMIN, "Clubby")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await db.staff.grant_club_admin(CLUB, CLUB_ADMIN, by=ADMIN_ID, now=clock())
    # set before today's rules would allow: it starts tomorrow (10 March in Moscow now)
    early = Custom(date(2026, 3, 11), date(2026, 3, 20), "Early")
    assert await db.network.set_season(early, admin_id=ADMIN_ID, now=clock(),
                                       earliest=date(2026, 3, 1)) is None
    said = await ask(ADMIN_ID, "/network season 2026-06-01 2026-08-31 Summer <cup>")
    assert said.text == "🗓 Season set: 01.06.2026 – 31.08.2026 Summer &lt;cup&gt;."
    summer = Custom(date(2026, 6, 1), date(2026, 8, 31), "Summer <cup>")
    before, customs = await money(app), await db.seasons.customs()
    assert customs == [early, summer]

    async def deleted() -> list[tuple[int, str, str]]:
        return [(a.admin_id, a.action, a.details) for a in await db.admin_log.recent(20)
                if a.action == "network_season_delete"]

    refusal = "Only the network's admins can change the network's settings."
    for uid in (STRANGER, CLUB_ADMIN):
        assert (await ask(uid, "/network season delete 2026-06-01")).text == refusal, uid
    assert await db.seasons.customs() == customs and await deleted() == []

    said = await ask(ADMIN_ID, "/network season delete 11.03.2026")
    assert said.text == (
        "This season stays: 11.03.2026 – 20.03.2026 Early\nOnly a season that starts on"
        " 12.03.2026 or later can be deleted: a game anywhere may have ended in an earlier"
        " one, and the games played keep their season.")
    said = await ask(ADMIN_ID, "/network season delete 2026-06-02")
    assert said.text == ("No season of the network's own dates starts on 02.06.2026:"
                         " <code>/network season</code> lists them.")
    for typed in ("/network season delete", "/network season delete June",
                  "/network season delete 2026-06-01 2026-08-31"):
        assert (await ask(ADMIN_ID, typed)).said.startswith(
            "<code>/network season START END [NAME]</code>"), typed
    assert await db.seasons.customs() == customs and await deleted() == []

    said = await ask(ADMIN_ID, "/network season delete 01.06.2026")
    assert said.text == ("🗑 Season deleted: 01.06.2026 – 31.08.2026 Summer &lt;cup&gt;\n"
                         "Its days are in the calendar quarters again.")
    assert await db.seasons.customs() == [early]
    assert await db.seasons.of_day(date(2026, 6, 15)) == Season(date(2026, 4, 1),
                                                                date(2026, 6, 30))
    assert await deleted() == [(ADMIN_ID, "network_season_delete",
                          "2026-06-01 .. 2026-08-31 Summer <cup>")]
    assert (await ask(ADMIN_ID, "/network season delete 01.06.2026")).said.startswith(
        "No season of the network's own dates starts on 01.06.2026")
    assert await money(app) == before  # a season moves no point


@pytest.mark.parametrize("settings_overrides", [{"web_url": "https://club.example"}],
                         indirect=True)
async def test_season_shows_the_season_its_boards_and_the_hall_of_fame(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    for uid, name, nick in ((ANN, "Ann", "Ann"), (BOB, "Bob", "Bob")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    db = app.services.db
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    empty = (await ask(ANN, "/season")).said
    assert empty.startswith("🗓 <b>Season Q1 2026</b> (01.01.2026 – 31.03.2026)\n"
                            "You have no counted game in this season yet.")
    assert "No counted game in this season yet." in empty
    assert "🏆 The Hall of Fame fills when the first season with games ends." in empty
    for _ in range(PROVISIONAL_GAMES):  # the last quarter of 2025: Ann wins every game
        await won(app, ANN, BOB, date(2025, 12, 31), 3)
    await won(app, BOB, ANN, date(2026, 1, 1), 5)  # this season: Bob's one win
    text = (await ask(ANN, "/season")).said
    assert text.startswith("🗓 <b>Season Q1 2026</b> (01.01.2026 – 31.03.2026)\n"
                           "You this season: rating <b>")
    assert "(1 game), 0 points." in text
    assert ("<b>Club</b> — the season's points\n1. Bob — 5\n\n"
            "<b>Network</b> — the season's rating\n"
            "Nobody has 10 games in this season yet: the board comes after them.") in text
    fame = text[text.index("🏆"):]
    assert fame.startswith("🏆 <b>Hall of Fame — season Q4 2025</b> (the first 3 places)\n"
                           "<b>Club</b> — the season's rating\n1. Ann — ")
    assert "<b>Club</b> — the season's points\n1. Ann — 30" in fame
    assert "<b>Network</b> — the season's points\n1. Ann — 30" in fame
    assert text.endswith("Seasons and the Hall of Fame: https://club.example/season")
    fake.group(CLUB, "Club")
    in_club = (await ask(BOB, "/season", chat_id=CLUB)).said
    assert "You this season: rating" in in_club and "(1 game), 5 points." in in_club


async def test_a_player_without_a_nickname_is_on_the_seasons_boards_by_no_telegram_name(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    """``/season``'s boards and Hall of Fame, and the picture at a season's end, name a player
    without a nickname «—», never by the Telegram name: Cat's is Bob's nickname, Dan's is
    markup."""
    cat, dan = 82, 83
    for uid, name in ((ANN, "Ann"), (BOB, "Bob"), (cat, "Bob"), (dan, "<b>Dan</b> & Co")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    for uid, nick in ((ANN, "Ann"), (BOB, "Bob")):
        await ask(uid, f"/nick {nick}")
    db = app.services.db
    fake.group(CLUB, "Club")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await db.clubs.set_status(CLUB, "approved", by=ADMIN_ID, now=clock(), expect=("pending",))
    for _ in range(PROVISIONAL_GAMES):  # the last quarter of 2025
        await won(app, cat, ANN, date(2025, 12, 31), 3)
        await won(app, dan, BOB, date(2025, 12, 31), 2)
    await won(app, cat, BOB, date(2026, 1, 1), 5)  # this season
    text = (await ask(ANN, "/season")).said
    assert "<b>Club</b> — the season's points\n1. — — 5\n\n" in text
    fame = text[text.index("🏆"):]
    assert (fame + "\n").count("the season's points\n1. — — 30\n2. — — 20\n") == 2
    assert fame.count("the season's rating\n1. — — ") == 2  # the club's and the network's
    assert "Dan" not in text and "&amp;" not in text and "Bob — 30" not in text
    # the club's picture of the season that ended: its lines as drawn
    clock.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    assert await app.services.season_ends.run() == 1
    rows = await db.query("SELECT payload FROM outbox WHERE chat_id = ? AND key = ?",
                          (CLUB, "season_end:2025-10-01"))
    chart = json.loads(str(next(iter(rows))[0]))["picture"]
    (_, rating), (_, points) = chart["columns"]
    assert rating == ["1. — — 16.5 (10 games)", "1. — — 16.5 (10 games)",
                      "3. Ann — -7.1 (10 games)", "3. Bob — -7.1 (10 games)"]
    assert points == ["1. — — 30", "2. — — 20"]


async def test_a_closed_seasons_picture_goes_to_the_clubs_chat_once(
        app: App, fake: FakeTelegram, ask: Any, clock: FixedClock) -> None:
    """Vladivostok's club (UTC+10) gets its picture of the first quarter from 00:15 on
    1 April on its own clock, though Moscow is still on 31 March; once, however often the job
    runs (two at once too); a club that turned the post off and a season with no game in the
    club get none; no point moves."""
    for uid, name in ((ANN, "Ann"), (BOB, "Bob")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
        await ask(uid, f"/nick {name}")
    db = app.services.db
    quiet = CLUB - 1
    for chat_id, zone in ((CLUB, "Asia/Vladivostok"), (quiet, None)):
        fake.group(chat_id, f"Club {chat_id}")
        await db.clubs.ensure(chat_id, title=f"Club {chat_id}", locale="en")
        await db.clubs.set_status(chat_id, "approved", by=ADMIN_ID, now=clock(),
                                  expect=("pending",), time_zone=zone)
    await clubs_held(app, CLUB, quiet)
    await won(app, ANN, BOB, date(2026, 3, 31), 4)
    game = await db.games.create(quiet, 1, seats=[(1, ANN), (2, BOB)],
                                 created_at=datetime(2026, 3, 1, tzinfo=UTC))
    await db.games.set_roles(game, {1: "mafia", 2: "doctor"})
    await db.games.set_status(game, "running")
    await db.games.finish(game, status="finished", day=date(2026, 3, 2), winner="mafia",
                          ended_on=date(2026, 3, 2), points=[GamePoints(ANN, 1, "team_win")])
    await db.clubs.set_season_post(quiet, False)
    before = await money(app)
    ends = app.services.season_ends
    clock.now = datetime(2026, 3, 31, 14, 10, tzinfo=UTC)  # 00:10 on 1 April there
    assert await ends.run() == 0
    clock.now = datetime(2026, 3, 31, 14, 20, tzinfo=UTC)  # 00:20
    assert sorted(await asyncio.gather(ends.run(), ends.run())) == [0, 1]
    assert await ends.run() == 0
    posted = await fake.next_message(CLUB)
    assert posted.photo_bytes is not None and posted.photo_bytes[:2] == b"\xff\xd8"  # a JPEG
    assert posted.caption == (f"🏁 Season Q1 2026 is over. Here is Club {CLUB}'s season board;"
                              " the Hall of Fame: /season")
    clock.now = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)  # Moscow's 1 April too
    assert await ends.run() == 0
    await fake.settled()
    assert [m for m in fake.messages(CLUB) if m.photo_bytes] == [posted]
    assert [m for m in fake.messages(quiet) if m.photo_bytes] == []
    rows = await db.query("SELECT season, club_chat_id FROM season_posts")
    assert [(str(r[0]), int(r[1])) for r in rows] == [("2026-01-01", CLUB)]
    assert await money(app) == before
    clock.now = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)  # the second quarter: no game there
    assert await ends.run() == 0


async def test_a_seasons_top_ten_hears_of_it_once_when_it_is_over_everywhere(
        app: App, fake: FakeTelegram, ask: Any, clock: FixedClock) -> None:
    """Ann and Bob, each with the season's ten games, are its top ten: each gets one private
    message once the season is over on the last clock (UTC-12), however often the job runs
    (two at once too), and has the achievement in /profile; no point moves."""
    for uid, name in ((ANN, "Ann"), (BOB, "Bob")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
        await ask(uid, f"/nick {name}")
    db = app.services.db
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for _ in range(PROVISIONAL_GAMES):
        await won(app, ANN, BOB, date(2026, 3, 31), 2)
    before = await money(app)
    ends = app.services.season_ends
    clock.now = datetime(2026, 4, 1, 12, 10, tzinfo=UTC)  # 00:10 on 1 April at UTC-12
    assert await ends.tell_top_ten(clock.now) == 0
    assert "season_top" not in await db.achievements.progress(ANN, clock.now)
    clock.now = datetime(2026, 4, 1, 12, 20, tzinfo=UTC)
    await asyncio.gather(ends.run(), ends.run())
    assert await ends.run() == 0
    clock.now = datetime(2026, 4, 3, 9, 0, tzinfo=UTC)
    assert await ends.tell_top_ten(clock.now) == 0
    await fake.settled()
    told = {uid: [m.text for m in fake.messages(uid) if m.text and m.text.startswith("🌟")]
            for uid in (ANN, BOB)}
    assert told == {
        ANN: ["🌟 Season Q1 2026 is over, and you are in its top ten: number 1 in the network's"
              " season rating.\n🌟 <b>Season's top ten</b> · 1 — 1 season in the top ten."],
        BOB: ["🌟 Season Q1 2026 is over, and you are in its top ten: number 2 in the network's"
              " season rating.\n🌟 <b>Season's top ten</b> · 1 — 1 season in the top ten."]}
    assert "🌟 <b>Season's top ten</b> · 1" in (await ask(BOB, "/profile")).said
    assert await money(app) == before

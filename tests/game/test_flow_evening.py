"""A club's evening over the fake Bot API (bot/evenings/): the post and its live list, the
waitlist and a cancel's promotion, the reminders sent once across a restart, and every bad input
answered with nothing changed.

The evening's timers run on the test's clock (``FakeClock`` and the jobs of ``FakeDeadlines``,
tests/game/conftest.py): the test moves it by hours and runs what is due; the outbox's waits (the
post's edits, at most one every 6 s) pass at once on a virtual clock
(tests/fakes/virtual_clock.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.app import App
from bot.evenings.service import EveningService
from bot.miniapp.server import state_answer
from bot.wiring import EveningInputs
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.fakes.virtual_clock import VirtualClock
from tests.game.conftest import FakeClock, FakeDeadlines
from tests.game.flow import CLUB, HOST, Flow, start_app, stop_app, wait_until
from tests.game.harness import approve_club
from tests.pg_cluster import Cluster

ZONE = ZoneInfo("Europe/Moscow")  # the settings' default TIMEZONE


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def evenings_of(app: App) -> EveningService:
    evenings = app.container.evenings
    assert isinstance(evenings, EveningService)
    return evenings


class Night:
    """The evenings' clock of a test, shared by every app it starts (each its own jobs)."""

    def __init__(self) -> None:
        self.clock = FakeClock(datetime.now(UTC).replace(second=0, microsecond=0))
        self.schedulers: list[FakeDeadlines] = []
        self.delivery = VirtualClock()

    async def start(self, fake: FakeTelegram, tmp_path: Path,
                    **overrides: Any) -> tuple[App, asyncio.Task[None]]:
        """An app whose evenings run on this clock, with jobs of their own."""
        deadlines = FakeDeadlines(self.clock)
        self.schedulers.append(deadlines)
        return await start_app(fake, tmp_path, delivery_clock=self.delivery,
                               evening=EveningInputs(clock=self.clock, deadlines=deadlines),
                               **overrides)

    async def until(self, at: datetime, schedulers: Sequence[FakeDeadlines] = ()) -> None:
        """The clock at ``at``; every job due by then runs (those of several apps at once)."""
        self.clock.now = at
        due = []
        for deadlines in schedulers or self.schedulers[-1:]:
            for key, (when, job) in sorted(deadlines.jobs.items(), key=lambda kv: kv[1][0]):
                if when <= at:
                    del deadlines.jobs[key]
                    due.append(job)
        await asyncio.gather(*(job() for job in due))

    def typed(self, start: datetime) -> str:
        local = start.astimezone(ZONE)
        return local.strftime("%d.%m %H:%M")


def post_of(fake: FakeTelegram) -> SentMessage:
    posts = [m for m in fake.messages(CLUB) if any(d.startswith("ev:") for _, d in m.buttons())
             or "🗓" in m.body]
    assert posts, "no evening post"
    return posts[-1]


async def press(flow: Flow, uid: int, message: SentMessage, data: str) -> tuple[str, bool]:
    query = await flow.fake.press(uid, message, data)
    answer = await flow.fake.callback_answer(query, timeout=10)
    return str(answer.get("text", "")), bool(answer.get("show_alert"))


def private_with(fake: FakeTelegram, uid: int, mark: str) -> list[str]:
    return [m.body for m in fake.messages(uid) if mark in m.body]


async def settle(app: App) -> None:
    delivery = app.services.delivery
    assert await delivery.idle(10)
    assert not await app.services.db.outbox.pending_chats()


async def announce(flow: Flow, night: Night, start: datetime, tables: int, seats: int) -> int:
    flow.fake.group(CLUB, "Club")
    flow.fake.user(HOST, "Host", language_code="en")
    await flow.app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(flow.app.services.db, CLUB)  # its games count
    before = len(flow.fake.messages(CLUB))
    await flow.host(f"/evening {night.typed(start)} {tables} {seats}")
    await flow.fake.wait_for(lambda: any("🗓" in m.body
                                         for m in flow.fake.messages(CLUB)[before:]),
                             10, "the evening's post")
    data = post_of(flow.fake).buttons()[0][1]
    return int(data.split(":")[1])


async def test_four_seats_six_sign_ups_a_promotion_and_reminders_once_across_a_restart(
        fake: FakeTelegram, tmp_path: Path) -> None:
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    start = night.clock.now + timedelta(hours=26)
    try:
        players = await flow.register(7)
        evening = await announce(flow, night, start, 1, 4)
        post = post_of(fake)
        assert "Tables: 1, seats at each: 4, seats in all: 4." in post.body
        answers = [await press(flow, uid, post, f"ev:{evening}:in") for uid in players[:6]]
        assert [a for a, _ in answers] == [
            "You're signed up: seat 1 of 4.", "You're signed up: seat 2 of 4.",
            "You're signed up: seat 3 of 4.", "You're signed up: seat 4 of 4.",
            "No seats left: you're #1 on the waitlist. If a seat frees up, the bot will tell "
            "you.",
            "No seats left: you're #2 on the waitlist. If a seat frees up, the bot will tell "
            "you."]
        await settle(app)
        post = post_of(fake)  # one post, edited in place
        assert len([m for m in fake.messages(CLUB) if "🗓" in m.body]) == 1
        assert "Signed up</b> (4 of 4):\n1. Player1\n2. Player2\n3. Player3\n4. Player4" \
            in post.body
        assert "Waitlist:</b>\n1. Player5\n2. Player6" in post.body

        # a seat frees up: the first on the waitlist gets it and is told in private
        text, _ = await press(flow, players[1], post, f"ev:{evening}:out")
        assert text == "Your sign-up is cancelled."
        await settle(app)
        promoted = private_with(fake, players[4], "🎉")
        assert promoted == ["🎉 A seat freed up and it's yours: the game evening at “Club”, "
                            f"{when(start)}. Your place: seat 4 of 4."]
        assert private_with(fake, players[5], "🎉") == []
        assert "1. Player1\n2. Player3\n3. Player4\n4. Player5" in post_of(fake).body
        assert "Waitlist:</b>\n1. Player6" in post_of(fake).body

        # the day before: every player on the list is reminded, with the place
        await night.until(start - timedelta(hours=24))
        await settle(app)
        for uid, place in zip([players[0], *players[2:6]],
                              ["seat 1 of 4", "seat 2 of 4", "seat 3 of 4", "seat 4 of 4",
                               "#1 on the waitlist"], strict=True):
            assert private_with(fake, uid, "📅") == [
                f"📅 Reminder: the game evening at “Club” — {when(start)}. Your place: {place}.\n"
                "Can't come? Cancel your sign-up: /evenings"]
        assert private_with(fake, players[1], "📅") == []  # cancelled
    finally:
        await stop_app(app, task)

    # a restart: the next process re-arms what is left; nothing is sent twice
    app, task = await night.start(fake, tmp_path)
    try:
        assert {k.split(":")[1] for k in night.schedulers[-1].jobs} == {"soon", "begin", "end"}
        await night.until(start - timedelta(hours=2))
        await settle(app)
        for uid in [players[0], *players[2:6]]:
            assert len(private_with(fake, uid, "📅")) == 1
            assert len(private_with(fake, uid, "⏰")) == 1
        assert private_with(fake, players[6], "⏰") == []  # never signed up
    finally:
        await stop_app(app, task)

    # a reminder due while no process ran is sent at the next start, once
    later = start + timedelta(days=7)
    app, task = await night.start(fake, tmp_path)
    try:
        flow = Flow(fake, app, lang="en")
        second = await announce(flow, night, later, 1, 4)
        assert await press(flow, players[0], post_of(fake), f"ev:{second}:in") == (
            "You're signed up: seat 1 of 4.", False)
        await settle(app)
    finally:
        await stop_app(app, task)
    night.clock.now = later - timedelta(hours=3)  # the process was down at "the day before"
    app, task = await night.start(fake, tmp_path)
    try:
        await night.until(night.clock.now)  # what was due runs at once
        await settle(app)
        assert len(private_with(fake, players[0], "📅")) == 2  # this evening's, late, once
        await night.until(later - timedelta(hours=2))
        await settle(app)
        assert len(private_with(fake, players[0], "📅")) == 2
        assert len(private_with(fake, players[0], "⏰")) == 2
    finally:
        await stop_app(app, task)


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def when(start: datetime) -> str:
    """An evening's time as English reads it: "Sat 05 Dec, 19:30", never "05.12"."""
    local = start.astimezone(ZONE)
    return f"{local.strftime('%a %d')} {MONTHS[local.month - 1]}, {local.strftime('%H:%M')}"


async def private_answer(fake: FakeTelegram, uid: int, text: str, mark: str) -> str:
    """The bot's answer to ``text`` in ``uid``'s private chat (the first new one with
    ``mark``)."""
    before = len(fake.messages(uid))
    await fake.send(uid, text)
    await fake.wait_for(lambda: any(mark in m.body for m in fake.messages(uid)[before:]), 10,
                        text)
    return next(m.body for m in fake.messages(uid)[before:] if mark in m.body)


async def club_answer(flow: Flow, uid: int, text: str) -> str:
    """What the bot says in the club chat to ``text`` from ``uid``."""
    before = len(flow.fake.messages(CLUB))
    await flow.fake.send(uid, text, chat_id=CLUB)
    await flow.fake.wait_for(lambda: len(flow.fake.messages(CLUB)) > before, 10, text)
    return flow.fake.messages(CLUB)[before].body


async def test_bad_input_is_answered_and_changes_nothing(fake: FakeTelegram,
                                                         tmp_path: Path) -> None:
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    db = app.services.db
    try:
        players = await flow.register(3)
        fake.group(CLUB, "Club")
        fake.user(HOST, "Host", language_code="en")
        await db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(db, CLUB)  # its games count
        start = night.clock.now + timedelta(hours=5)
        day, at = night.typed(start).split()
        yesterday = night.typed(night.clock.now - timedelta(days=1))
        refusals = {
            f"/evening {yesterday} 1 4": "That time has passed (",
            f"/evening {day} {at} 0 12": "An evening needs at least one table and at least one",
            f"/evening {day} {at} 2 0": "An evening needs at least one table and at least one",
            f"/evening 32.13 {at} 2 12": "Cannot read the day “32.13”: DD.MM, e.g. 05.12.",
            f"/evening {day} 25:99 2 12": "Cannot read the time “25:99”: HH:MM, e.g. 19:30.",
            f"/evening {day} {at} two 12": "“two” is not a whole number",
            f"/evening {day} {at} 11 12": "At most 10 tables.",
            f"/evening {day} {at} 2 25": "At most 24 seats at one table.",
            f"/evening {day}": "Announce an evening: /evening DD.MM HH:MM TABLES SEATS_PER_TABLE",
            "/evening cancel": "Nothing to cancel: the club has no evening announced.",
        }
        for text, expected in refusals.items():
            assert expected in await club_answer(flow, HOST, text), text
        # a player may not announce
        assert "Only the chat's administrators and the club's hosts" in await club_answer(
            flow, players[0], f"/evening {day} {at} 1 4")
        assert await db.evenings.live() == []

        evening = await announce(flow, night, start, 1, 4)
        assert "An evening on" in await club_answer(flow, HOST, f"/evening {day} {at} 2 12")
        post = post_of(fake)
        assert await press(flow, players[0], post, f"ev:{evening}:in") == (
            "You're signed up: seat 1 of 4.", False)
        # a double press
        assert await press(flow, players[0], post, f"ev:{evening}:in") == (
            "You're signed up already: seat 1 of 4.", True)
        # a cancel by someone not on the list
        assert await press(flow, players[1], post, f"ev:{evening}:out") == (
            "You're not on this evening's list: nothing to cancel.", True)
        # an account the administration blocked
        await db.players.block(players[2], reason="rude", admin_id=900, now=night.clock.now)
        assert await press(flow, players[2], post, f"ev:{evening}:in") == (
            "Your account is blocked by the administration: you cannot sign up.", True)
        # a player without a nickname, and one who never started the bot
        fake.user(4001, "Nick-less", language_code="en")
        await fake.send(4001, "/start")
        await fake.next_message(4001)
        assert await press(flow, 4001, post, f"ev:{evening}:in") == (
            "To sign up you need a nickname: /nick NICK in the private chat with the bot.",
            True)
        fake.user(4002, "Stranger", language_code="en")
        text, alert = await press(flow, 4002, post, f"ev:{evening}:in")
        assert text.startswith("Start the bot in a private chat first: @") and alert
        # an evening that does not exist (a forged button)
        assert await press(flow, players[1], post, f"ev:{evening + 99}:in") == (
            "There is no such evening.", True)
        listed = await db.evenings.get(evening)
        assert listed is not None and [s.tg_id for s in listed.signups] == [players[0]]

        # the evening begins: the post loses its buttons, an old button is refused
        await night.until(start)
        await settle(app)
        assert post_of(fake).buttons() == []
        assert "Sign-up is closed: the evening has begun." in post_of(fake).body
        assert await press(flow, players[1], post, f"ev:{evening}:in") == (
            "Sign-up is closed: the evening has begun.", True)
        assert await press(flow, players[0], post, f"ev:{evening}:out") == (
            "Sign-up is closed: the evening has begun.", True)
        listed = await db.evenings.get(evening)
        assert listed is not None and [s.tg_id for s in listed.signups] == [players[0]]
    finally:
        await stop_app(app, task)


async def test_the_host_announces_with_buttons_and_calls_an_evening_off(
        fake: FakeTelegram, tmp_path: Path) -> None:
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    db = app.services.db
    try:
        players = await flow.register(2)
        fake.group(CLUB, "Club")
        fake.user(HOST, "Host", language_code="en")
        await db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(db, CLUB)  # its games count
        await flow.host("/evening")
        closed = await flow.prompt(CLUB, "ed:")
        await press(flow, HOST, closed, closed.buttons()[-1][1])  # “✖ Close”
        await fake.wait_for(lambda: closed.buttons() == [], 10, "the dialog closed")
        assert closed.body == "No evening announced."
        await flow.host("/evening")
        await fake.wait_for(lambda: flow.latest_with(CLUB, "ed:") not in (None, closed), 10,
                            "a new dialog")
        dialog = await flow.prompt(CLUB, "ed:")
        assert dialog.body == "🗓 A new game evening. Which day?"
        tomorrow = (night.clock.now + timedelta(days=1)).astimezone(ZONE)
        # a player's press changes nothing
        assert await press(flow, players[0], dialog, dialog.buttons()[1][1]) == (
            "Only the chat's administrators and the club's hosts announce or cancel an "
            "evening.", True)
        for label in (f"{tomorrow.strftime('%d')} {MONTHS[tomorrow.month - 1]}", "19:30", "2",
                      "12"):
            data = next(d for t, d in dialog.buttons() if t.endswith(label))
            mark = fake.changes
            await press(flow, HOST, dialog, data)
            await fake.changed(10, since=mark)
            await fake.wait_for(lambda d=data: dialog.buttons() == [] or all(
                x != d for _, x in dialog.buttons()), 10, f"the dialog after {label}")
        start = datetime.combine(tomorrow.date(), datetime.min.time().replace(hour=19, minute=30),
                                 tzinfo=ZONE)
        assert dialog.body == f"Evening announced: {when(start)}."
        await fake.wait_for(lambda: any("Game evening" in m.body for m in fake.messages(CLUB)),
                            10, "the post")
        post = post_of(fake)
        assert "Tables: 2, seats at each: 12, seats in all: 24." in post.body
        evening = int(post.buttons()[0][1].split(":")[1])
        for uid in players:
            await press(flow, uid, post, f"ev:{evening}:in")
        # a second evening: which one to call off must be said
        await flow.host(f"/evening {night.typed(start + timedelta(days=1))} 1 10")
        await fake.wait_for(lambda: len([m for m in fake.messages(CLUB) if "🗓" in m.body]) == 2,
                            10, "the second post")
        assert "Several evenings are announced:" in await club_answer(flow, HOST,
                                                                      "/evening cancel")
        assert "Only the chat's administrators" in await club_answer(
            flow, players[0], f"/evening cancel {night.typed(start).split()[0]}")
        answer = await club_answer(flow, HOST, f"/evening cancel {night.typed(start)}")
        assert answer == (f"The evening {when(start)} is cancelled; the bot tells everyone who "
                          "signed up.")
        await settle(app)
        assert post.buttons() == [] and "❌ The evening is cancelled." in post.body
        for uid in players:
            assert private_with(fake, uid, "❌") == [
                f"❌ The game evening at “Club” ({when(start)}) is cancelled. Your sign-up "
                f"({'seat 1 of 24' if uid == players[0] else 'seat 2 of 24'}) is void."]
        assert [e.id for e in await db.evenings.live()] != [evening]
        assert len(await db.evenings.live()) == 1
        assert await press(flow, players[0], post, f"ev:{evening}:in") == (
            "This evening is cancelled.", True)
    finally:
        await stop_app(app, task)


async def test_on_postgresql_two_processes_send_each_reminder_once(
        fake: FakeTelegram, tmp_path: Path, pg: Cluster) -> None:
    """Two applications share one PostgreSQL (bot/cluster/): the club's holder arms the
    evening's timers; one that has not yet noticed it lost the club runs them beside the new
    holder, and each reminder still goes out once; the holder stopped, the other takes the club
    over and sends the next one, once."""
    url = await pg.new_database()
    night = Night()
    first, first_task = await night.start(fake, tmp_path / "a", database_url=url)
    second: App | None = None
    try:
        flow = Flow(fake, first, lang="en")
        players = await flow.register(5)
        start = night.clock.now + timedelta(hours=30)
        evening = await announce(flow, night, start, 1, 4)
        await wait_until(lambda: CLUB in held(first), 10, "the club held by the first")
        post = post_of(fake)
        for uid in players:
            await press(flow, uid, post, f"ev:{evening}:in")
        second, second_task = await night.start(fake, tmp_path / "b", database_url=url)
        assert CLUB not in held(second)
        # the second arms them too, as a new holder would while the old one runs on
        await evenings_of(second).restore([CLUB])
        both = night.schedulers[-2:]
        assert all({k.split(":")[1] for k in d.jobs} == {"day", "soon", "begin", "end"}
                   for d in both)
        await night.until(start - timedelta(hours=24), both)
        await settle_pg(first)
        for uid in players:
            assert len(private_with(fake, uid, "📅")) == 1, uid

        evenings_of(second).release(CLUB)  # it never held the club: its timers go
        assert night.schedulers[-1].jobs == {}
        await stop_app(first, first_task)
        # taken over: held, and its evenings' timers armed from the database
        await wait_until(lambda: CLUB in held(second) and bool(night.schedulers[-1].jobs), 20,
                         "the club taken over")
        assert {k.split(":")[1] for k in night.schedulers[-1].jobs} == {"soon", "begin", "end"}
        await night.until(start - timedelta(hours=2), night.schedulers[-1:])
        await settle_pg(second)
        for uid in players:
            assert len(private_with(fake, uid, "📅")) == 1, uid
            assert len(private_with(fake, uid, "⏰")) == 1, uid
    finally:
        if second is not None and not second.stopping.is_set():
            await stop_app(second, second_task)
        if not first.stopping.is_set():
            await stop_app(first, first_task)


def held(app: App) -> set[int]:
    assert app.sharing is not None
    return app.sharing.held


async def settle_pg(app: App) -> None:
    """Until the outbox is empty (the sender may be either process)."""
    db = app.services.db

    async def empty() -> bool:
        return not await db.outbox.pending_chats()
    for _ in range(400):
        if await empty():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the outbox did not drain")


HOST_B = 801  # a second table's host: an administrator of the club chat


def invite_button(panel: SentMessage) -> str:
    """The panel's «📨 Invite the signed-up (N)»: its callback data."""
    [data] = [d for _, d in panel.buttons() if d.startswith("gh:") and ":invite:" in d]
    return data


async def invite_offered(flow: Flow, host: int, game: int, count: int) -> SentMessage:
    """The host's panel of ``game`` once it offers to invite ``count`` of tonight's list."""
    label = f"📨 Invite the signed-up ({count})"

    def offered() -> SentMessage | None:
        panel = flow.latest_with(host, f"gh:{game}:")
        return panel if panel is not None and any(
            text == label for text, _ in panel.buttons()) else None
    await flow.fake.wait_for(lambda: offered() is not None, 10, label)
    panel = offered()
    assert panel is not None
    return panel


async def test_the_lobby_invites_the_list_and_the_end_records_the_no_shows(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """Two tables of 3 seats, 7 signed up: each host's panel invites the next three, the
    checked-in are seated, walk-ins join to the seats the list does not hold, and those who did
    not come are the evening's no-shows in /profile, /stats and /export."""
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    db = app.services.db
    try:
        players = await flow.register(8)
        p = dict(enumerate(players, 1))
        start = night.clock.now + timedelta(hours=3)
        evening = await announce(flow, night, start, 2, 3)
        post = post_of(fake)
        for n in range(1, 8):
            await press(flow, p[n], post, f"ev:{evening}:in")
        for uid in (HOST, HOST_B):
            fake.user(uid, f"Host {uid}", language_code="en")
            await fake.send(uid, "/start")
            await fake.next_message(uid)
        fake.set_admins(CLUB, [HOST_B])

        # table 1: its host's panel offers the list; a walk-in comes first
        await flow.host("/newgame")
        lobby = await flow.prompt(CLUB, "gl:")
        one = int(lobby.buttons()[0][1].split(":")[1])
        panel = await invite_offered(flow, HOST, one, 3)
        assert (f"🗓 The club's evening is tonight: {when(start)}. Signed up for seats: 6, on "
                "the waitlist: 1; tables: 2, seats at each: 3.") in panel.body
        await press(flow, p[8], lobby, f"gl:{one}:join")
        # a walk-in takes no seat of the list's: the invitation still invites three
        await invite_offered(flow, HOST, one, 3)
        assert await press(flow, HOST, panel, invite_button(panel)) == (
            "Invitations sent: 3.", False)
        await settle(app)
        await fake.wait_for(lambda: "📨 Invited and not here yet: Player1, Player2, Player3."
                            in panel.body, 10, "the invited on the panel")
        assert "Nobody left to invite" in panel.body
        assert not any(d.startswith(f"gh:{one}:") and ":invite:" in d
                       for _, d in panel.buttons())  # three seats, three invited
        invitations = {n: await flow.prompt(p[n], "gk:") for n in (1, 2, 3)}
        assert invitations[1].body.startswith(f"🎲 Table 1 (game #{one}) at “Club” is "
                                              "gathering")
        assert await press(flow, p[1], invitations[1], f"gk:{one}:{evening}") == (
            f"You are at the table: seat №2 (game #{one}).", False)
        assert await press(flow, p[2], invitations[2], f"gk:{one}:{evening}") == (
            f"You are at the table: seat №3 (game #{one}).", False)
        await settle(app)
        assert invitations[1].body == f"✅ You're at Table 1: seat №2 (game #{one})."
        assert invitations[1].buttons() == []
        await fake.wait_for(lambda: "📨 Invited and not here yet: Player3." in panel.body,
                            10, "the checked-in off the panel's invited")
        # pressed again; someone else's invitation; a player never invited
        assert (await press(flow, p[1], invitations[1], f"gk:{one}:{evening}"))[0].startswith(
            "You are already at the table")
        assert await press(flow, p[4], invitations[2], f"gk:{one}:{evening}") == (
            "This invitation is not for you, or no longer stands.", True)
        assert await press(flow, p[7], invitations[2], f"gk:{one}:{evening}") == (
            "This invitation is not for you, or no longer stands.", True)
        # Player3's seat is held: the waitlisted Player7 walking in is refused it
        assert await press(flow, p[7], lobby, f"gl:{one}:join") == (
            "The seats left at Table 1 are held for the signed-up players invited to it "
            "(1 not here yet). Ask the host.", True)
        assert flow.games.tables[one].seat_of(p[7]) is None
        # a player may not invite; /invite again: nobody left for this table
        assert await club_answer(flow, p[8], "/invite") == "Only this game's host may do that."
        assert await club_answer(flow, HOST, "/invite") == (
            "Nobody new to invite. Invited and not here yet: Player3.")
        assert len(private_with(fake, p[3], "🎲")) == 1  # not invited twice

        # table 2 invites the next three (not the one table 1 invited and who has not come)
        await fake.send(HOST_B, "/newgame", chat_id=CLUB)
        await wait_until(lambda: len(flow.games.tables) == 2, 10, "table 2")
        two = max(flow.games.tables)
        panel_b = await invite_offered(flow, HOST_B, two, 3)
        await press(flow, HOST_B, panel_b, invite_button(panel_b))
        await settle(app)
        await fake.wait_for(lambda: "📨 Invited and not here yet: Player4, Player5, Player6."
                            in panel_b.body, 10, "table 2's invited")
        invite4 = await flow.prompt(p[4], "gk:")
        assert await press(flow, p[4], invite4, f"gk:{two}:{evening}") == (
            f"You are at the table: seat №1 (game #{two}).", False)
        # Player5, invited to table 2, may not take table 1's held seat; joins table 2 with
        # «I play» instead of the invitation: came all the same
        assert (await press(flow, p[5], lobby, f"gl:{one}:join"))[0].startswith(
            "The seats left at Table 1 are held")
        lobby_b = await flow.prompt(CLUB, f"gl:{two}:")
        assert await press(flow, p[5], lobby_b, f"gl:{two}:join") == (
            f"You are at the table: seat №2 (game #{two}).", False)
        tables = flow.games.tables
        assert [s.name for _, s in sorted(tables[one].seats.items())] == [
            "Player8", "Player1", "Player2"]
        assert [s.name for _, s in sorted(tables[two].seats.items())] == [
            "Player4", "Player5"]
        assert private_with(fake, p[7], "🎲") == []  # the waitlist is not invited

        # the evening ends: Player3 and Player6 had seats and did not come
        await night.until(start + timedelta(hours=6))
        listed = await db.evenings.get(evening)
        assert listed is not None
        assert {s.name: s.came for s in listed.signups} == {
            "Player1": True, "Player2": True, "Player3": False, "Player4": True,
            "Player5": True, "Player6": False, "Player7": None}
        no_shows = "No-shows (signed up for an evening and did not come): "
        assert no_shows + "1" in await private_answer(fake, p[3], "/profile", "Profile")
        assert no_shows + "1" in await private_answer(fake, p[3], "/stats", "Points")
        assert no_shows + "0" in await private_answer(fake, p[1], "/profile", "Profile")
        fake.user(900, "Admin", language_code="en")
        await fake.send(900, "/start")
        await fake.next_message(900)
        await fake.send(900, "/export")
        document = await fake.next_message(900)
        assert document.document_bytes is not None
        lines = document.document_bytes.decode().splitlines()
        assert lines[0].endswith(",username,no_shows,status")
        # no-shows, then an empty status (a player's row, not a waiting imported record)
        assert [line.rsplit(",", 2)[1:] for line in lines if line.startswith("Player3,")] == [
            ["1", ""]]
        assert [line.rsplit(",", 2)[1:] for line in lines if line.startswith("Player1,")] == [
            ["0", ""]]
    finally:
        await stop_app(app, task)


async def test_the_post_follows_the_club_to_its_supergroup(fake: FakeTelegram,
                                                           tmp_path: Path) -> None:
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    new_club = CLUB - 1_000_000
    try:
        players = await flow.register(2)
        evening = await announce(flow, night, night.clock.now + timedelta(days=2), 1, 10)
        await press(flow, players[0], post_of(fake), f"ev:{evening}:in")
        await settle(app)
        await fake.migrate(CLUB, new_club)
        await fake.wait_for(lambda: any("🗓" in m.body for m in fake.messages(new_club)), 10,
                            "the post in the supergroup")
        moved = next(m for m in fake.messages(new_club) if "🗓" in m.body)
        assert "1. Player1" in moved.body
        assert await press(flow, players[1], moved, f"ev:{evening}:in") == (
            "You're signed up: seat 2 of 10.", False)
        await settle(app)
        assert "1. Player1\n2. Player2" in moved.body  # edited there
        assert len([m for m in fake.messages(new_club) if "🗓" in m.body]) == 1
    finally:
        await stop_app(app, task)


async def test_a_player_sees_and_cancels_places_in_private_in_russian(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """/evenings and /profile: each evening with the place (a seat, the waitlist's number); the
    private cancel button takes the player off and shows the list again; the club speaks
    Russian: the post's names stand in the nominative, in a numbered list."""
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="ru")
    db = app.services.db
    try:
        players = await flow.register(3)
        fake.group(CLUB, "Клуб")
        fake.user(HOST, "Host", language_code="ru")
        await db.clubs.ensure(CLUB, title="Клуб", locale="ru")
        await approve_club(db, CLUB)  # its games count
        first = night.clock.now + timedelta(days=2)
        second = first + timedelta(days=1)
        ids = []
        for start in (first, second):
            before = len(fake.messages(CLUB))
            await flow.host(f"/evening {night.typed(start)} 1 2")
            await fake.wait_for(lambda b=before: any(
                "🗓" in m.body for m in fake.messages(CLUB)[b:]), 10, "the post")
            ids.append(int(post_of(fake).buttons()[0][1].split(":")[1]))
        posts = [m for m in fake.messages(CLUB) if "🗓" in m.body]
        for uid in players:
            await press(flow, uid, posts[0], f"ev:{ids[0]}:in")
        assert await press(flow, players[2], posts[1], f"ev:{ids[1]}:in") == (
            "Вы записаны: место 1 из 2.", False)
        await settle(app)
        assert posts[0].body.startswith("🗓 <b>Игровой вечер: ")
        assert "Столов: 1, мест за каждым: 2, всего мест: 2." in posts[0].body
        assert "<b>Записались</b> (2 из 2):\n1. Player1\n2. Player2" in posts[0].body
        assert "<b>Лист ожидания:</b>\n1. Player3" in posts[0].body
        assert [b for b, _ in posts[0].buttons()] == ["✅ Записаться", "Отменить запись"]

        mine = await private_answer(fake, players[2], "/evenings", "Ваши вечера")
        ru_when = [ru(start) for start in (first, second)]
        assert mine == ("<b>Ваши вечера</b>\n"
                        f"{ru_when[0]} — «Клуб»: лист ожидания, №1\n"
                        f"{ru_when[1]} — «Клуб»: место 1 из 2")
        listing = fake.messages(players[2])[-1]
        assert [b for b, _ in listing.buttons()] == [f"✖ Отменить запись: {w}" for w in ru_when]
        profile = await private_answer(fake, players[2], "/profile", "Профиль")
        assert f"Вечер: {ru_when[0]}, «Клуб» — лист ожидания, №1" in profile
        assert "Неявки (записались на вечер и не пришли): 0" in profile

        # Player1 cancels in private: the list shown again; Player3 gets the seat, in private
        await private_answer(fake, players[0], "/evenings", "Ваши вечера")
        listing = fake.messages(players[0])[-1]
        assert await press(flow, players[0], listing, f"ev:{ids[0]}:out") == (
            "Запись отменена.", False)
        await fake.wait_for(lambda: "Вы не записаны ни на один вечер" in (listing.text or ""),
                            10, "the list shown again")
        await settle(app)
        assert private_with(fake, players[2], "🎉") == [
            f"🎉 Освободилось место, и оно ваше: игровой вечер в клубе «Клуб», {ru_when[0]}. "
            "Ваша запись: место 2 из 2."]
        assert "1. Player2\n2. Player3" in posts[0].body and "Лист ожидания" not in \
            posts[0].body
    finally:
        await stop_app(app, task)


RU_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")


def ru(start: datetime) -> str:
    local = start.astimezone(ZONE)
    return f"{RU_WEEKDAYS[local.weekday()]} {local.strftime('%d.%m, %H:%M')}"


async def test_the_panels_list_and_its_held_seats_survive_a_restart(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """One table of 3 seats, 5 signed up: the host's panel and the Mini App offer the list
    (one list of legal actions); after a restart the panel says who is invited and not here
    yet and their seats still refuse a walk-in; a cancel frees a seat (read again at the
    refusal when another process took the cancel), and the panel offers the freed seats to the
    waitlist."""
    night = Night()
    app, task = await night.start(fake, tmp_path)
    flow = Flow(fake, app, lang="en")
    try:
        players = await flow.register(6)
        p = dict(enumerate(players, 1))
        start = night.clock.now + timedelta(hours=3)
        evening = await announce(flow, night, start, 1, 3)
        post = post_of(fake)
        for n in range(1, 6):
            await press(flow, p[n], post, f"ev:{evening}:in")
        await fake.send(HOST, "/start")
        await fake.next_message(HOST)
        await flow.host("/newgame")
        lobby = await flow.prompt(CLUB, "gl:")
        game = int(lobby.buttons()[0][1].split(":")[1])
        panel = await invite_offered(flow, HOST, game, 3)
        _, state = await state_answer(flow.games, game, HOST, "en")
        assert {"name": "invite", "danger": False, "label": "Invite the signed-up"} \
            in state["actions"]
        assert await press(flow, HOST, panel, invite_button(panel)) == (
            "Invitations sent: 3.", False)
        await settle(app)
        invitations = {n: await flow.prompt(p[n], "gk:") for n in (1, 2, 3)}
        assert await press(flow, p[1], invitations[1], f"gk:{game}:{evening}") == (
            f"You are at the table: seat №1 (game #{game}).", False)
        _, state = await state_answer(flow.games, game, HOST, "en")
        assert "invite" not in [a["name"] for a in state["actions"]]
        await settle(app)
    finally:
        await stop_app(app, task)

    app, task = await night.start(fake, tmp_path)
    try:
        flow = Flow(fake, app, lang="en", game_id=game)
        await settle(app)
        panel = await flow.prompt(HOST, f"gh:{game}:")
        assert "📨 Invited and not here yet: Player2, Player3." in panel.body
        assert "Nobody left to invite" in panel.body
        assert not any(":invite:" in d for _, d in panel.buttons())
        # the invited players' seats are still held: a walk-in is refused
        assert (await press(flow, p[6], lobby, f"gl:{game}:join"))[0] == (
            "The seats left at Table 1 are held for the signed-up players invited to it "
            "(2 not here yet). Ask the host.")
        # Player3 cancels where this process does not hear of it (another process took the
        # private button: its evenings, on the same database and outbox, follow no lobby
        # here): the refusal reads the list again, and the walk-in sits down
        s = app.services
        elsewhere = EveningService(s.db, s.delivery, s.translator,
                                   deadlines=FakeDeadlines(night.clock), clock=night.clock,
                                   zone=s.settings.timezone,
                                   default_locale=s.settings.default_locale,
                                   bot_username=lambda: "")
        assert (await elsewhere.leave(evening, p[3])).key == "evening.left"
        assert await press(flow, p[6], lobby, f"gl:{game}:join") == (
            f"You are at the table: seat №2 (game #{game}).", False)
        # Player2 cancels under the post: the panel offers the freed seats to the waitlisted
        # Player4 and Player5 (each promoted in turn)
        assert await press(flow, p[2], post, f"ev:{evening}:out") == (
            "Your sign-up is cancelled.", False)
        panel = await invite_offered(flow, HOST, game, 2)
        assert "Invited and not here yet" not in panel.body
        assert await press(flow, HOST, panel, invite_button(panel)) == (
            "Invitations sent: 2.", False)
        invitation = await flow.prompt(p[4], "gk:")
        assert await press(flow, p[4], invitation, f"gk:{game}:{evening}") == (
            f"You are at the table: seat №3 (game #{game}).", False)
        # the cancelled players' invitations no longer stand
        for n in (2, 3):
            assert await press(flow, p[n], invitations[n], f"gk:{game}:{evening}") == (
                "This invitation is not for you, or no longer stands.", True)
        # the evening called off: the panel no longer shows a list, nor holds a seat for it
        invited = flow.table.seats.copy()
        await flow.host("/evening cancel")
        await fake.wait_for(lambda: "The club's evening is tonight" not in (flow.latest_with(
            HOST, f"gh:{game}:") or panel).body, 10, "the list off the panel")
        assert game not in flow.games.registry.tonight and flow.table.seats == invited
        assert await press(flow, p[2], lobby, f"gl:{game}:join") == (
            f"You are at the table: seat №4 (game #{game}).", False)
    finally:
        await stop_app(app, task)

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
from zoneinfo import ZoneInfo

import pytest

from bot.app import App
from bot.evenings.service import EveningService
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.fakes.virtual_clock import VirtualClock
from tests.game.conftest import FakeClock, FakeDeadlines
from tests.game.flow import CLUB, HOST, Flow, start_app, stop_app

ZONE = ZoneInfo("Europe/Moscow")  # the settings' default TIMEZONE


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def evenings_of(app: App) -> EveningService:
    evenings = app.services.extra["evenings"]
    assert isinstance(evenings, EveningService)
    return evenings


class Night:
    """The evenings' clock of a test, shared by every app it starts (each its own jobs)."""

    def __init__(self) -> None:
        self.clock = FakeClock(datetime.now(UTC).replace(second=0, microsecond=0))
        self.schedulers: list[FakeDeadlines] = []
        self.delivery = VirtualClock()

    def prepare(self, app: App) -> None:
        deadlines = FakeDeadlines(self.clock)
        self.schedulers.append(deadlines)
        evenings = evenings_of(app)
        evenings.clock, evenings.deadlines = self.clock, deadlines

    async def start(self, fake: FakeTelegram, tmp_path: Path,
                    **overrides: object) -> tuple[App, asyncio.Task[None]]:
        return await start_app(fake, tmp_path, delivery_clock=self.delivery,
                               prepare=self.prepare, **overrides)

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
    delivery = app.services.extra["delivery"]
    assert await delivery.idle(10)
    assert not await app.services.db.outbox.pending_chats()


async def announce(flow: Flow, night: Night, start: datetime, tables: int, seats: int) -> int:
    flow.fake.group(CLUB, "Club")
    flow.fake.user(HOST, "Host", language_code="en")
    await flow.app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
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
        assert promoted == ["🎉 A seat freed up and it's yours: the game evening at «Club», "
                            f"{when(start)}. You have: seat 4 of 4."]
        assert private_with(fake, players[5], "🎉") == []
        assert "1. Player1\n2. Player3\n3. Player4\n4. Player5" in post_of(fake).body
        assert "Waitlist:</b>\n1. Player6" in post_of(fake).body

        # the day before: every player on the list is reminded, with the place
        await night.until(start - timedelta(hours=24))
        await settle(app)
        for uid, place in zip([players[0], *players[2:6]],
                              ["seat 1 of 4", "seat 2 of 4", "seat 3 of 4", "seat 4 of 4",
                               "waitlist, #1"], strict=True):
            assert private_with(fake, uid, "📅") == [
                f"📅 Reminder: the game evening at «Club» — {when(start)}. You have: {place}.\n"
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


def when(start: datetime) -> str:
    local = start.astimezone(ZONE)
    return f"{local.strftime('%a')} {local.strftime('%d.%m, %H:%M')}"

"""Fixtures: the fake Bot API server and the real bot application polling it over HTTP."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import pytest
from aiogram import Bot

from bot.app import App, create_app, make_bot
from bot.config import Settings
from bot.delivery.sender import Limits
from bot.wiring import DeliveryInputs
from tests.fakes.telegram_server import FakeTelegram, FakeUser, SentMessage
from tests.pg_cluster import pg, pg_cluster  # noqa: F401  (fixtures)
from tests.sqlite_template import migrated

ADMIN_ID = 900
HOST_ID = 800
FAST_LIMITS = Limits(
    global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
    group_per_minute=1_000_000, backoff_start=0.01, backoff_max=0.05,
)


def make_settings(fake: FakeTelegram, tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "bot_token": fake.token,
        "telegram_api_url": fake.base_url,
        "database_path": tmp_path / "mafia.sqlite3",
        "admin_ids": frozenset({ADMIN_ID}),
        "host_ids": frozenset({HOST_ID}),
        "night_seconds": 0.2,
        "mafia_agree_seconds": 0.1,
        "vote_turn_seconds": 0.2,
        "last_word_seconds": 0.1,
        "default_locale": "ru",
        # the tests' users answer at machine speed; the bound has its own test (test_flood.py)
        "flood_burst": 0,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


class FixedClock:
    """An injectable ``now()`` for the services (tests move it by assigning ``now``)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class LaterWall:
    """The ``app`` fixture's durable delivery's wall clock: the real time, plus what a test
    skips (``skipped``: a week, for the outbox's prune)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.time() + self.skipped


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    """An aiogram ``Bot`` on the fake, built as the app builds it (``make_bot``)."""
    settings = Settings(
        _env_file=None, bot_token=fake.token, telegram_api_url=fake.base_url
    )
    bot = make_bot(settings)
    yield bot
    await bot.session.close()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 10, 12, 0, tzinfo=UTC))


@pytest.fixture
def wall() -> LaterWall:
    return LaterWall()


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    """Override in a test module to change the app's settings."""
    return {}


@pytest.fixture
async def app(
    fake: FakeTelegram, tmp_path: Path, clock: FixedClock, wall: LaterWall,
    settings_overrides: dict[str, Any]
) -> AsyncIterator[App]:
    """The real application (same builder as ``python -m bot``) polling the fake server; on
    SQLite its file starts as the migrated template (tests/sqlite_template.py)."""
    settings = make_settings(fake, tmp_path, **settings_overrides)
    if settings.database_url is None:
        migrated(settings.database_path)
    application = await create_app(settings, limits=FAST_LIMITS, clock=clock,
                                   delivery_time=DeliveryInputs(wall=wall), polling_timeout=1)
    task = asyncio.create_task(application.run(handle_signals=False))
    started = asyncio.create_task(application.started.wait())
    await asyncio.wait({task, started}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        started.cancel()
        task.result()  # raise the startup error
    assert application.started.is_set(), "the bot did not start polling"
    try:
        yield application
    finally:
        await application.stop()
        await asyncio.wait_for(task, 10)


class Ask(Protocol):
    """The ``ask`` fixture's helper."""

    async def __call__(self, user: FakeUser | int, text: str, *,
                       chat_id: int | None = None) -> SentMessage: ...


@pytest.fixture
def ask(fake: FakeTelegram) -> Ask:
    """``await ask(user, "/cmd args")``: send in the user's private chat, return the reply."""

    async def _ask(user: FakeUser | int, text: str, *, chat_id: int | None = None) -> SentMessage:
        uid = user.id if isinstance(user, FakeUser) else user
        target = chat_id if chat_id is not None else uid
        await fake.send(user, text, chat_id=chat_id)
        return await fake.next_message(target)

    return _ask

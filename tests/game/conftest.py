"""In-process service tests: the real engine, real storage on tmp files, a fake clock and
scheduler, and the real notifier writing into a recording sender."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import pytest

from bot.game.messages.notifier import Notifier
from bot.game.service import GameService, Topics
from bot.game.timers import Job
from record.table import GameTimers
from storage.db import Database
from tests.fakes.recording_sender import RecordingSender
from tests.game.harness import CHAT, HOST, Harness
from tests.pg_cluster import pg, pg_cluster  # noqa: F401  (fixtures)
from tests.sqlite_template import migrated
from views.i18n import Translator


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class FakeDeadlines:
    """Jobs run only when the test moves the clock (``advance``)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.jobs: dict[str, tuple[datetime, Job]] = {}

    def arm(self, key: str, at: datetime, job: Job) -> None:
        self.jobs[key] = (at, job)

    def disarm(self, key: str) -> None:
        self.jobs.pop(key, None)

    def names(self) -> set[str]:
        return {k.split(":", 1)[1] for k in self.jobs}

    async def advance(self, seconds: float) -> None:
        target = self.clock.now + timedelta(seconds=seconds)
        while True:
            due = sorted((at, key) for key, (at, _) in self.jobs.items() if at <= target)
            if not due:
                break
            at, key = due[0]
            _, job = self.jobs.pop(key)
            self.clock.now = max(self.clock.now, at)
            await job()
        self.clock.now = target


TIMERS = GameTimers(night=60, mafia_agree=30, vote_turn=60, last_word=30, cancel=20, fate=60)


@pytest.fixture
def translator() -> Translator:
    return packaged_translator()


@cache
def packaged_translator() -> Translator:
    """The packaged texts, parsed once per process (0.3 s of CPU a time, and 144 tests used a
    fresh copy each); nothing changes a Translator once loaded."""
    return Translator.load()


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))


@pytest.fixture(params=["sqlite", "postgresql"])
async def bot_database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where ``python -m bot`` processes keep a test's data: a SQLite file or a PostgreSQL
    database (DATABASE_URL); tests/game/test_kill9.py's ``db_env`` says it to the process."""
    if request.param == "postgresql":
        url: str = await request.getfixturevalue("pg").new_database()
        return url
    return tmp_path / "mafia.sqlite3"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(migrated(tmp_path / "game.sqlite3"))
    yield database
    await database.close()


@pytest.fixture
async def h(db: Database, fake_clock: FakeClock, translator: Translator,
            tmp_path: Path) -> AsyncIterator[Harness]:
    harness = make_harness(db, fake_clock, translator, tmp_path)
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    yield harness


def deal_seeds(seed: int) -> Callable[[], bytes]:
    """Reproducible deal seeds, so a failing game replays the same way."""
    source = random.Random(f"deal-{seed}")
    return lambda: source.randbytes(32)


async def only_host(user_id: int, chat_id: int) -> bool:
    """HOST hosts in every club (the application asks bot/services/permissions.py)."""
    return user_id == HOST


def make_harness(db: Database, clock: FakeClock, translator: Translator, tmp_path: Path,
                 *, seed: int = 7, panel: bool = False, web_url: str | None = None,
                 zone: str = "UTC", sender: RecordingSender | None = None,
                 topics: Topics | None = None, pages_url: str | None = None,
                 lobby_ttl: float | None = None) -> Harness:
    """The game layer on a recording sender (``sender``, by default a new one), fake
    deadlines and ``clock``; ``topics``: the forum topics it opens (none by default);
    ``pages_url``: WEB_URL, the pages the end of a game links; ``lobby_ttl``: the seconds a
    lobby nobody dealt stays open (for ever by default)."""
    sender = sender if sender is not None else RecordingSender()
    deadlines = FakeDeadlines(clock)
    service: GameService
    notifier = Notifier(sender, translator, lambda tg: service.locale_of(tg))
    service = GameService(db, notifier, deadlines, translator, timers=TIMERS,
                          may_host=only_host, clock=clock, default_locale="ru",
                          bot_username=lambda: "mafia_test_bot", rng=random.Random(seed),
                          new_seed=deal_seeds(seed), panel=panel, web_url=web_url, zone=zone,
                          topics=topics, pages_url=pages_url, lobby_ttl=lobby_ttl)
    return Harness(db, service, sender, deadlines, clock, translator, tmp_path)

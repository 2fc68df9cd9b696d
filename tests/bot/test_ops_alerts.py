"""The operators' chat (OPS_CHAT_ID) gets one post when an incident begins and one "resolved"
line when it ends, never a post per check (bot/services/alerts.py). Each fault is made for
real: a table's deadline job removed, the fake Bot API answering 429s, an outbox row held back,
unreadable updates, the test PostgreSQL stopped, a process killed; on two processes one
tells."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest

import bot.metrics
import bot.services.alerts
from bot.app import App
from bot.cluster.share import ProcessRole
from bot.delivery.worker import Delivery
from bot.metrics import Metrics
from bot.services.alerts import OpsAlerts, lasted
from record.table import Stage
from storage.db import Database
from storage.repos.outbox import SEND, Queued
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, running, wait_until
from tests.game.harness import approve_club
from tests.pg_cluster import Cluster
from views.i18n import Translator

OPS = -100900  # (not the flow tests' club chat)


async def test_one_post_per_incident_and_one_when_it_ends() -> None:
    posts: list[str] = []
    active: dict[str, dict[str, Any]] = {}
    now = [100.0]

    async def post(text: str) -> None:
        posts.append(text)

    alerts = OpsAlerts(post, Translator.load(), "en", [lambda: dict(active)],
                       clock=lambda: now[0])
    await alerts.tick()
    assert posts == []
    active["stuck:12"] = {"game": 12, "since": "21:04"}
    active["database"] = {"since": "21:05"}
    for _ in range(5):  # checked again and again: told once
        await alerts.tick()
        now[0] += 10
    assert len(posts) == 2
    assert any("Game #12 is stuck" in p and "21:04" in p for p in posts)
    assert any("database does not answer, since 21:05" in p for p in posts)
    del active["stuck:12"]
    await alerts.tick()
    assert posts[-1] == "✅ Resolved: game #12 is no longer stuck (it lasted 0:00:50)."
    await alerts.tick()
    assert len(posts) == 3  # the database's incident still open, not told again
    assert lasted(3725) == "1:02:05"


async def test_an_incidents_key_is_read_as_ascii_digits_only() -> None:
    """An incident whose key's number is no ASCII number ("²", which ``str.isdigit`` takes
    and ``int`` refuses) still ends: the tick goes on, its resolved line just names no game."""
    posts: list[str] = []
    active: dict[str, dict[str, Any]] = {}

    async def post(text: str) -> None:
        posts.append(text)

    alerts = OpsAlerts(post, Translator.load(), "en", [lambda: dict(active)],
                       clock=lambda: 100.0)
    active["stuck:²"] = {"game": "²", "since": "21:04"}
    active["stuck:7"] = {"game": 7, "since": "21:04"}
    await alerts.tick()
    active.clear()
    await alerts.tick()
    assert "✅ Resolved: game #7 is no longer stuck (it lasted 0:00:00)." in posts
    assert alerts.open == {}


async def test_an_outbox_falling_behind_is_told_and_resolved(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.metrics, "SAMPLE_EVERY_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "TICK_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "OUTBOX_LATE_S", 0.5)
    fake.group(OPS, "Ops")
    fake.user(501, "Ann", language_code="en")
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en") as app:
        delivery = app.services.delivery
        assert isinstance(delivery, Delivery)
        fake.fail_next(1, status=429, retry_after=2, methods={"sendMessage"})
        await delivery.enqueue([Queued(501, SEND, {"text": "late news"})])
        await wait_until(lambda: any("outbox is behind" in m.body for m in fake.messages(OPS)),
                         20, "the alert")
        await wait_until(lambda: any(m.body == "late news" for m in fake.messages(501)), 20,
                         "the row sent after the 429")
        await wait_until(lambda: any("outbox caught up" in m.body for m in fake.messages(OPS)),
                         20, "the resolved line")
        bodies = [m.body for m in fake.messages(OPS)]
        assert sum("outbox is behind" in b for b in bodies) == 1
        assert sum("outbox caught up" in b for b in bodies) == 1


# ---------------------------------------------------------------------- each fault made for real


@pytest.fixture
def quick_alerts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks and the samples every 50 ms, and the incidents' thresholds in seconds."""
    monkeypatch.setattr(bot.metrics, "SAMPLE_EVERY_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "TICK_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "TABLE_LATE_S", 0.5)
    monkeypatch.setattr(bot.services.alerts, "RETRY_WINDOW_S", 2.0)
    monkeypatch.setattr(bot.services.alerts, "DATABASE_DOWN_S", 1.0)
    monkeypatch.setattr(bot.services.alerts, "MALFORMED_QUIET_S", 1.0)


async def _more_ticks(app: App, ticks: int = 5) -> None:
    """Until the alerts have checked ``ticks`` more times (an incident told twice would show)."""
    assert app.container.observability.alerts is not None
    seen = [0]

    def counting() -> dict[str, dict[str, Any]]:
        seen[0] += 1
        return {}

    app.container.observability.alerts.checks.append(counting)
    await wait_until(lambda: seen[0] >= ticks, 20, f"{ticks} more checks")


def _gauge(app: App, name: str) -> float:
    return next(s.value for f in app.metrics.registry.collect() for s in f.samples
                if s.name == name)


def _told(fake: FakeTelegram, text: str) -> int:
    return sum(text in m.body for m in fake.messages(OPS))


async def _told_once(fake: FakeTelegram, text: str, within: float = 30) -> None:
    await fake.wait_for(lambda: _told(fake, text) > 0, within, repr(text))


@pytest.mark.usefixtures("quick_alerts")
async def test_a_table_whose_deadline_job_is_gone_is_told_stuck_then_resolved(
        fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(OPS, "Ops")
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        await flow.lobby(6)
        await flow.deal()
        await flow.start("/night", Stage.NIGHT)
        await flow.delivered()
        game = flow.game_id
        games = flow.games
        for job in app.container.scheduler.get_jobs():  # nobody will close this night now
            if job.id.startswith(games.timekeeper.key(flow.table, "")):
                app.container.scheduler.remove_job(job.id)
        await _told_once(fake, f"Game #{game} is stuck")
        await _more_ticks(app)
        await wait_until(lambda: _gauge(app, "mafia_games_overdue") == 1, 10, "the gauge")
        await flow.host("/extend 60")  # the host moves it on: its deadline is ahead again
        await _told_once(fake, f"game #{game} is no longer stuck")
        await _more_ticks(app)
        await wait_until(lambda: _gauge(app, "mafia_games_overdue") == 0, 10, "the gauge")
        assert _told(fake, f"Game #{game} is stuck") == 1
        assert _told(fake, f"game #{game} is no longer stuck") == 1


@pytest.mark.usefixtures("quick_alerts")
async def test_a_run_of_429s_is_told_and_resolved(fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(OPS, "Ops")
    users = [fake.user(520 + i, f"U{i}", language_code="en") for i in range(6)]
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en") as app:
        fake.fail_next(6, status=429, retry_after=1, methods={"sendMessage"})
        for user in users:
            await fake.send(user, "/help")
        for user in users:  # each answered once its retry_after passed
            await fake.next_message(user.id, timeout=20)
        await _told_once(fake, "Telegram answers 429")
        await _told_once(fake, "no more 429s")  # a quiet window later
        await _more_ticks(app)
        assert _told(fake, "Telegram answers 429") == 1
        assert _told(fake, "no more 429s") == 1
        assert Metrics.total(app.metrics.requests, outcome="retry_after") == 6


@pytest.mark.usefixtures("quick_alerts")
async def test_updates_skipped_are_told_once_and_resolved_when_quiet(
        fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(OPS, "Ops")
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en") as app:
        for _ in range(3):
            await fake.push_raw({"edited_message": 5})
        await _told_once(fake, "Updates the bot could not read")
        await _told_once(fake, "no update skipped for ten minutes")
        await _more_ticks(app)
        assert _told(fake, "Updates the bot could not read") == 1
        assert app.container.update_reader.skipped == 3


@pytest.mark.usefixtures("quick_alerts")
async def test_the_database_down_is_told_and_resolved(fake: FakeTelegram, tmp_path: Path,
                                                      pg: Cluster) -> None:
    """The test's PostgreSQL stopped for a few seconds under a running bot."""
    fake.group(OPS, "Ops")
    url = await pg.new_database()
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en",
                       database_url=url) as app:
        await wait_until(lambda: app.sharing is not None
                         and ProcessRole.SENDER in app.sharing.conn.roles, 15, "the sender")
        await asyncio.to_thread(pg.stop, "fast")
        try:
            await _told_once(fake, "The database does not answer")
        finally:
            await asyncio.to_thread(pg.start)
        await _told_once(fake, "the database answers again")
        await _more_ticks(app)
        assert _told(fake, "The database does not answer") == 1
        assert _told(fake, "the database answers again") == 1
        assert Metrics.total(app.metrics.db_unavailable) >= 1.0


@pytest.mark.usefixtures("quick_alerts")
async def test_two_processes_tell_an_incident_once(fake: FakeTelegram, tmp_path: Path,
                                                   pg: Cluster,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Both see the outbox behind (one database); only the sender's process tells it."""
    monkeypatch.setattr(bot.services.alerts, "OUTBOX_LATE_S", 0.5)
    fake.group(OPS, "Ops")
    fake.user(501, "Ann", language_code="en")
    url = await pg.new_database()
    async with running(fake, tmp_path / "a", ops_chat_id=OPS, default_locale="en",
                       database_url=url) as first, \
            running(fake, tmp_path / "b", ops_chat_id=OPS, default_locale="en",
                    database_url=url) as second:
        apps = (first, second)
        await wait_until(lambda: all(a.sharing is not None and a.sharing.sessions
                                     and len(a.sharing.sessions) == 2 for a in apps), 15,
                         "both joined")
        delivery = first.services.delivery
        assert isinstance(delivery, Delivery)
        fake.fail_next(1, status=429, retry_after=2, methods={"sendMessage"})
        await delivery.enqueue([Queued(501, SEND, {"text": "late news"})])
        await _told_once(fake, "outbox is behind")
        await _told_once(fake, "outbox caught up")
        for app in apps:
            await _more_ticks(app)
        assert _told(fake, "outbox is behind") == 1
        assert _told(fake, "outbox caught up") == 1


@pytest.mark.xdist_group("bot_forks")
@pytest.mark.usefixtures("quick_alerts")
async def test_a_process_killed_is_told_once_with_who_took_over(
        fake: FakeTelegram, tmp_path: Path, pg: Cluster) -> None:
    """``python -m bot`` (forked) holds every role and the club with a lobby; it is killed
    with SIGKILL; the other process takes it all over and tells it once: which process was
    lost, which took over what, how long the restore took."""
    from tests.game.test_kill9 import HOST, db_env, fork

    url = await pg.new_database()
    db = await Database.open(url)
    try:
        await db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(db, CLUB)  # its games count
    finally:
        await db.close()
    fake.group(CLUB, "Club")
    fake.group(OPS, "Ops")
    fake.user(HOST, "Host", language_code="en")
    victim = await fork(tmp_path, fake, tmp_path / "victim.log", **db_env(url))
    try:
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: any(m.buttons() for m in fake.messages(CLUB)), 60,
                            "the lobby, by the first process")
        async with running(fake, tmp_path / "survivor", ops_chat_id=OPS, default_locale="en",
                           database_url=url) as survivor:
            sharing = survivor.sharing
            assert sharing is not None
            await wait_until(lambda: len(sharing.sessions) == 2, 15, "both joined")
            [lost] = sharing.sessions - {sharing.conn.pid}
            assert not sharing.held and not sharing.conn.roles  # the first one holds it all
            victim.send_signal(signal.SIGKILL)
            await victim.wait()
            await _told_once(fake, f"Process {lost} was lost")
            await wait_until(lambda: CLUB in sharing.held and len(sharing.conn.roles) == 3, 15,
                             "everything taken over")
            await _more_ticks(survivor)
            [told] = [m.body for m in fake.messages(OPS) if "was lost" in m.body]
            assert f"process {sharing.conn.pid} took over the roles (" in told
            for role in ("receives the updates", "sends the messages", "runs the expiry"):
                assert role in told
            assert "clubs: 1" in told and "restored in 0:00:" in told
            assert Metrics.total(survivor.metrics.takeovers, what="club") == 1
    finally:
        if victim.returncode is None:
            victim.kill()
            await victim.wait()

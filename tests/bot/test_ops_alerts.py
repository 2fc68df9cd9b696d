"""The operators' chat (OPS_CHAT_ID) gets one post when an incident begins and one "resolved"
line when it ends, never a post per check (bot/services/alerts.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.metrics
import bot.services.alerts
from bot.delivery.worker import Delivery
from bot.services.alerts import OpsAlerts, lasted
from storage.repos.outbox import SEND, Queued
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import running, wait_until
from views.i18n import Translator

OPS = -100777


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
    assert any("Game №12 is stuck" in p and "21:04" in p for p in posts)
    assert any("database does not answer, since 21:05" in p for p in posts)
    del active["stuck:12"]
    await alerts.tick()
    assert posts[-1] == "✅ Resolved: game №12 is no longer stuck (it lasted 0:00:50)."
    await alerts.tick()
    assert len(posts) == 3  # the database's incident still open, not told again
    assert lasted(3725) == "1:02:05"


async def test_an_outbox_falling_behind_is_told_and_resolved(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.metrics, "SAMPLE_EVERY_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "TICK_S", 0.05)
    monkeypatch.setattr(bot.services.alerts, "OUTBOX_LATE_S", 0.5)
    fake.group(OPS, "Ops")
    fake.user(501, "Ann", language_code="en")
    async with running(fake, tmp_path, ops_chat_id=OPS, default_locale="en") as app:
        delivery = app.services.extra["delivery"]
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

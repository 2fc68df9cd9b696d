"""Prometheus' /metrics on METRICS_PORT (bot/metrics.py) counts what really happened, compared
with what the fake Bot API saw; LOG_FORMAT=json writes one object a line naming the update; an
admin's /status says how the bot is."""

from __future__ import annotations

import io
import json
import logging
from collections import Counter
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.logs import JsonFormatter, bind, setup_logging, unbind
from bot.metrics import Metrics
from tests.bot.conftest import ADMIN_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import Flow, free_port, running, wait_until


async def _scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{port}/metrics") as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = await answer.text()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def _value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
           **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_the_counters_count_what_happened(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    async with running(fake, tmp_path, metrics_port=port, default_locale="en") as app:
        users = [fake.user(700 + i, f"P{i}", language_code="en") for i in range(3)]
        for user in users:
            await fake.send(user, "/help")
        for user in users:
            await fake.next_message(user.id)
        fake.fail_next(1, status=429, retry_after=1, methods={"sendMessage"})
        await fake.send(users[0], "/help")
        await fake.next_message(users[0].id)
        await wait_until(lambda: Metrics.total(app.metrics.updates) >= 4, 10, "4 updates")
        found = await _scrape(port)
        assert _value(found, "mafia_updates_total", kind="message", outcome="handled") == 4
        assert _value(found, "mafia_update_seconds_count") == 4
        sent = sum(1 for method, _ in fake.calls if method == "sendMessage")
        assert _value(found, "mafia_telegram_requests_total", method="sendMessage",
                      outcome="ok") == sent - 1  # the one refused with a 429
        assert _value(found, "mafia_telegram_requests_total", method="sendMessage",
                      outcome="retry_after") == 1
        for gauge in ("mafia_outbox_pending", "mafia_outbox_oldest_seconds",
                      "mafia_games_running", "mafia_database_unavailable_seconds_total",
                      "process_resident_memory_bytes"):
            assert any(name == gauge for name, _ in found), gauge
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{port}/nothing") as other:
            assert other.status == 404
        runner = app.container.observability.runner
        assert runner is not None  # loopback by default (METRICS_HOST)
        assert [host for host, *_ in runner.addresses] == ["127.0.0.1"]


def _gauge(metrics: Metrics, name: str) -> float:
    return next(s.value for f in metrics.registry.collect() for s in f.samples if s.name == name)


async def test_the_counters_after_a_whole_game(fake: FakeTelegram, tmp_path: Path) -> None:
    """A whole game over the fake Bot API, with a few 429s on the way: /metrics counts every
    update the fake handed over (by kind) and every request it answered (by method and
    outcome), no more and no fewer."""
    port = free_port()
    async with running(fake, tmp_path, metrics_port=port, default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        await flow.lobby(6)
        await wait_until(lambda: _gauge(app.metrics, "mafia_games_running") == 1, 15,
                         "the open game sampled")
        fake.fail_next(3, status=429, retry_after=1, methods={"sendMessage"})
        await flow.deal()
        await flow.play_to_end()
        await flow.delivered()
        await fake.settled()
        delivered = {u: fake.sent_updates[u] for u in fake.delivered_at}
        await wait_until(lambda: Metrics.total(app.metrics.updates) == len(delivered), 15,
                         "every update counted")
        await wait_until(lambda: _gauge(app.metrics, "mafia_games_running") == 0
                         and _gauge(app.metrics, "mafia_outbox_pending") == 0, 15,
                         "the game's end sampled")
        found = await _scrape(port)

    kinds = Counter(next(k for k in update if k != "update_id") for update in delivered.values())
    counted: Counter[str] = Counter()
    for (name, labels), value in found.items():
        if name == "mafia_updates_total":
            counted[dict(labels)["kind"]] += int(value)
    assert counted == kinds and kinds["callback_query"] > 20
    assert _value(found, "mafia_update_seconds_count") == len(delivered)
    assert _value(found, "mafia_updates_total", kind="message", outcome="error") == 0

    def outcome(status: int) -> str:
        return "ok" if status == 200 else "retry_after" if status == 429 else "error"

    answered = Counter((r.method, outcome(r.status)) for r in fake.log)
    requests = {(dict(labels)["method"], dict(labels)["outcome"]): int(value)
                for (name, labels), value in found.items()
                if name == "mafia_telegram_requests_total"
                and dict(labels)["method"] != "getUpdates"}  # (the fake keeps no log of them)
    assert requests == dict(answered)
    assert answered[("sendMessage", "retry_after")] == 3
    assert answered[("answerCallbackQuery", "ok")] > 20
    assert _value(found, "mafia_games_running") == 0


def test_json_logs_name_the_update() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    kept, level = list(root.handlers), root.level
    setup_logging(stream=stream, log_format="json")
    try:
        token = bind(update_id=42, club=-100500)
        try:
            logging.getLogger("bot.test").info("handled", extra={"game_id": 7})
        finally:
            unbind(token)
        logging.getLogger("bot.test").warning("after ünicode \"quoted\"")
    finally:
        root.handlers[:], root.level = kept, level
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert (first["msg"], first["level"], first["logger"]) == ("handled", "INFO", "bot.test")
    assert (first["update_id"], first["club"], first["game_id"]) == (42, -100500, 7)
    assert second["msg"] == "after ünicode \"quoted\"" and "update_id" not in second


async def test_json_logs_name_the_game_of_a_step(fake: FakeTelegram, tmp_path: Path) -> None:
    """A line logged inside a game's step (a press, a command, a timer) names the game and
    its club."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logging.getLogger("bot.test").addHandler(handler)
    try:
        async with running(fake, tmp_path, default_locale="en") as app:
            flow = Flow(fake, app, lang="en")
            await flow.lobby(1)
            async with flow.games.steps.lock(flow.game_id):
                logging.getLogger("bot.test").warning("inside a step")
            logging.getLogger("bot.test").warning("after it")
    finally:
        logging.getLogger("bot.test").removeHandler(handler)
    inside, after = (json.loads(line) for line in stream.getvalue().splitlines())
    assert (inside["game_id"], inside["club"]) == (flow.game_id, flow.club)
    assert "game_id" not in after and "club" not in after


async def test_status_for_an_admin_only(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path, default_locale="en"):
        admin = fake.user(ADMIN_ID, "Admin", language_code="en")
        other = fake.user(701, "Player", language_code="en")
        await fake.send(other, "/status")
        refused = await fake.next_message(other.id)
        assert "Status" not in refused.body and "admins" in refused.body
        await fake.send(admin, "/status")
        answer = (await fake.next_message(ADMIN_ID)).body
        assert answer.startswith("<b>Status</b> · version ")
        assert "One process (SQLite)." in answer
        assert "Open games: 0. In the last minute: updates 1," in answer  # the refused one
        assert "Outbox:" in answer

"""No update can stop the bot: one that aiogram cannot validate (a ``channel_post`` without its
``message_id``, as a Bot API emulator sent) or of a kind no handler takes is skipped, logged
with its update_id and its JSON cut short, and counted; the offset moves past it and the good
updates of its batch are handled, in long polling (bot/telegram/polling.py; on PostgreSQL the
network's poller, bot/cluster/sharing.py) and through the webhook (bot/telegram/webhook.py,
bot/cluster/shared_run.py: a 200 so that Telegram does not send it again for ever). A private
message without ``from`` is ignored."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import App
from bot.metrics import Metrics
from bot.telegram.updates import MAX_SHOWN
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import WEBHOOK_SECRET, start_app, stop_app, wait_until
from tests.pg_cluster import Cluster

REPLY_WAIT = 10.0  # today's code never answers: fail in seconds, not the fake's 20


def _channel_post_without_message_id() -> dict[str, Any]:
    return {"channel_post": {"date": int(time.time()),
                             "chat": {"id": -100500, "type": "channel", "title": "News"},
                             "text": "hello"}}


def _start(fake: FakeTelegram, user_id: int, name: str) -> dict[str, Any]:
    fake.user(user_id, name, language_code="en")
    return {"message": {
        "message_id": 1, "date": int(time.time()),
        "chat": {"id": user_id, "type": "private", "first_name": name},
        "from": {"id": user_id, "is_bot": False, "first_name": name, "language_code": "en"},
        "text": "/start", "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}


async def _push_batch(fake: FakeTelegram, *updates: dict[str, Any]) -> list[int]:
    """The updates queued at once (no await yields between them: one getUpdates batch)."""
    for update in updates:
        await fake.push_raw(update)
    return [update["update_id"] for update in updates]


def _skipped_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "update skipped"]


def _malformed() -> list[tuple[str, str, dict[str, Any]]]:
    """(why, what the log's reason says, the update): what a Bot API emulator, or a Telegram
    ahead of aiogram, may send."""
    now = int(time.time())
    private = {"id": 310, "type": "private", "first_name": "X"}
    return [
        ("malformed", "channel_post.message_id", _channel_post_without_message_id()),
        ("malformed", "message.chat", {"message": {"message_id": 1, "date": now,
                                                    "text": "no chat"}}),
        ("malformed", "edited_message", {"edited_message": 5}),
        ("malformed", "message.date", {"message": {"message_id": 2, "chat": private,
                                                    "text": "x" * 5000}}),
        ("no_handler", "shiny_new_kind", {"shiny_new_kind": {"id": 1, "text": "new"}}),
        ("no_handler", "channel_post", {"channel_post": {
            "message_id": 3, "date": now, "chat": {"id": -100500, "type": "channel"},
            "text": "a whole channel post"}}),
    ]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_each_kind_of_unreadable_update_is_skipped_and_the_next_answered(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        request: pytest.FixtureRequest, mode: str, backend: str) -> None:
    """Each malformed update, then a normal one: the normal one is answered, the malformed one
    logged once (its update_id, why, the reason, its JSON cut short), counted by reason."""
    caplog.set_level(logging.INFO)
    overrides: dict[str, Any] = {}
    if backend == "postgresql":
        pg: Cluster = request.getfixturevalue("pg")
        overrides["database_url"] = await pg.new_database()
    app, task = await start_app(fake, tmp_path, mode=mode, default_locale="en", **overrides)
    try:
        if mode == "webhook":
            await fake.wait_call("setWebhook")
        cases = _malformed()
        ids = []
        for i, (_, _, bad) in enumerate(cases):
            [bad_id, _] = await _push_batch(fake, bad, _start(fake, 311 + i, f"U{i}"))
            ids.append(bad_id)
            assert f"U{i}" in (await fake.next_message(311 + i, timeout=REPLY_WAIT)).body
        await wait_until(lambda: len(_skipped_lines(caplog)) == len(cases), 10, "all logged")
        lines = {r.__dict__["update_id"]: r.__dict__ for r in _skipped_lines(caplog)}
        assert sorted(lines) == sorted(ids)
        for update_id, (why, said, bad) in zip(ids, cases, strict=True):
            line = lines[update_id]
            assert line["why"] == why and said in line["reason"], line
            sent = json.dumps(bad, ensure_ascii=False)  # (with the update_id the fake gave it)
            assert line["update"].startswith(sent[:MAX_SHOWN])
            assert len(line["update"]) <= MAX_SHOWN + 1  # the 5,000 characters' text cut short
        assert app.container.update_reader.skipped == len(cases)
        for why in ("malformed", "no_handler"):
            assert Metrics.total(app.metrics.skipped, reason=why) == sum(
                w == why for w, _, _ in cases)
        if mode == "webhook":
            assert set(fake.webhook_statuses) == {200}
        assert fake.pending_updates() == 0
        assert not [r for r in caplog.records if r.exc_info]
    finally:
        await stop_app(app, task)


@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_a_malformed_update_is_skipped_and_the_good_ones_are_answered(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        mode: str) -> None:
    caplog.set_level(logging.INFO)
    app, task = await start_app(fake, tmp_path, mode=mode)
    try:
        if mode == "webhook":
            await fake.wait_call("setWebhook")
        first, bad, second = await _push_batch(
            fake, _start(fake, 301, "Ann"), _channel_post_without_message_id(),
            _start(fake, 302, "Bob"))
        assert "Ann" in (await fake.next_message(301, timeout=REPLY_WAIT)).body
        assert "Bob" in (await fake.next_message(302, timeout=REPLY_WAIT)).body
        if mode == "polling":  # the three came in one getUpdates
            assert fake.delivered_at[first] == fake.delivered_at[bad] \
                == fake.delivered_at[second]
        else:  # each POST answered 200: none sent again
            await wait_until(lambda: len(fake.webhook_statuses) >= 3, 10, "three POSTs")
            assert fake.webhook_statuses == [200, 200, 200]
        # and the bot keeps answering
        await fake.send(fake.user(303, "Cid", language_code="en"), "/start")
        assert "Cid" in (await fake.next_message(303, timeout=REPLY_WAIT)).body
        assert fake.pending_updates() == 0
        assert app.container.update_reader.skipped == 1
        [line] = _skipped_lines(caplog)
        assert line.__dict__["update_id"] == bad
        assert line.__dict__["why"] == "malformed"
        assert "channel_post.message_id" in line.__dict__["reason"]
        assert "Field required" in line.__dict__["reason"]
        assert not [r for r in caplog.records if "Failed to fetch updates" in r.getMessage()]
    finally:
        await stop_app(app, task)


async def test_a_batch_of_malformed_updates_alone_is_confirmed(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """A batch with nothing good in it (the offset must still move past it)."""
    app, task = await start_app(fake, tmp_path)
    try:
        await _push_batch(fake, _channel_post_without_message_id(),
                          {"message": {"text": "no chat, no id"}}, {"edited_message": 5})
        await wait_until(lambda: app.container.update_reader.skipped == 3, 10, "three skipped")
        await fake.send(fake.user(304, "Dan", language_code="en"), "/start")
        assert "Dan" in (await fake.next_message(304, timeout=REPLY_WAIT)).body
        assert app.container.update_reader.skipped == 3
    finally:
        await stop_app(app, task)


async def test_the_webhook_answers_200_to_a_body_it_cannot_read(
        fake: FakeTelegram, tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path, mode="webhook")
    try:
        url = (await fake.wait_call("setWebhook"))["url"]
        headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
        async with aiohttp.ClientSession() as session:
            for body in (b"not json", b"\xff\xfe", b"[1, 2]", b"null"):
                async with session.post(url, data=body, headers=headers) as resp:
                    assert resp.status == 200, body
            async with session.post(url, json={"update_id": 1},
                                    headers={"X-Telegram-Bot-Api-Secret-Token": "wröng"}) as resp:
                assert resp.status == 401  # a secret that is not ASCII: refused, not a 500
        assert app.container.update_reader.skipped == 4
        await fake.send(fake.user(305, "Eve", language_code="en"), "/start")
        assert "Eve" in (await fake.next_message(305, timeout=REPLY_WAIT)).body
    finally:
        await stop_app(app, task)


async def test_a_private_message_without_from_is_ignored(
        app: App, fake: FakeTelegram, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    fake.user(306, "Fay", language_code="en")
    update = _start(fake, 306, "Fay")
    del update["message"]["from"]
    [update_id] = await _push_batch(fake, update)
    await wait_until(lambda: any(f"Update id={update_id} is" in r.getMessage()
                                 for r in caplog.records), 10, "the update handled")
    await fake.send(306, "/start")  # the same chat, now with its sender
    assert "Fay" in (await fake.next_message(306, timeout=REPLY_WAIT)).body
    await fake.settled()
    await asyncio.sleep(0.1)
    assert len(fake.messages(306)) == 1  # nothing said to the message without a sender
    assert not [r for r in caplog.records if r.exc_info or "failed" in r.getMessage()]


def test_the_reader_reads_each_update_alone() -> None:
    from bot.telegram.updates import UpdateReader, next_offset

    reader = UpdateReader(kinds=["message"])
    assert reader.read({"update_id": 7, "message": {
        "message_id": 1, "date": 1, "chat": {"id": 5, "type": "private"}}},
        bot=None) is not None  # type: ignore[arg-type]
    assert reader.read({"update_id": 8, **_channel_post_without_message_id()},
                       bot=None) is None  # type: ignore[arg-type]
    assert reader.read("junk", bot=None) is None  # type: ignore[arg-type]
    assert reader.read({"update_id": 9}, bot=None) is None  # type: ignore[arg-type]  # no kind
    assert reader.skipped == 3
    assert next_offset([{"update_id": 8}, "junk", {"update_id": 9}], None) == 10
    assert next_offset([{"update_id": True}, "junk"], 5) == 5
    assert next_offset([], 5) == 5


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_webhook_secret_is_compared_in_constant_time_on_both_paths(
        fake: FakeTelegram, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """One process (bot/telegram/webhook.py) and several (bot/cluster/shared_run.py) check the
    header with ``secrets.compare_digest``: a wrong, a non-ASCII and a missing secret are
    refused with 401, the right one takes the update."""
    import secrets

    compared: list[tuple[bytes, bytes]] = []
    real = secrets.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(secrets, "compare_digest", spy)
    overrides: dict[str, Any] = {}
    if backend == "postgresql":
        pg: Cluster = request.getfixturevalue("pg")
        overrides["database_url"] = await pg.new_database()
    app, task = await start_app(fake, tmp_path, mode="webhook", default_locale="en",
                                **overrides)
    try:
        url = (await fake.wait_call("setWebhook"))["url"]
        async with aiohttp.ClientSession() as session:
            for given in ({"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET + "x"},
                          {"X-Telegram-Bot-Api-Secret-Token": "wröng"}, {}):
                async with session.post(url, json={"update_id": 1}, headers=given) as resp:
                    assert resp.status == 401, given
        assert len(compared) == 3
        assert all(b == WEBHOOK_SECRET.encode() for _, b in compared)
        assert fake.webhook_statuses == []  # (the fake's own POSTs: none yet)
        await fake.send(fake.user(307, "Gus", language_code="en"), "/start")
        assert "Gus" in (await fake.next_message(307, timeout=REPLY_WAIT)).body
        assert len(compared) == 4 and app.container.update_reader.skipped == 0
    finally:
        await stop_app(app, task)


# A number typed where the bot reads one: "²" passes str.isdigit and fails int, "٣" passes
# int, a 4,000-digit word would reach the engine and the database.
HOSTILE_NUMBERS = ("²", "٣", "3_0", "1" * 4000)


async def test_a_number_that_is_no_number_gets_the_usage_not_a_traceback(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The host's typed commands in the club chat, each with a hostile number: the command's
    usage comes back, nothing is logged as a failure, nothing changes at the table."""
    from tests.game.flow import CLUB, HOST, Flow

    caplog.set_level(logging.INFO)
    app, task = await start_app(fake, tmp_path, default_locale="en")
    try:
        flow = Flow(fake, app, "en")
        await flow.lobby(4)
        seats = dict(flow.table.seats)
        for number in HOSTILE_NUMBERS:
            for typed, usage in ((f"/seat Player1 {number}", "/seat NICK NUMBER"),
                                 (f"/tech {number}", "/tech SEAT"),
                                 (f"/foul {number}", "/foul SEAT"),
                                 (f"/unfoul {number}", "/unfoul [NUMBER]"),
                                 (f"/speak {number}", "/speak SEAT"),
                                 (f"/speak 1 {number}", "/speak SEAT"),
                                 (f"/status {number}", "only a table's number"),
                                 (f"/extend {number}", "<code>/extend 30</code>"),
                                 (f"/night {number}", "only a table's number")):
                before = {chat: len(fake.messages(chat)) for chat in (CLUB, HOST)}
                await flow.host(typed)

                def answered(usage: str = usage, before: dict[int, int] = before) -> bool:
                    return any(usage in m.body for chat in (CLUB, HOST)
                               for m in fake.messages(chat)[before[chat]:])
                await fake.wait_for(answered, REPLY_WAIT, f"the usage after {typed[:20]}")
        assert dict(flow.table.seats) == seats
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    finally:
        await stop_app(app, task)


async def test_the_reader_takes_the_kinds_the_dispatcher_handles(app: App) -> None:
    """The reader is made before the dispatcher, from its routers (bot/wiring.py): it takes
    exactly the kinds the dispatcher asks Telegram for."""
    kinds = app.container.update_reader.kinds
    assert kinds is not None and "message" in kinds and "callback_query" in kinds
    assert list(kinds) == app.dispatcher.resolve_used_update_types()

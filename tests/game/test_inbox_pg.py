"""The inbox on PostgreSQL (bot/cluster/receiving.py) over HTTP: a webhook's update delivered twice
is handled once; an update a dead process received and did not handle is handled at the next start,
one it handled is not."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from storage.db import Database
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import WEBHOOK_SECRET, start_app, stop_app, wait_until
from tests.pg_cluster import Cluster


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def start_update(update_id: int, user_id: int, name: str) -> dict[str, Any]:
    user = {"id": user_id, "is_bot": False, "first_name": name, "language_code": "en"}
    return {"update_id": update_id, "message": {
        "message_id": 1, "date": int(time.time()), "chat": {"id": user_id, "type": "private",
                                                            "first_name": name},
        "from": user, "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}


async def test_a_webhook_update_delivered_twice_is_handled_once(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    url = await pg.new_database()
    app, task = await start_app(fake, tmp_path, mode="webhook", database_url=url)
    try:
        fake.user(1, "Ann", language_code="en")
        await fake.send(1, "/start")
        await fake.next_message(1, timeout=20)
        update_id = max(fake.sent_updates)
        await wait_until(lambda: update_id in fake.delivered_at, 10, "the update delivered")
        await asyncio.sleep(1)  # the handler's other messages, if any
        seen = len(fake.messages(1))
        db = app.services.db
        await wait_until_handled(db, update_id)
        # Telegram posts it again (it did not see our 200 in time)
        hook = app.settings.webhook_url
        assert hook is not None
        async with aiohttp.ClientSession() as session, session.post(
                hook, json=fake.sent_updates[update_id],
                headers={"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}) as resp:
            assert resp.status == 200
        await asyncio.sleep(1.5)
        assert len(fake.messages(1)) == seen  # not answered twice
    finally:
        await stop_app(app, task)


async def wait_until_handled(db: Database, update_id: int) -> None:
    for _ in range(200):
        rows = await db.query("SELECT handled FROM inbox WHERE update_id = ?", (update_id,))
        if rows and rows[0][0] is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"update {update_id} never marked handled")


async def test_updates_left_unhandled_by_a_dead_process_are_handled_at_start(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    url = await pg.new_database()
    db = await Database.open(url)
    try:
        # the dead process wrote both; it had handled Bob's, not Eve's
        await db.inbox.add(900_001, json.dumps(start_update(900_001, 5, "Eve")), time.time())
        await db.inbox.add(900_002, json.dumps(start_update(900_002, 6, "Bob")), time.time())
        await db.inbox.handled(900_002, time.time())
    finally:
        await db.close()
    fake.user(5, "Eve", language_code="en")
    fake.user(6, "Bob", language_code="en")
    app, task = await start_app(fake, tmp_path, database_url=url)
    try:
        reply = await fake.next_message(5, timeout=20)
        assert "Eve" in (reply.text or "")
        await wait_until_handled(app.services.db, 900_001)
        assert await app.services.db.inbox.pending() == []
        await asyncio.sleep(1)
        assert fake.messages(6) == []  # handled before the death: not again
    finally:
        await stop_app(app, task)

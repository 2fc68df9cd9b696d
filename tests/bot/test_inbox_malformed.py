"""Several processes (bot/cluster/receiving.py): an inbox row aiogram cannot read is marked
handled once claimed (logged and counted), never claimed and failed again for ever; a good row
next to it is handled as usual."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from aiogram import Bot, Router
from aiogram.types import Message

from bot.cluster.receiving import InboxDispatcher
from bot.telegram.updates import UpdateReader
from storage.db import Database


def _message(update_id: int, text: str) -> dict[str, Any]:
    return {"update_id": update_id, "message": {
        "message_id": 1, "date": int(time.time()), "text": text,
        "chat": {"id": 5, "type": "private", "first_name": "Ann"},
        "from": {"id": 5, "is_bot": False, "first_name": "Ann"}}}


async def test_a_malformed_claimed_update_is_marked_handled(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "club.sqlite3")
    bot = Bot("42:TEST")
    try:
        seen: list[str] = []
        router = Router()

        @router.message()
        async def echo(message: Message) -> None:
            seen.append(message.text or "")

        reader = UpdateReader()
        dispatcher = InboxDispatcher(db.inbox, reader=reader, wall=lambda: 9.0)
        dispatcher.include_router(router)
        bad: dict[str, Any] = {"update_id": 7, "channel_post": {
            "date": 1, "chat": {"id": -100500, "type": "channel"}, "text": "no message_id"}}
        good = _message(8, "hello")
        for update in (bad, good):
            assert await db.inbox.add(update["update_id"], json.dumps(update), now=1.0)
        for update in (bad, good):
            await dispatcher.handle_claimed(bot, update["update_id"], update)
        assert seen == ["hello"]
        assert reader.skipped == 1
        assert await db.inbox.pending() == []  # both marked handled: neither claimed again
    finally:
        await bot.session.close()
        await db.close()

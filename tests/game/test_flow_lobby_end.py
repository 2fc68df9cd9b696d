"""Lobbies that end, over HTTP: the host leaves the club chat (the ``chat_member`` update an
administrator bot gets, or the group's "left the group" message) and the lobby they host
closes, its seats free (another member leaving: tests/game/test_service_lobby_expiry.py)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.models import STATUS_ABORTED, STATUS_LOBBY
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, start_app, stop_app, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def left(fake: FakeTelegram, uid: int) -> dict[str, Any]:
    """``chat_member``: ``uid`` left the club chat."""
    user = {"id": uid, "is_bot": False, "first_name": f"U{uid}"}
    return {"chat_member": {
        "chat": fake.chats[CLUB].as_dict(), "from": user, "date": int(time.time()),
        "old_chat_member": {"status": "member", "user": user},
        "new_chat_member": {"status": "left", "user": user}}}


@pytest.mark.parametrize("how", ["chat_member", "message"])
async def test_the_hosts_leaving_closes_the_lobby(fake: FakeTelegram, tmp_path: Path,
                                                  how: str) -> None:
    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        await flow.lobby(6)
        db = app.services.db
        game_id = flow.game_id
        assert (await db.games.get(game_id)).status == STATUS_LOBBY
        if how == "chat_member":
            await fake.push_raw(left(fake, HOST))
        else:
            user = {"id": HOST, "is_bot": False, "first_name": "Host"}
            await fake.push_raw({"message": {
                "message_id": 10_000, "date": int(time.time()),
                "chat": fake.chats[CLUB].as_dict(), "from": user, "left_chat_member": user}})
        await wait_until(lambda: game_id not in flow.games.tables, 10, "the lobby closed")
        assert (await db.games.get(game_id)).status == STATUS_ABORTED
        await fake.wait_for(lambda: any("ведущий вышел из чата" in m.body
                                        for m in fake.messages(CLUB)), 10, "the lobby post")
    finally:
        await stop_app(app, task)

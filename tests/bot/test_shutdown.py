"""The handlers in flight at a stop (bot/telegram/shutdown.py): counted by the dispatcher's
outermost middleware, not read from aiogram's private task set; waited for (bounded), the late ones
cancelled; in long polling (tests/bot/test_updates_in_flight.py) and with a webhook, whose handlers
nothing waited for before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import TelegramObject

from bot.app import create_app
from bot.telegram.shutdown import HandlersInFlight
from storage.db import Database
from tests.bot.conftest import FAST_LIMITS, FixedClock, make_settings
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import free_port, webhook_settings

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
EVENT = TelegramObject()


def _handler(release: asyncio.Event, done: list[str], name: str) -> Handler:
    async def handle(event: TelegramObject, data: dict[str, Any]) -> str:
        await release.wait()
        done.append(name)
        return name
    return handle


async def test_the_handlers_running_finish_and_the_late_are_cancelled() -> None:
    handlers = HandlersInFlight()
    quick, slow = asyncio.Event(), asyncio.Event()
    done: list[str] = []
    a = asyncio.create_task(handlers(_handler(quick, done, "a"), EVENT, {}))
    b = asyncio.create_task(handlers(_handler(slow, done, "b"), EVENT, {}))
    await asyncio.sleep(0)
    assert handlers.running() == 2
    finishing = asyncio.create_task(handlers.finish(within=0.5))
    await asyncio.sleep(0)
    quick.set()
    await asyncio.wait_for(finishing, 5)
    assert await a == "a" and done == ["a"]
    assert b.cancelled()  # still waiting after 0.5 s
    assert handlers.running() == 0
    await asyncio.wait_for(handlers.finish(within=30), 1)  # nothing running: at once


async def test_a_failing_handler_is_no_longer_counted() -> None:
    handlers = HandlersInFlight()

    async def fail(event: TelegramObject, data: dict[str, Any]) -> None:
        raise ValueError("bad update")

    with pytest.raises(ValueError, match="bad update"):
        await handlers(fail, EVENT, {})
    assert handlers.running() == 0


async def test_a_stop_from_inside_a_handler_does_not_wait_for_itself() -> None:
    handlers = HandlersInFlight()
    release = asyncio.Event()
    done: list[str] = []
    other = asyncio.create_task(handlers(_handler(release, done, "other"), EVENT, {}))

    async def stops(event: TelegramObject, data: dict[str, Any]) -> str:
        release.set()
        await handlers.finish(within=30)  # waits for the other, not for this task
        # an update fed from inside a handler runs in the same task: counted once
        return str(await handlers(_handler(release, done, "nested"), event, data))

    assert await asyncio.wait_for(handlers(stops, EVENT, {}), 5) == "nested"
    assert other.done() and done == ["other", "nested"]
    assert handlers.running() == 0


async def test_a_webhook_update_being_handled_at_a_stop_finishes_before_storage_closes(
        fake: FakeTelegram, tmp_path: Path, clock: FixedClock,
        caplog: pytest.LogCaptureFixture) -> None:
    application = await create_app(
        make_settings(fake, tmp_path, **webhook_settings(free_port())), limits=FAST_LIMITS,
        clock=clock)
    release, inside = asyncio.Event(), asyncio.Event()

    async def gate(handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        inside.set()
        await release.wait()
        return await handler(event, data)

    application.dispatcher.update.outer_middleware(gate)
    task = asyncio.create_task(application.run(handle_signals=False))
    try:
        await asyncio.wait_for(application.started.wait(), 10)
        user = fake.user(5200, "Late")
        await fake.send(user, "/start")
        await asyncio.wait_for(inside.wait(), 10)
        stopping = asyncio.create_task(application.stop())
        await asyncio.sleep(0.5)  # the webhook's server stopped; storage closed here before
        assert not task.done()
        release.set()
        await stopping
        await asyncio.wait_for(task, 20)
    finally:
        release.set()
        if not task.done():
            await application.stop()
            await asyncio.wait_for(task, 10)
    failed = [r for r in caplog.records if r.exc_info or "failed" in r.getMessage()]
    assert failed == []
    assert (await fake.next_message(user.id)).text  # the greeting went out before the end
    db = await Database.open(tmp_path / "mafia.sqlite3")
    try:
        assert await db.players.get(5200) is not None  # its account written
    finally:
        await db.close()

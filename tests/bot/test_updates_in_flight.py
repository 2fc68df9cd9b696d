"""Long polling handles at most ``App.updates_in_flight`` updates at once; the rest wait at
Telegram (not parsed, not in memory) and are all handled once earlier ones finish."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import TelegramObject

from bot.app import UPDATES_IN_FLIGHT, create_app
from tests.bot.conftest import FAST_LIMITS, FixedClock, make_settings
from tests.fakes.telegram_server import FakeTelegram

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


async def eventually(condition: Callable[[], bool], within: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


def test_the_default_bounds_the_lobby_burst() -> None:
    # the load benchmark's lobby burst is 2,400 presses; the bound keeps most of them at
    # Telegram, yet leaves one update in flight for each of 200 tables
    assert 0 < UPDATES_IN_FLIGHT <= 200


async def test_only_so_many_updates_are_handled_at_once(
        fake: FakeTelegram, tmp_path: Path, clock: FixedClock) -> None:
    application = await create_app(make_settings(fake, tmp_path), limits=FAST_LIMITS,
                                   clock=clock, in_flight=2, polling_timeout=1)
    release = asyncio.Event()
    inside = 0
    most = 0
    handled = 0

    async def gate(handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        nonlocal inside, most, handled
        inside += 1
        most = max(most, inside)
        try:
            await release.wait()
            return await handler(event, data)
        finally:
            inside -= 1
            handled += 1

    application.dispatcher.update.outer_middleware(gate)
    task = asyncio.create_task(application.run(handle_signals=False))
    try:
        await asyncio.wait_for(application.started.wait(), 10)
        users = [fake.user(5000 + i, f"U{i}") for i in range(5)]
        for user in users:
            await fake.send(user, "/start")
        # all five were polled; two are being handled, the other three wait
        await eventually(lambda: len(fake.delivered_at) >= 5 and inside == 2)
        await asyncio.sleep(0.3)  # room for a third to start, if the bound did not hold
        assert inside == 2
        release.set()
        await eventually(lambda: handled == 5)
        assert most == 2
        for user in users:  # none was lost: each got its greeting
            reply = await fake.next_message(user.id)
            assert reply.text
    finally:
        release.set()
        await application.stop()
        await asyncio.wait_for(task, 10)


async def test_an_update_being_handled_at_shutdown_finishes_before_storage_closes(
        fake: FakeTelegram, tmp_path: Path, clock: FixedClock,
        caplog: pytest.LogCaptureFixture) -> None:
    """Stopping while a handler runs: it finishes (its account written, its greeting sent),
    and nothing is logged as failed (storage closed under it: "handler failed", a traceback)."""
    application = await create_app(make_settings(fake, tmp_path), limits=FAST_LIMITS,
                                   clock=clock, polling_timeout=1)
    release = asyncio.Event()
    inside = asyncio.Event()

    async def gate(handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        inside.set()
        await release.wait()
        return await handler(event, data)

    application.dispatcher.update.outer_middleware(gate)
    task = asyncio.create_task(application.run(handle_signals=False))
    try:
        await asyncio.wait_for(application.started.wait(), 10)
        user = fake.user(5100, "Late")
        await fake.send(user, "/start")
        await asyncio.wait_for(inside.wait(), 10)
        stopping = asyncio.create_task(application.stop())
        await asyncio.sleep(0.5)  # polling stopped; without the wait storage closed here
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

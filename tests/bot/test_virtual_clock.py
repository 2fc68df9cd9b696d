"""The virtual clock the fault sweep runs the bot's waits on (tests/fakes/virtual_clock.py)."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError, TelegramServerError

from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import VirtualClock


async def test_a_wait_moves_the_clock_instead_of_sleeping() -> None:
    clock = VirtualClock()
    start, real = clock.monotonic(), time.monotonic()
    await clock.sleep(30)
    assert clock.monotonic() - start >= 30
    assert clock.wall() > time.time() + 29  # both readings move together
    event = asyncio.Event()
    await clock.wait(event, 10)  # nothing sets it: the 10 s pass on the clock
    assert clock.monotonic() - start >= 40
    event.set()
    before = clock.skipped
    await clock.wait(event, 10)  # already set: no time passes
    assert clock.skipped == before
    assert time.monotonic() - real < 5  # none of the 40 s was slept


async def test_a_hang_past_the_timeout_is_given_up_at_once(fake: FakeTelegram, bot: Bot) -> None:
    fake.user(1, "A")
    clock = VirtualClock()
    timeouts = clock.drive_hangs(fake, bot)
    fake.fault("sendMessage", 1, "hang", hang=30)
    real = time.monotonic()
    with pytest.raises(TelegramNetworkError, match="timeout"):
        await bot.send_message(1, "one", request_timeout=10)
    assert time.monotonic() - real < 5 and timeouts.given_up == 1
    # a timeout longer than the hang: the fake's 504 comes, 30 s later on the clock
    fake.fault("sendMessage", 2, "hang", hang=30)
    start = clock.monotonic()
    with pytest.raises(TelegramServerError):
        await bot.send_message(1, "two", request_timeout=60)
    assert clock.monotonic() - start >= 30 and timeouts.given_up == 1
    assert timeouts.unknown == 0
    assert (await bot.send_message(1, "three")).text == "three"
    assert [m.text for m in fake.messages(1)] == ["three"]

"""The sender against the fake server's 429 / 403 / 500 modes, and the limiter on a fake clock."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot

from bot.app import App, make_bot
from bot.config import Settings
from bot.delivery.rate_limit import PRUNE_EVERY
from bot.delivery.sender import Limits, RateLimiter, TelegramSender
from tests.bot.conftest import Ask
from tests.fakes.telegram_server import FakeTelegram


class FakeTime:
    """An injectable clock whose sleep only moves the clock (and yields once)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.sleeps.append(delay)
        self.now += delay
        await asyncio.sleep(0)


def _bot(url: str, token: str) -> Bot:
    settings = Settings(_env_file=None, bot_token=token, telegram_api_url=url)
    return make_bot(settings)


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    bot = _bot(fake.base_url, fake.token)
    yield bot
    await bot.session.close()


@pytest.fixture
def time_() -> FakeTime:
    return FakeTime()


def _outbox(bot: Bot, time_: FakeTime, **limits: Any) -> TelegramSender:
    return TelegramSender(bot, limits=Limits(**limits), clock=time_.clock, sleep=time_.sleep)


async def test_retry_after_waits_what_telegram_says(
    fake: FakeTelegram, bot: Bot, time_: FakeTime
) -> None:
    fake.user(1, "A")
    fake.fail_next(2, status=429, retry_after=7, methods={"sendMessage"})
    message = await _outbox(bot, time_).send_text(1, "hello")
    assert message is not None
    assert [m.text for m in fake.messages(1)] == ["hello"]
    assert time_.sleeps.count(7.0) == 2
    assert [name for name, _ in fake.calls].count("sendMessage") == 3


async def test_server_errors_are_retried_with_backoff(
    fake: FakeTelegram, bot: Bot, time_: FakeTime
) -> None:
    fake.user(1, "A")
    fake.fail_next(4, status=500, methods={"sendMessage"})
    sender = _outbox(bot, time_, backoff_start=0.5, backoff_max=2.0)
    assert await sender.send_text(1, "hi") is not None
    assert time_.sleeps == [0.5, 1.0, 2.0, 2.0]
    assert [m.text for m in fake.messages(1)] == ["hi"]


async def test_network_errors_are_retried_until_the_server_is_back(time_: FakeTime) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    fake = FakeTelegram()
    fake.user(1, "A")
    bot = _bot(f"http://127.0.0.1:{port}", fake.token)

    async def sleep_then_start(delay: float) -> None:
        await time_.sleep(delay)
        if len(time_.sleeps) == 2:
            await fake.start(port)

    sender = TelegramSender(bot, limits=Limits(), clock=time_.clock, sleep=sleep_then_start)
    try:
        assert await sender.send_text(1, "late but there") is not None
        assert [m.text for m in fake.messages(1)] == ["late but there"]
        assert len(time_.sleeps) == 2
    finally:
        await bot.session.close()
        await fake.stop()


async def test_blocked_user_runs_hooks_instead_of_raising(
    fake: FakeTelegram, bot: Bot, time_: FakeTime
) -> None:
    fake.user(5, "Gone")
    fake.block_bot(5)
    sender = _outbox(bot, time_)
    blocked: list[int] = []

    async def hook(chat_id: int) -> None:
        blocked.append(chat_id)

    async def broken_hook(chat_id: int) -> None:
        raise RuntimeError("a broken hook must not break the sender")

    sender.on_blocked(broken_hook)
    sender.on_blocked(hook)
    assert await sender.send_text(5, "anyone?") is None
    assert blocked == [5]
    assert fake.messages(5) == []


async def test_bad_requests_are_not_retried(
    fake: FakeTelegram, bot: Bot, time_: FakeTime
) -> None:
    fake.user(1, "A")
    sender = _outbox(bot, time_, chat_per_second=1000, chat_burst=1000)
    message = await sender.send_text(1, "one")
    assert message is not None
    assert await sender.edit_text(1, 999, "x") is None  # message to edit not found
    assert await sender.edit_text(1, message.message_id, "one") is None  # not modified
    edited = await sender.edit_text(1, message.message_id, "two")
    assert edited is not None and fake.messages(1)[0].text == "two"
    assert await sender.delete(1, message.message_id) is True
    assert time_.sleeps == []


async def test_order_per_chat_survives_flood_control(
    fake: FakeTelegram, bot: Bot, time_: FakeTime
) -> None:
    fake.user(1, "A")
    sender = _outbox(bot, time_, chat_per_second=1000, chat_burst=1000)
    fake.fail_next(3, status=429, retry_after=1, methods={"sendMessage"})
    for i in range(10):
        sender.post(1, f"m{i}")
    await sender.flush()
    assert [m.text for m in fake.messages(1)] == [f"m{i}" for i in range(10)]


def test_limits_are_not_changed_in_place() -> None:
    """One app's limits object may be shared with others (the tests' FAST_LIMITS is): a change
    made for one leaked into the next (a 1 s client timeout sent prompts twice under load)."""
    limits = Limits()
    with pytest.raises(dataclasses.FrozenInstanceError):
        limits.request_timeout = 1.0  # type: ignore[misc]
    assert dataclasses.replace(limits, request_timeout=1.0).request_timeout == 1.0
    assert limits.request_timeout == 20.0


async def test_limiter_per_private_chat(time_: FakeTime) -> None:
    limiter = RateLimiter(Limits(chat_per_second=1, chat_burst=3), time_.clock, time_.sleep)
    stamps = []
    for _ in range(6):
        await limiter.acquire(1)
        stamps.append(time_.now)
    assert stamps[:3] == [0, 0, 0]
    assert stamps[3:] == pytest.approx([1, 2, 3])
    await limiter.acquire(2)  # another chat is not held back
    assert time_.now == pytest.approx(3)


async def test_limiter_per_group_per_minute(time_: FakeTime) -> None:
    limits = Limits(chat_per_second=1000, chat_burst=1000, group_per_minute=20)
    limiter = RateLimiter(limits, time_.clock, time_.sleep)
    for _ in range(20):
        await limiter.acquire(-100)
    assert time_.now == 0
    await limiter.acquire(-100)
    # never more than 20 in any minute (Telegram's), with a second of margin for the trip
    assert time_.now == pytest.approx(61.0)
    for _ in range(19):
        await limiter.acquire(-100)
    assert time_.now == pytest.approx(61.0)
    await limiter.acquire(-100)
    assert time_.now == pytest.approx(122.0)
    await limiter.acquire(-200)  # another group is not held back
    assert time_.now == pytest.approx(122.0)


async def test_the_limiter_keeps_no_idle_chats_bucket(time_: FakeTime) -> None:
    """A thousand chats' buckets go once they count nothing (full again, a group's minute
    past; swept every PRUNE_EVERY seconds), and a group's minute still counting is kept:
    its budget holds across the sweep."""
    limits = Limits(global_per_second=10_000, chat_per_second=1000, chat_burst=1000,
                    group_per_minute=20)
    limiter = RateLimiter(limits, time_.clock, time_.sleep)
    for chat in range(1, 1001):
        await limiter.acquire(chat)
    for _ in range(20):
        await limiter.acquire(-100)
    assert limiter.kept() == 1002  # each chat's bucket, and the group's minute
    time_.now = PRUNE_EVERY
    await limiter.acquire(1)
    assert limiter.kept() == 2  # chat 1's new bucket, and the group's minute (61 s)
    await limiter.acquire(-100)
    assert time_.now == pytest.approx(61.0)  # the group's 20 a minute held across the sweep
    time_.now = 200.0
    await limiter.acquire(2)
    assert limiter.kept() == 1


async def test_limiter_global(time_: FakeTime) -> None:
    limiter = RateLimiter(Limits(global_per_second=30), time_.clock, time_.sleep)
    for chat in range(30):
        await limiter.acquire(chat + 1)
    assert time_.now == 0
    await limiter.acquire(99)
    assert time_.now == pytest.approx(1 / 30)


async def test_limiter_global_waiters_take_turns(time_: FakeTime) -> None:
    """300 chats at once: first come, first served, and one sleeper per token beyond the
    burst (not every waiter waking 30 times a second to find the token gone)."""
    limiter = RateLimiter(Limits(global_per_second=30), time_.clock, time_.sleep)
    done: list[tuple[int, float]] = []

    async def send(chat: int) -> None:
        await limiter.acquire(chat)
        done.append((chat, time_.now))

    await asyncio.gather(*(send(chat) for chat in range(1, 301)))
    assert [chat for chat, _ in done] == list(range(1, 301))
    assert len(time_.sleeps) == 270
    assert done[29][1] == 0
    assert done[-1][1] == pytest.approx(9.0)


async def test_limiter_urgent_requests_go_first(time_: FakeTime) -> None:
    """A game's prompts do not wait behind a flood of clean-up edits: once the burst is
    spent, every urgent request goes before the remaining non-urgent ones, in order."""
    limiter = RateLimiter(Limits(global_per_second=30), time_.clock, time_.sleep)
    done: list[str] = []

    async def send(name: str, chat: int, urgent: bool) -> None:
        await limiter.acquire(chat, urgent=urgent)
        done.append(name)

    later = [asyncio.create_task(send(f"edit{i}", 1000 + i, False)) for i in range(60)]
    await asyncio.sleep(0)
    urgent = [asyncio.create_task(send(f"prompt{i}", 2000 + i, True)) for i in range(5)]
    await asyncio.gather(*later, *urgent)
    assert done[:30] == [f"edit{i}" for i in range(30)]  # the burst, before the prompts came
    # at most the edit already waiting for its token goes first; the prompts then, in order
    prompts = [done.index(f"prompt{i}") for i in range(5)]
    assert prompts == sorted(prompts) and prompts[-1] <= 35
    assert [n for n in done if n.startswith("edit")] == [f"edit{i}" for i in range(60)]


async def test_limiter_promotes_a_waiting_chat(time_: FakeTime) -> None:
    """A chat waiting with a clean-up edit gets a prompt queued behind it: its sender moves
    up among the urgent, so the prompt does not wait behind every other chat's edits."""
    limiter = RateLimiter(Limits(global_per_second=30), time_.clock, time_.sleep)
    done: list[int] = []

    async def send(chat: int) -> None:
        await limiter.acquire(chat, urgent=False)
        done.append(chat)

    tasks = [asyncio.create_task(send(chat)) for chat in range(1, 61)]
    await asyncio.sleep(0)
    limiter.promote(50)
    limiter.promote(2)  # already through (the burst): nothing to do
    await asyncio.gather(*tasks)
    assert done.index(50) <= 31
    assert [c for c in done if c != 50] == [c for c in range(1, 61) if c != 50]


async def test_limiter_cancelled_waiter_leaves_the_queue(time_: FakeTime) -> None:
    limiter = RateLimiter(Limits(global_per_second=30), time_.clock, time_.sleep)
    for chat in range(30):
        await limiter.acquire(chat + 1)
    waiting = asyncio.create_task(limiter.acquire(100))
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    await asyncio.wait_for(limiter.acquire(101), 1)  # not stuck behind the cancelled one


async def test_app_marks_player_who_blocked_the_bot(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    fake.user(80, "Quiet", language_code="en")
    await ask(80, "/start")
    fake.block_bot(80)
    await fake.send(80, "/help")  # the bot answers, Telegram says 403
    await fake.wait_call("sendMessage")
    db = app.services.db
    for _ in range(100):
        player = await db.players.get(80)
        assert player is not None
        if player.bot_blocked:
            break
        await asyncio.sleep(0.02)
    assert player is not None and player.bot_blocked
    fake.block_bot(80, False)
    await ask(80, "/start")
    player = await db.players.get(80)
    assert player is not None and not player.bot_blocked


async def test_a_buttons_answer_waits_retry_after_on_the_real_clock(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    """A button's answer refused with a 429 is sent again after ``retry_after``: the app's
    sender sleeps it in real seconds (the fault sweep gives it a virtual clock instead)."""
    fake.user(81, "Ann", language_code="en")
    await ask(81, "/start")
    prompt = await ask(81, "/lang")
    fake.fail_next(1, status=429, retry_after=1, methods={"answerCallbackQuery"})
    query = await fake.press(81, prompt, button="Русский")
    await fake.callback_answer(query)
    answers = [r for r in fake.log if r.method == "answerCallbackQuery"]
    assert [r.status for r in answers] == [429, 200]
    assert answers[1].at - answers[0].at >= 1.0


async def test_flush_gives_up_after_its_timeout(fake: FakeTelegram, bot: Bot) -> None:
    fake.user(1, "A")
    fake.fail_next(1000, status=500, methods={"sendMessage"})
    sender = TelegramSender(bot, limits=Limits(backoff_start=0.01, backoff_max=0.01))
    sender.post(1, "stuck")
    assert await sender.flush(within=0.2) == 1
    assert fake.messages(1) == []
    assert sender._locks == {}

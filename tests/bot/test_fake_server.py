"""The fake Bot API server answers like Telegram (so flow tests mean something)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramNotFound, TelegramRetryAfter
from aiogram.methods import Close, LogOut, TelegramMethod

from bot.app import make_bot
from bot.config import Settings
from tests.fakes.telegram_server import FakeTelegram, TelegramLimits


async def test_get_me_chat_and_members(fake: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.username == "mafia_test_bot" and me.is_bot
    fake.group(-10, "Club")
    fake.user(1, "Owner")
    fake.user(2, "Admin")
    fake.user(3, "Member")
    fake.set_admins(-10, [1, 2])
    chat = await bot.get_chat(-10)
    assert chat.title == "Club" and chat.type == "supergroup"
    assert (await bot.get_chat_member(-10, 1)).status == "creator"
    assert (await bot.get_chat_member(-10, 2)).status == "administrator"
    assert (await bot.get_chat_member(-10, 3)).status == "member"
    admins = await bot.get_chat_administrators(-10)
    assert sorted(a.user.id for a in admins) == [1, 2]
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.get_chat(-99)


async def test_edit_errors_are_telegram_shaped(fake: FakeTelegram, bot: Bot) -> None:
    fake.user(1, "A")
    sent = await bot.send_message(1, "hi")
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(text="hi", chat_id=1, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text(text="x", chat_id=1, message_id=999)
    edited = await bot.edit_message_text(text="ho", chat_id=1, message_id=sent.message_id)
    assert not isinstance(edited, bool) and edited.text == "ho"
    assert fake.messages(1)[0].history == ["hi"]
    assert await bot.delete_message(1, sent.message_id)
    assert fake.messages(1)[0].deleted


async def test_unknown_method_close_and_log_out(fake: FakeTelegram, bot: Bot) -> None:
    class Frobnicate(TelegramMethod[bool]):
        __returning__ = bool
        __api_method__ = "frobnicate"

    with pytest.raises(TelegramNotFound):
        await bot(Frobnicate())
    assert await bot(Close()) is True
    assert await bot(LogOut()) is True
    url = f"{fake.base_url}/botWRONG:token/getMe"
    async with aiohttp.ClientSession() as http, http.post(url) as response:
        assert response.status == 401
        body = await response.json()
    assert body == {"ok": False, "error_code": 401, "description": "Unauthorized"}


async def test_long_polling_with_offset(fake: FakeTelegram, bot: Bot) -> None:
    assert await bot.get_updates(timeout=0) == []
    fake.user(1, "A")
    await fake.send(1, "/start")
    await fake.send(1, "hello")
    updates = await bot.get_updates(timeout=1)
    assert [u.message.text for u in updates if u.message] == ["/start", "hello"]
    assert updates[0].message is not None and updates[0].message.entities is not None
    rest = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    assert rest == [] and fake.pending_updates() == 0


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_limits_a_group_gets_20_posts_a_minute_then_429_with_retry_after() -> None:
    clock = ManualClock()
    async with FakeTelegram(limits=TelegramLimits(), clock=clock) as fake:
        fake.group(-10, "Club")
        settings = Settings(
            _env_file=None, bot_token=fake.token, telegram_api_url=fake.base_url
        )
        bot = make_bot(settings)
        try:
            for i in range(20):  # a post every 1.5 s: within 1/s per chat, 20 in 30 s
                await bot.send_message(-10, f"post {i}")
                clock.now += 1.5
            with pytest.raises(TelegramRetryAfter) as error:
                await bot.send_message(-10, "post 21")
            # the first post leaves the minute's window 60 s after it was sent
            assert error.value.retry_after == 30
            assert [r.status for r in fake.log][-2:] == [200, 429]
            assert len(fake.messages(-10)) == 20
            clock.now += 30
            await bot.send_message(-10, "post 21 again")
            assert len(fake.messages(-10)) == 21
        finally:
            await bot.session.close()


async def test_limits_a_private_chat_bursts_then_1_a_second_and_30_a_second_overall() -> None:
    clock = ManualClock()
    async with FakeTelegram(limits=TelegramLimits(), clock=clock) as fake:
        for uid in range(1, 41):
            fake.user(uid, f"U{uid}")
        settings = Settings(
            _env_file=None, bot_token=fake.token, telegram_api_url=fake.base_url
        )
        bot = make_bot(settings)
        try:
            for _ in range(3):  # the burst
                await bot.send_message(1, "hi")
            with pytest.raises(TelegramRetryAfter) as error:
                await bot.send_message(1, "too soon")
            assert error.value.retry_after == 1
            await bot.answer_callback_query("q1")  # answers to buttons are not limited
            for uid in range(2, 29):  # 30 messages in this instant overall (3 + 27)
                await bot.send_message(uid, "hi")
            with pytest.raises(TelegramRetryAfter):
                await bot.send_message(29, "the 31st")
            clock.now += 1
            await bot.send_message(1, "a second later")
            await bot.send_message(29, "the 31st again")
            assert [r.status for r in fake.log].count(429) == 2
        finally:
            await bot.session.close()
        async with FakeTelegram() as unlimited:  # off by default
            assert unlimited.rate_limit is None


async def test_wait_for_wakes_on_the_bots_request_and_times_out(fake: FakeTelegram,
                                                                bot: Bot) -> None:
    fake.user(1, "A")
    waiter = asyncio.create_task(fake.wait_for(lambda: fake.messages(1), 5, "a message"))
    await asyncio.sleep(0)
    assert not waiter.done()
    await bot.send_message(1, "hi")
    await asyncio.wait_for(waiter, 1)  # woken by the request itself
    with pytest.raises(AssertionError, match=r"nothing else within 0\.05s"):
        await fake.wait_for(lambda: len(fake.messages(1)) > 1, 0.05, "nothing else")


async def test_changed_counts_requests_since_a_mark(fake: FakeTelegram, bot: Bot) -> None:
    fake.user(1, "A")
    assert not await fake.changed(0.05)  # nothing happens by itself
    mark = fake.changes
    await bot.send_message(1, "hi")  # before the wait: still seen, as it came after the mark
    assert await fake.changed(0.05, since=mark)
    later = asyncio.create_task(fake.changed(5))
    await asyncio.sleep(0)
    await fake.send(1, "/start")  # an update pushed counts too
    assert await asyncio.wait_for(later, 1)


async def test_settled_waits_for_a_request_its_client_gave_up(fake: FakeTelegram,
                                                              bot: Bot) -> None:
    fake.user(1, "A")
    fake.fault("sendMessage", 1, "hang", hang=0.3)
    sending = asyncio.create_task(bot.send_message(1, "hi"))
    await fake.wait_for(lambda: fake.in_flight == 1, 5, "the request")
    sending.cancel()  # the client gives up; the fake still answers it, later
    with pytest.raises(asyncio.CancelledError):
        await sending
    assert fake.in_flight == 1
    with pytest.raises(AssertionError, match=r"no request in flight within 0\.01s"):
        await fake.settled(0.01)
    await fake.settled(5)
    assert fake.in_flight == 0
    assert [r.status for r in fake.log] == [504]
    await bot.get_me()  # done requests leave nothing in flight
    await fake.settled(0.01)

"""The fake Bot API server answers like Telegram (so flow tests mean something)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramNotFound
from aiogram.methods import Close, LogOut, TelegramMethod

from bot.app import make_bot
from bot.config import Settings
from tests.fakes.telegram_server import FakeTelegram


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, bot_token=fake.token, telegram_api_url=fake.base_url
    )
    bot = make_bot(settings)
    yield bot
    await bot.session.close()


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

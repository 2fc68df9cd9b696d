"""Commands used in the wrong kind of chat: say where they work instead of staying silent.

Included after every router that handles a command and before the fallback, so only the
commands nobody took in this chat reach it."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.delivery.replies import Replies
from views.i18n import Translator


def command_sets() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(club-chat-only commands, private-only commands), from the menus (bot/handlers/menus.py)."""
    from bot.handlers.menus import ADMIN_COMMANDS, GROUP_ADMIN_COMMANDS, PRIVATE_COMMANDS

    group_only = tuple(c for c in GROUP_ADMIN_COMMANDS if c not in PRIVATE_COMMANDS)
    private_only = tuple(c for c in (*PRIVATE_COMMANDS, *ADMIN_COMMANDS)
                         if c not in GROUP_ADMIN_COMMANDS and c != "start")
    return group_only, private_only


async def private_link(bot: Bot) -> str:
    """``https://t.me/<bot>?start=help``: opens the private chat with the bot."""
    me = await bot.me()
    return f"https://t.me/{me.username}?start=help"


async def in_group(message: Message, bot: Bot, replies: Replies, translator: Translator,
                   locale: str) -> None:
    """A private-chat command in a club chat."""
    await replies.answer(message, translator.t(
        locale, "club.where.private", link=await private_link(bot)))


async def in_private(message: Message, replies: Replies, translator: Translator,
                     locale: str) -> None:
    """A club-chat command in a private chat."""
    await replies.answer(message, translator.t(locale, "club.where.group"))


def create_router() -> Router:
    group_only, private_only = command_sets()
    router = Router(name="wrong_chat")
    router.message.register(in_group, F.chat.type.in_({"group", "supergroup"}),
                            Command(*private_only))
    router.message.register(in_private, F.chat.type == "private", Command(*group_only))
    return router

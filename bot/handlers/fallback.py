"""Last router: unknown commands and plain text in private chats."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message

from bot.delivery.replies import Replies
from bot.delivery.sender import TelegramSender
from views.i18n import Translator


async def unknown_command(
    message: Message, replies: Replies, translator: Translator, locale: str
) -> None:
    await replies.answer(message, translator.t(locale, "misc.unknown_command"))


async def not_a_command(
    message: Message, replies: Replies, translator: Translator, locale: str
) -> None:
    await replies.answer(message, translator.t(locale, "misc.not_a_command"))


async def stale_button(query: CallbackQuery, sender: TelegramSender, translator: Translator,
                       locale: str) -> None:
    """A button nobody handles (an old message, a finished game): say so, stop the spinner."""
    await sender.answer(query, translator.t(locale, "misc.stale_button"))


def create_router() -> Router:
    router = Router(name="fallback")
    router.message.filter(F.chat.type == "private")

    router.message.register(unknown_command, F.text.startswith("/"))
    router.message.register(not_a_command)
    router.callback_query.register(stale_button)
    return router

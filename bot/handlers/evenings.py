"""The club's evenings: ``/evening`` (a host announces or cancels one; with no words, its
buttons), the post's sign-up and cancel buttons, ``/evenings`` in private. Logic:
bot/evenings/service.py."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.delivery.replies import Replies
from bot.delivery.sender import TelegramSender
from bot.errors import UserError
from bot.evenings.callbacks import EveningCb, EveningDialogCb
from bot.evenings.dialog import chosen_start, screen
from bot.evenings.service import EveningService
from bot.services.permissions import Permissions, Power
from storage.models import EVENING_OPEN, Club, Player
from views import evenings as texts
from views.i18n import Safe, Translator

log = logging.getLogger("bot.handlers.evenings")
CANCEL_WORDS = {"cancel", "отмена", "отменить"}


async def may_host(permissions: Permissions, chat_id: int, user_id: int) -> bool:
    """Announces the club's evenings: who may manage the club, or host in it."""
    return (await permissions.may(user_id, Power.MANAGE_CLUB, club_id=chat_id)
            or await permissions.may(user_id, Power.HOST, club_id=chat_id))


async def evening(message: Message, command: CommandObject, permissions: Permissions,
                  evenings: EveningService, replies: Replies,
                  translator: Translator, club: Club, locale: str) -> None:
    assert message.from_user is not None
    user = message.from_user.id
    if not await may_host(permissions, message.chat.id, user):
        raise UserError("evening.not_host")
    words = (command.args or "").split()
    if not words:
        text, markup = screen(translator, locale, EveningDialogCb(),
                              evenings.clock().astimezone(evenings.zone_of(club)))
        # (a host's: may_host above; not a member's answer)
        await replies.send_text(message.chat.id, text, reply_markup=markup)
    elif words[0].casefold() in CANCEL_WORDS:
        answer = await evenings.cancel(club, words[1:])
        await replies.send_text(message.chat.id, translator.t(locale, answer.key,
                                                              **answer.kwargs))
    else:
        await evenings.typed(club, user, words)  # the post is the answer


async def dialog(query: CallbackQuery, callback_data: EveningDialogCb,
                 permissions: Permissions, evenings: EveningService, sender: TelegramSender,
                 replies: Replies, translator: Translator, club: Club, locale: str) -> None:
    """A press of the announcing buttons (a host's only); the seats' press announces."""
    message = query.message
    if message is None or not await may_host(permissions, message.chat.id,
                                             query.from_user.id):
        raise UserError("evening.not_host")
    if callback_data.close:
        await sender.answer(query)
        await replies.edit_text(message.chat.id, message.message_id,
                                translator.t(locale, "evening.dialog.closed"))
        return
    if callback_data.seats:
        starts_at = chosen_start(callback_data, evenings.zone_of(club))
        made = await evenings.announce(club, query.from_user.id, starts_at,
                                       callback_data.tables, callback_data.seats)
        await sender.answer(query)
        await replies.edit_text(message.chat.id, message.message_id, translator.t(
            locale, "evening.dialog.done",
            when=Safe(texts.starts(translator, locale, made.evening))))
        return
    text, markup = screen(translator, locale, callback_data,
                          evenings.clock().astimezone(evenings.zone_of(club)))
    await sender.answer(query)
    await replies.edit_text(message.chat.id, message.message_id, text, reply_markup=markup)


async def sign(query: CallbackQuery, callback_data: EveningCb, evenings: EveningService,
               sender: TelegramSender, replies: Replies, translator: Translator,
               user_locale: str, account: Player | None = None) -> None:
    """«I'm in» / «Cancel», under the post or in ``/evenings``; the answer in the presser's
    language."""
    tg_id = query.from_user.id
    if callback_data.action == "in":
        answer = await evenings.sign_up(callback_data.evening, tg_id, account)
    else:
        answer = await evenings.leave(callback_data.evening, tg_id)
    await sender.answer(query, translator.t(user_locale, answer.key, **answer.kwargs))
    message = query.message
    if message is not None and message.chat.type == "private":  # /evenings: the list again
        text, markup = await _mine(evenings, translator, user_locale, tg_id)
        await replies.edit_text(message.chat.id, message.message_id, text, reply_markup=markup)


async def mine(message: Message, evenings: EveningService, replies: Replies,
               translator: Translator, locale: str) -> None:
    """``/evenings``: the player's evenings and places, a cancel button for each."""
    assert message.from_user is not None
    text, markup = await _mine(evenings, translator, locale, message.from_user.id)
    await replies.answer(message, text, reply_markup=markup)


async def _mine(evenings: EveningService, translator: Translator, locale: str,
                tg_id: int) -> tuple[str, InlineKeyboardMarkup | None]:
    listed = await evenings.mine(tg_id)
    buttons = [[InlineKeyboardButton(
        text=translator.t(locale, "evening.mine.cancel",
                          when=Safe(texts.starts(translator, locale, e.evening))),
        callback_data=EveningCb(evening=e.evening.id, action="out").pack())]
        for e in listed if e.evening.status == EVENING_OPEN]
    markup = InlineKeyboardMarkup(inline_keyboard=buttons) if buttons else None
    return texts.mine(translator, locale, listed), markup


def create_router() -> Router:
    router = Router(name="evenings")
    groups = F.chat.type.in_({"group", "supergroup"})
    router.message.register(evening, Command("evening"), groups)
    router.message.register(mine, Command("evenings"), F.chat.type == "private")
    router.callback_query.register(dialog, EveningDialogCb.filter(),
                                   F.message.chat.type.in_({"group", "supergroup"}))
    router.callback_query.register(sign, EveningCb.filter())
    return router

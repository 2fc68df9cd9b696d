"""Voids and appeals in a private chat: ``/void GAME REASON``, ``/appeal GAME REASON`` and the
Void / Keep buttons of an appeal's notice (logic and permissions: ``bot.services.voids``; a
refused press is a popup on the button)."""

from __future__ import annotations

import html
import re

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.errors import UserError
from bot.services import Services
from bot.services.voids import APPEAL_HOURS, VoidCb, VoidService

# "GAME REASON": the game's number (with or without "#"), then the reason's words
GAME_AND_REASON = re.compile(r"^#?(\d{1,18})\s+(\S.*)$", re.DOTALL)


def _game_and_reason(args: str | None, usage: str) -> tuple[int, str]:
    found = GAME_AND_REASON.match((args or "").strip())
    if found is None:
        raise UserError(usage, hours=APPEAL_HOURS)
    return int(found.group(1)), found.group(2)


async def void(message: Message, command: CommandObject, voids: VoidService,
               services: Services, locale: str) -> None:
    assert message.from_user is not None
    game_id, reason = _game_and_reason(command.args, "void.usage")
    done = await voids.void(message.from_user.id, game_id, reason)
    taken = -sum(line.returned for line in done.voided.lines if line.returned < 0)
    short = sum(line.short for line in done.voided.lines)
    await services.replies.answer(message, services.translator.t(
        locale, "void.done", game=game_id, reason=done.voided.game.void_reason or "",
        taken=taken, short=short, told=done.told))


async def appeal(message: Message, command: CommandObject, voids: VoidService,
                 services: Services, locale: str) -> None:
    assert message.from_user is not None
    game_id, reason = _game_and_reason(command.args, "appeal.usage")
    made = await voids.appeal(message.from_user.id, game_id, reason)
    await services.replies.answer(message, services.translator.t(
        locale, "appeal.sent", game=game_id, id=made.id))


async def void_button(query: CallbackQuery, callback_data: VoidCb, voids: VoidService,
                      services: Services, locale: str) -> None:
    """Void on an appeal's notice (every admin's notice is edited by the void itself)."""
    done = await voids.void_appeal(query.from_user.id, callback_data.appeal, locale)
    await services.sender.answer(query, html.unescape(services.translator.t(
        locale, "appeal.voided_popup", game=done.voided.game.id, told=done.told)))


async def keep_button(query: CallbackQuery, callback_data: VoidCb, voids: VoidService,
                      services: Services, locale: str) -> None:
    kept = await voids.keep(query.from_user.id, callback_data.appeal)
    await services.sender.answer(query, html.unescape(services.translator.t(
        locale, "appeal.kept_popup", id=kept.id, game=kept.game_id)))


def create_router() -> Router:
    router = Router(name="voids")
    router.message.filter(F.chat.type == "private")
    router.callback_query.filter(F.message.chat.type == "private")
    router.message.register(void, Command("void"))
    router.message.register(appeal, Command("appeal"))
    router.callback_query.register(void_button, VoidCb.filter(F.action == "void"))
    router.callback_query.register(keep_button, VoidCb.filter(F.action == "keep"))
    return router

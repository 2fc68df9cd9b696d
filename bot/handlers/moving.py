"""Admin's private chat: /import (an .xlsx or CSV document), /link, /lookalikes (logic:
services.moving)."""

from __future__ import annotations

import io
import logging

import aiohttp
from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.errors import UserError
from bot.services import Services
from bot.services.moving import MAX_FILE_BYTES, Moving
from views import club_texts

log = logging.getLogger("bot.handlers.moving")


def _user_id(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


def _mode_and_sheet(args: str | None) -> tuple[str, str | None]:
    """``[apply|dry] [SHEET]`` -> (mode, sheet or None)."""
    text = (args or "").strip()
    words = text.split(maxsplit=1)
    if words and words[0].lower() in ("apply", "dry"):
        return words[0].lower(), (words[1].strip() if len(words) > 1 else None)
    return "", text or None


def _caption_sheet(caption: str | None) -> str | None:
    """The sheet named in the caption of the file replied to (``/import SHEET``)."""
    words = (caption or "").split(maxsplit=1)
    if not words or words[0].split("@")[0].lower() != "/import":
        return None
    return _mode_and_sheet(words[1] if len(words) > 1 else "")[1]


async def import_(message: Message, command: CommandObject, bot: Bot, moving: Moving,
                  services: Services, locale: str) -> None:
    """``/import [SHEET]`` as the caption of an .xlsx or CSV (dry run), ``/import apply
    [SHEET]`` as its caption or as a reply to it (writes). Refused rows come back as a file."""
    mode, sheet = _mode_and_sheet(command.args)
    document = message.document
    if document is None and message.reply_to_message is not None:
        document = message.reply_to_message.document
        sheet = sheet or _caption_sheet(message.reply_to_message.caption)
    if document is None:
        raise UserError("club.import.usage")
    if document.file_size is not None and document.file_size > MAX_FILE_BYTES:
        raise UserError("club.import.too_big", size=MAX_FILE_BYTES // 1024)
    buffer = io.BytesIO()
    try:
        await bot.download(document, destination=buffer)
    except (TelegramAPIError, aiohttp.ClientError, TimeoutError, OSError) as e:
        # the error's text may hold the file's URL, and the URL holds the bot's token: the
        # log gets the error's kind and status only, the admin a plain answer
        log.warning("the /import file could not be downloaded",
                    extra={"error": type(e).__name__, "status": getattr(e, "status", None)})
        raise UserError("club.import.download_failed") from None
    report = await moving.run_import(_user_id(message), buffer.getvalue(),
                                     apply=mode == "apply", sheet=sheet)
    tr = services.translator
    await services.replies.answer(
        message, club_texts.import_report(tr, locale, report))
    refused = club_texts.refused_file(tr, locale, report, document.file_name)
    if refused is not None:
        await services.replies.send_document(
            message.chat.id, refused[0], refused[1],
            caption=tr.t(locale, "club.import.refused_file"))


async def link(message: Message, command: CommandObject, moving: Moving, services: Services,
               locale: str) -> None:
    result, player = await moving.admin_link(_user_id(message), (command.args or "").strip())
    tr = services.translator
    await services.replies.answer(message, tr.t(
        locale, "club.link.done", nick=result.record.nickname, points=result.points,
        name=player.display_name, id=str(player.tg_id)))
    await services.replies.send_text(player.tg_id, club_texts.linked(
        tr, services.accounts.locale_of(player, None), result))


async def lookalikes(message: Message, moving: Moving, services: Services, locale: str) -> None:
    groups = await moving.lookalikes(_user_id(message))
    await services.replies.answer(
        message, club_texts.lookalikes(services.translator, locale, groups))


def create_router() -> Router:
    router = Router(name="moving")
    router.message.filter(F.chat.type == "private")
    router.message.register(import_, Command("import"))
    router.message.register(link, Command("link"))
    router.message.register(lookalikes, Command("lookalikes"))
    return router

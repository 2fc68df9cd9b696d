"""Outer middlewares: who is talking and in which language; refusals become answers; in a
forum, the topic every answer goes to (``bot/delivery/replies.py``, ``answering``)."""

from __future__ import annotations

import contextlib
import html
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, User

from bot.delivery.replies import answering
from bot.errors import UserError, explain
from bot.services import Services
from bot.telegram import Handler
from storage.backends import DatabaseUnavailable
from storage.db import Database
from storage.errors import StorageError

log = logging.getLogger("bot.handlers")


def _chat_and_user(data: dict[str, Any]) -> tuple[Chat | None, User | None]:
    """Who sent the update and in which chat, as aiogram's ``UserContextMiddleware`` found
    them for every handler and middleware (``event_chat``, ``event_from_user``)."""
    return data.get("event_chat"), data.get("event_from_user")


class ContextMiddleware(BaseMiddleware):
    """Adds ``locale`` (and ``player`` in private chats, ``club`` in groups) to handler data,
    and turns :class:`UserError` / storage refusals / crashes into a localized answer; what is
    queued to the chat meanwhile answers in the forum topic the message came from."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(
        self, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        try:
            with answering(data.get("event_chat"), data.get("event_thread_id")):
                return await self._call(handler, event, data)
        except DatabaseUnavailable as e:  # PostgreSQL restarting: the update changed nothing
            log.warning("database unavailable", extra={"error": str(e)})
            locale = data.get("user_locale") or data.get("locale") \
                or self.services.settings.default_locale
            text = self.services.translator.t(locale, "misc.database_unavailable")
            with contextlib.suppress(Exception):
                await self._answer(event, text, queued=False)  # the outbox is down too
            return None

    async def _call(
        self, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        services = self.services
        if isinstance(event, Message) and (event.migrate_to_chat_id or event.migrate_from_chat_id):
            await self._migrated(event)  # a service message: nothing else to handle
            return None
        chat, user = _chat_and_user(data)
        if isinstance(event, Message) and user is None and event.chat.type == "private":
            # no sender (a Bot API emulator's message): nobody to answer, no account to act on
            log.info("private message without sender ignored",
                     extra={"chat_id": event.chat.id, "message_id": event.message_id})
            return None
        locale: str = services.settings.default_locale
        if chat is not None and chat.type != "private":
            club = await services.db.clubs.cached(chat.id)  # from memory (storage/keyed_cache)
            if club is None:
                club = await services.db.clubs.ensure(
                    chat.id, title=chat.title or str(chat.id), locale=locale
                )
            data["club"] = club
            locale = club.locale
            # popups answer the presser in the presser's own language
            if user is not None:
                presser = await services.accounts.cached(user.id)
                data["account"] = presser
                data["user_locale"] = services.accounts.locale_of(presser, user.language_code)
        elif user is not None:
            player = await services.accounts.cached(user.id)
            data["player"] = data["account"] = player
            locale = services.accounts.locale_of(player, user.language_code)
        data["locale"] = locale
        data.setdefault("user_locale", locale)
        # a refusal is a popup for a button (the presser's language), a post for a command
        answer_locale = data["user_locale"] if isinstance(event, CallbackQuery) else locale
        try:
            return await handler(event, data)
        except UserError as e:
            await self._answer(event, services.translator.t(answer_locale, e.key, **e.kwargs))
        except StorageError as e:
            err = explain(e)
            await self._answer(event, services.translator.t(answer_locale, err.key,
                                                            **err.kwargs))
        except DatabaseUnavailable:
            raise
        except Exception:
            log.exception("handler failed", extra={"chat_id": chat.id if chat else None})
            await self._answer(event, services.translator.t(answer_locale, "misc.error"))
        return None

    async def _migrated(self, message: Message) -> None:
        """The group became a supergroup: Telegram posts ``migrate_to_chat_id`` in the old
        group and ``migrate_from_chat_id`` in the new one; either moves the club (idempotent)."""
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        else:
            assert message.migrate_from_chat_id is not None
            old, new = message.migrate_from_chat_id, message.chat.id
        try:
            await self.services.chat_moves.move(old, new)
        except Exception:
            log.exception("chat migration failed", extra={"chat_id": old})

    async def _answer(self, event: TelegramObject, text: str, *, queued: bool = True) -> None:
        if isinstance(event, CallbackQuery):
            # one retry; never raises
            await self.services.sender.answer(event, _plain(text), alert=True)
        elif isinstance(event, Message):
            if queued:
                await self.services.replies.answer(event, text)
            else:
                self.services.replies.say_now(event, text)


class AdminOnly(BaseMiddleware):
    """Inner middleware of the admin router: non-admins get a clear refusal."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(
        self, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        _, user = _chat_and_user(data)
        if user is None or not await self.services.admin.is_admin(user.id):
            raise UserError("admin.denied")
        return await handler(event, data)


class BlockedInGame(BaseMiddleware):
    """Inner middleware of the game routers: an account blocked by the administration that sits
    at an open table gets a clear refusal and changes nothing; the host hears of it once."""

    def __init__(self, db: Database, refuse_blocked: Callable[[int], Awaitable[bool]]) -> None:
        self.db = db
        # the game layer's answer (``GameService.refuse_blocked``): True if the account sits at
        # an open table, whose host is told once
        self.refuse_blocked = refuse_blocked

    async def __call__(
        self, handler: Handler, event: TelegramObject, data: dict[str, Any]
    ) -> Any:
        _, user = _chat_and_user(data)
        if user is not None:
            # the account as the outer middleware read it for this update (one read, not two)
            player = (data["account"] if "account" in data
                      else await self.db.players.get(user.id))
            if player is not None and player.blocked and await self.refuse_blocked(user.id):
                raise UserError("game.blocked_account.refused")
        return await handler(event, data)


def _plain(text: str) -> str:
    """Callback answers are plain text (no HTML), at most 200 characters."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))[:200]

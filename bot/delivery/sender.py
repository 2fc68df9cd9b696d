"""The one way out: everything the bot sends goes through :class:`TelegramSender`.

* Telegram's limits: ~30 messages a second overall, 1 a second per chat (short bursts allowed),
  20 in any minute per group (:class:`bot.delivery.rate_limit.RateLimiter`).
* ``TelegramRetryAfter``: wait exactly what Telegram said, then retry.
* Network errors, 5xx, 409 and non-JSON bodies (an HTML error page: ``ClientDecodeError``):
  retry with capped exponential backoff; a message is never dropped.
* ``TelegramForbiddenError`` (the user blocked the bot, was kicked...): the blocked hooks run
  (storage marks the player, the game layer tells the host) and the send returns ``None``.
* ``TelegramMigrateToChat`` (the group became a supergroup): the migrated hooks run (the club
  and its games move to the new chat id) and the same request is sent again to the new id.
* Other ``TelegramBadRequest`` (message not modified, chat not found), 404: logged, returns
  ``None``;
  resending the same request cannot succeed.

Sends to one chat go out in order (a FIFO lock per chat).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.methods import (
    CloseForumTopic,
    CreateForumTopic,
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    SendDocument,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message

from bot.delivery.rate_limit import Limits, Monotonic, RateLimiter, Sleep

__all__ = ["Limits", "RateLimiter", "Sleep", "TelegramSender", "answer_query", "is_transient",
           "topic_of"]

log = logging.getLogger("bot.delivery.sender")

T = TypeVar("T")
BlockedHook = Callable[[int], Awaitable[None]]
MigratedHook = Callable[[int, int], Awaitable[None]]


def topic_of(message: Message) -> int | None:
    """The forum topic a message was written in, to answer there (None: the chat itself, a
    forum's General topic, or a reply's thread in a chat without topics)."""
    if message.chat.is_forum and message.is_topic_message:
        return message.message_thread_id
    return None


def is_transient(error: BaseException) -> bool:
    """Whether resending the same request may succeed (see
    :class:`bot.delivery.worker.Delivery`)."""
    if isinstance(error, ClientDecodeError | TelegramRetryAfter):
        return True
    return not isinstance(error, TelegramForbiddenError | TelegramBadRequest | TelegramNotFound
                          | TelegramMigrateToChat | TelegramUnauthorizedError)


async def answer_query(query: CallbackQuery, text: str | None = None, *, alert: bool = False,
                       sleep: Sleep = asyncio.sleep) -> None:
    """Answer a button press right away (never queued: Telegram drops late answers), with one
    retry on a transient error (after a 429's ``retry_after``, slept with ``sleep``)."""
    for attempt in (1, 2):
        try:
            await query.answer(text, show_alert=alert or None)
            return
        except TelegramRetryAfter as e:
            if attempt == 2 or e.retry_after > 5:
                log.warning("callback answer dropped", extra={"error": e.message})
                return
            await sleep(float(e.retry_after))
        except Exception as e:
            if attempt == 2 or not is_transient(e):
                log.warning("callback answer failed", extra={"error": f"{type(e).__name__}: {e}"})
                return


class TelegramSender:
    """``sleep``: its retries' waits; ``clock`` and ``pace``: the rate limiter's clock and its
    waits for a turn (``pace`` by default ``sleep``)."""

    def __init__(
        self,
        bot: Bot,
        *,
        limits: Limits | None = None,
        clock: Monotonic = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        pace: Sleep | None = None,
        parse_mode: str = "HTML",
    ) -> None:
        self.bot = bot
        self.limits = limits or Limits()
        self.limiter = RateLimiter(self.limits, clock, pace or sleep)
        self.sleep = sleep
        self.parse_mode = parse_mode
        self._locks: dict[int, list[Any]] = {}  # chat -> [FIFO lock, users]
        self._blocked_hooks: list[BlockedHook] = []
        self._migrated_hooks: list[MigratedHook] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ hooks
    def on_blocked(self, hook: BlockedHook) -> None:
        """Call ``hook(chat_id)`` when Telegram says the bot may not write to that chat."""
        self._blocked_hooks.append(hook)

    def on_migrated(self, hook: MigratedHook) -> None:
        """Call ``hook(old_chat_id, new_chat_id)`` when Telegram says a group became a
        supergroup (``migrate_to_chat_id``), before the request is sent again to the new id."""
        self._migrated_hooks.append(hook)

    # ------------------------------------------------------------------ sending
    async def send_text(
        self,
        chat_id: int,
        text: str,
        *,
        reply_markup: InlineKeyboardMarkup | None = None,
        protect_content: bool | None = None,
        thread: int | None = None,
    ) -> Message | None:
        """``thread``: the forum topic to answer in (:func:`topic_of` of the message)."""
        method = SendMessage(
            chat_id=chat_id,
            message_thread_id=thread,
            text=text,
            parse_mode=self.parse_mode,
            reply_markup=reply_markup,
            protect_content=protect_content,
        )
        return await self.request(chat_id, method)

    async def send_document(
        self,
        chat_id: int,
        data: bytes,
        filename: str,
        *,
        caption: str | None = None,
    ) -> Message | None:
        method = SendDocument(
            chat_id=chat_id,
            document=BufferedInputFile(data, filename=filename),
            caption=caption,
            parse_mode=self.parse_mode if caption else None,
        )
        return await self.request(chat_id, method)

    async def send_photo(
        self,
        chat_id: int,
        photo: str,
        *,
        caption: str | None = None,
        reply_markup: InlineKeyboardMarkup | None = None,
    ) -> Message | None:
        """A photo Telegram already has (its ``file_id``), with an HTML caption."""
        method = SendPhoto(chat_id=chat_id, photo=photo, caption=caption,
                           parse_mode=self.parse_mode if caption else None,
                           reply_markup=reply_markup)
        return await self.request(chat_id, method)

    async def edit_text(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        *,
        reply_markup: InlineKeyboardMarkup | None = None,
    ) -> Message | bool | None:
        method = EditMessageText(
            chat_id=chat_id,
            message_id=message_id,
            text=text,
            parse_mode=self.parse_mode,
            reply_markup=reply_markup,
        )
        return await self.request(chat_id, method)

    async def edit_markup(
        self, chat_id: int, message_id: int, reply_markup: InlineKeyboardMarkup | None = None
    ) -> Message | bool | None:
        method = EditMessageReplyMarkup(
            chat_id=chat_id, message_id=message_id, reply_markup=reply_markup
        )
        return await self.request(chat_id, method)

    async def create_topic(self, chat_id: int, name: str) -> int | None:
        """A new forum topic's thread id; None when the bot may not create one there (no
        right to manage topics, not a forum: Telegram's 400)."""
        topic = await self.request(chat_id, CreateForumTopic(chat_id=chat_id, name=name))
        return None if topic is None else topic.message_thread_id

    async def close_topic(self, chat_id: int, thread: int) -> None:
        """Close a forum topic the bot created (a table that could not be opened in it)."""
        await self.request(chat_id, CloseForumTopic(chat_id=chat_id, message_thread_id=thread))

    async def delete(self, chat_id: int, message_id: int) -> bool | None:
        return await self.request(chat_id, DeleteMessage(chat_id=chat_id, message_id=message_id))

    async def answer(self, query: CallbackQuery, text: str | None = None, *,
                     alert: bool = False) -> None:
        """Answer a button press (:func:`answer_query`; a 429 waits with :attr:`sleep`)."""
        await answer_query(query, text, alert=alert, sleep=self.sleep)

    def post(self, chat_id: int, text: str, **kwargs: Any) -> asyncio.Task[Message | None]:
        """Fire and forget (still in order per chat, still never dropped); see :meth:`flush`."""
        task = asyncio.create_task(self.send_text(chat_id, text, **kwargs))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def flush(self, within: float | None = None) -> int:
        """Wait for every posted message (used on shutdown); returns how many are still
        undelivered after ``within`` seconds (they are cancelled and logged)."""
        loop = asyncio.get_running_loop()
        deadline = None if within is None else loop.time() + within
        while self._tasks:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            _, pending = await asyncio.wait(list(self._tasks), timeout=left)
            if pending and deadline is not None and loop.time() >= deadline:
                log.error("undelivered at shutdown", extra={"messages": len(pending)})
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                return len(pending)
        return 0

    async def request(self, chat_id: int, method: TelegramMethod[T]) -> T | None:
        """Send ``method`` to ``chat_id`` within the limits; retry until it is delivered."""
        entry = self._locks.get(chat_id)
        if entry is None:
            entry = self._locks[chat_id] = [asyncio.Lock(), 0]
        entry[1] += 1  # senders holding or waiting for this chat's lock
        try:
            async with entry[0]:
                return await self._deliver(chat_id, method)
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[chat_id]  # no lock kept for every chat ever seen

    async def _deliver(self, chat_id: int, method: TelegramMethod[T]) -> T | None:
        name = type(method).__name__
        delay = self.limits.backoff_start
        attempt = 0
        while True:
            attempt += 1
            await self.limiter.acquire(chat_id)
            try:
                return await self.bot(method)
            except TelegramRetryAfter as e:
                log.warning(
                    "flood control", extra={"chat_id": chat_id, "method": name,
                                            "retry_after": e.retry_after}
                )
                await self.sleep(float(e.retry_after))
            except TelegramForbiddenError as e:
                log.info("bot blocked", extra={"chat_id": chat_id, "method": name,
                                               "error": e.message})
                await self.blocked(chat_id)
                return None
            except TelegramMigrateToChat as e:
                new_chat_id = e.migrate_to_chat_id
                log.warning("chat migrated, resending", extra={
                    "chat_id": chat_id, "new_chat_id": new_chat_id, "method": name})
                if new_chat_id == chat_id or getattr(method, "chat_id", None) is None:
                    return None
                await self.migrated(chat_id, new_chat_id)
                method = method.model_copy(update={"chat_id": new_chat_id})
                chat_id = new_chat_id
            except (TelegramBadRequest, TelegramNotFound, TelegramUnauthorizedError) as e:
                log.warning("bad request", extra={"chat_id": chat_id, "method": name,
                                                  "error": e.message})
                return None
            except (TelegramAPIError, ClientDecodeError, TimeoutError) as e:
                # network errors, 5xx, 409, an HTML or other non-JSON body: try again
                log.warning(
                    "send failed, retrying",
                    extra={"chat_id": chat_id, "method": name, "attempt": attempt,
                           "delay": delay, "error": f"{type(e).__name__}: {e}"},
                )
                await self.sleep(delay)
                delay = min(delay * 2, self.limits.backoff_max)

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """Run the migrated hooks (also used by the delivery worker, ``bot/delivery/worker.py``)."""
        for hook in self._migrated_hooks:
            try:
                await hook(old_chat_id, new_chat_id)
            except Exception:
                log.exception("migrated hook failed", extra={"chat_id": old_chat_id})

    async def blocked(self, chat_id: int) -> None:
        """Run the blocked hooks (also used by the delivery worker, ``bot/delivery/worker.py``)."""
        for hook in self._blocked_hooks:
            try:
                await hook(chat_id)
            except Exception:
                log.exception("blocked hook failed", extra={"chat_id": chat_id})

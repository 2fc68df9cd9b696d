"""The one way out: everything the bot sends goes through :class:`Outbox`.

* Telegram's limits: ~30 messages a second overall, 1 a second per chat (short bursts allowed),
  20 in any minute per group. Token buckets (a sliding window for groups) with an injectable
  clock and sleep.
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
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
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
    DeleteMessage,
    EditMessageReplyMarkup,
    EditMessageText,
    SendDocument,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message

log = logging.getLogger("bot.outbox")

T = TypeVar("T")
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
BlockedHook = Callable[[int], Awaitable[None]]
MigratedHook = Callable[[int, int], Awaitable[None]]


@dataclass
class TokenBucket:
    """``rate`` tokens a second, at most ``capacity`` saved up (the burst)."""

    rate: float
    capacity: float
    tokens: float = 0.0
    updated: float | None = None  # None: never used, the burst is all there

    def _refill(self, now: float) -> None:
        if self.updated is None:
            self.tokens, self.updated = self.capacity, now
            return
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait_time(self, now: float) -> float:
        self._refill(now)
        # a hair of tolerance: a sleep of exactly the wait may refill 0.99999... of a token
        return 0.0 if self.tokens >= 1 - 1e-9 else (1 - self.tokens) / self.rate

    def take(self, now: float) -> None:
        self._refill(now)
        self.tokens -= 1


@dataclass
class SlidingWindow:
    """At most ``limit`` requests in any ``span`` seconds (a group's 20 a minute). A token
    bucket with a burst of 20 would let up to 40 through in the first minute, and Telegram
    answers the rest with a 429 that holds the chat for up to a minute."""

    limit: int
    span: float = 60.0
    times: deque[float] = field(default_factory=deque)

    def wait_time(self, now: float) -> float:
        while self.times and now - self.times[0] >= self.span:
            self.times.popleft()
        return 0.0 if len(self.times) < self.limit else self.times[0] + self.span - now

    def take(self, now: float) -> None:
        self.times.append(now)


Bucket = TokenBucket | SlidingWindow


@dataclass
class Limits:
    global_per_second: float = 30
    chat_per_second: float = 1
    chat_burst: float = 3
    group_per_minute: float = 20
    backoff_start: float = 0.5
    backoff_max: float = 30.0
    request_timeout: float = 20.0  # seconds: the durable outbox's requests (bot/delivery.py)


@dataclass
class RateLimiter:
    limits: Limits = field(default_factory=Limits)
    clock: Clock = time.monotonic
    sleep: Sleep = asyncio.sleep
    _global: TokenBucket = field(init=False)
    _chats: dict[int, TokenBucket] = field(default_factory=dict, init=False)
    _groups: dict[int, SlidingWindow] = field(default_factory=dict, init=False)
    _queue: list[list[Any]] = field(default_factory=list, init=False)  # a heap
    _waiting: dict[int, list[Any]] = field(default_factory=dict, init=False)  # chat -> entry
    _order: Iterator[int] = field(default_factory=itertools.count, init=False)

    def __post_init__(self) -> None:
        rate = self.limits.global_per_second
        self._global = TokenBucket(rate, rate)

    def _buckets(self, chat_id: int) -> list[Bucket]:
        limits = self.limits
        buckets: list[Bucket] = [self._global]
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = TokenBucket(limits.chat_per_second, limits.chat_burst)
        buckets.append(chat)
        if chat_id < 0:
            group = self._groups.get(chat_id)
            if group is None:
                group = self._groups[chat_id] = SlidingWindow(int(limits.group_per_minute))
            buckets.append(group)
        return buckets

    async def acquire(self, chat_id: int, *, urgent: bool = True) -> None:
        """Wait until one message may go to ``chat_id`` now, and count it.

        A chat's own limits are waited for first (only that chat's sender waits there); the
        overall limit is then taken in turn: urgent requests first (what a game waits for),
        then the rest, first come first served within each. Only the head of that queue sleeps
        on the overall bucket: when every sender slept on it, 2,400 private chats woke 30 times
        a second each to find one token, and the bot's CPU went there.
        """
        buckets = self._buckets(chat_id)
        own = buckets[1:]
        while True:
            await self._wait_for(own)
            await self._overall(chat_id, urgent)
            now = self.clock()
            if not any(b.wait_time(now) > 0 for b in own):
                for bucket in own:
                    bucket.take(now)
                return
            # another sender to this chat took its slot meanwhile: the overall token is spent

    def promote(self, chat_id: int) -> None:
        """Something urgent was queued for ``chat_id`` while its sender waits for its turn
        with a clean-up edit: the sender moves up (keeping its place among the urgent)."""
        entry = self._waiting.get(chat_id)
        if entry is None or entry[0] == 0:
            return
        entry[0] = 0
        heapq.heapify(self._queue)
        self._queue[0][2].set()

    async def _overall(self, chat_id: int, urgent: bool) -> None:
        entry: list[Any] = [0 if urgent else 1, next(self._order), asyncio.Event()]
        queue = self._queue
        heapq.heappush(queue, entry)
        self._waiting[chat_id] = entry
        taken = False
        try:
            while True:
                if queue[0] is not entry:
                    entry[2].clear()
                    await entry[2].wait()  # set when this entry becomes the head
                    continue
                wait = self._global.wait_time(self.clock())
                if wait > 0:
                    await self.sleep(wait)  # a more urgent entry may have come meanwhile
                    continue
                heapq.heappop(queue)
                taken = True
                self._global.take(self.clock())
                return
        finally:
            if self._waiting.get(chat_id) is entry:
                del self._waiting[chat_id]
            if not taken:  # cancelled while waiting
                queue.remove(entry)
                heapq.heapify(queue)
            if queue:
                queue[0][2].set()

    async def _wait_for(self, buckets: list[Bucket]) -> None:
        while True:
            wait = max(b.wait_time(self.clock()) for b in buckets)
            if wait <= 0:
                return
            await self.sleep(wait)


class Outbox:
    def __init__(
        self,
        bot: Bot,
        *,
        limits: Limits | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        parse_mode: str = "HTML",
    ) -> None:
        self.bot = bot
        self.limits = limits or Limits()
        self.limiter = RateLimiter(self.limits, clock, sleep)
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
    ) -> Message | None:
        method = SendMessage(
            chat_id=chat_id,
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

    async def delete(self, chat_id: int, message_id: int) -> bool | None:
        return await self.request(chat_id, DeleteMessage(chat_id=chat_id, message_id=message_id))

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
        """Run the migrated hooks (also used by the delivery worker, ``bot/delivery.py``)."""
        for hook in self._migrated_hooks:
            try:
                await hook(old_chat_id, new_chat_id)
            except Exception:
                log.exception("migrated hook failed", extra={"chat_id": old_chat_id})

    async def blocked(self, chat_id: int) -> None:
        """Run the blocked hooks (also used by the delivery worker, ``bot/delivery.py``)."""
        for hook in self._blocked_hooks:
            try:
                await hook(chat_id)
            except Exception:
                log.exception("blocked hook failed", extra={"chat_id": chat_id})

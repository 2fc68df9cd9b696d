"""No one user can hold the bot: a rate bound per user, before any handler runs.

Each user has a bucket of ``burst`` updates refilled at ``per_second``; an update over it is
dropped before the dispatcher's handlers (it holds no update slot, waits for no send budget, and
changes nothing), and the user hears one "slow down" per flood: a private message's sender in
that chat, a button's presser in the button's answer, nobody in a group (a flood there is not
answered in the club's chat). The flood ends when the bucket is full again. ``burst = 0``
turns the bound off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.types import TelegramObject, Update

log = logging.getLogger("bot.flood")

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
Tell = Callable[[Update], Awaitable[None]]
MAX_USERS = 50_000  # buckets kept; the full ones go first when there are more


@dataclass
class _Bucket:
    tokens: float
    at: float
    warned: bool = False


class FloodGuard:
    """``dispatcher.update.outer_middleware(FloodGuard(burst, per_second, tell))``."""

    def __init__(self, burst: int, per_second: float, tell: Tell, *,
                 on_drop: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.on_drop = on_drop
        self.burst = burst
        self.per_second = per_second
        self.tell = tell
        self.clock = clock
        self.buckets: dict[int, _Bucket] = {}
        self.dropped = 0
        self._telling: set[asyncio.Task[None]] = set()

    async def __call__(self, handler: Handler, event: TelegramObject,
                       data: dict[str, Any]) -> Any:
        user = _user_of(event) if self.burst > 0 and isinstance(event, Update) else None
        if user is None or self.take(user):
            return await handler(event, data)
        self.dropped += 1
        self.on_drop()
        bucket = self.buckets[user]
        if not bucket.warned:
            bucket.warned = True
            log.warning("flood: updates dropped", extra={"user_id": user})
            assert isinstance(event, Update)
            task = asyncio.get_running_loop().create_task(self._tell(event))
            self._telling.add(task)  # not awaited here: the update's slot is free at once
            task.add_done_callback(self._telling.discard)
        return None

    def take(self, user: int) -> bool:
        now = self.clock()
        bucket = self.buckets.get(user)
        if bucket is None:
            if len(self.buckets) >= MAX_USERS:
                self._forget_full(now)
            bucket = self.buckets[user] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst),
                            bucket.tokens + (now - bucket.at) * self.per_second)
        bucket.at = now
        if bucket.tokens >= self.burst:
            bucket.warned = False  # a flood is over once the bucket is full again
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _forget_full(self, now: float) -> None:
        for user, b in list(self.buckets.items()):
            if b.tokens + (now - b.at) * self.per_second >= self.burst:
                del self.buckets[user]
        if len(self.buckets) >= MAX_USERS:
            self.buckets.clear()

    async def _tell(self, update: Update) -> None:
        try:
            await self.tell(update)
        except Exception:
            log.exception("flood: the slow-down answer failed")


def _user_of(update: Update) -> int | None:
    if update.message is not None and update.message.from_user is not None:
        return update.message.from_user.id
    if update.callback_query is not None:
        return update.callback_query.from_user.id
    return None

"""Telegram's limits on the bot's side: ~30 messages a second overall, 1 a second per chat
(short bursts allowed), 20 in any minute per group. Token buckets (a sliding window for groups)
with an injectable clock and sleep; the overall limit is taken in turn, urgent first."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Monotonic = Callable[[], float]  # seconds, only ever compared with each other
Sleep = Callable[[float], Awaitable[None]]


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

    def idle(self, now: float) -> bool:
        """Whether the bucket is full again at ``now``: a new one would be the same."""
        return self.updated is None or (
            self.tokens + (now - self.updated) * self.rate >= self.capacity)


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

    def idle(self, now: float) -> bool:
        """Whether no request of the last ``span`` is counted at ``now``: a new one would be
        the same."""
        return not self.times or now - self.times[-1] >= self.span


Bucket = TokenBucket | SlidingWindow
# seconds on the limiter's clock between two sweeps of the chats' idle buckets (a chat's bucket
# is kept only while it counts something: the process talks to every player over months)
PRUNE_EVERY = 60.0


@dataclass(frozen=True)
class Limits:
    global_per_second: float = 30
    chat_per_second: float = 1
    chat_burst: float = 3
    group_per_minute: float = 20
    # seconds: a group's minute, with a margin — a request reaches Telegram a little after its
    # turn was taken here, and Telegram counts the minute from its arrival (at exactly 60 s the
    # 21st post of a busy minute can meet a 429, which holds the chat a second or more)
    group_span: float = 61.0
    backoff_start: float = 0.5
    backoff_max: float = 30.0
    request_timeout: float = 20.0  # seconds: the durable outbox's requests (bot/delivery/worker.py)


@dataclass
class RateLimiter:
    limits: Limits = field(default_factory=Limits)
    clock: Monotonic = time.monotonic
    sleep: Sleep = asyncio.sleep
    _global: TokenBucket = field(init=False)
    _chats: dict[int, TokenBucket] = field(default_factory=dict, init=False)
    _groups: dict[int, SlidingWindow] = field(default_factory=dict, init=False)
    _queue: list[list[Any]] = field(default_factory=list, init=False)  # a heap
    _waiting: dict[int, list[Any]] = field(default_factory=dict, init=False)  # chat -> entry
    _order: Iterator[int] = field(default_factory=itertools.count, init=False)
    _acquiring: Counter[int] = field(default_factory=Counter, init=False)  # chat -> senders
    _pruned: float | None = field(default=None, init=False)  # the last sweep's time

    def __post_init__(self) -> None:
        rate = self.limits.global_per_second
        self._global = TokenBucket(rate, rate)

    def kept(self) -> int:
        """How many chats' buckets are kept now (a chat's and a group's count apart)."""
        return len(self._chats) + len(self._groups)

    def _prune(self, now: float) -> None:
        """Every :data:`PRUNE_EVERY` seconds, the buckets that count nothing any more go
        (full again, or a group's minute past): a chat's next request makes a new one, the
        same. A chat whose sender waits keeps its own."""
        if self._pruned is not None and now - self._pruned < PRUNE_EVERY:
            return
        self._pruned = now
        busy = self._acquiring
        self._chats = {chat: b for chat, b in self._chats.items()
                       if chat in busy or not b.idle(now)}
        self._groups = {chat: b for chat, b in self._groups.items()
                        if chat in busy or not b.idle(now)}

    def _buckets(self, chat_id: int) -> list[Bucket]:
        limits = self.limits
        self._prune(self.clock())
        buckets: list[Bucket] = [self._global]
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = TokenBucket(limits.chat_per_second, limits.chat_burst)
        buckets.append(chat)
        if chat_id < 0:
            group = self._groups.get(chat_id)
            if group is None:
                group = self._groups[chat_id] = SlidingWindow(
                    int(limits.group_per_minute), limits.group_span)
            buckets.append(group)
        return buckets

    async def acquire(self, chat_id: int, *, urgent: bool = True) -> None:
        """Wait until one message may go to ``chat_id`` now, and count it.

        A chat's own limits are waited for first (only that chat's sender waits there); the
        overall limit is then taken in turn: urgent requests first (what a game waits for),
        then the rest, first come first served within each. Only the head of that queue sleeps
        on the overall bucket: were every sender to sleep on it, each token would wake every
        waiting chat's sender to find it taken, and the bot's CPU would go there.
        """
        buckets = self._buckets(chat_id)
        own = buckets[1:]
        self._acquiring[chat_id] += 1
        try:
            while True:
                await self._wait_for(own)
                await self._overall(chat_id, urgent)
                now = self.clock()
                if not any(b.wait_time(now) > 0 for b in own):
                    for bucket in own:
                        bucket.take(now)
                    return
                # another sender to this chat took its slot meanwhile: the overall token is
                # spent
        finally:
            self._acquiring[chat_id] -= 1
            if not self._acquiring[chat_id]:
                del self._acquiring[chat_id]

    def group_full(self, chat_id: int) -> bool:
        """Whether a post to the group ``chat_id`` has to wait for its minute's budget now."""
        group = self._groups.get(chat_id)
        return group is not None and group.wait_time(self.clock()) > 0

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

"""No one user can hold the bot: a rate bound per user, before any handler runs, and a budget
for the answers to club members in a club chat.

:class:`FloodGuard`: each user has a bucket of ``burst`` updates refilled at ``per_second``; an
update over it is dropped before the dispatcher's handlers (it holds no update slot and changes
nothing), and the user hears one "slow down" per flood: a private message's sender in that
chat, a button's presser in the button's answer, nobody in a group (a flood there is not
answered in the club's chat). The flood ends when the bucket is full again. The in-game
presses (night choices, votes, the host's panel: ``bot/game/callbacks.py``, ``IN_GAME``) are
never dropped nor counted: a press is cheap, a second press of it changes nothing, and a night
choice or a vote must never be lost to a player's typing. The lobby's buttons are counted as
any update. ``burst = 0`` turns the bound off.

:class:`ClubAnswers`: in a club chat the answers to members who do not host there (``/status``,
``/help``, a refusal) share a small budget per chat and per member
(bot/delivery/replies.py), so that no member's commands push a table's posts back behind
the chat's twenty messages a minute.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.types import Chat, TelegramObject, Update, User

from bot.delivery.rate_limit import TokenBucket
from bot.telegram import Handler

log = logging.getLogger("bot.flood")

# the one answer of a flood: to the update's sender, in its chat (None: a button without one)
Tell = Callable[[Update, User, Chat | None], Awaitable[None]]
MAX_USERS = 50_000  # buckets kept; the full ones go first when there are more
DROPPED = "dropped"  # the outcome an update dropped here is counted under (bot/metrics.py)
# the answers to members in one club chat: a few at once, then one every so many seconds (a
# group takes twenty messages a minute: the table keeps most), and each member's own a few,
# then one every so many
MEMBERS_BURST = 4
MEMBERS_EVERY_S = 15.0
MEMBER_BURST = 3
MEMBER_EVERY_S = 10.0


@dataclass
class _Bucket:
    tokens: float
    at: float
    warned: bool = False


class FloodGuard:
    """``dispatcher.update.outer_middleware(FloodGuard(burst, per_second, tell))``."""

    def __init__(self, burst: int, per_second: float, tell: Tell, *,
                 exempt: Callable[[Update], bool] = lambda update: False,
                 on_drop: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.exempt = exempt  # the in-game presses
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
        # a message's sender or a button's presser (aiogram's ``event_from_user``); the other
        # kinds of update are not bounded
        sender: User | None = data.get("event_from_user")
        user = (sender.id if sender is not None and self.burst > 0 and isinstance(event, Update)
                and (event.message is not None or event.callback_query is not None)
                and not self.exempt(event) else None)
        if user is None or self.take(user):
            return await handler(event, data)
        self.dropped += 1
        self.on_drop()
        data["outcome"] = DROPPED
        bucket = self.buckets[user]
        if not bucket.warned:
            bucket.warned = True
            log.warning("flood: updates dropped", extra={"user_id": user})
            assert isinstance(event, Update) and sender is not None
            task = asyncio.get_running_loop().create_task(
                self._tell(event, sender, data.get("event_chat")))
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

    async def _tell(self, update: Update, user: User, chat: Chat | None) -> None:
        try:
            await self.tell(update, user, chat)
        except Exception:
            log.exception("flood: the slow-down answer failed")


IsHost = Callable[[int, int], Awaitable[bool]]


class ClubAnswers:
    """``replies.budget = ClubAnswers(is_host)``: whether a club chat's answer to a user may be
    given now. A host's (``is_host(chat_id, user_id)``: the table's host, the club's hosts, the
    network's hosts and admins) always; a member's within the chat's budget for members
    (:data:`MEMBERS_BURST`, then one every :data:`MEMBERS_EVERY_S`) and the member's own
    (:data:`MEMBER_BURST`, then one every :data:`MEMBER_EVERY_S`)."""

    def __init__(self, is_host: IsHost, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.is_host = is_host
        self.clock = clock
        self.chats: dict[int, TokenBucket] = {}
        self.members: dict[tuple[int, int], TokenBucket] = {}

    async def may_answer(self, chat_id: int, user_id: int) -> bool:
        if await self.is_host(chat_id, user_id):
            return True
        now = self.clock()
        chat = self.chats.get(chat_id)
        if chat is None:
            chat = self.chats[chat_id] = TokenBucket(1 / MEMBERS_EVERY_S, MEMBERS_BURST)
        member = self.members.get((chat_id, user_id))
        if member is None:
            if len(self.members) >= MAX_USERS:
                self._forget_full(now)
            member = self.members[(chat_id, user_id)] = TokenBucket(1 / MEMBER_EVERY_S,
                                                                    MEMBER_BURST)
        if chat.wait_time(now) > 0 or member.wait_time(now) > 0:
            return False
        chat.take(now)
        member.take(now)
        return True

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self.members.items()):
            bucket.wait_time(now)  # refilled to now
            if bucket.tokens >= MEMBER_BURST:
                del self.members[key]

"""The delivery worker: sends the durable outbox (``storage/repos/outbox.py``) in order per chat.

One asyncio task per chat with queued rows, started at start-up for what a previous process left
and woken by every enqueue. Within Telegram's limits (the shared
:class:`bot.delivery.sender.RateLimiter`) it sends each chat's rows oldest first and

* marks a request Telegram confirmed ``sent`` (with its message id): it is never sent again;
* retries every transient failure (an HTML or other non-JSON body, 5xx, a timeout, a dropped
  connection, 429 after ``retry_after``) with capped backoff, until it is delivered;
* records a permanent refusal (403 blocked, 400 chat not found, 404, a message to edit that is
  gone) as ``failed`` and runs the sender's blocked hooks once for that request (the player is
  marked, the host told) — never retried forever.

An edit names the key of an earlier send; same-chat FIFO guarantees the send went first. A
throttled edit (the vote board) waits for its slot without holding the chat's other messages.
What a row is on the wire (the request, the message it edits, its picture drawn):
:mod:`bot.delivery.calls`. See docs/delivery.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from typing import Any, Protocol

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
)
from aiogram.methods import SendMessage, TelegramMethod
from aiogram.types import Message

from bot.delivery.calls import as_text, call_for, drawn, message_to_edit
from bot.delivery.late import as_of
from bot.delivery.merge import TEXT_MAX, Merged, joined, merge, redraw
from bot.delivery.payload import body_of, decode
from bot.delivery.sender import Sleep, TelegramSender, is_transient
from bot.delivery.waits import wait_event
from record.posts import units
from storage.backends import DatabaseUnavailable
from storage.db import Database
from storage.repos.outbox import EDIT, SEND, MergedPost, OutboxRow, Queued

log = logging.getLogger("bot.delivery.worker")

Wall = Callable[[], float]
WaitEvent = Callable[[asyncio.Event, float | None], Awaitable[None]]

NOT_MODIFIED = "message is not modified"
# rows read per look at a chat's queue: the head, and a few behind a throttled edit (a chat has
# at most one queued edit per key); a club's queue may hold pictures, so not 50 of them a time
PEEK = 8
# a club chat's look: PEEK rows of each of its tables (lanes), at most this many in all
PEEK_LANES = 4 * PEEK
UNAVAILABLE_PAUSE = 1.0  # a worker's wait while the database restarts
# the tables' turns kept per club chat (more tables than play in one chat at once)
LANES_KEPT = 32


class ChatClaims(Protocol):
    """Several processes (bot/cluster/share.py): which sender sends a chat's queue. A chat is
    claimed before its first send and stays this sender's while it lives, so two senders at
    once (one taking over while the other has not yet noticed it lost its role) never both
    send a row."""

    async def claim_chat(self, chat_id: int) -> bool:
        """Whether the chat is this sender's now (it was free, or its sender is gone)."""

    def holding(self) -> bool:
        """Whether this process's claims still stand (its share connection is up)."""

    async def release_chats(self) -> None:
        """Every chat this sender holds, given up (a stop)."""


def _whole(chat_id: int, rows: list[OutboxRow]) -> bool:
    """Whether a look at the chat's queue found all of it (fewer rows than it asked for)."""
    if chat_id >= 0:
        return len(rows) < PEEK
    lanes = collections.Counter(r.lane for r in rows)
    return len(rows) < PEEK_LANES and all(n < PEEK for n in lanes.values())


def urgent(chat_id: int, method: str) -> bool:
    """What a game waits for: anything to a club chat, any send (a card, a prompt); not the
    clean-up edit of a private prompt."""
    return chat_id < 0 or method != EDIT


class Delivery:
    """``wall``, ``sleep`` and ``wait`` are every clock the worker reads or waits on (a retry's
    time, a throttled edit's slot, a pause): the real ones in production; a test may give a
    virtual clock (tests/fakes/virtual_clock.py) so that a 429's ``retry_after`` passes at once.
    ``game_clock``: the time a post's moment's end is read against (``late``,
    :mod:`bot.delivery.late`), the game's (bot/wiring.py gives the game layer's clock): the
    real one in production, where it is ``wall``'s too; a test whose waits pass at once keeps
    it with the game's.

    Several processes (bot/cluster/): ``claims``, the chats this one sends while it is the
    outbox's sender; ``remote``, told of each chat queued here while another one sends."""

    def __init__(self, db: Database, sender: TelegramSender, *, wall: Wall = time.time,
                 sleep: Sleep = asyncio.sleep, wait: WaitEvent = wait_event,
                 game_clock: Wall = time.time, claims: ChatClaims | None = None,
                 remote: Callable[[int], None] | None = None) -> None:
        self.db = db
        self.sender = sender
        self.wall = wall
        self.game_clock = game_clock
        self.sleep = sleep
        self.wait = wait
        self._workers: dict[int, tuple[asyncio.Task[None], asyncio.Event]] = {}
        self._running = False
        self.remote = remote
        self.claims = claims
        self._claimed: set[int] = set()
        self._merged: set[int] = set()  # chats whose last post took queued rows in: read again
        # a club chat's tables take turns: the turn each lane (table) last had, per club chat
        # (kept while the process runs: a chat's next burst goes on from there; the lanes
        # whose turn came longest ago beyond LANES_KEPT go: an ended game's lane has no turn
        # again, and one forgotten counts as the longest ago, which it was)
        self._turns: dict[int, dict[int | None, int]] = {}
        self._turn = itertools.count()
        self._flooded: set[int] = set()  # groups whose last request met a 429 (over budget)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Resume whatever a previous process left queued."""
        self._running = True
        self.resume(await self.db.outbox.pending_chats())

    def wake(self, chat_id: int, *, urgent: bool = False) -> None:
        """Something was queued for ``chat_id`` (call after the transaction committed);
        ``urgent``: a send or a club post, which a sender waiting with an edit takes along."""
        if not self._running:
            if self.remote is not None:
                self.remote(chat_id)
            return
        worker = self._workers.get(chat_id)
        if worker is not None:
            worker[1].set()
            if urgent:
                self.sender.limiter.promote(chat_id)
            return
        event = asyncio.Event()
        task = asyncio.create_task(self._run(chat_id, event), name=f"delivery:{chat_id}",
                                   context=contextvars.Context())  # nothing of the caller's step
        self._workers[chat_id] = (task, event)

    def resume(self, chat_ids: Iterable[int]) -> None:
        """A worker for each of these chats (rows found queued) that has none; one that runs
        is left alone: it reads its queue again after whatever it does now (a wake would make
        it read once more for nothing: thousands of reads a second in a deal's burst)."""
        for chat_id in chat_ids:
            if chat_id not in self._workers:
                self.wake(chat_id)

    async def enqueue(self, messages: list[Queued]) -> None:
        """Queue outside a game step (its own transaction) and wake the workers."""
        self.queued(messages, await self.db.outbox.enqueue(messages, self.wall()))

    def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None:
        """Wake the workers of the chats ``messages`` were queued for that are in ``new``
        (the chats given a new row: a text coalesced into a queued edit needs no wake, its
        worker reads the row again before sending it)."""
        waking: dict[int, bool] = {}
        for m in messages:
            if m.chat_id not in new:
                continue
            waking[m.chat_id] = waking.get(m.chat_id, False) or urgent(m.chat_id, m.method)
        for chat_id, is_urgent in waking.items():
            self.wake(chat_id, urgent=is_urgent)

    async def idle(self, within: float | None = None) -> bool:
        """Wait until every worker has emptied its queue; False if ``within`` ran out."""
        loop = asyncio.get_running_loop()
        deadline = None if within is None else loop.time() + within
        while self._workers:
            tasks = [t for t, _ in self._workers.values()]
            left = None if deadline is None else max(0.0, deadline - loop.time())
            if left == 0.0:
                return False
            await asyncio.wait(tasks, timeout=left)
        return True

    async def prune(self, keep_days: int) -> int:
        """The rows sent more than ``keep_days`` ago on this worker's wall clock (the one
        ``sent_at`` is written on) lose their words: :meth:`storage.repos.outbox.Outbox.prune`."""
        return await self.db.outbox.prune(before=self.wall() - keep_days * 86_400)

    async def stop(self, within: float = 0) -> None:
        """Let the workers drain for ``within`` seconds, then stop them (rows stay queued)."""
        if within > 0:
            await self.idle(within)
        self._running = False
        tasks = [t for t, _ in self._workers.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._workers.clear()
        if self.claims is not None and self._claimed:
            self._claimed.clear()
            # (the share connection gone: its claims went with it)
            with contextlib.suppress(DatabaseUnavailable):
                await self.claims.release_chats()

    async def _claim(self, chat_id: int) -> bool:
        """Whether this sender may send the chat's rows now (always, with one process)."""
        claims = self.claims
        if claims is None:
            return True
        if not claims.holding():
            self._claimed.clear()
            return False
        if chat_id in self._claimed:
            return True
        try:
            if not await claims.claim_chat(chat_id):
                return False
        except DatabaseUnavailable:
            return False
        self._claimed.add(chat_id)
        return True

    # ------------------------------------------------------------------ the worker
    async def _run(self, chat_id: int, event: asyncio.Event) -> None:
        # the chat's rows as last read, less those sent since: read again when something was
        # queued (the event), after a wait, when a row was not done, and before an edit (a
        # later text is coalesced into its row in place; a send never changes); ``whole``:
        # that read found fewer than it asked for, so once they are sent the queue is empty
        rows: list[OutboxRow] = []
        whole = False
        try:
            while self._running:
                if self.claims is not None and not await self._claim(chat_id):
                    # another live sender's chat: its rows stay queued for it (or for this
                    # one's next look at the queues, once that one is gone)
                    break
                fresh = not rows or event.is_set()
                if fresh:
                    event.clear()
                    try:
                        rows = await self._peek(chat_id)
                    except DatabaseUnavailable:  # PostgreSQL restarting: the rows wait for it
                        await self.sleep(UNAVAILABLE_PAUSE)
                        continue
                    whole = _whole(chat_id, rows)
                    if not rows:
                        if event.is_set():
                            continue
                        break
                head, wait = self._head(chat_id, rows, self.wall())
                if head is None:
                    rows = []
                    await self.wait(event, wait)
                    continue
                if head.method == EDIT and not fresh:
                    rows = []
                    continue
                is_urgent = any(urgent(chat_id, r.method) for r in rows)
                try:
                    done = await self._send(head, urgent=is_urgent)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("delivery send failed", extra={"chat_id": chat_id})
                    rows = []
                    await self.sleep(self.sender.limits.backoff_start)
                    continue
                if not done:
                    rows = []  # sent again (a coalesced edit) or later (a retry): as stored
                    continue
                if chat_id < 0:
                    self._take_turn(chat_id, head.lane)
                rows = [r for r in rows if r is not head]
                if chat_id in self._merged:  # rows went out in the head's post: as stored now
                    self._merged.discard(chat_id)
                    rows, whole = [], False
                if not rows and whole and not event.is_set():
                    break  # every row the chat had is sent, and nothing queued since
        finally:
            current = self._workers.get(chat_id)
            if current is not None and current[0] is asyncio.current_task():
                del self._workers[chat_id]

    def _take_turn(self, chat_id: int, lane: int | None) -> None:
        turns = self._turns.setdefault(chat_id, {})
        turns[lane] = next(self._turn)
        if len(turns) > LANES_KEPT:
            for gone in sorted(turns, key=turns.__getitem__)[:len(turns) - LANES_KEPT]:
                del turns[gone]

    async def _peek(self, chat_id: int) -> list[OutboxRow]:
        """The chat's queue as the worker looks at it: the first rows; in a club chat the first
        rows of each of its tables (a table's backlog does not hide another's next post)."""
        if chat_id < 0:
            return await self.db.outbox.pending(chat_id, limit=PEEK_LANES, per_lane=PEEK)
        return await self.db.outbox.pending(chat_id, limit=PEEK)

    def _head(self, chat_id: int, rows: list[OutboxRow], now: float
              ) -> tuple[OutboxRow | None, float | None]:
        """The row whose turn it is, or how long to wait for one. Each lane's rows go in order;
        a throttled edit waits for its slot while the chat's other rows go on; a retry's
        backoff holds the chat (a 429 is the chat's). The chat's announcements go before the
        redraws of its live lists (``redraw``: a lobby's seats, an evening's list, a vote's
        board), each lane's announcements still in their order. The chat's own rows (no lane:
        a lone table's, the club's notices) keep their place in the chat's order; of the
        tables' lanes ready, the one whose turn came longest ago goes (a club chat's tables
        share its 20 posts a minute by turns: docs/delivery.md)."""
        wait: float | None = None
        firsts: dict[int | None, OutboxRow] = {}
        told: dict[int | None, OutboxRow] = {}  # each lane's first announcement
        for row in rows:
            if row.method == EDIT and row.attempts == 0 and row.next_at > now:
                gap = row.next_at - now
                wait = gap if wait is None else min(wait, gap)
                continue
            firsts.setdefault(row.lane, row)
            if row.lane not in told and not redraw(row):
                told[row.lane] = row
        backing = [r.next_at - now for r in (*firsts.values(), *told.values())
                   if r.next_at > now]
        if backing:
            return None, min(backing)  # backing off: order is kept
        ready = told or firsts
        if not ready:
            return None, wait
        oldest = min(ready.values(), key=lambda r: r.id)
        if oldest.lane is None:
            return oldest, wait
        turns = self._turns.get(chat_id, {})
        return min((r for r in ready.values() if r.lane is not None),
                   key=lambda r: (turns.get(r.lane, -1), r.id)), wait

    def _backoff(self, attempts: int) -> float:
        limits = self.sender.limits
        return float(min(limits.backoff_start * 2 ** min(attempts, 30), limits.backoff_max))

    async def _call(self, method: TelegramMethod[Any], *, urgent: bool) -> Any:
        """Telegram's answer to ``method``; when Telegram refuses it so, to the text's request
        that delivers its row instead (a photo by a ``file_id`` it no longer takes, a caption's
        edit of a picture sent as its caption: :func:`bot.delivery.calls.as_text`)."""
        # aiohttp takes the seconds as a float (aiogram's hint says int)
        timeout: Any = self.sender.limits.request_timeout
        try:
            return await self.sender.bot(method, request_timeout=timeout)
        except TelegramBadRequest as e:
            instead = as_text(method, e.message)
            if instead is None:
                raise
            if isinstance(instead, SendMessage):
                log.warning("a photo refused goes as its caption",
                            extra={"chat_id": instead.chat_id, "error": e.message})
            else:
                log.info("a caption's edit goes to the text sent instead of its picture",
                         extra={"chat_id": instead.chat_id, "message_id": instead.message_id})
        await self.sender.limiter.acquire(int(instead.chat_id or 0), urgent=urgent)
        return await self.sender.bot(instead, request_timeout=timeout)

    async def _send(self, row: OutboxRow, *, urgent: bool = True) -> bool:
        """Whether ``row`` is done (sent, or refused for good). ``urgent``: what a game waits
        for (a club post, a card, a prompt — or an edit queued before one in the same chat)
        goes before the clean-up edits of private prompts within the overall limit
        (:meth:`bot.delivery.sender.RateLimiter.acquire`)."""
        chat_id = row.chat_id
        post: MergedPost | None = None
        if row.method == EDIT and chat_id < 0:  # a part of a merged post, maybe
            assert row.key is not None
            post = await self.db.outbox.merged_post(chat_id, row.key)
        stored = decode(row.payload)
        target = (post.message_id if post is not None
                  else await message_to_edit(self.db.outbox, row, stored))
        if isinstance(target, str):
            log.warning("cannot edit %s in %s: %s", row.key, chat_id, target)
            await self.db.outbox.mark_failed(row, target)
            return True
        photo = await drawn(row, stored)
        # a club's post that waits for the group's minute (or a 429): what its table queues
        # meanwhile goes out with it (bot/delivery/merge.py)
        behind = chat_id < 0 and row.method == SEND and (
            chat_id in self._flooded or self.sender.limiter.group_full(chat_id))
        await self.sender.limiter.acquire(chat_id, urgent=urgent)
        # what it says now it goes: a timed text whose moment is over says so
        told = self.game_clock()
        payload = as_of(stored, told)
        merged: Merged | None = None
        if behind:
            merged = merge(row, await self._peek(chat_id), self.wall(), told)
        # the merged post's words (a picture's: its caption as edited since)
        text = None if merged is None else merged.text
        parts: tuple[tuple[str | None, str], ...] = ()
        moved = False
        if post is not None:
            assert row.key is not None
            parts = post.with_text(row.key, body_of(payload))
            if units(joined(parts)) > TEXT_MAX:  # the part outgrew the post: one of its own
                parts, moved, target = post.without(row.key), True, None
            else:
                text = joined(parts)
        method = call_for(chat_id, payload, parse_mode=self.sender.parse_mode, target=target,
                          photo=photo, text=text)
        name = type(method).__name__
        try:
            result = await self._call(method, urgent=urgent)
        except TelegramRetryAfter as e:
            log.warning("flood control", extra={"chat_id": chat_id, "method": name,
                                                "retry_after": e.retry_after})
            if chat_id < 0:
                self._flooded.add(chat_id)
            await self.db.outbox.retry_at(row, self.wall() + float(e.retry_after), e.message)
            return False
        except TelegramMigrateToChat as e:
            # The group became a supergroup: the club, its games and this chat's queued rows
            # move to the new id (one storage transaction, run by the migrated hooks); the
            # new chat's worker sends them, this one finds nothing left.
            new_chat_id = e.migrate_to_chat_id
            log.warning("chat migrated", extra={"chat_id": chat_id, "new_chat_id": new_chat_id})
            if new_chat_id == chat_id:
                await self.db.outbox.mark_failed(row, "migrated to itself")
                return True
            await self.sender.migrated(chat_id, new_chat_id)
            await self.db.outbox.readdress(chat_id, new_chat_id)
            self.wake(new_chat_id)
            return False
        except Exception as e:
            error = f"{type(e).__name__}: {e}"
            if isinstance(e, TelegramBadRequest) and NOT_MODIFIED in e.message.lower():
                if post is not None:  # as wanted (the post already reads so)
                    return await self.db.outbox.mark_part(row, post, parts, self.wall())
                return await self.db.outbox.mark_sent(row, None, self.wall())  # as wanted
            if is_transient(e):
                delay = self._backoff(row.attempts)
                log.warning("send failed, retrying", extra={
                    "chat_id": chat_id, "method": name, "attempt": row.attempts + 1,
                    "delay": delay, "error": error})
                await self.db.outbox.retry_at(row, self.wall() + delay, error)
                return False
            log.warning("send refused", extra={"chat_id": chat_id, "method": name,
                                               "error": error})
            await self.db.outbox.mark_failed(row, error)
            if isinstance(e, TelegramForbiddenError) or (
                    isinstance(e, TelegramBadRequest | TelegramNotFound)
                    and row.method != EDIT and "chat not found" in str(e).lower()):
                await self.sender.blocked(chat_id)
            return True
        message_id = result.message_id if isinstance(result, Message) else None
        self._flooded.discard(chat_id)
        if merged is not None:
            self._merged.add(chat_id)
            marked = await self.db.outbox.mark_merged(row, message_id, merged.parts,
                                                      merged.text, merged.taken, self.wall())
            log.info("posts merged while the chat waited", extra={
                "chat_id": chat_id, "rows": 1 + len(merged.taken)})
            return row.id in marked
        if post is not None:
            return await self.db.outbox.mark_part(row, post, parts, self.wall(),
                                                  moved_to=message_id if moved else None)
        if not await self.db.outbox.mark_sent(row, message_id, self.wall()):
            log.debug("edit coalesced while in flight", extra={"chat_id": chat_id})
            return False
        return True

"""Long polling (one process on SQLite): ``getUpdates`` with each update of a batch read alone.

aiogram's own polling decodes a batch as one: a single update it cannot validate fails the
whole ``getUpdates`` ("Failed to fetch updates - ClientDecodeError"), the offset never moves
past it and every later call fails on the same batch, for ever. Here the answer is only checked
to be a list (:class:`~bot.telegram.updates.GetUpdatesAsSent`); each item is read alone
(:class:`~bot.telegram.updates.UpdateReader`): a malformed one is logged, counted and skipped,
the offset moves past it, and the good updates of the batch are handled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

from aiogram import Bot, Dispatcher

from bot.telegram.updates import GetUpdatesAsSent, UpdateReader, handle_update, next_offset

log = logging.getLogger("bot.updates")

RETRY_START_S = 0.5  # a failed getUpdates is tried again after this, doubling
RETRY_MAX_S = 5.0
REQUEST_MARGIN_S = 10  # the HTTP request outlives the long poll by this much


async def poll_until(stopped: Awaitable[None], bot: Bot, dispatcher: Dispatcher,
                     reader: UpdateReader, *, polling_timeout: int, in_flight: int) -> None:
    """What aiogram's ``start_polling`` does, with :class:`LongPolling`: the dispatcher's
    startup, polling until ``stopped`` returns, then the dispatcher's shutdown. The updates
    still being handled then are the stop's (``App.close``, bot/telegram/shutdown.py)."""
    data = {"dispatcher": dispatcher, "bots": [bot], **dispatcher.workflow_data}
    await dispatcher.emit_startup(bot=bot, **data)
    try:
        polling = LongPolling(bot, dispatcher, reader, polling_timeout=polling_timeout,
                              in_flight=in_flight)
        running = asyncio.create_task(polling.run(), name="polling")
        waiting = asyncio.ensure_future(stopped)
        try:
            await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (running, waiting):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task  # (polling never ends but by this cancel)
    finally:
        await dispatcher.emit_shutdown(bot=bot, **data)


class LongPolling:
    """``run()`` until cancelled: at most ``in_flight`` updates are handled at once (the rest of
    the batch waits, unread; the next batches wait at Telegram)."""

    def __init__(self, bot: Bot, dispatcher: Dispatcher, reader: UpdateReader, *,
                 polling_timeout: int, in_flight: int) -> None:
        self.bot = bot
        self.dispatcher = dispatcher
        self.reader = reader
        self.polling_timeout = polling_timeout
        self.room = asyncio.Semaphore(in_flight)
        self.tasks: set[asyncio.Task[Any]] = set()  # kept referenced while they run
        self.offset: int | None = None

    async def run(self) -> None:
        allowed = self.dispatcher.resolve_used_update_types()
        failures = 0
        while True:
            try:
                batch = await self.bot(
                    GetUpdatesAsSent(offset=self.offset, timeout=self.polling_timeout,
                                     allowed_updates=allowed),
                    request_timeout=self.polling_timeout + REQUEST_MARGIN_S)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                delay = min(RETRY_START_S * 2 ** failures, RETRY_MAX_S)
                failures += 1
                log.warning("polling failed", extra={"error": f"{type(e).__name__}: {e}",
                                                     "retry_s": delay})
                await asyncio.sleep(delay)
                continue
            if failures:
                log.info("polling resumed", extra={"failures": failures})
                failures = 0
            await self.receive(batch)
            offset = next_offset(batch, self.offset)
            if batch and offset == self.offset:  # nothing in it says how to confirm it
                log.error("updates without update_id", extra={"count": len(batch)})
                await asyncio.sleep(RETRY_MAX_S)
            self.offset = offset

    async def receive(self, batch: list[Any]) -> None:
        """Each update of ``batch`` read and handled in a task of its own, in order."""
        for raw in batch:
            await self.room.acquire()
            update = self.reader.read(raw, self.bot)
            if update is None:
                self.room.release()
                continue
            task = asyncio.create_task(self._handle(handle_update(self.dispatcher, self.bot,
                                                                  update)),
                                       name=f"update:{update.update_id}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _handle(self, handling: Awaitable[None]) -> None:
        try:
            await handling
        finally:
            self.room.release()

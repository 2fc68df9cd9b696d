"""Each update handled once, on PostgreSQL (docs/scaling.md, "Updates").

:class:`InboxDispatcher` is aiogram's dispatcher with the inbox (``storage/repos/inbox.py``) in
front of its handlers. The poller (bot/cluster/sharing.py) writes every update to the inbox
before the next ``getUpdates`` confirms it to Telegram, so an update received by a process that
then dies is not lost; each process handles the rows it claims. A webhook's update is written
before it is handled, an update_id already there is a second delivery and is dropped, and an
update is marked handled once its handler returned (not when the process stops under it: it is
claimed and handled again).

On SQLite (one process per file) the plain dispatcher runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.types import TelegramObject, Update

from bot.telegram import Handler
from bot.telegram.updates import UpdateReader
from storage.backends import DatabaseUnavailable
from storage.repos.inbox import Inbox

log = logging.getLogger("bot.cluster.receiving")

MarkHandled = Callable[[int, float], Awaitable[None]]


class InboxDispatcher(Dispatcher):
    """Several processes share the work: bot/cluster/sharing.py polls, writes each update to
    the inbox and claims the rows this process handles (:meth:`handle_claimed`), each read by
    ``reader``. ``mark_handled``: how a row is marked handled (bot/cluster/handled_marks.py:
    in batches, on the share connection); by default one write each. The inbox's middleware
    is the update's inner one: it runs inside every outer middleware (a stop's wait for the
    handlers, the metrics, the flood guard), whenever they are added."""

    def __init__(self, inbox: Inbox, *, reader: UpdateReader,
                 mark_handled: MarkHandled | None = None,
                 wall: Callable[[], float] = time.time, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inbox = inbox
        self.wall = wall
        self.reader = reader
        self.mark_handled = mark_handled if mark_handled is not None else inbox.handled
        self._written: set[int] = set()  # in the inbox already (claimed from it)
        self.update.middleware(self._once)

    async def handle_claimed(self, bot: Bot, update_id: int, update: dict[str, Any]) -> None:
        """An inbox row this process claimed (its JSON decoded): handled, then marked
        handled. One aiogram cannot read is marked handled at once (logged and counted by
        ``reader``): claimed again and again, it would fail every time."""
        parsed = self.reader.read(update, bot)
        if parsed is None:
            await self._handled(update_id)
            return
        self._written.add(update_id)
        await self.feed_update(bot, parsed)

    async def _write(self, update: Update) -> bool:
        """Whether to handle it: False for a second delivery."""
        try:
            new = await self.inbox.add(update.update_id,
                                       update.model_dump_json(exclude_none=True), self.wall())
        except DatabaseUnavailable:
            # the server restarting: handled without the inbox (its handlers answer "try
            # again in a moment" and change nothing)
            return True
        if not new:
            log.info("second delivery dropped", extra={"update_id": update.update_id})
            return False
        self._written.add(update.update_id)
        return True

    async def _once(self, handler: Handler, event: TelegramObject,
                    data: dict[str, Any]) -> Any:
        assert isinstance(event, Update)
        update_id = event.update_id
        if update_id in self._written:
            self._written.discard(update_id)
        elif not await self._write(event):  # a webhook's update
            return None
        else:
            self._written.discard(update_id)
        try:
            result = await handler(event, data)
        except Exception:
            await self._handled(update_id)  # a failing handler is not run again and again
            raise
        await self._handled(update_id)
        return result

    async def _handled(self, update_id: int) -> None:
        try:
            await self.mark_handled(update_id, self.wall())
        except DatabaseUnavailable:
            log.warning("not marked handled (database unavailable)",
                        extra={"update_id": update_id})

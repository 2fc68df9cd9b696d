"""Each update handled once, on PostgreSQL (docs/scaling.md, "Updates").

:class:`InboxDispatcher` is aiogram's dispatcher with the inbox (``storage/repos/inbox.py``) in
front of its handlers: long polling writes every update to the inbox before the next ``getUpdates``
confirms it to Telegram (so an update received by a process that then dies is not lost), a webhook's
update is written before it is handled, an update_id already there is a second delivery and is
dropped, and an update is marked handled once its handler returned (not when the process stops under
it: the next start handles it). At start, before polling, what a dead process left unhandled is
handled in update order.

On SQLite (one process per file) the plain dispatcher runs, as before.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.types import TelegramObject, Update
from aiogram.utils.backoff import BackoffConfig

from storage.backends import DatabaseUnavailable
from storage.repos.inbox import Inbox

log = logging.getLogger("bot.cluster.receiving")

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class InboxDispatcher(Dispatcher):
    def use_inbox(self, inbox: Inbox, wall: Callable[[], float] = time.time, *,
                  shared: bool = False) -> None:
        """``shared``: several processes share the work (bot/cluster/sharing.py claims the rows each
        handles, and nothing is handled here at start)."""
        self.inbox = inbox
        self.wall = wall
        # how a row is marked handled (bot/cluster/sharing.py: in batches, on its own connection)
        self.mark_handled: Callable[[int, float], Awaitable[None]] = inbox.handled
        self._written: set[int] = set()  # in the inbox already (by polling, or left pending)
        self.update.outer_middleware(self._once)
        if not shared:
            self.startup.register(self.handle_left)

    async def handle_claimed(self, bot: Bot, update_id: int, update: dict[str, Any]) -> None:
        """An inbox row this process claimed (its JSON decoded): handled, then marked
        handled."""
        self._written.add(update_id)
        await self.feed_raw_update(bot, update)

    async def _listen_updates(  # type: ignore[override]
        self, bot: Bot, polling_timeout: int = 30,
        backoff_config: BackoffConfig | None = None,
        allowed_updates: list[str] | None = None,
    ) -> AsyncGenerator[Update, None]:
        """aiogram asks Telegram for the next updates (confirming these) only after the last
        of a batch was taken from here: each is written first."""
        extra: dict[str, Any] = {}
        if backoff_config is not None:
            extra["backoff_config"] = backoff_config
        async for update in super()._listen_updates(
                bot, polling_timeout=polling_timeout, allowed_updates=allowed_updates, **extra):
            if await self._write(update):
                yield update

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

    async def handle_left(self, bot: Bot) -> None:
        """Dispatcher startup (after the games are restored): what a process that died had
        received and not handled, in update order; then handled rows older than a day go."""
        left = await self.inbox.pending()
        for update_id, payload in left:
            self._written.add(update_id)
            await self.feed_raw_update(bot, json.loads(payload))
        if left:
            log.info("left updates handled", extra={"count": len(left)})
        await self.inbox.prune(self.wall())

"""The updates still being handled when polling or the webhook stops (``App.close``).

aiogram 3 keeps no public record of the handlers it runs (long polling's tasks sit in the
dispatcher's private ``_handle_update_tasks``; a webhook's background tasks in its request
handler's, and nothing waits for either at a stop), so the dispatcher counts its own: an outer
middleware on every update, registered before any other, notes the task running it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram.types import TelegramObject

from bot.telegram import Handler

# they finish first (storage still open), then are cancelled
SHUTDOWN_HANDLERS_SECONDS = 10



class HandlersInFlight:
    """``dispatcher.update.outer_middleware(handlers)``: the tasks handling an update now."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    async def __call__(self, handler: Handler, event: TelegramObject,
                       data: dict[str, Any]) -> Any:
        task = asyncio.current_task()
        if task is None or task in self._tasks:  # an update fed from inside a handler
            return await handler(event, data)
        self._tasks.add(task)
        try:
            return await handler(event, data)
        finally:
            self._tasks.discard(task)

    def running(self) -> int:
        return len(self._tasks)

    async def finish(self, within: float = SHUTDOWN_HANDLERS_SECONDS) -> None:
        """Polling stopped: the updates still being handled finish (bounded) before storage
        closes under them (they logged "handler failed" with a traceback), the rest are
        cancelled quietly (not answered: Telegram keeps nothing of them either way). The task
        calling this is not waited for (a stop from inside a handler)."""
        running = self._tasks - {asyncio.current_task()}
        if not running:
            return
        _, late = await asyncio.wait(running, timeout=within)
        for task in late:
            task.cancel()
        if late:
            await asyncio.gather(*late, return_exceptions=True)

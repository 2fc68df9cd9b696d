"""The updates still being handled when polling stops (``App.close``)."""

from __future__ import annotations

import asyncio

from aiogram import Dispatcher

# they finish first (storage still open), then are cancelled
SHUTDOWN_HANDLERS_SECONDS = 10


async def finish_handlers(dispatcher: Dispatcher,
                          within: float = SHUTDOWN_HANDLERS_SECONDS) -> None:
    """Polling stopped: the updates still being handled finish (bounded) before storage
    closes under them (they logged "handler failed" with a traceback), the rest are
    cancelled quietly (not answered: Telegram keeps nothing of them either way)."""
    running = set(dispatcher._handle_update_tasks)
    if not running:
        return
    _, late = await asyncio.wait(running, timeout=within)
    for task in late:
        task.cancel()
    if late:
        await asyncio.gather(*late, return_exceptions=True)

"""The run on PostgreSQL, where several processes share the work (bot/cluster/sharing.py,
docs/scaling.md): the dispatcher's startup, then the sharing loop until stopped; with
WEBHOOK_URL, this process's webhook server writes what it receives to the inbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiohttp import web

from bot.cluster.sharing import Sharing
from bot.config import Settings
from bot.startup import StartupError
from bot.telegram.updates import UpdateReader
from bot.telegram.webhook import secret_matches
from storage.backends import DatabaseUnavailable

log = logging.getLogger("bot")

HANDLERS_FINISH_S = 5.0  # updates being handled at a stop; the rest is the next holder's
# serve a webhook's app and setWebhook (the application's ``listen_webhook``: it stops it)
Listen = Callable[[web.Application, list[str]], Awaitable[None]]


async def run_shared(sharing: Sharing, bot: Bot, settings: Settings, reader: UpdateReader,
                     stopping: Callable[[], Awaitable[None]], listen: Listen) -> None:
    """Join the other processes, start, share the work until ``stopping``, then hand over."""
    try:
        await sharing.join()
    except (OSError, TimeoutError, DatabaseUnavailable) as e:
        raise StartupError(f"cannot join the other processes on "
                           f"{settings.database_label}: {e}") from None
    dispatcher = sharing.dispatcher
    data = {"dispatcher": dispatcher, "bots": [bot], **dispatcher.workflow_data}
    await dispatcher.emit_startup(bot=bot, **data)
    if settings.webhook_url is not None:
        await serve_webhook(sharing, bot, settings, reader, listen)
    running = asyncio.create_task(sharing.run())
    try:
        await stopping()
    finally:
        sharing.stop_receiving()
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await sharing.finish(HANDLERS_FINISH_S)
        await dispatcher.emit_shutdown(bot=bot, **data)


async def serve_webhook(sharing: Sharing, bot: Bot, settings: Settings, reader: UpdateReader,
                        listen: Listen) -> None:
    """Telegram's POSTs (``X-Telegram-Bot-Api-Secret-Token`` must carry WEBHOOK_SECRET, else
    401): each update written to the inbox with its club before the 200."""
    from urllib.parse import urlsplit

    url = settings.webhook_url
    assert url is not None and settings.webhook_secret is not None
    secret = settings.webhook_secret.get_secret_value().encode()

    async def hook(request: web.Request) -> web.Response:
        if not secret_matches(request, secret):
            return web.Response(status=401)
        # answered 200 all the same when it cannot be read: Telegram resends anything else
        parsed, raw = reader.parse(await request.read())
        if not parsed or reader.read(raw, bot) is None:  # logged, counted
            return web.Response()
        assert isinstance(raw, dict)  # (what the reader read: an update's JSON object)
        await sharing.receive([raw])  # the holders woken
        return web.Response()

    webapp = web.Application()
    webapp.router.add_route("POST", urlsplit(url).path or "/", hook)
    await listen(webapp, sharing.dispatcher.resolve_used_update_types())

"""``App.run`` on PostgreSQL, where several processes share the work (bot/cluster/sharing.py,
docs/scaling.md): the dispatcher's startup, then the sharing loop until stopped; with
WEBHOOK_URL, this process's webhook server writes what it receives to the inbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.cluster.sharing import Sharing
from bot.telegram.webhook import secret_matches
from storage.backends import DatabaseUnavailable

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger("bot")

HANDLERS_FINISH_S = 5.0  # updates being handled at a stop; the rest is the next holder's


async def run_shared(app: App, sharing: Sharing, *, handle_signals: bool) -> None:
    from bot.startup import StartupError

    try:
        await sharing.join()
    except (OSError, TimeoutError, DatabaseUnavailable) as e:
        raise StartupError(f"cannot join the other processes on "
                           f"{app.settings.database_label}: {e}") from None
    dispatcher = sharing.dispatcher
    data = {"dispatcher": dispatcher, "bots": [app.bot], **dispatcher.workflow_data}
    await dispatcher.emit_startup(bot=app.bot, **data)
    if app.settings.webhook_url is not None:
        await serve_webhook(app, sharing)
    running = asyncio.create_task(sharing.run())
    try:
        await app.wait_stopping(handle_signals)
    finally:
        sharing.stop_receiving()
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await sharing.finish(HANDLERS_FINISH_S)
        await dispatcher.emit_shutdown(bot=app.bot, **data)


async def serve_webhook(app: App, sharing: Sharing) -> None:
    """Telegram's POSTs (``X-Telegram-Bot-Api-Secret-Token`` must carry WEBHOOK_SECRET, else
    401): each update written to the inbox with its club before the 200."""
    from urllib.parse import urlsplit

    settings = app.settings
    url = settings.webhook_url
    assert url is not None and settings.webhook_secret is not None
    secret = settings.webhook_secret.get_secret_value().encode()

    async def hook(request: web.Request) -> web.Response:
        if not secret_matches(request, secret):
            return web.Response(status=401)
        # answered 200 all the same when it cannot be read: Telegram resends anything else
        parsed, raw = app.update_reader.parse(await request.read())
        if not parsed or app.update_reader.read(raw, app.bot) is None:  # logged, counted
            return web.Response()
        assert isinstance(raw, dict)  # (what the reader read: an update's JSON object)
        await sharing.receive([raw])  # the holders woken
        return web.Response()

    webapp = web.Application()
    webapp.router.add_route("POST", urlsplit(url).path or "/", hook)
    await app.listen_webhook(webapp, sharing.dispatcher.resolve_used_update_types())

"""The webhook's request handler (one process on SQLite): Telegram POSTs each update.

Telegram resends an update until it gets a 2xx, so whatever the body, once the secret is right
the answer is 200: an update aiogram cannot validate (or a body that is no JSON) is logged and
counted (:class:`~bot.telegram.updates.UpdateReader`) and goes no further; aiogram's own
handler answered it 500, and Telegram sent it again and again, holding back every update after
it. A good update is handled in the background (as aiogram's ``handle_in_background``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiohttp import web

from bot.config import Settings
from bot.startup import StartupError
from bot.telegram.updates import UpdateReader, handle_update

log = logging.getLogger("bot")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def secret_matches(request: web.Request, secret: bytes) -> bool:
    """The header against WEBHOOK_SECRET in constant time (a ``!=`` stops at the first wrong
    byte, which a guesser can time); a header that is not ASCII compares, never raises."""
    given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
    return secrets.compare_digest(given, secret)


class WebhookHandler:
    """``webapp.router.add_route("POST", path, handler.handle)``."""

    def __init__(self, dispatcher: Dispatcher, bot: Bot, reader: UpdateReader, *,
                 secret: str) -> None:
        self.dispatcher = dispatcher
        self.bot = bot
        self.reader = reader
        self.secret = secret.encode()
        self.tasks: set[asyncio.Task[Any]] = set()  # kept referenced while they run

    async def handle(self, request: web.Request) -> web.Response:
        if not secret_matches(request, self.secret):
            return web.Response(status=401, text="Unauthorized")
        parsed, raw = self.reader.parse(await request.read())
        if not parsed:
            return web.json_response({})
        update = self.reader.read(raw, self.bot)
        if update is not None:
            task = asyncio.create_task(handle_update(self.dispatcher, self.bot, update),
                                       name=f"update:{update.update_id}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return web.json_response({})


async def listen_webhook(bot: Bot, settings: Settings, webapp: web.Application,
                         allowed_updates: list[str]) -> web.AppRunner:
    """Serve ``webapp`` on WEBHOOK_HOST:WEBHOOK_PORT, then ``setWebhook`` with the secret;
    either failing is one line (:class:`StartupError`). The runner is the caller's to clean up
    (once it is returned, or already when ``setWebhook`` fails)."""
    url = settings.webhook_url
    assert url is not None and settings.webhook_secret is not None
    runner = web.AppRunner(webapp, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.webhook_host, settings.webhook_port).start()
    except OSError as e:
        await runner.cleanup()
        raise StartupError(
            f"cannot listen for the webhook on port {settings.webhook_port}: {e}") from None
    try:
        await bot.set_webhook(
            url, secret_token=settings.webhook_secret.get_secret_value(),
            drop_pending_updates=False, allowed_updates=allowed_updates)
    except TelegramAPIError as e:
        await runner.cleanup()
        raise StartupError(f"setWebhook {url} failed: {e.message}") from None
    log.info("webhook", extra={"url": url, "port": settings.webhook_port})
    return runner

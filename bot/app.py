"""The application: :func:`create_app` opens the database and the Bot API's session and has
bot/wiring.py build every part; :class:`App` runs them (long polling, the webhook, or the
processes' sharing on PostgreSQL) and stops them in order. The same one ``python -m bot`` and
the flow tests use."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramUnauthorizedError,
)
from aiogram.types import User
from aiohttp import web

from bot.clock import Clock, utc_now
from bot.cluster.shared_run import run_shared
from bot.cluster.sharing import Sharing
from bot.config import LOCALES, Settings
from bot.delivery.sender import Limits
from bot.game.timers import stop_scheduler
from bot.handlers.menus import register_commands, register_menu_button
from bot.metrics import Metrics
from bot.miniapp.links import player_app_url
from bot.services import Services
from bot.startup import StartupError as StartupError  # where the importers found it
from bot.telegram.polling import poll_until
from bot.telegram.session import BotSession
from bot.telegram.webhook import WebhookHandler, listen_webhook
from bot.wiring import (
    Container,
    DeliveryInputs,
    EveningInputs,
    GameInputs,
    SendingInputs,
    build,
    mini_app_url,
)
from storage.backends import DatabaseUrlError
from storage.db import Database
from views.i18n import CatalogError, Translator, default_translator

log = logging.getLogger("bot")

STARTUP_TIMEOUT = 15
SHUTDOWN_FLUSH_SECONDS = 10  # posted messages still retrying get this long at shutdown
SHUTDOWN_DRAIN_SECONDS = 3  # the durable outbox: sent by the next start if not now
# Updates handled at once (long polling): the rest wait at Telegram, not in memory. Each one in
# flight holds its parsed Update and aiogram's middleware chain; a lobby burst with all of
# them in flight at once grows the memory the allocator keeps (docs/benchmarks.md, "Memory at
# N = 200").
UPDATES_IN_FLIGHT = 200


class DatabaseUnreachable(StartupError):
    """DATABASE_URL names no database the bot can reach (exit code 2, as for bad settings)."""

    exit_code = 2


@dataclass
class App:
    """One process's lifecycle over the parts bot/wiring.py built (``container``)."""

    settings: Settings
    bot: Bot
    container: Container
    clock: Clock = utc_now
    started: asyncio.Event = field(default_factory=asyncio.Event)
    # set by :meth:`stop`, a signal, or (PostgreSQL) this process's clubs lost to another
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    me: User | None = None
    web_runner: web.AppRunner | None = None
    webhook_runner: web.AppRunner | None = None
    updates_in_flight: int = UPDATES_IN_FLIGHT
    polling_timeout: int = 10  # seconds a getUpdates waits for an update

    @property
    def services(self) -> Services:
        return self.container.services

    @property
    def dispatcher(self) -> Dispatcher:
        return self.container.dispatcher

    @property
    def sharing(self) -> Sharing | None:
        return self.container.sharing

    @property
    def metrics(self) -> Metrics:
        return self.container.metrics

    async def check_api(self) -> User:
        """getMe: fails fast with a clear message when the API is unreachable or the token bad."""
        return await self.check_api_of(self.bot, self.settings)

    @staticmethod
    async def check_api_of(bot: Bot, settings: Settings) -> User:
        url = settings.telegram_api_url
        try:
            return await bot.get_me(request_timeout=STARTUP_TIMEOUT)
        except TelegramUnauthorizedError:
            raise StartupError(f"the Bot API at {url} rejected BOT_TOKEN (Unauthorized)") from None
        except TelegramNetworkError as e:
            raise StartupError(f"cannot reach the Bot API at {url}: {e.message}") from None
        except TelegramAPIError as e:
            raise StartupError(f"the Bot API at {url} answered: {e.message}") from None
        except TimeoutError:
            raise StartupError(f"cannot reach the Bot API at {url}: timed out") from None
        except ClientDecodeError:  # e.g. a proxy's HTML page instead of the Bot API's JSON
            raise StartupError(
                f"the Bot API at {url} did not answer JSON (is TELEGRAM_API_URL a Bot API "
                "server?)") from None

    async def run(self, *, handle_signals: bool = True) -> None:
        """Start long polling (or the webhook server when WEBHOOK_URL is set) until
        SIGTERM/SIGINT (or :meth:`stop`), then shut down cleanly."""
        c = self.container
        try:
            self.me = await self.check_api()
            if self.settings.webhook_url is None and c.sharing is None:
                await self.bot.delete_webhook(drop_pending_updates=False)
            await self.register_menus()
            if c.sharing is None:
                c.jobs.arm()  # several processes: the one holding the expiry role
            c.scheduler.start()
            await self.start_web()
            await c.observability.start()
            log.info("started", extra={"bot": self.me.username, "bot_id": self.me.id,
                                       "api": self.settings.telegram_api_url,
                                       "db": self.settings.database_label})
            self.dispatcher.startup.register(self._mark_started)
            if c.sharing is not None:
                await run_shared(c.sharing, self.bot, self.settings, c.update_reader,
                                 partial(self.wait_stopping, handle_signals),
                                 self.listen_webhook)
            elif self.settings.webhook_url is not None:
                await self.run_webhook(handle_signals=handle_signals)
            else:
                await poll_until(self.wait_stopping(handle_signals), self.bot, self.dispatcher,
                                 c.update_reader, polling_timeout=self.polling_timeout,
                                 in_flight=self.updates_in_flight)
        finally:
            await self.close()

    async def register_menus(self) -> None:
        """The commands' menus and the menu button: a convenience, so the bot runs without."""
        tr, locale = self.services.translator, self.settings.default_locale
        try:
            await register_commands(self.bot, tr, locale,
                                    await self.services.permissions.network_staff())
        except TelegramAPIError as e:
            log.warning("could not register commands", extra={"error": str(e)})
        try:
            await register_menu_button(
                self.bot, tr, locale,
                player_app_url(self.settings.web_url, self.settings.web_port))
        except TelegramAPIError as e:
            log.warning("could not set the menu button", extra={"error": str(e)})

    async def listen_webhook(self, webapp: web.Application, allowed_updates: list[str]) -> None:
        """Serve ``webapp`` and ``setWebhook`` (bot/telegram/webhook.py); its runner is
        cleaned up first at :meth:`close`."""
        self.webhook_runner = await listen_webhook(self.bot, self.settings, webapp,
                                                   allowed_updates)

    async def run_webhook(self, *, handle_signals: bool) -> None:
        """Webhook mode: our request handler (bot/telegram/webhook.py: a malformed update is
        answered 200 and skipped) on an aiohttp server; Telegram's
        ``X-Telegram-Bot-Api-Secret-Token`` header must carry WEBHOOK_SECRET (else 401, and
        nothing is processed). setWebhook is called once the server listens."""
        from urllib.parse import urlsplit

        from aiogram.webhook.aiohttp_server import setup_application

        settings = self.settings
        url = settings.webhook_url
        assert url is not None and settings.webhook_secret is not None
        secret = settings.webhook_secret.get_secret_value()
        webapp = web.Application()
        handler = WebhookHandler(self.dispatcher, self.bot, self.container.update_reader,
                                 secret=secret)
        webapp.router.add_route("POST", urlsplit(url).path or "/", handler.handle)
        setup_application(webapp, self.dispatcher, bot=self.bot)
        # the runner's setup runs the dispatcher's startup (games restored)
        await self.listen_webhook(webapp, self.dispatcher.resolve_used_update_types())
        await self.wait_stopping(handle_signals)

    async def wait_stopping(self, handle_signals: bool) -> None:
        """Until ``stopping`` is set: by :meth:`stop`, or by SIGTERM/SIGINT when
        ``handle_signals``."""
        loop = asyncio.get_running_loop()
        signals = (signal.SIGTERM, signal.SIGINT) if handle_signals else ()
        for sig in signals:
            loop.add_signal_handler(sig, self.stopping.set)
        try:
            await self.stopping.wait()
        finally:
            for sig in signals:
                loop.remove_signal_handler(sig)

    async def start_web(self) -> None:
        """The read-only web pages (web/) and the Mini Apps, when WEB_PORT is set."""
        port = self.settings.web_port
        if port is None and mini_app_url(self.settings.web_url):
            log.warning("WEB_URL is public HTTPS but WEB_PORT is unset: the host's panel shows "
                        "the Mini App's button, and this process does not serve the Mini App")
        if port is None or self.web_runner is not None:
            return
        from web.app import create_web_app, start_web

        app = create_web_app(self.services.db, translator=self.services.translator,
                             now=self.clock, zone=self.settings.timezone)
        install_mini_apps(app, self.container, self.bot, self.settings)
        try:
            self.web_runner = await start_web(app, port, self.settings.web_host)
        except OSError as e:
            raise StartupError(f"cannot serve the web pages on port {port}: {e}") from None
        log.info("web pages", extra={"port": port})

    async def _mark_started(self) -> None:
        self.started.set()

    async def stop(self) -> None:
        """Stop polling or the webhook (the way a signal does); :meth:`run` then returns."""
        self.stopping.set()

    async def close(self) -> None:
        """Stop order: no new updates, no new jobs; running jobs cancelled quietly (what they
        had not posted is re-armed at the next start); posted messages flushed; then storage
        and the session."""
        c = self.container
        try:
            if self.webhook_runner is not None:
                await self.webhook_runner.cleanup()  # the dispatcher's shutdown runs here
                self.webhook_runner = None
            await stop_scheduler(c.scheduler, c.guard)
            await c.handlers.finish()  # before storage closes under them
            await c.guard.stop()
            await c.games.steps.writes.drain()  # the steps' writes, before storage closes
            if self.web_runner is not None:
                await self.web_runner.cleanup()
                self.web_runner = None
            await c.observability.stop()
            await self.services.sender.flush(within=SHUTDOWN_FLUSH_SECONDS)
            await self.services.delivery.stop(within=SHUTDOWN_DRAIN_SECONDS)  # the rest stays
        finally:
            # whatever failed above: the database's threads would keep the process alive
            try:
                await self.services.db.close()
            finally:
                try:
                    await self.bot.session.close()
                finally:
                    if c.sharing is not None:  # its clubs' locks go last
                        await c.sharing.close()
        log.info("stopped")


def install_mini_apps(app: web.Application, c: Container, bot: Bot, settings: Settings) -> None:
    """The host's Mini App (where the games are) and the player's beside it: its actions go
    through the shop and the evenings of this process (the services the commands use)."""
    from bot.miniapp.photos import GiftPhotos, telegram_fetch
    from bot.miniapp.player import PlayerApp, install_player_app
    from bot.miniapp.player_view import PlayerReads
    from bot.miniapp.server import TELEGRAM_JS, install_host_app

    token, s = settings.bot_token.get_secret_value(), c.services
    install_host_app(app, c.games, token, sharing=c.sharing)
    reads = PlayerReads(s.db, s.accounts, s.stats, s.shop, c.evenings, s.translator,
                        zone=settings.timezone)
    install_player_app(app, PlayerApp(reads, GiftPhotos(telegram_fetch(bot)), token,
                                      s.accounts.clock, TELEGRAM_JS))


def load_translations() -> Translator:
    """The packaged texts; a missing or incomplete ``locales`` stops the start-up."""
    try:
        translator = default_translator()
    except CatalogError as e:
        raise StartupError(f"translations missing: {e}") from None
    missing = [locale for locale in LOCALES if locale not in translator.catalogs]
    if missing:
        raise StartupError(f"translations missing for {', '.join(missing)}")
    return translator


async def open_database(settings: Settings) -> Database:
    try:
        return await Database.open(settings.database, pool_size=settings.database_pool_size)
    except DatabaseUrlError as e:
        raise DatabaseUnreachable(str(e)) from None
    except Exception as e:
        raise StartupError(f"cannot open the database {settings.database_label}: {e}") from None


async def health_check(settings: Settings) -> str:
    """``python -m bot check``: texts load, the database opens, getMe answers; one line back.

    Raises :class:`StartupError` (its message is the one line) when something is wrong.
    """
    load_translations()
    db = await open_database(settings)
    try:
        bot = make_bot(settings)
        try:
            me = await App.check_api_of(bot, settings)
        finally:
            await bot.session.close()
    finally:
        await db.close()
    return f"ok: @{me.username or me.id} answers, database {settings.database_label} opens"


def make_bot(settings: Settings) -> Bot:
    session = BotSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
    return Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


async def create_app(
    settings: Settings,
    *,
    limits: Limits | None = None,
    clock: Clock = utc_now,
    translator: Translator | None = None,
    on_lost: Callable[[], None] | None = None,
    game: GameInputs | None = None,
    evening: EveningInputs | None = None,
    delivery_time: DeliveryInputs | None = None,
    sending_time: SendingInputs | None = None,
    in_flight: int = UPDATES_IN_FLIGHT,
    polling_timeout: int = 10,
) -> App:
    """Open the database and the Bot API's session; bot/wiring.py builds the rest. ``on_lost``:
    this process's clubs were lost to another process (PostgreSQL; ``python -m bot`` exits at
    once, bot/cluster/standby.py); by default a stop. ``game``: the game layer's time and
    chance (:class:`~bot.wiring.GameInputs`), ``evening``: the evenings' time
    (:class:`~bot.wiring.EveningInputs`), ``delivery_time`` and ``sending_time``: the durable
    delivery's and the sender's (:class:`~bot.wiring.DeliveryInputs`,
    :class:`~bot.wiring.SendingInputs`); real ones by default. ``in_flight``: the updates
    handled at once; ``polling_timeout``: the seconds a getUpdates waits."""
    translator = translator or load_translations()
    db = await open_database(settings)
    bot = make_bot(settings)
    stopping = asyncio.Event()
    container = build(settings, db, bot, translator, clock=clock, limits=limits,
                      on_lost=on_lost or stopping.set, in_flight=in_flight,
                      polling_timeout=polling_timeout, game=game, evening=evening,
                      delivery_time=delivery_time, sending_time=sending_time)
    return App(settings, bot, container, clock, stopping=stopping, updates_in_flight=in_flight,
               polling_timeout=polling_timeout)

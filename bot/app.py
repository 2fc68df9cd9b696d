"""The application builder: the same one ``python -m bot`` and the flow tests use."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

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
from aiogram.types import Update, User
from aiohttp import web
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.cluster.receiving import InboxDispatcher
from bot.cluster.share import ProcessRole
from bot.cluster.shared_run import run_shared
from bot.cluster.sharing import Sharing
from bot.config import LOCALES, Settings
from bot.delivery.replies import Replies
from bot.delivery.sender import Limits, TelegramSender
from bot.delivery.worker import Delivery
from bot.evenings.service import EveningService
from bot.game.callbacks import is_in_game_press
from bot.game.service import GameService
from bot.game.timers import JobGuard, stop_scheduler
from bot.handlers import get_routers
from bot.handlers.menus import register_commands, register_menu_button
from bot.metrics import Metrics, RequestMetrics, Sampler, UpdateMetrics
from bot.metrics import serve as serve_metrics
from bot.miniapp.links import player_app_url
from bot.services import Services
from bot.services.accounts import Accounts, Clock, utc_now
from bot.services.admin import Admin
from bot.services.alerts import OpsAlerts, lasted, network_checks, overdue, table_checks
from bot.services.catalogue import Catalogue
from bot.services.chats import ChatMoves
from bot.services.club_life import ClubLife
from bot.services.club_settings import ClubSettings
from bot.services.expiry import ExpiryReport, run_expiry
from bot.services.moving import Moving
from bot.services.network import NetworkSettings
from bot.services.permissions import Permissions
from bot.services.seasons import SeasonEnds
from bot.services.shop import Shop
from bot.services.staff import StaffDesk
from bot.services.status import Status
from bot.services.voids import VoidService
from bot.startup import StartupError as StartupError  # where the importers found it
from bot.telegram.flood import ClubAnswers, FloodGuard
from bot.telegram.middlewares import AdminOnly, BlockedInGame, ContextMiddleware
from bot.telegram.polling import poll_until
from bot.telegram.session import BotSession
from bot.telegram.shutdown import HandlersInFlight
from bot.telegram.updates import UpdateReader
from bot.telegram.webhook import WebhookHandler
from bot.wiring import (
    game_routers,
    hosts_there,
    install_evenings,
    install_games,
    mini_app_url,
    start_games,
)
from storage.backends import DatabaseUrlError
from storage.dates import local_day, zone_of
from storage.db import Database
from views.i18n import CatalogError, Translator, default_translator
from views.stats import StatsService

log = logging.getLogger("bot")

EXPIRY_HOUR_UTC = 7  # the daily expiry job (warnings and burns) runs at 07:00 UTC
SHOP_MINUTE = 30  # the gift requests not handed over in time close every hour at :30
SEASON_MINUTE = 20  # a closed season's picture to each club's chat: checked every hour at :20
OUTBOX_PRUNE_MINUTE = 15  # the sent messages past OUTBOX_KEEP_DAYS lose their words at 07:15
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
    settings: Settings
    bot: Bot
    dispatcher: Dispatcher
    services: Services
    scheduler: AsyncIOScheduler
    clock: Clock = utc_now
    started: asyncio.Event = field(default_factory=asyncio.Event)
    me: User | None = None
    web_runner: web.AppRunner | None = None
    webhook_runner: web.AppRunner | None = None
    guard: JobGuard = field(default_factory=JobGuard)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    updates_in_flight: int = UPDATES_IN_FLIGHT
    sharing: Sharing | None = None  # PostgreSQL: the work shared with other processes
    # the locks of this process's clubs were lost to another process: ``python -m bot`` exits
    # at once (bot/cluster/standby.py); by default (tests) a stop
    on_lost: Callable[[], None] | None = None
    # the updates being handled, waited for at a stop (before any other outer middleware)
    handlers: HandlersInFlight = field(default_factory=HandlersInFlight)
    # every update read alone (long polling, the webhook): the malformed ones skipped, counted
    update_reader: UpdateReader = field(default_factory=UpdateReader)
    metrics: Metrics = field(default_factory=Metrics)
    metrics_runner: web.AppRunner | None = None
    sampler: Sampler | None = None
    sampling: asyncio.Task[None] | None = None
    alerts: OpsAlerts | None = None  # OPS_CHAT_ID: the operators' alerts
    alerting: asyncio.Task[None] | None = None
    _told: set[asyncio.Task[None]] = field(default_factory=set)
    flood: FloodGuard = field(init=False)  # each user's rate bound (bot/telegram/flood.py)

    def __post_init__(self) -> None:
        self.dispatcher.update.outer_middleware(self.handlers)
        self.dispatcher.update.outer_middleware(UpdateMetrics(self.metrics))
        self.flood = FloodGuard(self.settings.flood_burst, self.settings.flood_per_second,
                                self._slow_down, exempt=_game_press,
                                on_drop=self.metrics.flood_dropped.inc)
        self.dispatcher.update.outer_middleware(self.flood)
        self.bot.session.middleware(RequestMetrics(self.metrics))
        self.update_reader.kinds = self.dispatcher.resolve_used_update_types()
        self.update_reader.on_skip = lambda why: self.metrics.skipped.labels(why).inc()
        self.services.replies.on_withheld = self.metrics.answers_withheld.inc

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

    async def daily_expiry(self) -> ExpiryReport:
        s = self.services
        # the expiry is the network's rule: its day is the network's (TIMEZONE), whatever club
        today = local_day(self.clock(), zone_of(None, self.settings.timezone))
        report = await run_expiry(s.db, s.sender, s.translator, today,
                                  self.settings.default_locale)
        shop = s.extra.get("shop")
        if isinstance(shop, Shop):  # the gift requests the burns closed, told
            await shop.tell()
        return report

    async def prune_outbox(self) -> int:
        """The daily prune of sent messages (OUTBOX_KEEP_DAYS): how many rows."""
        delivery = self.services.extra.get("delivery")
        if not isinstance(delivery, Delivery):
            return 0
        pruned = await delivery.prune(self.settings.outbox_keep_days)
        log.info("outbox pruned", extra={"rows": pruned,
                                         "keep_days": self.settings.outbox_keep_days})
        return pruned

    async def shop_requests(self) -> int:
        """The gift requests not handed over in time closed; every untold change told."""
        shop = self.services.extra.get("shop")
        return await shop.expire_overdue() if isinstance(shop, Shop) else 0

    async def season_ends(self) -> int:
        """Each club's picture of the season that ended, queued once (bot/services/seasons.py)."""
        ends = self.services.extra.get("season_ends")
        return await ends.run() if isinstance(ends, SeasonEnds) else 0

    async def run(self, *, handle_signals: bool = True, polling_timeout: int = 10) -> None:
        """Start long polling (or the webhook server when WEBHOOK_URL is set) until
        SIGTERM/SIGINT (or :meth:`stop`), then shut down cleanly."""
        try:
            self.me = await self.check_api()
            if self.settings.webhook_url is None and self.sharing is None:
                await self.bot.delete_webhook(drop_pending_updates=False)
            try:
                await register_commands(self.bot, self.services.translator,
                                        self.settings.default_locale,
                                        await self.services.permissions.network_staff())
            except TelegramAPIError as e:  # menus are a convenience: run without them
                log.warning("could not register commands", extra={"error": str(e)})
            try:
                await register_menu_button(
                    self.bot, self.services.translator, self.settings.default_locale,
                    player_app_url(self.settings.web_url, self.settings.web_port))
            except TelegramAPIError as e:
                log.warning("could not set the menu button", extra={"error": str(e)})
            if self.sharing is None:
                self.arm_expiry()  # several processes: the one holding the expiry role
            self.scheduler.start()
            await self.start_web()
            await self.start_metrics()
            log.info("started", extra={"bot": self.me.username, "bot_id": self.me.id,
                                       "api": self.settings.telegram_api_url,
                                       "db": self.settings.database_label})
            self.dispatcher.startup.register(self._mark_started)
            if self.sharing is not None:
                self.sharing.polling_timeout = polling_timeout
                self.sharing.in_flight = self.updates_in_flight
                await run_shared(self, self.sharing, handle_signals=handle_signals)
            elif self.settings.webhook_url is not None:
                await self.run_webhook(handle_signals=handle_signals)
            else:
                await self.run_polling(handle_signals=handle_signals,
                                       polling_timeout=polling_timeout)
        finally:
            await self.close()

    def arm_expiry(self) -> None:
        """The daily expiry, the daily prune of sent messages, the shop's and the seasons'
        hourly jobs: on
        one process (the one holding the expiry role on PostgreSQL); each is idempotent, so a
        catch-up at start is safe."""
        self.scheduler.add_job(
            self.guard.wrap("expiry", self.daily_expiry),
            CronTrigger(hour=EXPIRY_HOUR_UTC, minute=0, timezone=UTC),
            id="expiry", replace_existing=True, coalesce=True, misfire_grace_time=6 * 3600,
            next_run_time=datetime.now(UTC),  # catch up at start; storage is idempotent
        )
        # beside the daily expiry, on the process that holds its role: one prune a day is
        # enough, and two processes pruning at once would only repeat each other's work
        self.scheduler.add_job(
            self.guard.wrap("outbox_prune", self.prune_outbox),
            CronTrigger(hour=EXPIRY_HOUR_UTC, minute=OUTBOX_PRUNE_MINUTE, timezone=UTC),
            id="outbox_prune", replace_existing=True, coalesce=True,
            misfire_grace_time=6 * 3600, next_run_time=datetime.now(UTC),
        )
        self.scheduler.add_job(
            self.guard.wrap("shop", self.shop_requests),
            CronTrigger(minute=SHOP_MINUTE, timezone=UTC),
            id="shop", replace_existing=True, coalesce=True, misfire_grace_time=3600,
            next_run_time=datetime.now(UTC),
        )
        self.scheduler.add_job(
            self.guard.wrap("seasons", self.season_ends),
            CronTrigger(minute=SEASON_MINUTE, timezone=UTC),
            id="seasons", replace_existing=True, coalesce=True, misfire_grace_time=3600,
            next_run_time=datetime.now(UTC),  # catch up at start; posted once whatever runs
        )

    async def listen_webhook(self, webapp: web.Application, allowed_updates: list[str]) -> None:
        """Serve ``webapp`` on WEBHOOK_HOST:WEBHOOK_PORT, then ``setWebhook`` with the secret;
        either failing is one line (:class:`StartupError`)."""
        settings = self.settings
        url = settings.webhook_url
        assert url is not None and settings.webhook_secret is not None
        self.webhook_runner = web.AppRunner(webapp, access_log=None)
        await self.webhook_runner.setup()
        try:
            await web.TCPSite(self.webhook_runner, settings.webhook_host,
                              settings.webhook_port).start()
        except OSError as e:
            raise StartupError(
                f"cannot listen for the webhook on port {settings.webhook_port}: {e}") from None
        try:
            await self.bot.set_webhook(
                url, secret_token=settings.webhook_secret.get_secret_value(),
                drop_pending_updates=False, allowed_updates=allowed_updates)
        except TelegramAPIError as e:
            raise StartupError(f"setWebhook {url} failed: {e.message}") from None
        log.info("webhook", extra={"url": url, "port": settings.webhook_port})

    async def run_polling(self, *, handle_signals: bool, polling_timeout: int) -> None:
        """Long polling (bot/telegram/polling.py: each update of a batch read alone, a
        malformed one skipped) until ``stopping`` is set (by :meth:`stop`, or by SIGTERM/SIGINT
        when ``handle_signals``)."""
        await poll_until(self.wait_stopping(handle_signals), self.bot, self.dispatcher,
                         self.update_reader, polling_timeout=polling_timeout,
                         in_flight=self.updates_in_flight)

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
        handler = WebhookHandler(self.dispatcher, self.bot, self.update_reader, secret=secret)
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
        """The read-only web pages (web/) and the host's Mini App, when WEB_PORT is set."""
        port = self.settings.web_port
        if port is None and mini_app_url(self.settings.web_url):
            log.warning("WEB_URL is public HTTPS but WEB_PORT is unset: the host's panel shows "
                        "the Mini App's button, and this process does not serve the Mini App")
        if port is None or self.web_runner is not None:
            return
        from web.app import create_web_app, start_web

        app = create_web_app(self.services.db, translator=self.services.translator,
                             today=lambda: self.clock().date())
        games = self.services.extra.get("games")
        if isinstance(games, GameService):  # the host's Mini App lives where the games do
            from bot.miniapp.server import install_host_app

            install_host_app(app, games, self.settings.bot_token.get_secret_value(),
                             sharing=self.sharing)
        self.install_player_app(app)
        try:
            self.web_runner = await start_web(app, port, self.settings.web_host)
        except OSError as e:
            raise StartupError(f"cannot serve the web pages on port {port}: {e}") from None
        log.info("web pages", extra={"port": port})

    def install_player_app(self, app: web.Application) -> None:
        """The player's Mini App beside the host's: its actions go through the shop and the
        evenings of this process (the services the commands use)."""
        from bot.miniapp.photos import GiftPhotos, telegram_fetch
        from bot.miniapp.player import PlayerApp, install_player_app
        from bot.miniapp.player_view import PlayerReads
        from bot.miniapp.server import TELEGRAM_JS

        s = self.services
        evenings = s.extra.get("evenings")
        reads = PlayerReads(s.db, s.accounts, s.extra["stats"], s.extra["shop"],
                            evenings if isinstance(evenings, EveningService) else None,
                            s.translator, zone=self.settings.timezone)
        install_player_app(app, PlayerApp(reads, GiftPhotos(telegram_fetch(self.bot)),
                                          self.settings.bot_token.get_secret_value(),
                                          s.accounts.clock, TELEGRAM_JS))

    async def _slow_down(self, update: Update) -> None:
        """The one answer of a flood (bot/telegram/flood.py): in the private chat or the
        button's answer; nothing in a group."""
        user = (update.message.from_user if update.message is not None
                else update.callback_query.from_user if update.callback_query is not None
                else None)
        code = (user.language_code or "")[:2] if user is not None else ""
        locale = code if code in LOCALES else self.settings.default_locale
        text = self.services.translator.t(locale, "misc.slow_down")
        if update.callback_query is not None:
            await self.services.sender.answer(update.callback_query, text)
        elif update.message is not None and update.message.chat.type == "private":
            await self.services.replies.send_text(update.message.chat.id, text)

    def totals(self) -> tuple[float, float]:
        """The updates handled and the messages sent since the start."""
        sent = sum(sample.value for family in self.metrics.requests.collect()
                   for sample in family.samples
                   if sample.name.endswith("_total") and sample.labels["outcome"] == "ok"
                   and sample.labels["method"].startswith("send"))
        return Metrics.total(self.metrics.updates), sent

    def late_tables(self) -> list[tuple[int, datetime]]:
        """Each open, unpaused table of this process with a deadline: its game and the
        earliest (the alerts' and the metrics' stuck tables)."""
        games = self.services.extra.get("games")
        if not isinstance(games, GameService):
            return []
        return [(t.game_id, min(t.deadlines.values())) for t in games.tables.values()
                if t.open and not t.paused and t.deadlines]

    async def start_metrics(self) -> None:
        """Prometheus' ``/metrics`` on METRICS_PORT (bot/metrics.py), and the gauges' sampling."""
        games = self.services.extra.get("games")

        def open_games() -> int:
            return len(games.tables) if isinstance(games, GameService) else 0

        if self.sampling is None:
            status = self.services.status
            self.sampler = Sampler(self.metrics, self.services.db, open_games,
                                   also=(lambda: status.rates.add(*self.totals()))
                                   if status is not None else None,
                                   overdue=lambda: len(overdue(self.late_tables(),
                                                               self.clock())))
            self.sampling = asyncio.get_running_loop().create_task(self.sampler.run(),
                                                                   name="metrics")
            self.start_alerts(self.sampler)
        port = self.settings.metrics_port
        if port is None or self.metrics_runner is not None:
            return
        try:
            self.metrics_runner = await serve_metrics(self.metrics, port,
                                                      self.settings.metrics_host)
        except OSError as e:
            raise StartupError(f"cannot serve the metrics on port {port}: {e}") from None
        log.info("metrics", extra={"port": port, "host": self.settings.metrics_host})

    def start_alerts(self, sampler: Sampler) -> None:
        """OPS_CHAT_ID: the operators' alerts (bot/services/alerts.py). The network's checks
        run where the outbox is sent (the sender's process); a table's where the table is."""
        chat = self.settings.ops_chat_id
        if chat is None or self.alerting is not None:
            return
        sharing, sender = self.sharing, self.services.sender

        network = network_checks(
            sampler, lambda: Metrics.total(self.metrics.requests, outcome="retry_after"))

        def network_here() -> Mapping[str, Mapping[str, Any]]:
            if sharing is not None and ProcessRole.SENDER not in sharing.conn.roles:
                return {}
            return network()

        async def post(text: str) -> None:
            await sender.send_text(chat, text)

        alerts = OpsAlerts(post, self.services.translator, self.settings.default_locale,
                           [network_here, table_checks(
                               self.late_tables, lambda: Metrics.total(self.metrics.skipped),
                               self.clock)])
        self.alerts = alerts
        loop = asyncio.get_running_loop()
        self.alerting = loop.create_task(alerts.run(), name="alerts")
        if sharing is not None:
            def told(lost: list[int], roles: list[str], clubs: int, seconds: float) -> None:
                tr, locale = self.services.translator, self.settings.default_locale
                names = ", ".join(tr.t(locale, f"admin.status_role_{r}") for r in roles)
                what = [tr.t(locale, "ops.what.roles", roles=names)] if roles else []
                if clubs:
                    what.append(tr.t(locale, "ops.what.clubs", clubs=clubs))
                task = loop.create_task(alerts.tell(
                    "takeover" if lost else "takeover_unknown", lost=", ".join(map(str, lost)),
                    session=str(sharing.conn.pid), what="; ".join(what),
                    lasted=lasted(seconds)))
                self._told.add(task)
                task.add_done_callback(self._told.discard)

            sharing.on_takeover = told

    async def _mark_started(self) -> None:
        self.started.set()

    async def stop(self) -> None:
        """Stop polling or the webhook (the way a signal does); :meth:`run` then returns."""
        self.stopping.set()

    async def close(self) -> None:
        """Stop order: no new updates, no new jobs; running jobs cancelled quietly (what they
        had not posted is re-armed at the next start); posted messages flushed; then storage
        and the session."""
        try:
            if self.webhook_runner is not None:
                await self.webhook_runner.cleanup()  # the dispatcher's shutdown runs here
                self.webhook_runner = None
            await stop_scheduler(self.scheduler, self.guard)
            await self.handlers.finish()  # before storage closes under them
            await self.guard.stop()
            games = self.services.extra.get("games")
            if isinstance(games, GameService):
                await games.core.writes.drain()  # the steps' writes, before storage closes
            if self.web_runner is not None:
                await self.web_runner.cleanup()
                self.web_runner = None
            for task in (self.alerting, *self._told):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            self.alerting = None
            if self.sampling is not None:
                self.sampling.cancel()
                await asyncio.gather(self.sampling, return_exceptions=True)
                self.sampling = None
            if self.metrics_runner is not None:
                await self.metrics_runner.cleanup()
                self.metrics_runner = None
            await self.services.sender.flush(within=SHUTDOWN_FLUSH_SECONDS)
            delivery = self.services.extra.get("delivery")
            if isinstance(delivery, Delivery):
                await delivery.stop(within=SHUTDOWN_DRAIN_SECONDS)  # the rest stays queued
        finally:
            # whatever failed above: the database's threads would keep the process alive
            try:
                await self.services.db.close()
            finally:
                try:
                    await self.bot.session.close()
                finally:
                    if self.sharing is not None:  # its clubs' locks go last
                        await self.sharing.close()
        log.info("stopped")


def _game_press(update: Update) -> bool:
    query = update.callback_query
    return query is not None and is_in_game_press(query.data)


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
) -> App:
    """Open the database and wire bot, sender, services, routers and middlewares."""
    translator = translator or load_translations()
    db = await open_database(settings)
    bot = make_bot(settings)
    sender = TelegramSender(bot, limits=limits)
    delivery = Delivery(db, sender)
    accounts = Accounts(db, default_locale=settings.default_locale, clock=clock)
    permissions = Permissions.of(db, settings, bot)
    admin = Admin(db, accounts, permissions, clock=clock)
    sender.on_blocked(accounts.mark_bot_blocked)
    chat_moves = ChatMoves(db)
    sender.on_migrated(chat_moves.moved)
    services = Services(settings=settings, db=db, sender=sender, translator=translator,
                        accounts=accounts, admin=admin, replies=Replies(delivery, sender),
                        permissions=permissions, chat_moves=chat_moves)
    services.extra["stats"] = StatsService(db)
    services.extra["moving"] = Moving(accounts, permissions)
    services.extra["club_settings"] = ClubSettings(db, settings, permissions)
    club_life = ClubLife(db, accounts, permissions, translator, zone=settings.timezone,
                         clock=clock)
    club_life.enqueue = delivery.enqueue
    services.extra["club_life"] = club_life
    services.extra["delivery"] = delivery
    shop = Shop(db, accounts, translator, permissions,
                request_days=settings.gift_request_days, clock=clock)
    shop.queued = delivery.queued
    services.extra["shop"] = shop
    services.extra["catalogue"] = Catalogue(db, permissions, clock=clock)
    voids = VoidService(db, accounts, translator, permissions, clock=clock)
    voids.queued = delivery.queued
    services.extra["voids"] = voids
    services.extra["network"] = NetworkSettings(db, permissions, clock=clock,
                                                zone=settings.timezone)
    season_ends = SeasonEnds(db, translator, zone=settings.timezone, clock=clock,
                             wall=delivery.wall)
    season_ends.queued = delivery.queued
    services.extra["season_ends"] = season_ends
    services.extra["staff"] = StaffDesk(db, accounts, permissions, clock=clock)
    scheduler = AsyncIOScheduler(timezone=UTC)
    guard = JobGuard()
    games = install_games(services, scheduler, guard)
    evenings = install_evenings(services, scheduler, guard, clock)
    evenings.on_change = games.guests.list_changed  # a lobby's panel follows tonight's list
    services.replies.budget = ClubAnswers(hosts_there(services, games))
    chat_moves.on_moved(games.move_chat)
    chat_moves.on_moved(evenings.move_chat)
    # PostgreSQL: the inbox before the handlers (bot/cluster/receiving.py); SQLite: as ever
    dispatcher = (InboxDispatcher if db.backend == "postgresql" else Dispatcher)(
        **services.as_kwargs())
    context = ContextMiddleware(services)
    dispatcher.message.outer_middleware(context)
    dispatcher.callback_query.outer_middleware(context)
    blocked = BlockedInGame(services)
    routers = game_routers()
    for router in routers:
        router.message.middleware(blocked)
        router.callback_query.middleware(blocked)
    dispatcher.include_routers(*routers, *get_routers(admin_middleware=AdminOnly(services)))
    dispatcher.startup.register(start_games)
    app = App(settings, bot, dispatcher, services, scheduler, clock, guard=guard)
    services.status = Status(db, started=time.time(), totals=app.totals)
    if isinstance(dispatcher, InboxDispatcher):
        assert settings.database_url is not None
        dispatcher.use_inbox(db.inbox, reader=app.update_reader)
        games.shared = True
        app.sharing = Sharing(settings.database_url.get_secret_value(), bot, dispatcher, games,
                              delivery, db, evenings=evenings, arm_expiry=app.arm_expiry,
                              on_lost=lambda: (app.on_lost or app.stopping.set)(),
                              webhook=settings.webhook_url is not None,
                              in_flight=app.updates_in_flight)
        app.sharing.on_taken = lambda what: app.metrics.takeovers.labels(what).inc()
        services.status.processes = app.sharing.process_lines
        from bot.miniapp.server import install_host_calls  # the Mini App's requests for its holder

        install_host_calls(app.sharing.calls, games)
    return app

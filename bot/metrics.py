"""What the person on call reads: Prometheus metrics of one process, served on ``METRICS_PORT``.

prometheus-client's text format at ``/metrics`` (a port of its own, never the public pages'):
each process its own registry and its own endpoint, so Prometheus scrapes every process and
sums what it needs (docs/operations.md). The counters count what happened: every update the
dispatcher was given (by kind and outcome), every Bot API request (by method and outcome);
the gauges are read from the database and the games every few seconds. The update's
middleware also names the update (and its club) in every log line written while it is handled
(:func:`bot.logs.bind`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response, TelegramType
from aiogram.types import Chat, TelegramObject, Update
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from bot.logs import bind, unbind
from bot.telegram import Handler
from storage.backends import DatabaseUnavailable

if TYPE_CHECKING:
    from storage.db import Database

log = logging.getLogger("bot.metrics")

SAMPLE_EVERY_S = 5.0  # the gauges read from the database this often
# the handling time's buckets, seconds: a press is answered within tens of milliseconds
UPDATE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """One process's metrics, in a registry of its own (a test's app never sees another's)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)  # CPU, memory, open files of this process
        PlatformCollector(registry=r)
        self.updates = Counter("mafia_updates", "Updates handed to the dispatcher",
                               ["kind", "outcome"], registry=r)
        self.update_seconds = Histogram("mafia_update_seconds", "Time handling one update",
                                        buckets=UPDATE_BUCKETS, registry=r)
        self.skipped = Counter("mafia_updates_skipped",
                               "Updates skipped, logged: unreadable (malformed) or of a kind no"
                               " handler takes (no_handler)", ["reason"], registry=r)
        self.requests = Counter("mafia_telegram_requests", "Bot API requests",
                                ["method", "outcome"], registry=r)
        self.outbox_pending = Gauge("mafia_outbox_pending", "Outbox rows waiting to be sent",
                                    registry=r)
        self.outbox_oldest = Gauge("mafia_outbox_oldest_seconds",
                                   "Age of the oldest outbox row waiting", registry=r)
        self.games_running = Gauge("mafia_games_running",
                                   "Games open in this process (lobby, running, paused)",
                                   registry=r)
        self.games_overdue = Gauge("mafia_games_overdue",
                                   "Open tables of this process past their deadline with "
                                   "nothing happening", registry=r)
        self.takeovers = Counter("mafia_takeovers",
                                 "Roles and clubs this process took after its start",
                                 ["what"], registry=r)
        self.db_unavailable = Counter("mafia_database_unavailable_seconds",
                                      "Seconds the database could not be reached", registry=r)
        self.flood_dropped = Counter("mafia_flood_dropped",
                                     "Updates dropped by the per-user rate bound", registry=r)
        self.answers_withheld = Counter(
            "mafia_answers_withheld", "Answers to club members not given in a club chat (over "
            "the chat's budget for members)", registry=r)
        self.in_flight = Gauge("mafia_updates_in_flight", "Updates being handled now",
                               registry=r)

    def text(self) -> bytes:
        return generate_latest(self.registry)

    @staticmethod
    def total(counter: Counter, **labels: str) -> float:
        """A counter's count over all its label values (or those matching ``labels``)."""
        return sum(sample.value for family in counter.collect() for sample in family.samples
                   if sample.name.endswith("_total")
                   and all(sample.labels.get(k) == v for k, v in labels.items()))


class UpdateMetrics:
    """``dispatcher.update.outer_middleware(UpdateMetrics(metrics))``: each update counted by
    its kind (``message``, ``callback_query``, ...) and outcome (``handled``, ``unhandled``,
    ``error``, ``dropped`` by the per-user bound), and timed."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def __call__(self, handler: Handler, event: TelegramObject,
                       data: dict[str, Any]) -> Any:
        kind = event.event_type if isinstance(event, Update) else type(event).__name__
        outcome = "error"
        started = time.perf_counter()
        self.metrics.in_flight.inc()
        fields: dict[str, Any] = {}
        if isinstance(event, Update):
            fields["update_id"] = event.update_id
            chat: Chat | None = data.get("event_chat")  # aiogram's UserContextMiddleware
            if chat is not None and chat.type != "private":
                fields["club"] = chat.id
        token = bind(**fields)  # every line logged while it is handled names it
        try:
            result = await handler(event, data)
            # a middleware below may say what became of it (the flood bound: "dropped")
            outcome = data.get("outcome") or ("unhandled" if result is UNHANDLED else "handled")
            return result
        finally:
            unbind(token)
            self.metrics.in_flight.dec()
            self.metrics.update_seconds.observe(time.perf_counter() - started)
            self.metrics.updates.labels(kind, outcome).inc()


class RequestMetrics(BaseRequestMiddleware):
    """``bot.session.middleware(RequestMetrics(metrics))``: every Bot API request by method and
    outcome: ``ok``, ``retry_after`` (a 429), ``network`` (no answer), ``error`` (any other
    refusal)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def __call__(self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot,
                       method: TelegramMethod[TelegramType]) -> Response[TelegramType]:
        name = method.__api_method__
        try:
            response = await make_request(bot, method)
        except TelegramRetryAfter:
            self.metrics.requests.labels(name, "retry_after").inc()
            raise
        except (TelegramNetworkError, TimeoutError):
            self.metrics.requests.labels(name, "network").inc()
            raise
        except Exception:
            self.metrics.requests.labels(name, "error").inc()
            raise
        self.metrics.requests.labels(name, "ok").inc()
        return response


class Sampler:
    """Every :data:`SAMPLE_EVERY_S`: the outbox's backlog and oldest row, the games open here,
    and whether the database answers (the seconds it did not, counted)."""

    def __init__(self, metrics: Metrics, db: Database, games: Callable[[], int],
                 wall: Callable[[], float] = time.time,
                 also: Callable[[], None] | None = None,
                 overdue: Callable[[], int] = lambda: 0) -> None:
        self.metrics = metrics
        self.db = db
        self.games = games
        self.overdue = overdue  # the tables stuck past their deadline (bot/services/alerts.py)
        self.wall = wall
        self.also = also  # each sample (the rates /status gives)
        self.unavailable_since: float | None = None  # wall time of the last failed sample
        self.down_since: float | None = None  # wall time the current outage was first seen
        self.pending = 0  # the outbox as last read
        self.oldest: float | None = None  # wall time the oldest waiting row was queued

    async def sample(self) -> None:
        self.metrics.games_running.set(self.games())
        self.metrics.games_overdue.set(self.overdue())
        if self.also is not None:
            self.also()
        now = self.wall()
        try:
            pending, oldest = await self.db.outbox.backlog()
        except DatabaseUnavailable:
            if self.unavailable_since is not None:
                self.metrics.db_unavailable.inc(max(0.0, now - self.unavailable_since))
            else:
                self.down_since = now
            self.unavailable_since = now
            return
        if self.unavailable_since is not None:
            self.metrics.db_unavailable.inc(max(0.0, now - self.unavailable_since))
            self.unavailable_since = None
        self.down_since = None
        self.pending, self.oldest = pending, oldest
        self.metrics.outbox_pending.set(pending)
        self.metrics.outbox_oldest.set(0.0 if oldest is None else max(0.0, now - oldest))

    async def run(self) -> None:
        while True:
            try:
                await self.sample()
            except Exception:
                log.exception("metrics sample failed")
            await asyncio.sleep(SAMPLE_EVERY_S)


async def serve(metrics: Metrics, port: int, host: str) -> web.AppRunner:
    """``GET /metrics`` on ``host:port``; anything else is a 404."""

    async def scrape(_request: web.Request) -> web.Response:
        return web.Response(body=metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", scrape)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        with contextlib.suppress(Exception):
            await runner.cleanup()
        raise
    return runner

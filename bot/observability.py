"""What the operators see of a running process: Prometheus' ``/metrics`` (bot/metrics.py) and
its gauges' sampling, the operators' alerts in OPS_CHAT_ID (bot/services/alerts.py), and the
totals /status gives."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

from aiohttp import web

from bot.clock import Clock
from bot.config import Settings
from bot.game.service import GameService
from bot.metrics import Metrics, Sampler
from bot.metrics import serve as serve_metrics
from bot.services.alerts import OpsAlerts, lasted, network_checks, overdue, table_checks
from bot.services.status import Status
from bot.startup import StartupError
from storage.db import Database
from views.i18n import Translator

log = logging.getLogger("bot")

# whether this process sends the outbox (on PostgreSQL, the process holding the sender's role)
SendsOutbox = Callable[[], bool]


def totals(metrics: Metrics) -> tuple[float, float]:
    """The updates handled and the messages sent since the start (/status)."""
    sent = sum(sample.value for family in metrics.requests.collect()
               for sample in family.samples
               if sample.name.endswith("_total") and sample.labels["outcome"] == "ok"
               and sample.labels["method"].startswith("send"))
    return Metrics.total(metrics.updates), sent


class Observability:
    """The gauges sampled, ``/metrics`` served on METRICS_PORT, and the alerts posted to
    OPS_CHAT_ID: started by the application's run, stopped by its close."""

    def __init__(self, settings: Settings, db: Database, metrics: Metrics, games: GameService,
                 status: Status, translator: Translator, post: Callable[[str], Awaitable[None]],
                 clock: Clock, *, sends_outbox: SendsOutbox = lambda: True) -> None:
        self.settings = settings
        self.db = db
        self.metrics = metrics
        self.games = games
        self.status = status
        self.translator = translator
        self.post = post  # a text to OPS_CHAT_ID (the sender's ``send_text``)
        self.clock = clock
        self.sends_outbox = sends_outbox
        self.sampler: Sampler | None = None
        self.sampling: asyncio.Task[None] | None = None
        self.alerts: OpsAlerts | None = None  # OPS_CHAT_ID: the operators' alerts
        self.alerting: asyncio.Task[None] | None = None
        self.runner: web.AppRunner | None = None
        self._told: set[asyncio.Task[None]] = set()

    def late_tables(self) -> list[tuple[int, datetime]]:
        """Each open, unpaused table of this process with a deadline: its game and the
        earliest (the alerts' and the metrics' stuck tables)."""
        return [(t.game_id, min(t.deadlines.values())) for t in self.games.tables.values()
                if t.open and not t.paused and t.deadlines]

    async def start(self) -> None:
        """The gauges' sampling and the alerts (the network's checks only while
        ``sends_outbox``), then ``/metrics`` when METRICS_PORT is set."""
        if self.sampling is None:
            status = self.status
            self.sampler = Sampler(self.metrics, self.db,
                                   lambda: len(self.games.tables),
                                   also=lambda: status.rates.add(*totals(self.metrics)),
                                   overdue=lambda: len(overdue(self.late_tables(),
                                                               self.clock())))
            self.sampling = asyncio.get_running_loop().create_task(self.sampler.run(),
                                                                   name="metrics")
            self._start_alerts(self.sampler)
        port = self.settings.metrics_port
        if port is None or self.runner is not None:
            return
        try:
            self.runner = await serve_metrics(self.metrics, port, self.settings.metrics_host)
        except OSError as e:
            raise StartupError(f"cannot serve the metrics on port {port}: {e}") from None
        log.info("metrics", extra={"port": port, "host": self.settings.metrics_host})

    def _start_alerts(self, sampler: Sampler) -> None:
        """The network's checks run where the outbox is sent; a table's where the table is."""
        chat = self.settings.ops_chat_id
        if chat is None or self.alerting is not None:
            return
        network = network_checks(
            sampler, lambda: Metrics.total(self.metrics.requests, outcome="retry_after"))

        def network_here() -> Mapping[str, Mapping[str, Any]]:
            return network() if self.sends_outbox() else {}

        self.alerts = OpsAlerts(self.post, self.translator, self.settings.default_locale,
                                [network_here, table_checks(
                                    self.late_tables, lambda: Metrics.total(self.metrics.skipped),
                                    self.clock)])
        self.alerting = asyncio.get_running_loop().create_task(self.alerts.run(), name="alerts")

    def takeover(self, session: int, lost: list[int], roles: list[str], clubs: int,
                 seconds: float) -> None:
        """What this process took over from a lost one (bot/cluster/sharing.py's
        ``on_takeover``), told to the operators."""
        alerts = self.alerts
        if alerts is None:
            return
        tr, locale = self.translator, self.settings.default_locale
        names = ", ".join(tr.t(locale, f"admin.status_role_{r}") for r in roles)
        what = [tr.t(locale, "ops.what.roles", roles=names)] if roles else []
        if clubs:
            what.append(tr.t(locale, "ops.what.clubs", clubs=clubs))
        task = asyncio.get_running_loop().create_task(alerts.tell(
            "takeover" if lost else "takeover_unknown", lost=", ".join(map(str, lost)),
            session=str(session), what="; ".join(what), lasted=lasted(seconds)))
        self._told.add(task)
        task.add_done_callback(self._told.discard)

    async def stop(self) -> None:
        for task in (self.alerting, *self._told):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.alerting = None
        if self.sampling is not None:
            self.sampling.cancel()
            await asyncio.gather(self.sampling, return_exceptions=True)
            self.sampling = None
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

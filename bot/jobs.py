"""The scheduled jobs of the network (not of a game: those are the game layer's deadlines):
the daily expiry, the daily prune of sent messages and the gift shop's hourly close, armed on
one process (on PostgreSQL the one holding the expiry role, bot/cluster/sharing.py)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.clock import Clock
from bot.game.timers import JobGuard
from bot.services import Services
from bot.services.expiry import ExpiryReport, run_expiry
from storage.dates import local_day, zone_of

log = logging.getLogger("bot")

EXPIRY_HOUR_UTC = 7  # the daily expiry job (warnings and burns) runs at 07:00 UTC
SHOP_MINUTE = 30  # the gift requests not handed over in time close every hour at :30
SEASON_MINUTE = 20  # a closed season's picture to each club's chat: checked every hour at :20
OUTBOX_PRUNE_MINUTE = 15  # the sent messages past OUTBOX_KEEP_DAYS lose their words at 07:15


class Jobs:
    """The network's jobs on the application's scheduler, each run under the guard that a stop
    waits for."""

    def __init__(self, services: Services, scheduler: AsyncIOScheduler, guard: JobGuard,
                 clock: Clock) -> None:
        self.services = services
        self.scheduler = scheduler
        self.guard = guard
        self.clock = clock

    async def daily_expiry(self) -> ExpiryReport:
        s = self.services
        # the expiry is the network's rule: its day is the network's (TIMEZONE), whatever club
        today = local_day(self.clock(), zone_of(None, s.settings.timezone))
        report = await run_expiry(s.db, s.sender, s.translator, today,
                                  s.settings.default_locale)
        await s.shop.tell()  # the gift requests the burns closed, told
        return report

    async def prune_outbox(self) -> int:
        """The daily prune of sent messages (OUTBOX_KEEP_DAYS): how many rows."""
        keep = self.services.settings.outbox_keep_days
        pruned = await self.services.delivery.prune(keep)
        log.info("outbox pruned", extra={"rows": pruned, "keep_days": keep})
        return pruned

    async def shop_requests(self) -> int:
        """The gift requests not handed over in time closed; every untold change told."""
        return await self.services.shop.expire_overdue()

    async def season_ends(self) -> int:
        """Each club's picture of the season that ended, queued once (bot/services/seasons.py)."""
        return await self.services.season_ends.run()

    def arm(self) -> None:
        """The daily expiry, the daily prune of sent messages, the shop's and the seasons'
        hourly jobs: on one process; each is idempotent, so a catch-up at start is safe."""
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

"""Deadlines: a tiny interface over the scheduler, so the service never sees APScheduler.

Jobs are never persisted: every deadline lives in the game's event log, and on start the
service re-arms them from the rebuilt games (``Restorer.restore``, ``bot/game/restore.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

log = logging.getLogger("bot.game.timers")

Clock = Callable[[], datetime]
Job = Callable[[], Awaitable[None]]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class GameTimers:
    """Seconds (fractions allowed, so tests run fast)."""

    night: float = 60
    mafia_agree: float = 30
    vote_turn: float = 60
    last_word: float = 30
    cancel: float = 20  # the Lawyers' window to cancel a verdict
    fate: float = 60  # the host's draw of a shoot-out; the bot draws when it runs out


class Deadlines(Protocol):
    def arm(self, key: str, at: datetime, job: Job) -> None: ...

    def disarm(self, key: str) -> None: ...


class SchedulerDeadlines:
    """Deadlines on an APScheduler 3 ``AsyncIOScheduler`` (memory job store, not pickled)."""

    def __init__(self, scheduler: AsyncIOScheduler) -> None:
        self.scheduler = scheduler

    def arm(self, key: str, at: datetime, job: Job) -> None:
        self.scheduler.add_job(
            job, DateTrigger(run_date=at, timezone=UTC), id=key, replace_existing=True,
            misfire_grace_time=None, coalesce=True,
            # a job re-arms its own key (the next vote turn) while it is still running
            max_instances=100,
        )

    def disarm(self, key: str) -> None:
        if self.scheduler.get_job(key) is not None:
            try:
                self.scheduler.remove_job(key)
            except Exception:  # already ran
                log.debug("job %s already gone", key)

"""Deadlines: a tiny interface over the scheduler (a job at a time, under a key), so the game
layer never sees APScheduler: the tables' deadlines go through it (``bot/game/timekeeper.py``),
and the evenings' timers.

Every scheduled job runs inside :class:`JobGuard`: an exception is logged and never kills the
scheduler's job or the game's timers; a stop (SIGTERM/SIGINT) cancels the running jobs
quietly (an INFO line, no traceback) — what they had not finished is re-armed at the next start.

Jobs are never persisted: every deadline lives in the game's event log, and on start the
service re-arms them from the rebuilt games (``Restorer.restore``, ``bot/game/restore.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

log = logging.getLogger("bot.game.timers")

Job = Callable[[], Awaitable[None]]


class Deadlines(Protocol):
    def arm(self, key: str, at: datetime, job: Job) -> None: ...

    def disarm(self, key: str) -> None: ...


class JobGuard:
    """Runs scheduled jobs so that one bad answer never stops the scheduler or a game."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()
        self.stopping = False

    def wrap(self, key: str, job: Callable[[], Awaitable[Any]]) -> Job:
        async def guarded() -> None:
            await self.run(key, job)
        return guarded

    async def run(self, key: str, job: Callable[[], Awaitable[Any]]) -> None:
        if self.stopping:
            return
        task = asyncio.current_task()
        if task is not None:
            self.running.add(task)
        try:
            await job()
        except asyncio.CancelledError:
            # the stop: what the job had not finished is re-armed at the next start
            log.info("job %s cancelled by the stop", key)
        except Exception:
            log.exception("job %s failed", key)
        finally:
            if task is not None:
                self.running.discard(task)

    async def stop(self) -> None:
        """At shutdown (after the scheduler stopped): cancel the jobs still running."""
        self.stopping = True
        tasks = [t for t in self.running if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


async def stop_scheduler(scheduler: AsyncIOScheduler, guard: JobGuard) -> None:
    """No new jobs; the running ones are cancelled by the shutdown, quietly (the guard logs
    an INFO line; :meth:`JobGuard.stop` cancels any left).

    A job the scheduler has handed to the event loop but that has not begun would be cancelled
    before its first step, which APScheduler logs as an ERROR with a traceback (seen at SIGTERMs
    on a busy evening). So no job is handed over from now on (the pause), the ones handed over
    begin and return at once (the guard is stopping), and only then the shutdown."""
    guard.stopping = True
    if not scheduler.running:
        return
    scheduler.pause()
    await asyncio.sleep(0)
    scheduler.shutdown(wait=False)
    await asyncio.sleep(0)  # AsyncIOScheduler shuts down in its loop's next turn


class SchedulerDeadlines:
    """Deadlines on an APScheduler 3 ``AsyncIOScheduler`` (memory job store, not pickled)."""

    def __init__(self, scheduler: AsyncIOScheduler, guard: JobGuard | None = None) -> None:
        self.scheduler = scheduler
        self.guard = guard or JobGuard()

    def arm(self, key: str, at: datetime, job: Job) -> None:
        self.scheduler.add_job(
            self.guard.wrap(key, job), DateTrigger(run_date=at, timezone=UTC), id=key,
            replace_existing=True,
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

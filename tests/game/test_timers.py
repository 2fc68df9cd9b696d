"""The APScheduler-backed deadlines: jobs fire at their time, can be replaced and disarmed."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.game.timers import SchedulerDeadlines
from tests.game.flow import wait_until


async def test_arm_replace_disarm_and_past_deadlines() -> None:
    scheduler = AsyncIOScheduler(timezone=UTC)
    deadlines = SchedulerDeadlines(scheduler)
    fired: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            fired.append(name)
        return run

    now = datetime.now(UTC)
    deadlines.arm("a", now + timedelta(seconds=0.05), job("a"))  # armed before start
    scheduler.start()
    try:
        deadlines.arm("b", now + timedelta(seconds=0.05), job("b-old"))
        deadlines.arm("b", now + timedelta(seconds=0.1), job("b"))  # replaces
        deadlines.arm("c", now + timedelta(seconds=0.05), job("c"))
        deadlines.disarm("c")
        deadlines.disarm("never-armed")
        deadlines.arm("past", now - timedelta(seconds=30), job("past"))  # fires at once
        await wait_until(lambda: {"a", "b", "past"} <= set(fired), 5, "the jobs")
        await asyncio.sleep(0.1)
        assert sorted(fired) == ["a", "b", "past"]
    finally:
        scheduler.shutdown(wait=False)

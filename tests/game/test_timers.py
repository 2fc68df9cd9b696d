"""The APScheduler-backed deadlines: jobs fire at their time, can be replaced and disarmed."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.game.timers import Job, SchedulerDeadlines, stop_scheduler
from tests.game.flow import wait_until


async def test_arm_replace_disarm_and_past_deadlines() -> None:
    scheduler = AsyncIOScheduler(timezone=UTC)
    deadlines = SchedulerDeadlines(scheduler)
    fired: list[str] = []

    def job(name: str) -> Job:
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


async def test_a_failing_job_is_logged_and_the_next_ones_run(
        caplog: pytest.LogCaptureFixture) -> None:
    """JobGuard: an exception never reaches the scheduler; a stop cancels running jobs
    quietly (INFO, no traceback)."""
    caplog.set_level(logging.INFO)
    scheduler = AsyncIOScheduler(timezone=UTC)
    deadlines = SchedulerDeadlines(scheduler)
    fired: list[str] = []
    release = asyncio.Event()

    async def broken() -> None:
        raise RuntimeError("a bad answer")

    async def fine() -> None:
        fired.append("fine")

    async def slow() -> None:
        await release.wait()
        fired.append("slow")  # never: the stop cancels it

    now = datetime.now(UTC)
    scheduler.start()
    try:
        deadlines.arm("broken", now, broken)
        deadlines.arm("fine", now + timedelta(seconds=0.05), fine)
        deadlines.arm("slow", now, slow)
        await wait_until(lambda: "fine" in fired and deadlines.guard.running, 5, "the jobs")
    finally:
        scheduler.shutdown(wait=False)
    await deadlines.guard.stop()
    assert fired == ["fine"]
    failed = [r for r in caplog.records if "job broken failed" in r.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info is not None
    assert any("job slow cancelled by the stop" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelname == "ERROR" and "slow" in r.getMessage()]


async def test_a_job_due_at_the_stop_is_not_an_error(caplog: pytest.LogCaptureFixture) -> None:
    """A stop in the moment the scheduler hands a due job to the event loop (a SIGTERM on a
    busy evening): the job's task was cancelled before it began, which APScheduler logged as
    an ERROR with a traceback. Now no job is handed over after the stop began, and one handed
    over returns at once: what it had to do is re-armed from the log at the next start."""
    caplog.set_level(logging.INFO)
    scheduler = AsyncIOScheduler(timezone=UTC)
    deadlines = SchedulerDeadlines(scheduler)
    fired: list[str] = []

    async def job() -> None:
        fired.append("job")

    for key in ("due", "handed"):
        deadlines.arm(key, datetime.now(UTC) - timedelta(seconds=1), job)
    scheduler.start()  # its first look at the due jobs comes in the loop's next turn
    await stop_scheduler(scheduler, deadlines.guard)
    await deadlines.guard.stop()
    await asyncio.sleep(0.05)
    assert not scheduler.running and fired == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []

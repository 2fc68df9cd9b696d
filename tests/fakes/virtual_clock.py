"""Virtual time for the bot's waits on Telegram (a 429's ``retry_after``, a backoff, a throttled
edit's slot), so that a test of many faults does not sleep them out.

Every wait moves the clock forward by its length at once, instead of sleeping: the clock reads
the real time plus every wait so far. It never goes backwards, and whatever waited ``d`` seconds
resumes at least ``d`` seconds later on it: a retry is never early in this time. Give the fake
Bot API the same time (``FakeTelegram(clock=clock.monotonic)``) and its log shows it.

Only the outbox's and the delivery's waits are moved (:meth:`VirtualClock.drive`); the game's
timers, the rate limiter's and the HTTP client's timeout stay on the real clock.
"""

from __future__ import annotations

import asyncio
import time

from bot.app import App
from bot.delivery import Delivery


class VirtualClock:
    def __init__(self) -> None:
        self.skipped = 0.0  # seconds of waiting skipped so far
        self.waits = 0

    def wall(self) -> float:
        return time.time() + self.skipped

    def monotonic(self) -> float:
        return time.monotonic() + self.skipped

    async def sleep(self, seconds: float) -> None:
        self.waits += 1
        self.skipped += max(0.0, seconds)
        await asyncio.sleep(0)  # still a point where other tasks run, as a real sleep is

    async def wait(self, event: asyncio.Event, seconds: float | None) -> None:
        """Until ``event`` is set or ``seconds`` have passed (at once, on this clock)."""
        if event.is_set():
            return
        if seconds is None:
            await event.wait()
            return
        await self.sleep(seconds)

    def drive(self, app: App) -> None:
        """Put ``app``'s outbox and durable delivery on this clock (a button's answer waits
        with the outbox's sleep)."""
        app.services.outbox.sleep = self.sleep
        delivery = app.services.extra["delivery"]
        assert isinstance(delivery, Delivery)
        delivery.wall, delivery.sleep, delivery.wait = self.wall, self.sleep, self.wait

"""How late the benchmark's own event loop runs its callbacks (the fake Bot API server and the
simulated players share it): a press's figure is stamped by that loop twice (the update handed
to the bot, the answer received), so a stall here would be counted as the bot's."""

from __future__ import annotations

import asyncio
import time

TICK = 0.01  # seconds between the monitor's wake-ups
STALL = 0.005  # a wake-up later than this is remembered as a stall


class LoopLag:
    """Samples the loop's lateness: each wake-up's delay beyond :data:`TICK`."""

    def __init__(self) -> None:
        self.samples: list[float] = []  # seconds late, one per wake-up
        self.stalls: list[tuple[float, float]] = []  # (start, end) of each wake-up late > 5 ms
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(TICK)
            now = time.monotonic()
            late = max(0.0, now - before - TICK)
            self.samples.append(late)
            if late > STALL:
                self.stalls.append((now - late, now))

    def overlap(self, start: float, end: float) -> float:
        """Seconds of the loop's stalls within [start, end]."""
        return sum(max(0.0, min(end, b) - max(start, a)) for a, b in self.stalls
                   if a < end and b > start)

"""How late the benchmark's own event loop runs its callbacks (the fake Bot API server and the
simulated players share it): a press's figure is stamped by that loop twice (the update handed
to the bot, the answer received), so a stall here would be counted as the bot's."""

from __future__ import annotations

import asyncio
import bisect
import time
from itertools import accumulate

from benchmarks.load.sampler import Sampler

TICK = 0.01  # seconds between the monitor's wake-ups
STALL = 0.005  # a wake-up later than this is remembered as a stall


class LoopLag(Sampler):
    """Samples the loop's lateness: each wake-up's delay beyond :data:`TICK`."""

    def __init__(self) -> None:
        self.samples: list[float] = []  # seconds late, one per wake-up
        self.stalls: list[tuple[float, float]] = []  # (start, end) of each wake-up late > 5 ms
        self._starts: list[float] = []  # of the stalls, for overlap()
        self._ends: list[float] = []
        self._sums: list[float] = [0.0]  # the stalls' lengths summed up to each

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
        """Seconds of the loop's stalls within [start, end]. The stalls come in time order and
        never overlap (each ends at a wake-up, the next starts after it), so a bisection and
        running totals answer it: summing over every stall for every press (presses x stalls)
        would make the figures of a long run take longer than its games."""
        if len(self._sums) != len(self.stalls) + 1:
            self._starts = [a for a, _ in self.stalls]
            self._ends = [b for _, b in self.stalls]
            self._sums = [0.0, *accumulate(b - a for a, b in self.stalls)]
        first = bisect.bisect_right(self._ends, start)  # the first stall ending after start
        last = bisect.bisect_left(self._starts, end)  # the stalls starting before end
        if first >= last:
            return 0.0
        total = self._sums[last] - self._sums[first]
        total -= max(0.0, start - self._starts[first])  # the part before start
        total -= max(0.0, self._ends[last - 1] - end)  # the part after end
        return max(0.0, total)

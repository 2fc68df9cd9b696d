"""The load benchmark's loop-stall accounting (benchmarks/load/lag.py): ``overlap`` by bisection
gives what summing over every stall gives, for stalls added before and after a first call."""

from __future__ import annotations

import random

from benchmarks.load.lag import LoopLag


def brute(stalls: list[tuple[float, float]], start: float, end: float) -> float:
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in stalls if a < end and b > start)


def test_overlap_is_the_stalls_seconds_within_the_window() -> None:
    rng = random.Random(7)
    lag = LoopLag()
    at = 0.0
    for round_ in range(2):
        for _ in range(300):
            at += rng.uniform(0.01, 0.2)
            late = rng.uniform(0.005, 0.1)
            lag.stalls.append((at, at + late))
            at += late
        for _ in range(500):
            start = rng.uniform(-1, at + 1)
            end = start + rng.uniform(0, 5 if round_ else 0.05)
            assert abs(lag.overlap(start, end) - brute(lag.stalls, start, end)) < 1e-9
    assert lag.overlap(5.0, 5.0) == 0.0
    assert lag.overlap(-10.0, at + 10) == brute(lag.stalls, -10.0, at + 10) > 0
    a, b = lag.stalls[10]
    assert abs(lag.overlap(a + (b - a) / 4, a + (b - a) / 2) - (b - a) / 4) < 1e-12

"""The load benchmark's steal time (benchmarks/load/steal.py): read from /proc/stat's first
line, a share of all the CPU time between two readings."""

from __future__ import annotations

import pytest

from benchmarks.load.steal import cpu_times, steal_percent

BEFORE = "cpu  1000 10 200 5000 30 0 5 100 0 0\ncpu0 500 5 100 2500 15 0 2 50 0 0\n"
AFTER = "cpu  1600 10 300 5100 30 0 5 300 40 0\ncpu0 800 5 150 2550 15 0 2 150 20 0\n"


def test_steal_is_its_share_of_all_the_cpu_time_between_readings() -> None:
    assert cpu_times(BEFORE) == (100, 6345)
    assert cpu_times(AFTER) == (300, 7345)  # guest time is not counted twice
    assert steal_percent(cpu_times(BEFORE), cpu_times(AFTER)) == pytest.approx(20.0)


def test_no_time_between_readings_or_no_proc_is_no_figure() -> None:
    assert steal_percent((5, 10), (5, 10)) is None
    assert steal_percent((0, 0), (0, 0)) is None
    assert cpu_times("cpu  1 2 3 4\n") == (0, 10)  # an old kernel without the steal column

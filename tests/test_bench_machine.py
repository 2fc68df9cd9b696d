"""The load benchmark's reading of the machine (benchmarks/load/machine.py): the steal and the
used share from /proc/stat's first line, each process's CPU from its stat file, and the
presses split by whether the machine had CPU to spare when they arrived."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from benchmarks.load.machine import (
    CLK_TCK,
    FULL,
    CpuTimes,
    MachineLoad,
    cpu_times,
    parent_of,
    process_cpu,
    server_cpu,
    steal_percent,
    used_share,
)

BEFORE = "cpu  1000 10 200 5000 30 0 5 100 0 0\ncpu0 500 5 100 2500 15 0 2 50 0 0\n"
AFTER = "cpu  1600 10 300 5100 30 0 5 300 40 0\ncpu0 800 5 150 2550 15 0 2 150 20 0\n"


def test_steal_is_its_share_of_all_the_cpu_time_between_readings() -> None:
    assert cpu_times(BEFORE) == CpuTimes(steal=100, total=6345, idle=5030)
    assert cpu_times(AFTER) == CpuTimes(steal=300, total=7345, idle=5130)  # guest not twice
    assert steal_percent(cpu_times(BEFORE), cpu_times(AFTER)) == pytest.approx(20.0)


def test_the_used_share_counts_our_time_and_the_stolen_time() -> None:
    # 1,000 ticks between the readings: 100 idle, 200 stolen, 700 ours
    assert used_share(cpu_times(BEFORE), cpu_times(AFTER)) == pytest.approx(0.9)


def test_no_time_between_readings_or_no_proc_is_no_figure() -> None:
    assert steal_percent(CpuTimes(5, 10, 2), CpuTimes(5, 10, 2)) is None
    assert used_share(CpuTimes(0, 0, 0), CpuTimes(0, 0, 0)) is None
    assert cpu_times("cpu  1 2 3 4\n") == CpuTimes(0, 10, 4)  # no steal column: an old kernel


def _process(root: Path, pid: int, comm: str, utime: int, stime: int, parent: int = 1) -> None:
    (root / str(pid)).mkdir()
    (root / str(pid) / "comm").write_text(comm + "\n")
    # the name in parentheses may hold spaces and ")": the fields are counted after the last
    fields = ["S", str(parent), *["0"] * 9, str(utime), str(stime), *["0"] * 30]
    (root / str(pid) / "stat").write_text(f"{pid} ({comm} (x)) " + " ".join(fields) + "\n")


def test_a_process_cpu_is_its_user_and_system_time(tmp_path: Path) -> None:
    _process(tmp_path, 7, "python", 3 * CLK_TCK, 1 * CLK_TCK)
    assert process_cpu(7, tmp_path) == pytest.approx(4.0)
    assert process_cpu(8, tmp_path) == 0.0  # gone
    assert parent_of(7, tmp_path) == 1
    assert parent_of(8, tmp_path) is None


def test_server_cpu_sums_one_servers_processes_only(tmp_path: Path) -> None:
    _process(tmp_path, 10, "postgres", 2 * CLK_TCK, CLK_TCK)  # the postmaster
    _process(tmp_path, 11, "postgres", CLK_TCK, 0, parent=10)  # its backend
    _process(tmp_path, 12, "python", 50 * CLK_TCK, 0)
    _process(tmp_path, 20, "postgres", 9 * CLK_TCK, 0)  # another server beside it
    _process(tmp_path, 21, "postgres", 9 * CLK_TCK, 0, parent=20)
    (tmp_path / "self").mkdir()  # not a process number
    assert server_cpu(10, tmp_path) == pytest.approx(4.0)


def test_a_press_is_read_against_the_second_it_arrived_in() -> None:
    load = MachineLoad()
    load.add(101.0, 0.5)  # the second 100..101 had CPU to spare
    load.add(102.0, 0.97)  # 101..102 had none
    load.add(103.0, FULL)  # exactly at the line counts as none
    assert load.full_at(100.2) is False
    assert load.full_at(101.5) is True
    assert load.full_at(102.5) is True
    assert load.full_at(200.0) is None  # after the readings
    assert load.full_at(90.0) is None  # long before the first
    assert load.full_seconds() == 2


def test_a_press_is_full_when_the_machine_or_one_bots_core_had_no_cpu_to_spare() -> None:
    """A bot is one event loop: at 95 % of one core its presses queue, though the machine's
    two cores are only half used."""
    load = MachineLoad([1, 2])
    load.add(101.0, 0.4, 0.3)
    load.add(102.0, 0.55, 0.95)  # one bot's core full, the machine half used
    load.add(103.0, 0.92, 0.5)  # the machine full (PostgreSQL, the benchmark, steal)
    assert [load.full_at(t) for t in (100.5, 101.5, 102.5, 300.0)] == [False, True, True, None]
    assert (load.full_seconds(), load.process_full_seconds()) == (1, 1)


async def test_the_sampler_reads_each_watched_process() -> None:
    """Fed its readings (no real CPU asked of a busy machine): each second's share of the
    machine, and the share of one core the busiest watched process used."""
    now = [100.0]
    cpu = {1: 10.0, 2: 50.0}
    machine = [CpuTimes(steal=0, total=0, idle=0)]
    seconds = 0
    read_three = asyncio.Event()

    async def sleep(delay: float) -> None:
        nonlocal seconds
        if seconds == 3:
            read_three.set()
            await asyncio.Event().wait()  # the reading waits here until stop() cancels it
        seconds += 1
        now[0] += delay
        cpu[1] += 0.25 * delay  # one bot at a quarter of a core
        cpu[2] += 0.8 * delay  # the other at 80 %
        last = machine[-1]  # 200 ticks a second on two cores, 60 of them idle
        machine.append(CpuTimes(last.steal + 10, last.total + 200, last.idle + 60))

    load = MachineLoad([1, 2], read_cpu=lambda: machine[-1], read_process=cpu.__getitem__,
                       clock=lambda: now[0], sleep=sleep)
    load.start()
    await read_three.wait()
    await load.stop()
    assert [at for at, _, _ in load.seconds] == [101.0, 102.0, 103.0]
    assert [share for _, *shares in load.seconds for share in shares] == pytest.approx(
        [0.7, 0.8] * 3)
    assert (load.full_seconds(), load.process_full_seconds()) == (0, 0)

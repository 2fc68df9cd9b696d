"""Where a run's CPU went: the machine's cores second by second and the stolen share
(``/proc/stat``), and the CPU of each party to the run (the bots, PostgreSQL, the benchmark's
own process with the fake Telegram and the simulated players).

On a machine's shared cores all of them take the same CPU, and the hypervisor's steal time
can move a run's latencies more than a change of the bot does. So a run prints, beside its
latencies, how busy the machine was and the presses that arrived when it had CPU to spare
apart from those that arrived when it had none.
"""

from __future__ import annotations

import asyncio
import os
import resource
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import asyncpg

from benchmarks.load.sampler import Sampler

STAT = Path("/proc/stat")
PROC = Path("/proc")
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SAMPLE = 1.0  # seconds between two readings of the machine's cores
FULL = 0.9  # a second in which the cores were this much used or stolen had no CPU to spare


class CpuTimes(NamedTuple):
    """Clock ticks of all CPUs since boot (``/proc/stat``'s first line)."""

    steal: int
    total: int
    idle: int  # idle and waiting for I/O


def cpu_times(text: str | None = None) -> CpuTimes:
    """The first line: ``cpu user nice system idle iowait irq softirq steal guest guest_nice``
    (guest time is already counted in user and nice). Zeros where there is no /proc/stat."""
    if text is None:
        try:
            text = STAT.read_text()
        except OSError:
            return CpuTimes(0, 0, 0)
    fields = [int(v) for v in text.split("\n", 1)[0].split()[1:]]
    counted = fields[:8]  # user .. steal
    steal = counted[7] if len(counted) > 7 else 0
    idle = sum(counted[3:5])
    return CpuTimes(steal, sum(counted), idle)


def steal_percent(before: CpuTimes, after: CpuTimes) -> float | None:
    """The share of the CPU time between two readings that was stolen, in percent."""
    total = after.total - before.total
    return None if total <= 0 else 100.0 * (after.steal - before.steal) / total


def used_share(before: CpuTimes, after: CpuTimes) -> float | None:
    """The share of all the cores' time between two readings that was not idle: ours or
    stolen (0..1)."""
    total = after.total - before.total
    return None if total <= 0 else 1.0 - (after.idle - before.idle) / total


def process_cpu(pid: int | str, proc: Path = PROC) -> float:
    """CPU seconds (user + system) a live process has used; 0 for one that is gone."""
    try:
        fields = (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def parent_of(pid: int | str, proc: Path = PROC) -> int | None:
    """The parent's pid of a live process (None: gone)."""
    try:
        return int((proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def server_cpu(postmaster: int, proc: Path = PROC) -> float:
    """CPU seconds used by one PostgreSQL server of this machine: its postmaster and the live
    processes it started (the backends, the WAL writer, the checkpointer), not those of
    another server beside it (other runs' throwaway clusters on a shared machine). A backend
    that ended is not counted: the bots and the writers keep their connections for the run."""
    total = process_cpu(postmaster, proc)
    for entry in proc.iterdir():
        if entry.name.isdigit() and parent_of(entry.name, proc) == postmaster:
            total += process_cpu(entry.name, proc)
    return total


async def local_postmaster(url: str, proc: Path = PROC) -> int | None:
    """The postmaster of the server at ``url`` when it runs on this machine (the parent of
    this connection's backend, a process named "postgres"); None when it runs elsewhere."""
    conn = await asyncpg.connect(url)
    try:
        backend = int(await conn.fetchval("SELECT pg_backend_pid()"))
        parent = parent_of(backend, proc)
        if parent is None or parent_of(parent, proc) is None:
            return None
        try:
            named = (proc / str(parent) / "comm").read_text().strip() == "postgres"
        except OSError:
            return None
        return parent if named else None
    finally:
        await conn.close()


def own_cpu() -> float:
    """CPU seconds this process (the benchmark: the fake Telegram and the players) has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class MachineLoad(Sampler):
    """Once a second: the share of the machine's cores used or stolen, and the share of one
    core each watched process (a bot: one event loop, so at most one core) used."""

    def __init__(self, pids: Sequence[int] = (), *,
                 read_cpu: Callable[[], CpuTimes] = cpu_times,
                 read_process: Callable[[int], float] = process_cpu,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.pids = list(pids)
        # the readings and the wait between them, given so that a test can feed its own
        self.read_cpu, self.read_process, self.clock, self.sleep = (
            read_cpu, read_process, clock, sleep)
        # (end of the second, share of the machine used, the busiest watched process's share)
        self.seconds: list[tuple[float, float, float]] = []

    async def _run(self) -> None:
        before, at = self.read_cpu(), self.clock()
        procs = [self.read_process(pid) for pid in self.pids]
        while True:
            await self.sleep(SAMPLE)
            after, now = self.read_cpu(), self.clock()
            cpus = [self.read_process(pid) for pid in self.pids]
            share = used_share(before, after)
            busiest = max((b - a for a, b in zip(procs, cpus, strict=True)), default=0.0)
            if share is not None:
                self.add(now, share, busiest / max(now - at, 1e-3))
            before, at, procs = after, now, cpus

    def add(self, end: float, share: float, busiest: float = 0.0) -> None:
        self.seconds.append((end, share, busiest))

    def _at(self, at: float) -> tuple[float, float, float] | None:
        i = bisect_left(self.seconds, at, key=lambda second: second[0])
        if i >= len(self.seconds) or self.seconds[i][0] - at > 2 * SAMPLE:
            return None
        return self.seconds[i]

    def full_at(self, at: float) -> bool | None:
        """Whether, in the second covering ``at``, the machine or a watched process (its one
        core) had no CPU to spare."""
        second = self._at(at)
        return None if second is None else (second[1] >= FULL or second[2] >= FULL)

    def full_seconds(self) -> int:
        return sum(1 for _, share, _ in self.seconds if share >= FULL)

    def process_full_seconds(self) -> int:
        """Seconds in which a watched process used 90 % of a core or more."""
        return sum(1 for _, _, busiest in self.seconds if busiest >= FULL)

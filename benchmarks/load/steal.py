"""The machine's steal time during a run: the CPU the hypervisor gave to other guests while
ours waited (``/proc/stat``). On a shared virtual machine it moved the latencies of a run more
than a change of the bot did (docs/scaling.md, eighth session), so a run prints it beside them."""

from __future__ import annotations

from pathlib import Path

STAT = Path("/proc/stat")


def cpu_times(text: str | None = None) -> tuple[int, int]:
    """(steal, all) clock ticks of all CPUs since boot; (0, 0) where there is no /proc/stat.
    The first line: ``cpu user nice system idle iowait irq softirq steal guest guest_nice``
    (guest time is already counted in user and nice)."""
    if text is None:
        try:
            text = STAT.read_text()
        except OSError:
            return 0, 0
    fields = [int(v) for v in text.split("\n", 1)[0].split()[1:]]
    counted = fields[:8]  # user .. steal
    return (counted[7] if len(counted) > 7 else 0), sum(counted)


def steal_percent(before: tuple[int, int], after: tuple[int, int]) -> float | None:
    """The share of the CPU time between two readings that was stolen, in percent."""
    total = after[1] - before[1]
    return None if total <= 0 else 100.0 * (after[0] - before[0]) / total

"""An opt-in memory report for load runs: ``BOT_MEMORY_LOG=<seconds>`` makes ``python -m bot``
log, every that many seconds, its RSS, its peak, the live asyncio tasks, the interpreter's
allocated blocks and glibc's heap; ``BOT_MEMORY_TRACE=<n>`` also starts ``tracemalloc`` and logs
the ``n`` source lines that gained the most memory since the start (slow: for diagnosis only).
What it showed is in docs/benchmarks.md."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import os
import sys
import tracemalloc
from typing import Any

log = logging.getLogger("bot.memory")

INTERVAL_ENV = "BOT_MEMORY_LOG"
TRACE_ENV = "BOT_MEMORY_TRACE"


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


_LIBC = _libc()


def proc_status() -> dict[str, int]:
    """VmRSS, VmHWM, RssAnon, RssFile (KiB) and Threads of this process, from /proc."""
    wanted = ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads")
    found: dict[str, int] = {}
    try:
        with open("/proc/self/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in wanted:
                    found[key] = int(value.split()[0])
    except OSError:
        pass
    return found


def malloc_info() -> dict[str, int]:
    """glibc's heap (KiB): in use, free inside the heap, mmapped; empty elsewhere."""
    fn = getattr(_LIBC, "mallinfo2", None)
    if fn is None:
        return {}
    fn.restype = _MallInfo2
    info = fn()
    return {"malloc_used": info.uordblks // 1024, "malloc_free": info.fordblks // 1024,
            "malloc_mmap": info.hblkhd // 1024}


def snapshot() -> dict[str, Any]:
    """One line's worth of figures (the counters are cheap; no tracing needed)."""
    figures: dict[str, Any] = {f"{k.lower()}_kib" if k != "Threads" else "threads": v
                               for k, v in proc_status().items()}
    figures.update(malloc_info())
    figures["blocks"] = sys.getallocatedblocks()
    figures["gc_counts"] = "/".join(map(str, gc.get_count()))
    with contextlib.suppress(RuntimeError):  # no running loop
        figures["tasks"] = len(asyncio.all_tasks())
    return figures


async def report(interval: float, top: int = 0) -> None:
    """Log :func:`snapshot` every ``interval`` seconds (and tracemalloc's ``top`` lines)."""
    start = None
    started = False
    if top > 0:
        if not tracemalloc.is_tracing():
            tracemalloc.start(1)
            started = True
        start = tracemalloc.take_snapshot()
    try:
        await _report(interval, top, start)
    finally:
        if started:
            tracemalloc.stop()


async def _report(interval: float, top: int, start: tracemalloc.Snapshot | None) -> None:
    while True:
        log.info("memory", extra=snapshot())
        if start is not None:
            now = tracemalloc.take_snapshot()
            traced, peak = tracemalloc.get_traced_memory()
            log.info("memory traced", extra={"traced_kib": traced // 1024,
                                             "traced_peak_kib": peak // 1024})
            for stat in now.compare_to(start, "lineno")[:top]:
                log.info("memory line", extra={"where": str(stat.traceback[0]),
                                               "kib": stat.size_diff // 1024,
                                               "count": stat.count_diff})
            del now
        await asyncio.sleep(interval)


def start_from_env() -> asyncio.Task[None] | None:
    """The report's task when ``BOT_MEMORY_LOG`` asks for one (call inside the loop)."""
    interval = float(os.environ.get(INTERVAL_ENV) or 0)
    if interval <= 0:
        return None
    top = int(os.environ.get(TRACE_ENV) or 0)
    return asyncio.create_task(report(interval, top), name="memory-report")

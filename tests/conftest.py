"""Suite-wide: the ``soak`` marker, and soak tests first in the run.

The suite runs side by side (pytest-xdist, ``scripts/test``): the controller hands tests out in
collection order, one at a time as workers free up (``--maxschedchunk 1``), so a long test
collected last would start last and the whole run would wait for it alone. Soak tests (a
docstring says why each needs more than 20 s) are therefore moved to the front: they start
first, on every worker, and the many short ones fill in around them.

The tests that start the real ``python -m bot`` (aiogram's import costs each start 6-10 s of
CPU) share ``pytest.mark.xdist_group("bot_processes")``: with ``--dist loadgroup`` they run one
after another on one worker, as several at once starved each other past their time-outs on a
busy 2-core machine. The tests whose bots are forked (tests/bot_spawn.py) share
``xdist_group("bot_forks")``: one worker, one fork server (split in two, the groups' bots ran
at once and the sharing test's lobby waits ran out under load, while the run's wall time is
set by its CPU anyway). pyproject.toml keeps pytest below 9.2, where pytest-xdist's grouping
takes.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "soak: a test that needs more than 20 s (its docstring says why); run first")


@pytest.hookimpl(trylast=True)  # last: the order it leaves is the order run
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("soak") is None)  # stable: order kept


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    forked = sys.modules.get("tests.bot_spawn")  # the bots forked by its fork server
    server = forked.server_cpu() if forked is not None else 0.0
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime + server


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """``TEST_CPU_LOG=FILE``: one line per test (CPU seconds of the worker and the children it
    reaped, wall seconds, the test's id, the xdist worker, its start on the wall clock)
    appended to FILE, to see where the suite's CPU and time go."""
    path = os.environ.get("TEST_CPU_LOG")
    if not path:
        yield
        return
    cpu, wall, started = _cpu(), time.monotonic(), time.time()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(path, "a") as out:
        out.write(f"{_cpu() - cpu:.2f}\t{time.monotonic() - wall:.2f}\t{item.nodeid}\t"
                  f"{worker}\t{started:.1f}\n")

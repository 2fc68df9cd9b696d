"""Suite-wide: the ``soak`` marker, and soak tests first in the run.

The suite runs side by side (pytest-xdist, ``scripts/test``): the controller hands tests out in
collection order, one at a time as workers free up (``--maxschedchunk 1``), so a long test
collected last would start last and the whole run would wait for it alone. Soak tests (a
docstring says why each needs more than 20 s) are therefore moved to the front: they start
first, on every worker, and the many short ones fill in around them.

The tests that start ``python -m bot`` (aiogram's import costs each start 6-8 s of CPU) share
``pytest.mark.xdist_group("bot_processes")``: with ``--dist loadgroup`` they run one after
another on one worker, as several at once starved each other past their time-outs on a busy
2-core machine.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "soak: a test that needs more than 20 s (its docstring says why); run first")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("soak") is None)  # stable: order kept

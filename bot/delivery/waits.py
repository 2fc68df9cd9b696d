"""A wait for an event with a time limit, used by the delivery's workers
(``bot/delivery/worker.py``) and the sharing loop (``bot/cluster/share.py``); here so that storage,
below bot/, can import it."""

from __future__ import annotations

import asyncio
import contextlib


async def wait_event(event: asyncio.Event, seconds: float | None) -> None:
    """Until ``event`` is set or ``seconds`` have passed (None: until it is set).

    ``asyncio.timeout``, not ``wait_for``: on Python 3.11 a cancel that comes as the event is
    set is swallowed by ``wait_for`` (it returns the result), and a loop around it then never
    ends: a stop hung on it (tests/bot/test_cancel_at_wake.py)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()

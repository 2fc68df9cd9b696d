"""A worker's wait for an event is cancelled even when the cancel comes as the event is set.

Python 3.11's ``asyncio.wait_for`` swallows such a cancel (it returns the event's result), so a
loop around it went on after the stop that cancelled it: a bot on PostgreSQL never exited on
SIGTERM (its sharing loop). Both waits (the delivery's workers wait with ``bot/delivery/waits.py``'s
``wait_event``, the sharing loop with the share connection's ``wait_woken`` on it) are tried at
every moment of the wake-up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.cluster.share import ShareConnection
from bot.delivery.waits import wait_event


async def _loop(event: asyncio.Event, wait: Callable[[], Awaitable[None]]) -> None:
    while True:  # as the delivery's workers and the sharing loop: until cancelled
        await wait()
        event.clear()


def _waits() -> list[tuple[str, Callable[[], tuple[asyncio.Event, Callable[[], Awaitable[None]]]]]]:
    def delivery() -> tuple[asyncio.Event, Callable[[], Awaitable[None]]]:
        event = asyncio.Event()
        return event, lambda: wait_event(event, 30)

    def sharing() -> tuple[asyncio.Event, Callable[[], Awaitable[None]]]:
        conn = ShareConnection("postgresql://unused", lambda: None)
        return conn.woken, lambda: conn.wait_woken(30)
    return [("delivery", delivery), ("sharing", sharing)]


@pytest.mark.parametrize("make", [m for _, m in _waits()], ids=[n for n, _ in _waits()])
@pytest.mark.parametrize("turns", range(6))
async def test_a_cancel_as_the_event_is_set_ends_the_loop(
        make: Callable[[], tuple[asyncio.Event, Callable[[], Awaitable[None]]]],
        turns: int) -> None:
    event, wait = make()
    task = asyncio.create_task(_loop(event, wait))
    for _ in range(3):
        await asyncio.sleep(0)  # parked in its wait
    event.set()
    for _ in range(turns):  # the wake-up under way, ``turns`` steps of the loop in
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=2)
    assert task in done and task.cancelled()

"""The inbox's handled marks (bot/cluster/handled_marks.py) keep the mark of a handler cancelled
while it waits: the update was handled, it is not to be claimed and handled again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from bot.cluster.handled_marks import HandledMarks


async def test_a_handler_cancelled_while_its_mark_waits_is_still_marked() -> None:
    writes: list[tuple[list[int], float]] = []
    release = asyncio.Event()

    async def write(ids: Iterable[int], now: float) -> None:
        writes.append((sorted(ids), now))
        if len(writes) == 1:
            await release.wait()

    marks = HandledMarks(write)
    first = asyncio.create_task(marks.mark(1, 5.0))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(marks.mark(2, 7.0))
    other = asyncio.create_task(marks.mark(3, 6.0))
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, other)
    assert cancelled.cancelled()
    assert writes == [([1], 5.0), ([2, 3], 7.0)]  # the batch's time is its latest
    await marks.close()

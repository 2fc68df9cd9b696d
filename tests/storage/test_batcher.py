"""The batcher of the delivery's sent marks and the inbox's handled marks (storage/txn/batcher.py):
the items put while a batch is written go in the next one, in order, each caller answered with
its own item's result or its own batch's failure."""

from __future__ import annotations

import asyncio

import pytest

from storage.txn.batcher import Batcher


class Writes:
    """A ``write_batch`` that records each batch; the first one waits for ``release``."""

    def __init__(self, failing: frozenset[int] = frozenset()) -> None:
        self.batches: list[list[int]] = []
        self.release = asyncio.Event()
        self.failing = failing

    async def __call__(self, items: list[int]) -> list[int]:
        self.batches.append(items)
        if len(self.batches) == 1:
            await self.release.wait()
        if self.failing & set(items):
            raise ConnectionError(f"lost writing {items}")
        return [10 * i for i in items]


async def _turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_items_put_while_a_batch_is_written_go_in_the_next_in_order() -> None:
    writes = Writes()
    batcher: Batcher[int, int] = Batcher(writes)
    first = asyncio.create_task(batcher.put(0))
    await _turns()
    rest = [asyncio.create_task(batcher.put(i)) for i in range(1, 8)]
    await _turns()
    writes.release.set()
    assert await asyncio.gather(first, *rest) == [10 * i for i in range(8)]
    assert writes.batches == [[0], [1, 2, 3, 4, 5, 6, 7]]
    assert await batcher.put(8) == 80  # the writer ended when the queue did; a new one starts
    assert writes.batches[-1] == [8]


async def test_a_cap_splits_the_queue_into_batches_in_order() -> None:
    writes = Writes()
    batcher: Batcher[int, int] = Batcher(writes, cap=3)
    callers = [asyncio.create_task(batcher.put(i)) for i in range(8)]
    await _turns()
    writes.release.set()
    assert await asyncio.gather(*callers) == [10 * i for i in range(8)]
    assert writes.batches == [[0, 1, 2], [3, 4, 5], [6, 7]]


def test_a_cap_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Batcher(Writes(), cap=0)


async def test_a_failed_write_fails_exactly_its_own_batchs_callers() -> None:
    writes = Writes(failing=frozenset({3}))
    batcher: Batcher[int, int] = Batcher(writes, cap=2)
    callers = [asyncio.create_task(batcher.put(i)) for i in range(6)]
    await _turns()
    writes.release.set()
    results = await asyncio.gather(*callers, return_exceptions=True)
    assert results[:2] == [0, 10]
    assert [type(r) for r in results[2:4]] == [ConnectionError, ConnectionError]
    assert results[4:] == [40, 50]  # the next batch is written all the same
    assert writes.batches == [[0, 1], [2, 3], [4, 5]]


async def test_a_result_count_that_does_not_match_fails_the_batch() -> None:
    async def short(items: list[int]) -> list[int]:
        return items[:-1]

    batcher: Batcher[int, int] = Batcher(short)
    results = await asyncio.gather(batcher.put(1), batcher.put(2), return_exceptions=True)
    assert [str(r) for r in results] == ["1 results for a batch of 2"] * 2


async def test_a_caller_cancelled_before_its_batch_is_taken_is_not_written() -> None:
    writes = Writes()
    batcher: Batcher[int, int] = Batcher(writes)
    taken = asyncio.create_task(batcher.put(0))
    await _turns()  # batch [0] is being written
    dropped = asyncio.create_task(batcher.put(1))
    kept = asyncio.create_task(batcher.put(2))
    await _turns()
    dropped.cancel()
    taken.cancel()  # already taken: written all the same, its caller cancelled
    await _turns()
    writes.release.set()
    assert await kept == 20
    assert dropped.cancelled() and taken.cancelled()
    assert writes.batches == [[0], [2]]


async def test_without_drop_cancelled_a_cancelled_callers_item_is_written() -> None:
    writes = Writes()
    batcher: Batcher[int, int] = Batcher(writes, drop_cancelled=False)
    first = asyncio.create_task(batcher.put(0))
    await _turns()
    cancelled = asyncio.create_task(batcher.put(1))
    await _turns()
    cancelled.cancel()
    await _turns()
    writes.release.set()
    assert await first == 0
    assert cancelled.cancelled()
    await _turns()
    assert writes.batches == [[0], [1]]


async def test_close_cancels_the_batch_in_flight_and_the_queue() -> None:
    writes = Writes()
    batcher: Batcher[int, int] = Batcher(writes)
    in_flight = asyncio.create_task(batcher.put(0))
    await _turns()
    queued = asyncio.create_task(batcher.put(1))
    await _turns()
    await batcher.close()
    done, _ = await asyncio.wait({in_flight, queued}, timeout=2)
    assert done == {in_flight, queued}
    assert in_flight.cancelled() and queued.cancelled()
    assert writes.batches == [[0]]  # the queued item was never written
    writes.release.set()
    assert await batcher.put(2) == 20  # a put after a close is written by a new writer
    assert writes.batches == [[0], [2]]

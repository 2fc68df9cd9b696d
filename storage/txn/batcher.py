"""Callers' items written in batches by one task: the delivery's sent marks
(``storage/repos/outbox.py``) and the inbox's handled marks (``bot/cluster/handled_marks.py``).

A caller queues its item and waits until the batch holding it is written; the items that
arrive while one batch is being written go in the next one (one write instead of one each,
which under load queued behind the games' writes for the database's write lock).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


@dataclass(eq=False)  # compared by identity: two callers may queue equal items
class _Waiting(Generic[T, R]):
    item: T
    done: asyncio.Future[R]


class Batcher(Generic[T, R]):
    """``write_batch(items)`` writes one batch, in the order the items were put, and returns
    one result per item (in the same order). Each :meth:`put` returns its own item's result,
    or raises what its batch's write raised (the next batch is written all the same).

    ``cap``: at most that many items a batch. ``drop_cancelled``: an item whose caller was
    cancelled before its batch was taken is not written (once taken, it is written and the
    caller is cancelled all the same: the others' write is not cancelled with it)."""

    def __init__(self, write_batch: Callable[[list[T]], Awaitable[Sequence[R]]], *,
                 cap: int | None = None, drop_cancelled: bool = True) -> None:
        if cap is not None and cap < 1:
            raise ValueError(f"a batch's cap must be at least 1, not {cap}")
        self._write_batch = write_batch
        self._cap = cap
        self._drop_cancelled = drop_cancelled
        self._queue: list[_Waiting[T, R]] = []
        self._writer: asyncio.Task[None] | None = None

    async def put(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        waiting: _Waiting[T, R] = _Waiting(item, loop.create_future())
        waiting.done.add_done_callback(_retrieve)
        self._queue.append(waiting)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all())
        try:
            return await asyncio.shield(waiting.done)
        except asyncio.CancelledError:
            if self._drop_cancelled and waiting in self._queue:
                self._queue.remove(waiting)
            raise

    async def close(self) -> None:
        """The batch being written and the items queued are given up: their callers are
        cancelled."""
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer

    async def _write_all(self) -> None:
        batch: list[_Waiting[T, R]] = []
        try:
            while self._queue:
                if self._cap is None:
                    batch, self._queue = self._queue, []
                else:
                    batch = self._queue[:self._cap]
                    del self._queue[:self._cap]
                try:
                    results = list(await self._write_batch([w.item for w in batch]))
                    if len(results) != len(batch):
                        raise ValueError(f"{len(results)} results for a batch of {len(batch)}")
                except Exception as exc:
                    for w in batch:
                        if not w.done.done():
                            w.done.set_exception(exc)
                else:
                    for w, result in zip(batch, results, strict=True):
                        if not w.done.done():
                            w.done.set_result(result)
                batch = []
        finally:  # cancelled (a close, or the loop ends): nothing more is written
            for w in [*batch, *self._queue]:
                w.done.cancel()
            self._queue.clear()


def _retrieve(done: asyncio.Future[R]) -> None:
    if not done.cancelled():
        done.exception()  # the caller re-raises it (if it still waits); this marks it seen

"""The inbox's rows marked handled in batches (PostgreSQL, several processes: docs/scaling.md).

Each handler that returns waits until its row is marked (its update stays "being handled here"
until then, so it is not claimed again), but the marks of every handler that returned while the
last batch was being written go in one statement, not one write transaction each: under load,
one transaction an update queued behind the games' writes for the database's write lock
(seconds at N = 50) and doubled the transactions that lock serialises.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable

Write = Callable[[Iterable[int], float], Awaitable[None]]


class HandledMarks:
    def __init__(self, write: Write) -> None:
        self._write = write
        self._waiting: list[tuple[int, float, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def mark(self, update_id: int, now: float) -> None:
        """Returns once ``update_id`` is marked handled (or raises what the write raised)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        done.add_done_callback(_retrieve)
        self._waiting.append((update_id, now, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all())
        await asyncio.shield(done)  # a waiter cancelled does not cancel the others' write

    async def _write_all(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self._write([u for u, _, _ in batch], max(t for _, t, _ in batch))
            except asyncio.CancelledError:
                for _, _, done in [*batch, *self._waiting]:
                    done.cancel()
                raise
            except Exception as e:
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for _, _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer


def _retrieve(done: asyncio.Future[None]) -> None:
    if not done.cancelled():
        done.exception()  # each waiter re-raises it; this only marks it seen

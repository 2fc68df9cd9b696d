"""The inbox's rows marked handled in batches (PostgreSQL, several processes: docs/scaling.md).

Each handler that returns waits until its row is marked (its update stays "being handled here"
until then, so it is not claimed again), but the marks of every handler that returned while the
last batch was being written go in one statement, not one write transaction each: under load,
one transaction an update would queue behind the games' writes for the database's write lock
and double the transactions that lock serialises.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from storage.txn.batcher import Batcher

Write = Callable[[Iterable[int], float], Awaitable[None]]


class HandledMarks:
    def __init__(self, write: Write) -> None:
        self._write = write
        # a handler cancelled while its mark waits has still handled its update: the mark is
        # written all the same (not handled a second time by the next claim)
        self._batcher: Batcher[tuple[int, float], None] = Batcher(
            self._write_batch, drop_cancelled=False)

    async def mark(self, update_id: int, now: float) -> None:
        """Returns once ``update_id`` is marked handled (or raises what the write raised)."""
        await self._batcher.put((update_id, now))

    async def _write_batch(self, batch: list[tuple[int, float]]) -> list[None]:
        await self._write([u for u, _ in batch], max(t for _, t in batch))
        return [None] * len(batch)

    async def close(self) -> None:
        await self._batcher.close()

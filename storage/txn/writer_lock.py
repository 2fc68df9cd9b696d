"""A lock with two lanes, the games' work before background work: the writing connection's
and the reading connection's (:class:`storage.txn.transactions.Transactions`).

A press is answered once its step is durable, and a step waits for the one writing connection;
in a FIFO queue it would wait behind whatever came first, mostly the delivery's marks of sent
messages and other background writes nobody is waiting to see (docs/storage.md, "Writes and
how they are serialized"). The reads likewise: a deal's snapshot or the middleware's account
read would wait behind the delivery's reads of its queues (each chat's worker reads its queue
before and after each send). A background waiter waits until no foreground one is queued.

No age bound: a steady stream of foreground waiters would hold the background lane back
indefinitely. That only delays the delivery (nothing is lost: its rows stay queued in the
database), and the games' bursts are short (a press's step or read takes milliseconds), so
the background lane runs between them.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType


class LaneLock:
    """An :class:`asyncio.Lock` (FIFO within a lane, handed from holder to waiter without
    barging) whose ``acquire(background=True)`` waiters go after every foreground one."""

    def __init__(self) -> None:
        self._held = False
        self._foreground: deque[asyncio.Future[None]] = deque()
        self._background: deque[asyncio.Future[None]] = deque()

    def locked(self) -> bool:
        return self._held

    def try_acquire(self) -> bool:
        """Held now if it is free with nobody queued (no barging past a waiter)."""
        if self._held or self._foreground or self._background:
            return False
        self._held = True
        return True

    async def acquire(self, *, background: bool = False) -> None:
        if self.try_acquire():
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lane = self._background if background else self._foreground
        lane.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed the lock as the task was cancelled: pass it on
            elif waiter in lane:  # (a release may have dropped it already)
                lane.remove(waiter)
            raise

    def release(self) -> None:
        if not self._held:
            raise RuntimeError("LaneLock released while not held")
        for lane in (self._foreground, self._background):
            while lane:
                waiter = lane.popleft()
                if not waiter.done():
                    waiter.set_result(None)  # still held: now by that waiter
                    return
        self._held = False

    @asynccontextmanager
    async def lane(self, *, background: bool = False) -> AsyncIterator[None]:
        """Held in this lane for the block."""
        await self.acquire(background=background)
        try:
            yield
        finally:
            self.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


WriterLock = LaneLock  # the name it had when only the writer had two lanes

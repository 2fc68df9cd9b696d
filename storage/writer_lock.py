"""The writing connection's lock, with two lanes: the games' steps before background writes.

A press is answered once its step is durable, and a step waits for the one writing connection;
in a FIFO queue it waited behind whatever came first, mostly the delivery's marks of sent
messages (30 a second at the bursts) and other background writes nobody is waiting to see
(docs/benchmarks.md, issue 22). A background writer waits until no foreground one is queued.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType


class WriterLock:
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
            raise RuntimeError("WriterLock released while not held")
        for lane in (self._foreground, self._background):
            while lane:
                waiter = lane.popleft()
                if not waiter.done():
                    waiter.set_result(None)  # still held: now by that waiter
                    return
        self._held = False

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()

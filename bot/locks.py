"""An asyncio lock per key (a game, a club chat), kept only while a task holds or waits for
it: a process that runs for months keeps no lock for every game or chat it ever saw."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass
class _Held:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # tasks holding or waiting for it


class KeyedLocks(Generic[K]):
    """``async with locks.hold(key):`` one task at a time per key, in arrival order."""

    def __init__(self) -> None:
        self.held: dict[K, _Held] = {}

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        entry = self.held.get(key)
        if entry is None:
            entry = self.held[key] = _Held()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:  # nobody holds it nor waits: a new one next time
                del self.held[key]

    def locked(self) -> bool:
        """Whether a task holds the lock of some key now."""
        return any(entry.lock.locked() for entry in self.held.values())

    def __len__(self) -> int:
        return len(self.held)

"""Rows read on every update, kept in memory by id: the accounts (storage/repos/account_cache.py),
the clubs (``club_cache`` in storage/repos/clubs.py) and the staff's roles (``roles_cache`` in
storage/staff.py).

Every write of a row through storage forgets it here once the write is committed
(``forget``), and a read that began before that forgetting is not kept (the generation): in
one process a cached row is never older than the last committed write. Other processes'
writes: on PostgreSQL the writing transaction also ``NOTIFY``s the ids on the cache's channel
(delivered at its commit), which the sharing processes listen to
(``bot/cluster/share.py``); what nobody announces (a command-line tool's write) is
seen within the TTL.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from storage.sql import Connection, Store, lock_rows

V = TypeVar("V")
K = TypeVar("K")
T = TypeVar("T")

# seconds: the longest a row written by an unannounced writer (a command-line tool: the bot's
# own processes all announce) may be served stale; counted from the read, so every row is read
# again this often (a shorter one makes a host's presses miss the cache often)
TTL_S = 300.0
MAX_ENTRIES = 20_000  # beyond this the oldest half is dropped (a club network's active players)
ALL = "*"  # the payload of "forget every row"


def keep(entries: dict[K, T], key: K, value: T, most: int) -> None:
    """``entries[key] = value``; when ``most`` are kept already, the oldest half goes first."""
    if len(entries) >= most:
        for old in list(entries)[: most // 2]:
            del entries[old]
    entries[key] = value


class KeyedCache(Generic[V]):
    """Rows of type ``V`` by their integer id (``key`` of a row); ``channel``: the NOTIFY
    channel other processes hear this cache's writes on; ``rows``: the table and key column
    a write locks its rows in first (PostgreSQL: two processes' writes of one row, each
    checking what the other changes, go one after the other)."""

    def __init__(self, channel: str, key: Callable[[V], int], *, rows: tuple[str, str],
                 ttl: float = TTL_S, announce: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.channel = channel
        self.key = key
        self.rows = rows
        self.ttl = ttl
        self.announce = announce  # PostgreSQL: tell the other processes (NOTIFY)
        self.clock = clock
        self.generation = 0  # one more at every forgetting
        self._entries: dict[int, tuple[float, V | None]] = {}
        self._forgotten: dict[int, int] = {}  # id -> the generation it was last forgotten at
        self._all_forgotten = 0  # the generation every row was last forgotten at

    def get(self, row_id: int) -> tuple[bool, V | None]:
        """``(found, row)``; a row that does not exist is cached as ``None`` too."""
        entry = self._entries.get(row_id)
        if entry is None:
            return False, None
        at, row = entry
        if self.clock() - at > self.ttl:
            del self._entries[row_id]
            return False, None
        return True, row

    async def read_through(self, row_id: int,
                           read: Callable[[int], Awaitable[V | None]]) -> V | None:
        """The row from memory, or ``read`` and kept (unless written meanwhile)."""
        found, row = self.get(row_id)
        if found:
            return row
        generation, at = self.generation, self.clock()
        row = await read(row_id)
        self.put(row_id, row, generation, at)
        return row

    async def warm(self, row_ids: Iterable[int],
                   read_many: Callable[[list[int]], Awaitable[dict[int, V]]]) -> None:
        """Those of ``row_ids`` not in memory read with one ``read_many`` and kept as
        :meth:`read_through` keeps them (a missing one as ``None``)."""
        missing = sorted({row_id for row_id in row_ids if not self.get(row_id)[0]})
        if not missing:
            return
        generation, at = self.generation, self.clock()
        found = await read_many(missing)
        for row_id in missing:
            self.put(row_id, found.get(row_id), generation, at)

    def put(self, row_id: int, row: V | None, generation: int, at: float) -> None:
        """Keep what a read that started at ``at``, in ``generation``, returned; nothing if
        this row was written (forgotten) since it started."""
        if self._written_since(row_id, generation):
            return
        keep(self._entries, row_id, (at, row), MAX_ENTRIES)

    def _written_since(self, row_id: int, generation: int) -> bool:
        """Forgotten (written) after ``generation``: a read begun then may be stale."""
        return self._all_forgotten > generation or self._forgotten.get(row_id, -1) > generation

    def forget(self, row_ids: Iterable[int] | None = None) -> None:
        """Forget these rows (``None``: all), and what reads of them under way return."""
        self.generation += 1
        if row_ids is None or len(self._forgotten) >= MAX_ENTRIES:
            self._all_forgotten = self.generation
            self._forgotten.clear()
            if row_ids is None:
                self._entries.clear()
                return
        for row_id in row_ids:
            self._entries.pop(row_id, None)
            self._forgotten[row_id] = self.generation

    def forget_payload(self, payload: str) -> None:
        """A NOTIFY's payload: comma-separated ids, or :data:`ALL`."""
        if payload.strip() == ALL:
            self.forget()
            return
        try:
            self.forget(int(part) for part in payload.split(",") if part.strip())
        except ValueError:
            self.forget()

    async def announce_in(self, conn: Connection, row_ids: Iterable[int] | None) -> None:
        """Inside the writing transaction: tell the other processes at its commit."""
        if not self.announce:
            return
        payload = ALL if row_ids is None else ",".join(str(i) for i in sorted(set(row_ids)))
        if len(payload) > 7000:  # NOTIFY's payload limit is 8000 bytes
            payload = ALL
        await conn.execute("SELECT pg_notify(?, ?)", (self.channel, payload))

    @asynccontextmanager
    async def writing(self, db: Store, row_ids: list[int] | None,
                      fresh: list[V] | None = None, *,
                      background: bool = False) -> AsyncIterator[Connection]:
        """A write transaction of these rows (``None``: any): forgotten here once it is
        committed (or failed), announced to the other processes at its commit. ``row_ids``
        may grow inside the block (ids learnt there). ``fresh``: rows as the block read them
        after its writes, kept once committed (the next update's read is then free).
        ``background``: as ``db.transaction(background=True)``."""
        committed = False
        since = self.generation
        try:
            async with db.transaction(background=background) as conn:
                if row_ids:
                    await lock_rows(conn, *self.rows, row_ids)
                yield conn
                await self.announce_in(conn, row_ids)
            committed = True
        finally:
            # another write of the row since this one began (committed in the same group,
            # perhaps after it): what this one read may be older than what is committed
            kept = [row for row in (fresh if committed and fresh else ())
                    if not self._written_since(self.key(row), since)]
            self.forget(row_ids)
            for row in kept:  # nothing ran between the forgetting and this
                self._entries[self.key(row)] = (self.clock(), row)

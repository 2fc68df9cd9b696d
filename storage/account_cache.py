"""The accounts read on every update, kept in memory (``Players.cached``).

Every write of an account through storage forgets it here once the write is committed
(``forget``), and a read that began before that forgetting is not kept (the generation): in
one process a cached account is never older than the last committed write. Other processes'
writes: on PostgreSQL the writing transaction also ``NOTIFY``s the ids on
:data:`ACCOUNTS_CHANNEL` (delivered at its commit), which the sharing processes listen to
(``storage/backends/pg_share.py``); what nobody announces (a command-line tool's write) is
seen within :data:`TTL_S`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager

from storage.models import Player
from storage.sql import Connection, Store

ACCOUNTS_CHANNEL = "mafia_accounts"
# seconds: the longest an account written by an unannounced writer (a command-line tool: the
# bot's own processes all announce) may be served stale; counted from the read, so every
# account is read again this often (at 60 s a host's press missed about once a minute)
TTL_S = 300.0
MAX_ENTRIES = 20_000  # beyond this the oldest half is dropped (a club network's active players)
ALL = "*"  # the payload of "forget every account"


class AccountCache:
    def __init__(self, *, ttl: float = TTL_S, announce: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.announce = announce  # PostgreSQL: tell the other processes (NOTIFY)
        self.clock = clock
        self.generation = 0  # one more at every forgetting
        self._entries: dict[int, tuple[float, Player | None]] = {}
        self._forgotten: dict[int, int] = {}  # account -> the generation it was last forgotten at
        self._all_forgotten = 0  # the generation every account was last forgotten at

    def get(self, tg_id: int) -> tuple[bool, Player | None]:
        """``(found, account)``; an account not registered is cached as ``None`` too."""
        entry = self._entries.get(tg_id)
        if entry is None:
            return False, None
        at, player = entry
        if self.clock() - at > self.ttl:
            del self._entries[tg_id]
            return False, None
        return True, player

    def put(self, tg_id: int, player: Player | None, generation: int, at: float) -> None:
        """Keep what a read that started at ``at``, in ``generation``, returned; nothing if
        this account was written (forgotten) since it started."""
        if self._written_since(tg_id, generation):
            return
        if len(self._entries) >= MAX_ENTRIES:
            for key in list(self._entries)[: MAX_ENTRIES // 2]:
                del self._entries[key]
        self._entries[tg_id] = (at, player)

    def _written_since(self, tg_id: int, generation: int) -> bool:
        """Forgotten (written) after ``generation``: a read begun then may be stale."""
        return self._all_forgotten > generation or self._forgotten.get(tg_id, -1) > generation

    def forget(self, tg_ids: Iterable[int] | None = None) -> None:
        """Forget these accounts (``None``: all), and what reads of them under way return."""
        self.generation += 1
        if tg_ids is None or len(self._forgotten) >= MAX_ENTRIES:
            self._all_forgotten = self.generation
            self._forgotten.clear()
            if tg_ids is None:
                self._entries.clear()
                return
        for tg_id in tg_ids:
            self._entries.pop(tg_id, None)
            self._forgotten[tg_id] = self.generation

    def forget_payload(self, payload: str) -> None:
        """A NOTIFY's payload: comma-separated ids, or :data:`ALL`."""
        if payload.strip() == ALL:
            self.forget()
            return
        try:
            self.forget(int(part) for part in payload.split(",") if part.strip())
        except ValueError:
            self.forget()

    async def announce_in(self, conn: Connection, tg_ids: Iterable[int] | None) -> None:
        """Inside the writing transaction: tell the other processes at its commit."""
        if not self.announce:
            return
        payload = ALL if tg_ids is None else ",".join(str(i) for i in sorted(set(tg_ids)))
        if len(payload) > 7000:  # NOTIFY's payload limit is 8000 bytes
            payload = ALL
        await conn.execute("SELECT pg_notify(?, ?)", (ACCOUNTS_CHANNEL, payload))

    @asynccontextmanager
    async def writing(self, db: Store, tg_ids: list[int] | None,
                      fresh: list[Player] | None = None, *,
                      background: bool = False) -> AsyncIterator[Connection]:
        """A write transaction of these accounts (``None``: any): forgotten here once it is
        committed (or failed), announced to the other processes at its commit. ``tg_ids``
        may grow inside the block (ids learnt there). ``fresh``: accounts as the block read
        them after its writes, kept once committed (the next update's read is then free).
        ``background``: as ``db.transaction(background=True)``."""
        committed = False
        since = self.generation
        try:
            async with db.transaction(background=background) as conn:
                yield conn
                await self.announce_in(conn, tg_ids)
            committed = True
        finally:
            # another write of the account since this one began (committed in the same group,
            # perhaps after it): what this one read may be older than what is committed
            kept = [p for p in (fresh if committed and fresh else ())
                    if not self._written_since(p.tg_id, since)]
            self.forget(tg_ids)
            for player in kept:  # nothing ran between the forgetting and this
                self._entries[player.tg_id] = (self.clock(), player)

"""One session advisory lock on a connection of its own, with a check of whether it is still
this process's (the share connection, ``storage/backends/pg_share.py``, holds many the same way
and uses this module's keepalives; docs/scaling.md).

A session lock is released by the server the moment its connection ends: a process that dies
(``kill -9``, a crash) gives it up at once, and one whose machine vanishes gives it up when the
server's TCP keepalives find the peer gone (about ``KEEPALIVE_GIVE_UP_S``). Nothing of ours
expires or is renewed: there is no lease clock to get wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
from enum import Enum

import asyncpg

from storage.backends.postgres import CONNECT_TIMEOUT_S, LOST

CLUBS_LOCK = 0x6D616669_636C7562  # "maficlub": the default key
# the server probes an idle lock connection: after 3 s of silence, every second, 4 times
KEEPALIVES = {"tcp_keepalives_idle": "3", "tcp_keepalives_interval": "1",
              "tcp_keepalives_count": "4", "application_name": "mafia-bot clubs lock"}
KEEPALIVE_GIVE_UP_S = 3 + 1 * 4
PING_TIMEOUT_S = 5.0
_FAILED: tuple[type[BaseException], ...] = (TimeoutError, *LOST)


class Holding(Enum):
    HELD = "held"
    LOST = "lost"  # another process holds it now: this one must stop at once
    UNKNOWN = "unknown"  # the server cannot be reached: nobody can take it meanwhile


class SessionLock:
    """An advisory lock ``key`` held by a dedicated connection's session; :meth:`check` says
    whether it is still this process's."""

    def __init__(self, url: str, key: int = CLUBS_LOCK) -> None:
        self.url = url
        self.key = key
        self._conn: asyncpg.Connection | None = None
        self._held = False  # granted on the current connection

    async def _connect(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._held = False  # a session's lock ends with it
            self._conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S,
                                               server_settings=KEEPALIVES)
        return self._conn

    async def _try(self) -> bool:
        conn = await self._connect()
        if not self._held:
            self._held = bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key,
                                                  timeout=PING_TIMEOUT_S))
        return self._held

    async def try_acquire(self) -> bool | None:
        """True: granted (or already held); False: another process holds it; None: the server
        cannot be reached."""
        try:
            return await self._try()
        except _FAILED:
            await self._drop()
            return None

    async def acquire(self, *, every: float = 1.0) -> None:
        """Wait in the server's lock queue (``pg_advisory_lock``): granted the moment the
        holder's session ends, no polling; a lost connection is opened again ``every`` s."""
        while True:
            try:
                conn = await self._connect()
                await conn.fetchval("SELECT pg_advisory_lock($1)", self.key)
                self._held = True
                return
            except _FAILED:
                await self._drop()
            await asyncio.sleep(every)

    async def check(self) -> Holding:
        """A round trip on the lock's connection; if the connection was lost, the lock is
        asked for again (the server released it with the connection)."""
        conn = self._conn
        if conn is not None and not conn.is_closed() and self._held:
            try:
                await conn.fetchval("SELECT 1", timeout=PING_TIMEOUT_S)
                return Holding.HELD
            except _FAILED:
                await self._drop()
        got = await self.try_acquire()
        if got is None:
            return Holding.UNKNOWN
        return Holding.HELD if got else Holding.LOST

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        self._held = False
        if conn is not None:
            conn.terminate()

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        self._held = False
        if conn is not None and not conn.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), PING_TIMEOUT_S)
            if not conn.is_closed():
                conn.terminate()

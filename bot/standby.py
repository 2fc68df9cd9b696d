"""Several ``python -m bot`` on one PostgreSQL: one runs the clubs, the others wait to take over.

The process holding the clubs lock (``storage/backends/pg_lock.py``, a session advisory lock)
polls Telegram, runs every club's games, their timers, the durable outbox and the daily expiry
job, exactly as a lone process does. The others hold no work: each waits in the server's
queue for the lock (``pg_advisory_lock``), and the one it is granted to when the holder's
session ends starts as a restarted bot does (games rebuilt from their logs, deadlines re-armed,
the queued outbox sent). See docs/scaling.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable

from bot.config import Settings
from storage.backends.pg_lock import Holding, SessionLock

log = logging.getLogger("bot.standby")

TRY_EVERY_S = 1.0  # a waiting process whose connection was lost reconnects this often
CHECK_EVERY_S = 1.0  # the holder makes sure it still holds it this often
EXIT_LOST = 75  # EX_TEMPFAIL: a supervisor starts it again, and it waits its turn


async def take_clubs(settings: Settings, *, every: float = TRY_EVERY_S) -> SessionLock | None:
    """On PostgreSQL, wait until this process holds the clubs lock; None on SQLite (one
    process per file, storage/backends/single.py)."""
    if settings.database_url is None:
        return None
    lock = SessionLock(settings.database_url.get_secret_value())
    got = await lock.try_acquire()
    if not got:
        log.info("standby", extra={"db": settings.database_label,
                                   "reason": "another process runs the clubs" if got is False
                                   else "database unreachable"})
        await lock.acquire(every=every)
    log.info("running the clubs", extra={"db": settings.database_label})
    return lock


async def watch(lock: SessionLock, on_lost: Callable[[], None], *,
                every: float = CHECK_EVERY_S) -> None:
    """Until cancelled: check the lock; if another process holds it (this one's connection
    was lost and the other took over), ``on_lost`` — two processes must never run one club.
    While the server is unreachable nothing changes: nobody can take the lock meanwhile, and
    the writes wait for the server as they do with one process."""
    while True:
        await asyncio.sleep(every)
        state = await lock.check()
        if state is Holding.LOST:
            log.error("another process took the clubs over: stopping at once")
            on_lost()
            return


def exit_now() -> None:
    """No graceful stop: its flush would send and write beside the process now in charge.
    What this one had not finished is in the log and the outbox; the new holder resumes it."""
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    os._exit(EXIT_LOST)

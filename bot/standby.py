"""What a process does when its locks were taken by another (docs/scaling.md).

The share connection (``storage/backends/pg_share.py``) holds this process's roles and clubs as
session advisory locks. If it was lost and another process took one of them, this process must
stop at once: :func:`exit_now`. :func:`watch` does the same for a single :class:`SessionLock`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable

from storage.backends.pg_lock import Holding, SessionLock

log = logging.getLogger("bot.standby")

CHECK_EVERY_S = 1.0  # the holder makes sure it still holds it this often
EXIT_LOST = 75  # EX_TEMPFAIL: a supervisor starts it again, and it joins as a new member


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
    log.error("this process's locks were taken by another: stopping at once")
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    os._exit(EXIT_LOST)

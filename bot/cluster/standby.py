"""What a process does when its locks were taken by another (docs/scaling.md).

The share connection (``bot/cluster/share.py``) holds this process's roles and clubs as
session advisory locks. If it was lost and another process took one of them, this process must
stop at once: :func:`exit_now`.
"""

from __future__ import annotations

import logging
import os
import sys

log = logging.getLogger("bot.cluster.standby")

EXIT_LOST = 75  # EX_TEMPFAIL: a supervisor starts it again, and it joins as a new member


def exit_now() -> None:
    """No graceful stop: its flush would send and write beside the process now in charge.
    What this one had not finished is in the log and the outbox; the new holder resumes it."""
    log.error("this process's locks were taken by another: stopping at once")
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    os._exit(EXIT_LOST)

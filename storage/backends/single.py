"""One bot process per SQLite file: an exclusive lock held for the process's life.

SQLite has no way to share a club's games between processes (no advisory locks, no
LISTEN/NOTIFY), and two pollers on one token would steal each other's updates; a second
``python -m bot`` on the same file refuses to start instead. The lock is ``flock`` on a file
beside the database: the kernel releases it when the process dies, ``kill -9`` included, so a
crash never leaves a stale lock behind. Other programs on the file (``python -m web``,
``python -m storage backup``) do not take it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class DatabaseInUse(RuntimeError):
    """Another process holds the database's process lock; the message is one line."""


class ProcessLock:
    """``fcntl.flock`` on ``<database>.lock``, taken without waiting; the holder's pid is
    written into the file so the refusal can name it."""

    def __init__(self, handle: IO[str], path: Path) -> None:
        self._handle: IO[str] | None = handle
        self.path = path

    @classmethod
    def take(cls, database: Path) -> ProcessLock:
        database.parent.mkdir(parents=True, exist_ok=True)
        path = lock_path(database)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held for the process's life)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = handle.read().strip()
            handle.close()
            holder = f" (pid {pid})" if pid.isdigit() else ""
            raise DatabaseInUse(
                f"another bot process{holder} is running on {database}: SQLite allows one; "
                "stop it, or set DATABASE_URL to PostgreSQL to run several") from None
        except BaseException:
            handle.close()
            raise
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        return cls(handle, path)

    def release(self) -> None:
        if self._handle is None:
            return
        # the file stays: unlinking it would let a third process lock a new inode while a
        # second one still waits on the old
        fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
        self._handle.close()
        self._handle = None


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")

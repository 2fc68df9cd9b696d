"""What ``python -m bot`` does before importing aiogram (seconds of CPU): the one-line
start-up error, and SQLite's one process per database file, so that a second process on the
same file refuses at once."""

from __future__ import annotations

from bot.config import Settings
from storage.backends.single import DatabaseInUse, ProcessLock


class StartupError(Exception):
    """The bot cannot start; the message is the one line shown to the operator."""

    exit_code = 1


def take_process_lock(settings: Settings) -> ProcessLock | None:
    """On SQLite, the one bot process per database file (storage/backends/single.py); on
    PostgreSQL nothing: several processes share the work there (docs/scaling.md)."""
    if settings.database_url is not None:
        return None
    try:
        return ProcessLock.take(settings.database_path)
    except DatabaseInUse as e:
        raise StartupError(str(e)) from None
    except OSError as e:
        raise StartupError(f"cannot lock the database {settings.database_label}: {e}") from None

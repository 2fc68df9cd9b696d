"""``python -m bot``: long polling until SIGTERM/SIGINT.

``python -m bot check``: the health check (texts, database, getMe); prints one line, exits 0 or 1.
"""

from __future__ import annotations

import asyncio
import sys

from pydantic import ValidationError

from bot.config import Settings
from bot.logs import setup_logging
from bot.startup import StartupError, take_process_lock
from storage.backends.single import ProcessLock


def describe(error: ValidationError) -> str:
    """One line naming the bad settings (never their values: the token is a secret)."""
    parts = []
    for item in error.errors():
        name = "_".join(str(p) for p in item["loc"]).upper()
        if not name:  # a rule across settings: its message names them
            parts.append(str(item["msg"]).removeprefix("Value error, "))
        elif item["type"] == "missing":
            parts.append(f"{name} is not set")
        else:
            parts.append(f"{name} is malformed ({item['msg']})")
    return "; ".join(parts)


async def run(settings: Settings, lock: ProcessLock | None) -> None:
    from bot.app import create_app
    from bot.cluster.standby import exit_now
    from bot.memory import start_from_env

    report = start_from_env()  # opt-in: BOT_MEMORY_LOG
    try:
        # a bad DATABASE_URL stops here, with its one line; on PostgreSQL another process may
        # run this one's clubs once their locks are lost: exit at once
        app = await create_app(settings, on_lost=exit_now)
        await app.run()
    finally:
        if report is not None:
            report.cancel()
        if lock is not None:
            lock.release()


async def check(settings: Settings) -> str:
    from bot.app import health_check

    return await health_check(settings)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["check"]):
        print("usage: python -m bot [check]", file=sys.stderr)
        return 2
    try:
        settings = Settings()
    except ValidationError as e:
        print(f"error: {describe(e)}", file=sys.stderr)
        return 1 if args else 2
    if args == ["check"]:
        return run_check(settings)
    setup_logging(log_format=settings.log_format)
    try:
        # before aiogram's import (seconds): a second process on one SQLite file stops at once
        lock = take_process_lock(settings)
        asyncio.run(run(settings, lock))
    except StartupError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130
    return 0


def run_check(settings: Settings) -> int:
    try:
        print(asyncio.run(check(settings)))
    except StartupError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())

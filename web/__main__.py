"""``python -m web``: serve the read-only pages alone (WEB_PORT, DATABASE_URL or DATABASE_PATH,
DEFAULT_LOCALE, TIMEZONE: the network's, as the bot's)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from storage.backends import DatabaseUrlError, is_url
from storage.backends.postgres import describe
from storage.db import Database
from storage.numbers import read_number
from views.i18n import SUPPORTED, Translator
from web.app import create_web_app, start_web

DEFAULT_ZONE = "Europe/Moscow"  # the bot's own default (bot/config.py, TIMEZONE)


async def serve(path: str | Path, port: int, locale: str, zone: str) -> None:
    db = await Database.open(path)
    runner = await start_web(create_web_app(db, translator=Translator.load(default=locale),
                                            zone=zone), port)
    label = describe(path) if isinstance(path, str) else path
    print(f"serving http://0.0.0.0:{port}/ (database {label})", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await db.close()


def main() -> int:
    port_text = os.environ.get("WEB_PORT", "8080")
    port = read_number(port_text, digits=5)
    if port is None or not 0 < port < 65536:
        print(f"error: WEB_PORT must be a port number, not {port_text!r}", file=sys.stderr)
        return 2
    url = os.environ.get("DATABASE_URL", "").strip()
    path: str | Path = url or Path(os.environ.get("DATABASE_PATH", "data/mafia.sqlite3"))
    if isinstance(path, str) and not is_url(path):
        print("error: DATABASE_URL is malformed (expected postgresql://user:password@host:port"
              "/dbname)", file=sys.stderr)
        return 2
    if isinstance(path, Path) and not path.exists():
        print(f"error: the database {path} does not exist", file=sys.stderr)
        return 2
    locale = os.environ.get("DEFAULT_LOCALE", "ru")
    zone = os.environ.get("TIMEZONE", "").strip() or DEFAULT_ZONE
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        print(f"error: TIMEZONE must be an IANA time zone, not {zone!r}", file=sys.stderr)
        return 2
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(path, port, locale if locale in SUPPORTED else "ru", zone))
    except DatabaseUrlError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m storage``: ``backup DB OUT`` | ``export DB [--xlsx OUT]`` |
``lookalikes DB`` | ``import [DB] FILE [--apply]`` (``storage/tools/import_cli.py``) |
``copy SRC.sqlite3`` | ``rerate DB`` (every skill rating and achievement rebuilt from the
games). DB is a SQLite file or a PostgreSQL URL; ``import`` without DB and ``copy`` write to
``DATABASE_URL`` from the environment, and refuse a URL given with its password on the
command line (``storage/tools/targets.py``)."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from storage.backends import DatabaseUrlError, is_url
from storage.backends.postgres import describe
from storage.db import Database, backup_file
from storage.errors import BackupRefused
from storage.tools import import_cli, rerate, targets
from storage.tools.copy import CopyError, copy

PG_DUMP_HELP = (
    "on PostgreSQL, back up with pg_dump: pg_dump --format=custom --file OUT.dump 'URL'"
    " (restore into an empty database: pg_restore --dbname 'URL' OUT.dump; docs/storage.md)"
)


async def _export(target: str | Path) -> str:
    db = await Database.open(target)
    try:
        return await db.ledger.export_csv()
    finally:
        await db.close()


async def _export_xlsx(target: str | Path) -> bytes:
    db = await Database.open(target)
    try:
        return await db.ledger.export_xlsx()
    finally:
        await db.close()


async def _lookalikes(target: str | Path) -> list[list[str]]:
    db = await Database.open(target)
    try:
        return await db.players.lookalikes()
    finally:
        await db.close()


def _pg_dump(url: str, out: Path) -> int:
    """pg_dump's custom format to ``out`` (through ``out.partial``); the password goes by
    environment, never on a command line other users can see."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        print(f"pg_dump is not installed; {PG_DUMP_HELP}", file=sys.stderr)
        return 2
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password:
        env["PGPASSWORD"] = parts.password
    netloc = parts.hostname or ""
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    if parts.port:
        netloc += f":{parts.port}"
    bare = urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    done = subprocess.run([pg_dump, "--format=custom", "--file", str(tmp), bare], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        print(f"pg_dump of {describe(url)} failed: {last}; {PG_DUMP_HELP}", file=sys.stderr)
        tmp.unlink(missing_ok=True)
        return 2
    os.replace(tmp, out)
    print(f"backed up {describe(url)} to {out} (pg_dump custom format;"
          f" restore: pg_restore --dbname URL {out})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage")
    sub = parser.add_subparsers(dest="command", required=True)
    backup = sub.add_parser("backup", help="online backup of the database to a file")
    backup.add_argument("db")
    backup.add_argument("out_path", type=Path)
    export = sub.add_parser("export", help="balances as CSV on stdout")
    export.add_argument("db")
    export.add_argument("--xlsx", type=Path, metavar="OUT",
                        help="write the same columns as an .xlsx file instead")
    lookalikes = sub.add_parser(
        "lookalikes", help="groups of nicknames that look alike (one group a line)")
    lookalikes.add_argument("db")
    importing = sub.add_parser(
        "import", help="a club's .xlsx or CSV: the dry run's report (exit 0), or --apply;"
        " exit 2 with one line for a file it cannot import")
    importing.add_argument("db", metavar="DB", nargs="?",
                           help="the SQLite database file; omitted: the PostgreSQL database"
                           " of DATABASE_URL in the environment")
    importing.add_argument("file", type=Path, metavar="FILE")
    importing.add_argument("--apply", action="store_true", help="write it")
    importing.add_argument("--sheet", help="an .xlsx sheet other than the first")
    importing.add_argument("--refused", type=Path, metavar="OUT",
                           help="write the refused rows with a reason column (.csv or .xlsx)")
    copier = sub.add_parser(
        "copy", help="copy a SQLite file into an empty PostgreSQL database and check it")
    copier.add_argument("db", help="the SQLite file (the bot stopped)")
    copier.add_argument("url", nargs="?", metavar="URL",
                        help="omitted: DATABASE_URL from the environment (a URL given here"
                        " may not hold a password: it would be visible in ps)")
    rerating = sub.add_parser(
        "rerate", help="rebuild every skill rating and achievement from the finished games,"
        " in their order")
    rerating.add_argument("db", metavar="DB_OR_URL")
    args = parser.parse_args(argv)
    if args.command == "import":
        return asyncio.run(import_cli.main(args.db, args.file, apply=args.apply,
                                           sheet=args.sheet, refused=args.refused))
    target: str | Path = args.db if is_url(args.db) else Path(args.db)
    if isinstance(target, Path) and not target.is_file():
        print(f"no database at {target}", file=sys.stderr)
        return 2
    try:
        return _command(args, target)
    except (DatabaseUrlError, CopyError, targets.TargetError, BackupRefused) as exc:
        print(exc, file=sys.stderr)
        return 2


def _command(args: argparse.Namespace, target: str | Path) -> int:
    if args.command == "backup":
        if isinstance(target, str):
            return _pg_dump(target, args.out_path)
        out = backup_file(target, args.out_path)
        print(f"backed up {target} to {out} (the copy passed PRAGMA integrity_check and was"
              " synced to disk before it took the name)")
    elif args.command == "copy":
        url = targets.from_environment() if args.url is None else targets.given(args.url)
        if isinstance(target, str) or not is_url(url):
            print("usage: DATABASE_URL=postgresql://... python -m storage copy SRC.sqlite3",
                  file=sys.stderr)
            return 2
        # the one import from above storage: this command line is a program of the whole
        # product, and only the game layer knows what a game's logged events mean
        from record.outcome import replay_outcome

        asyncio.run(copy(target, url, replay=replay_outcome))
        print(f"copied {target} to {describe(url)}: every check passed")
    elif args.command == "rerate":
        done = asyncio.run(rerate.main(target))
        print(f"rated {done.rated} game(s) from scratch"
              f" ({done.read} outcome(s) read from their logs first,"
              f" the night kills of {done.kills} read from their logs after);"
              f" achievements from {done.achieved} game(s)")
    elif args.command == "lookalikes":
        groups = asyncio.run(_lookalikes(target))
        for group in groups:
            print(" | ".join(group))
        print(f"{len(groups)} group(s) of look-alike nicknames")
    elif args.xlsx is not None:
        args.xlsx.write_bytes(asyncio.run(_export_xlsx(target)))
        print(f"exported to {args.xlsx}")
    else:
        sys.stdout.write(asyncio.run(_export(target)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

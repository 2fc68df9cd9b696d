"""``python -m storage backup DB_PATH OUT_PATH`` | ``export DB_PATH [--xlsx OUT]`` |
``lookalikes DB_PATH`` | ``import DB_OR_URL FILE [--apply]`` (``storage/import_cli.py``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from storage import import_cli
from storage.db import Database, backup_file


async def _export(db_path: Path) -> str:
    db = await Database.open(db_path)
    try:
        return await db.ledger.export_csv()
    finally:
        await db.close()


async def _export_xlsx(db_path: Path) -> bytes:
    db = await Database.open(db_path)
    try:
        return await db.ledger.export_xlsx()
    finally:
        await db.close()


async def _lookalikes(db_path: Path) -> list[list[str]]:
    db = await Database.open(db_path)
    try:
        return await db.players.lookalikes()
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage")
    sub = parser.add_subparsers(dest="command", required=True)
    backup = sub.add_parser("backup", help="online backup of the database to a file")
    backup.add_argument("db_path", type=Path)
    backup.add_argument("out_path", type=Path)
    export = sub.add_parser("export", help="balances as CSV on stdout")
    export.add_argument("db_path", type=Path)
    export.add_argument("--xlsx", type=Path, metavar="OUT",
                        help="write the same columns as an .xlsx file instead")
    lookalikes = sub.add_parser(
        "lookalikes", help="groups of nicknames that look alike (one group a line)")
    lookalikes.add_argument("db_path", type=Path)
    importing = sub.add_parser(
        "import", help="a club's .xlsx or CSV: the dry run's report (exit 0), or --apply;"
        " exit 2 with one line for a file it cannot import")
    importing.add_argument("db", metavar="DB_OR_URL",
                           help="the SQLite database file (PostgreSQL URLs: not in this build)")
    importing.add_argument("file", type=Path, metavar="FILE")
    importing.add_argument("--apply", action="store_true", help="write it")
    importing.add_argument("--sheet", help="an .xlsx sheet other than the first")
    importing.add_argument("--refused", type=Path, metavar="OUT",
                           help="write the refused rows with a reason column (.csv or .xlsx)")
    args = parser.parse_args(argv)
    if args.command == "import":
        return asyncio.run(import_cli.main(args.db, args.file, apply=args.apply,
                                           sheet=args.sheet, refused=args.refused))
    if not args.db_path.is_file():
        print(f"no database at {args.db_path}", file=sys.stderr)
        return 2
    if args.command == "backup":
        out = backup_file(args.db_path, args.out_path)
        print(f"backed up {args.db_path} to {out}")
    elif args.command == "lookalikes":
        groups = asyncio.run(_lookalikes(args.db_path))
        for group in groups:
            print(" | ".join(group))
        print(f"{len(groups)} group(s) of look-alike nicknames")
    elif args.xlsx is not None:
        args.xlsx.write_bytes(asyncio.run(_export_xlsx(args.db_path)))
        print(f"exported to {args.xlsx}")
    else:
        sys.stdout.write(asyncio.run(_export(args.db_path)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m storage backup DB_PATH OUT_PATH`` | ``export DB_PATH`` | ``lookalikes DB_PATH``."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from storage.db import Database, backup_file


async def _export(db_path: Path) -> str:
    db = await Database.open(db_path)
    try:
        return await db.ledger.export_csv()
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
    lookalikes = sub.add_parser(
        "lookalikes", help="groups of nicknames that look alike (one group a line)")
    lookalikes.add_argument("db_path", type=Path)
    args = parser.parse_args(argv)
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
    else:
        sys.stdout.write(asyncio.run(_export(args.db_path)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

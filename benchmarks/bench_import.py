"""Import benchmark: ``python -m benchmarks.bench_import [--rows N] [--runs N]``.

The largest file ``/import`` takes (10,000 rows, the limit) as ``.xlsx``, as a Windows-1251
semicolon CSV and as UTF-8 CSV: the time to read it (``storage.spreadsheets.files.read_table``) and
the whole dry run against a fresh database (read, check every row, look up every nickname), median
of ``--runs``. Figures are recorded in docs/storage.md ("Moving a club in").
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from storage import Database
from storage.spreadsheets.files import MAX_ROWS, read_table, write_csv, write_xlsx

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
HEADER = ["Ник", "Баллы", "Игр", "Последняя игра", "Telegram ID", "Логин", "Комментарий"]


def rows(count: int) -> list[list[str | int | date | None]]:
    return [[f"Игрок {i}", 1000 + i, i % 90, date(2026, 5, 1) - timedelta(days=i % 100),
             None, f"player_{i}", "заметка"] for i in range(count)]


def files(count: int) -> dict[str, bytes]:
    data = rows(count)
    spaced = [[*r[:1], f"{r[1]:,}".replace(",", "\u00a0"), r[2],
               r[3].strftime("%d.%m.%Y") if isinstance(r[3], date) else "", *r[4:]]
              for r in data]
    return {
        "xlsx": write_xlsx(HEADER, data, title="Игроки"),
        "csv cp1251 ;": write_csv(HEADER, spaced, delimiter=";").decode().encode("cp1251"),
        "csv utf-8 ,": write_csv(HEADER, data),
    }


def median(runs: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def dry_run(path: Path, data: bytes) -> int:
    db = await Database.open(path)
    try:
        report = await db.imports.run(data, admin_id=1, now=NOW, apply=False)
        assert report.file_error is None, report.file_error
        return len(report.added)
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_import")
    parser.add_argument("--rows", type=int, default=MAX_ROWS)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()},"
          f" {args.rows} rows, median of {args.runs} runs")
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files(args.rows).items():
            read = median(args.runs, lambda d=data: read_table(d))  # type: ignore[misc]
            path = Path(tmp) / f"{name.replace(' ', '_')}.sqlite3"
            added = asyncio.run(dry_run(path, data))
            dry = median(args.runs, lambda d=data, p=path: asyncio.run(  # type: ignore[misc]
                dry_run(p, d)))
            print(f"{name:14} {len(data) / 1024:7.0f} KiB  read {read * 1000:6.0f} ms"
                  f"  dry run {dry * 1000:6.0f} ms  ({added} rows would be added)")


if __name__ == "__main__":
    main()

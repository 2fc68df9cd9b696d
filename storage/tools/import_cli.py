"""``python -m storage import [DB] FILE [--apply] [--sheet NAME] [--refused OUT]``: the
``/import`` of the bot, for an administrator with the server at hand. ``DB`` is the SQLite
file; without it, the PostgreSQL database of ``DATABASE_URL`` (``storage/tools/targets.py``).

Prints the dry run's report (what would be added, linked, left unchanged, refused and why;
the format, encoding and columns read) and exits 0; ``--apply`` writes it. A file it cannot
import at all (not a spreadsheet, encrypted, a formula, a required column missing, ...) or a
database it cannot open exits 2 with one line on stderr, nothing written. The reasons are the
stable codes of ``storage/spreadsheets/columns.py`` and ``storage/repos/imports.py`` (docs/bot.md
lists them).
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from storage.backends import DatabaseUrlError
from storage.backends.postgres import describe
from storage.db import Database
from storage.spreadsheets.columns import ImportReport
from storage.spreadsheets.files import MAX_FILE_BYTES, write_csv, write_xlsx
from storage.tools import targets

# the schemes Database.open takes as a URL (the PostgreSQL backend)
URL_SCHEMES: tuple[str, ...] = ("postgresql", "postgres")
SHELL_ADMIN_ID = 0  # admin_log and imported_players.admin_id of an import from the shell

FILE_ERRORS = {
    "too_big": "the file is bigger than {value} KB",
    "empty": "the file is empty (the first row must name the columns)",
    "not_spreadsheet": "not a spreadsheet: send .xlsx or CSV text",
    "unknown_encoding": "the text is neither UTF-8 nor Windows-1251",
    "old_format": "the .{value} format is not read: save the table as .xlsx",
    "encrypted": "the .xlsx is protected by a password",
    "broken": "the file is damaged and cannot be read",
    "no_sheet": "no sheet named {value!r} (sheets: {sheets})",
    "formula": "cell {value} holds a formula: paste the values instead",
    "too_many_rows": "more than {value} rows",
    "missing_column": "required column missing: {value}",
    "duplicate_column": "two columns mean the same: {value}",
}
_DELIMITERS = {",": "commas", ";": "semicolons", "\t": "tabs"}
_ENCODINGS = {"utf8": "UTF-8", "utf8bom": "UTF-8 with BOM",
              "cp1251": "Windows-1251 (read as such: check the names)"}


class CliError(Exception):
    """One line for stderr, exit status 2."""


def database_target(text: str | None) -> str | Path:
    """A SQLite path; a URL when this build's Database.open takes one (without its password:
    :mod:`storage.tools.targets`); None: ``DATABASE_URL``."""
    if text is None:
        try:
            return targets.from_environment()
        except targets.TargetError as e:
            raise CliError(f"{e}, or name the SQLite database file") from None
    if "://" not in text:
        path = Path(text)
        if not path.is_file():
            raise CliError(f"no database at {text}")
        return path
    scheme = text.split("://", 1)[0].lower()
    if scheme not in URL_SCHEMES:
        raise CliError(f"{scheme}:// databases are not supported by this build:"
                       " pass the SQLite database file")
    try:
        return targets.given(text)
    except targets.TargetError as e:
        raise CliError(str(e)) from None


def read_file(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(MAX_FILE_BYTES + 1)  # more is refused as too big anyway
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None


async def run(target: str | Path, data: bytes, *, apply: bool, sheet: str | None,
              admin_id: int = SHELL_ADMIN_ID) -> ImportReport:
    db = await Database.open(target)
    try:
        return await db.imports.run(data, admin_id=admin_id, now=datetime.now(UTC),
                                    apply=apply, sheet=sheet)
    finally:
        await db.close()


def file_error(report: ImportReport) -> str:
    assert report.file_error is not None
    text = FILE_ERRORS.get(report.file_error, report.file_error + " {value}")
    return text.format(value=report.file_value, sheets=", ".join(report.sheets))


def print_report(report: ImportReport, out: TextIO, *, again: str) -> None:
    def line(text: str = "") -> None:
        print(text, file=out)

    line("applied" if report.applied else "dry run: nothing written")
    table = report.table
    if table is not None and table.format == "xlsx":
        line(f"file: .xlsx, sheet {table.sheet!r} (sheets: {', '.join(table.sheets)})")
    elif table is not None:
        line(f"file: CSV, {_ENCODINGS.get(table.encoding, table.encoding)},"
             f" separated by {_DELIMITERS.get(table.delimiter, repr(table.delimiter))}")
    line("columns: " + ", ".join(f"{name} -> {column}" for name, column in report.columns))
    if report.ignored:
        line("ignored columns: " + ", ".join(report.ignored))
    verb = "added" if report.applied else "would add"
    line(f"{verb}: {len(report.added)}" + _names([r.nickname for r in report.added]))
    line(f"linked to a registered account: {len(report.linked)}" + _names(report.linked))
    line(f"unchanged: {len(report.unchanged)}" + _names(report.unchanged))
    line(f"refused: {len(report.refused)}")
    for refusal in report.refused:
        line(f"  line {refusal.line}: {refusal.reason} ({refusal.value})")
    if not report.applied and report.added:
        line(f"to write it: {again} --apply")


def _names(names: list[str]) -> str:
    return f" ({', '.join(names)})" if names else ""


def write_refused(report: ImportReport, out: Path) -> int:
    """The refused rows with a ``reason`` column, as .xlsx or CSV by ``out``'s suffix."""
    header, rows = report.refused_rows()
    cells = [[*row, f"{r.reason} ({r.value})"] for row, r in rows]
    if out.suffix.lower() == ".xlsx":
        data = write_xlsx([*header, "reason"], cells, title="refused")
    else:
        data = write_csv([*header, "reason"], cells, bom=True)
    out.write_bytes(data)
    return len(cells)


async def main(db: str | None, file: Path, *, apply: bool, sheet: str | None,
               refused: Path | None) -> int:
    try:
        target = database_target(db)
        data = read_file(file)
    except CliError as e:
        print(e, file=sys.stderr)
        return 2
    try:
        report = await run(target, data, apply=apply, sheet=sheet)
    except DatabaseUrlError as e:  # its message names the URL without the password
        print(e, file=sys.stderr)
        return 2
    if report.file_error is not None:
        print(f"cannot import {file}: {file_error(report)}; nothing written", file=sys.stderr)
        return 2
    shown = "" if db is None else f"{describe(db) if isinstance(target, str) else db} "
    print_report(report, sys.stdout, again=f"python -m storage import {shown}{file}")
    if refused is not None and report.refused:
        count = write_refused(report, refused)
        print(f"refused rows with their reason written to {refused} ({count})")
    return 0

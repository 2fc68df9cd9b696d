"""Reading the CSV of ``/import``: the header, then each row checked on its own.

The columns, and what an accepted row becomes, are described in ``storage/imports.py``; the
checks against the database (duplicates, look-alikes, nicknames taken, rows imported before)
and the writes are there too.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from storage.errors import InvalidNickname
from storage.nickname import normalize_nickname

COLUMNS = ("nickname", "points", "games_played", "last_game_date", "telegram_id", "username")
REQUIRED = ("nickname", "points")
MAX_ROWS = 10_000
_USERNAME = re.compile(r"^@?([A-Za-z][A-Za-z0-9_]{3,31})$")


@dataclass(frozen=True)
class ImportRow:
    line: int
    nickname: str
    points: int
    games_played: int
    last_game_date: date | None
    tg_id: int | None
    username: str | None
    row_hash: str


@dataclass(frozen=True)
class Refusal:
    """A refused row: ``reason`` is a stable code; ``value`` the offending text."""

    line: int
    reason: str
    value: str


@dataclass
class ImportReport:
    file_error: str | None = None  # "empty", "missing_column", "unknown_column", "too_many_rows"
    file_value: str = ""
    added: list[ImportRow] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)  # nicknames linked to an account now
    unchanged: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    applied: bool = False


def _hash(values: dict[str, str]) -> str:
    canon = "\x1f".join(values.get(c, "").strip() for c in COLUMNS)
    return hashlib.sha256(canon.encode()).hexdigest()


def _parse_date(text: str) -> date | None:
    for fmt in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def parse_csv(data: str, report: ImportReport, today: date) -> list[ImportRow]:
    """Rows of the file that are valid on their own; refusals go into ``report``."""
    reader = csv.reader(io.StringIO(data.lstrip("\ufeff")))
    header = next(reader, None)
    if not header or not any(h.strip() for h in header):
        report.file_error = "empty"
        return []
    names = [h.strip().lower() for h in header]
    unknown = [h for h in names if h not in COLUMNS]
    if unknown:
        report.file_error, report.file_value = "unknown_column", ", ".join(unknown)
        return []
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        report.file_error, report.file_value = "missing_column", ", ".join(missing)
        return []
    rows: list[ImportRow] = []
    for index, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(rows) + len(report.refused) >= MAX_ROWS:
            report.file_error, report.file_value = "too_many_rows", str(MAX_ROWS)
            return []
        values = {n: (cells[i].strip() if i < len(cells) else "") for i, n in enumerate(names)}
        row = _row(index, values, report, today)
        if row is not None:
            rows.append(row)
    return rows


def _int(text: str, *, default: int | None) -> int | None:
    if not text:
        return default
    if not re.fullmatch(r"\d{1,9}", text):
        raise ValueError(text)
    return int(text)


def _row(line: int, values: dict[str, str], report: ImportReport, today: date) -> ImportRow | None:
    def refuse(reason: str, value: str) -> None:
        report.refused.append(Refusal(line, reason, value))

    try:
        nickname = normalize_nickname(values["nickname"])
    except InvalidNickname as e:
        refuse(f"nickname_{e.reason}", values["nickname"])
        return None
    numbers: dict[str, int | None] = {}
    for name, default in (("points", None), ("games_played", 0), ("telegram_id", None)):
        try:
            numbers[name] = _int(values.get(name, ""), default=default)
        except ValueError:
            refuse("bad_number", f"{name}={values.get(name, '')}")
            return None
    points = numbers["points"]
    if points is None:
        refuse("bad_number", "points=")
        return None
    games = numbers["games_played"] or 0
    tg_id = numbers["telegram_id"]
    if tg_id == 0:
        refuse("bad_number", "telegram_id=0")
        return None
    raw_date = values.get("last_game_date", "")
    last: date | None = None
    if raw_date:
        last = _parse_date(raw_date)
        if last is None or last > today:
            refuse("bad_date", raw_date)
            return None
    elif points > 0 or games > 0:
        refuse("missing_date", nickname)
        return None
    username: str | None = None
    if values.get("username"):
        match = _USERNAME.match(values["username"])
        if match is None:
            refuse("bad_username", values["username"])
            return None
        username = match.group(1).lower()
    return ImportRow(line, nickname, points, games, last, tg_id, username, _hash(values))

"""Reading the table of ``/import``: the header's names, then each row checked on its own.

The file itself (``.xlsx`` or CSV, its encoding and delimiter) is read in
``storage/spreadsheets/files.py``; here a header cell names a column in English or Russian
(``ALIASES``); a cell it does not know is ignored and named in the report. A row's hash is of
its values as understood ("1 200" and 1200, 12.11.2026 and 2026-11-12 are the same row), so a
file exported as CSV or ``.xlsx`` and imported again is unchanged.

The columns, and what an accepted row becomes, are described in ``storage/repos/imports.py``; the
checks against the database (duplicates, look-alikes, nicknames taken, rows imported before) and the
writes are there too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from storage.errors import InvalidNickname
from storage.nickname import normalize_nickname
from storage.numbers import read_number
from storage.spreadsheets.files import MAX_ROWS, FileRefused, Sheet, read_text

__all__ = ["ALIASES", "COLUMNS", "EXPORTED", "MAX_ROWS", "REQUIRED", "TEXT_COLUMNS", "WAITING",
           "ImportReport", "ImportRow", "Refusal", "parse_csv", "parse_table"]

COLUMNS = ("nickname", "points", "games_played", "last_game_date", "telegram_id", "username")
REQUIRED = ("nickname", "points")
# ``/export`` writes these: the columns above, then what the bot knows and an import does not
# take (no-shows at the club's evenings; ``status``: WAITING for an imported record no account
# has taken yet, empty for a player). An import skips them without naming them.
EXPORTED = (*COLUMNS, "no_shows", "status")
WAITING = "waiting"
_EXPORT_ONLY = ("no_shows", "неявки", "status", "статус")
# the columns an .xlsx export keeps as text ("007" is a nickname, not the number 7)
TEXT_COLUMNS = ("nickname", "username")
# the names a club's sheet may give each column, compared by _name_key (case, spaces, "_",
# "-", "." and ё/е ignored); docs/bot.md and the /import help list them
ALIASES: dict[str, tuple[str, ...]] = {
    "nickname": ("nickname", "nick", "player", "ник", "никнейм", "игрок", "псевдоним"),
    "points": ("points", "score", "balance", "баллы", "очки", "балл", "баланс"),
    "games_played": ("games_played", "games", "игр", "игры", "сыграно игр", "количество игр",
                     "число игр"),
    "last_game_date": ("last_game_date", "last game", "last game date", "last played",
                       "последняя игра", "дата последней игры"),
    "telegram_id": ("telegram_id", "tg id", "id telegram", "телеграм id", "id телеграм",
                    "id в телеграм", "id в телеграме"),
    "username": ("username", "telegram username", "tg username", "логин", "юзернейм",
                 "логин в телеграм", "логин в телеграме"),
}
_USERNAME = re.compile(r"^@?([A-Za-z][A-Za-z0-9_]{3,31})$")
# thousands grouped by spaces (regular, no-break, narrow no-break) or commas: "1 200"
_GROUPED = re.compile(r"[0-9]{1,3}(?:([ \u00a0\u202f,])[0-9]{3})(?:\1[0-9]{3})*")


def _name_key(name: str) -> str:
    return re.sub(r"[\s_.\-]+", "", name.casefold().replace("ё", "е"))


_BY_NAME = {_name_key(a): column for column, names in ALIASES.items() for a in names}
_SKIPPED = {_name_key(name) for name in _EXPORT_ONLY}


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
    # the hash older imports kept (of the raw cells): the same row is unchanged
    legacy_hash: str = ""


@dataclass(frozen=True)
class Refusal:
    """A refused row: ``reason`` is a stable code; ``value`` the offending text."""

    line: int
    reason: str
    value: str


@dataclass
class ImportReport:
    # "empty", "missing_column", "duplicate_column", "too_many_rows" or a
    # storage.spreadsheets.files.FileRefused code
    file_error: str | None = None
    file_value: str = ""
    added: list[ImportRow] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)  # nicknames linked to an account now
    unchanged: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    applied: bool = False
    # what was read: the format, the columns as the file names them -> ours, the ignored ones
    table: Sheet | None = None
    columns: list[tuple[str, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    sheets: list[str] = field(default_factory=list)  # with "no_sheet"

    def refused_rows(self) -> tuple[list[str], list[tuple[list[str], Refusal]]]:
        """The file's header and, in order, each refused row's cells with its refusal."""
        if self.table is None:
            return [], []
        cells = dict(self.table.rows)
        width = len(self.table.header)
        rows = [((cells.get(r.line, []) + [""] * width)[:width], r) for r in self.refused]
        return list(self.table.header), rows


def _hash(values: dict[str, str]) -> str:
    canon = "\x1f".join(values.get(c, "").strip() for c in COLUMNS)
    return hashlib.sha256(canon.encode()).hexdigest()


def _parse_date(text: str) -> date | None:
    for fmt in ("%Y-%m-%d", "%d.%m.%Y", "%d.%m.%y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def parse_csv(data: str, report: ImportReport, today: date) -> list[ImportRow]:
    """Rows of a CSV text that are valid on their own; refusals go into ``report``."""
    try:
        table = read_text(data)
    except FileRefused as e:
        report.file_error, report.file_value = e.code, e.value
        return []
    return parse_table(table, report, today)


def parse_table(table: Sheet, report: ImportReport, today: date) -> list[ImportRow]:
    """Rows of the table that are valid on their own; refusals go into ``report``."""
    report.table = table
    _find_header(table)
    index: dict[str, int] = {}
    for i, name in enumerate(table.header):
        column = _BY_NAME.get(_name_key(name))
        if column is None:
            if name and _name_key(name) not in _SKIPPED:
                report.ignored.append(name)
            continue
        if column in index:
            report.file_error = "duplicate_column"
            report.file_value = f"{table.header[index[column]]}, {name}"
            return []
        index[column] = i
        report.columns.append((name, column))
    missing = [c for c in REQUIRED if c not in index]
    if missing:
        report.file_error, report.file_value = "missing_column", ", ".join(missing)
        return []
    rows: list[ImportRow] = []
    for line, cells in table.rows:
        values = {c: (cells[i] if i < len(cells) else "") for c, i in index.items()}
        row = _row(line, values, report, today)
        if row is not None:
            rows.append(row)
    return rows


HEADER_SEARCH_ROWS = 10


def _find_header(table: Sheet) -> None:
    """A sheet often has a title above its header ("Рейтинг клуба, март"): when the first row
    does not name the required columns and one of the next few does, that one is the header."""
    def names_required(cells: list[str]) -> bool:
        return set(REQUIRED) <= {_BY_NAME.get(_name_key(c)) for c in cells}

    if names_required(table.header):
        return
    for i, (_, cells) in enumerate(table.rows[:HEADER_SEARCH_ROWS]):
        if names_required(cells):
            while cells and not cells[-1]:
                cells = cells[:-1]
            table.header, table.rows = cells, table.rows[i + 1:]
            return


def _int(text: str, *, default: int | None, digits: int = 9) -> int | None:
    if not text:
        return default
    if _GROUPED.fullmatch(text):
        text = re.sub(r"[^0-9]", "", text)
    value = read_number(text, digits=digits)
    if value is None:
        raise ValueError(text)
    return value


def _row(line: int, values: dict[str, str], report: ImportReport, today: date) -> ImportRow | None:
    def refuse(reason: str, value: str) -> None:
        report.refused.append(Refusal(line, reason, value))

    try:
        nickname = normalize_nickname(values["nickname"])
    except InvalidNickname as e:
        refuse(f"nickname_{e.reason}", values["nickname"])
        return None
    numbers: dict[str, int | None] = {}
    for name, default, digits in (("points", None, 9), ("games_played", 0, 9),
                                  ("telegram_id", None, 16)):
        try:
            numbers[name] = _int(values.get(name, ""), default=default, digits=digits)
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
    username: str | None = None
    if values.get("username"):
        match = _USERNAME.match(values["username"])
        if match is None:
            refuse("bad_username", values["username"])
            return None
        username = match.group(1).lower()
    canon = {"nickname": nickname, "points": str(points), "games_played": str(games),
             "last_game_date": "" if last is None else last.isoformat(),
             "telegram_id": "" if tg_id is None else str(tg_id), "username": username or ""}
    return ImportRow(line, nickname, points, games, last, tg_id, username, _hash(canon),
                     _hash(values))

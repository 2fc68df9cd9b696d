"""The file of ``/import`` as spreadsheets write it, read into a table of text cells; and a
table written back as CSV or ``.xlsx`` (the refused rows, ``/export``).

Read: ``.xlsx`` (openpyxl; the first sheet or a named one; real date cells become ISO dates;
a formula cell refuses the file, since its value would be a guess) and CSV text: UTF-8 with or
without a BOM, else Windows-1251 when the text reads as Cyrillic; the delimiter (comma,
semicolon or tab) is the one that splits the first line into the most cells, or the one named
by Excel's ``sep=;`` line. Anything else is refused with a :class:`FileRefused` code:

``too_big``, ``empty``, ``not_spreadsheet``, ``unknown_encoding``, ``old_format`` (``.xls``,
``.ods``), ``encrypted``, ``broken``, ``no_sheet``, ``formula``, ``too_many_rows``.

Written as spreadsheets read them: in a CSV a text cell that would start a formula (``=``,
``+``, ``-``, ``@``) carries a leading apostrophe, which reading drops again; numbers stay
numbers (a negative number is not a formula). In an ``.xlsx`` the nickname column is text.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
import zipfile
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_ROWS = 10_000
# a 2 MiB zip can unpack to gigabytes; a real 10,000-row sheet unpacks to a few MiB
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
DELIMITERS = (",", ";", "\t")
_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# an encrypted .xlsx is a compound file holding this stream (its name in UTF-16)
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_WORD = re.compile(r"[^\W\d_]+")


class FileRefused(Exception):
    """The whole file is refused: ``code`` is stable, ``value`` the detail to show."""

    def __init__(self, code: str, value: str = "", sheets: Sequence[str] = ()) -> None:
        super().__init__(f"{code}: {value}")
        self.code = code
        self.value = value
        self.sheets = list(sheets)


@dataclass
class Sheet:
    """Cells as text, stripped; ``rows`` are (row number as the spreadsheet shows it, cells)."""

    format: str  # "csv" | "xlsx"
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    encoding: str = ""  # csv: "utf8", "utf8bom", "cp1251"
    delimiter: str = ""  # csv
    sheet: str = ""  # xlsx
    sheets: list[str] = field(default_factory=list)


def read_table(data: bytes, sheet: str | None = None) -> Sheet:
    """The table in ``data`` (see the module docstring), or :class:`FileRefused`."""
    if len(data) > MAX_FILE_BYTES:
        raise FileRefused("too_big", str(MAX_FILE_BYTES // 1024))
    if not data.strip():
        raise FileRefused("empty")
    if data.startswith(b"PK\x03\x04"):
        return _read_xlsx(data, sheet)
    if data.startswith(_CFB_MAGIC):
        raise FileRefused("encrypted" if _ENCRYPTION_INFO in data else "old_format", "xls")
    text, encoding = _decode(data)
    table = read_text(text)
    table.encoding = encoding
    return table


def read_text(text: str) -> Sheet:
    """A CSV already decoded to text."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise FileRefused("empty")
    match = re.fullmatch(r"\s*sep=([,;\t])\s*", first)
    if match is not None:  # Excel's hint line: the delimiter, then the header
        delimiter = match.group(1)
        text = text[text.index(first) + len(first):].lstrip("\r\n")
    else:
        delimiter = _delimiter(first)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        records = [(n, [c.strip() for c in cells]) for n, cells in enumerate(reader, start=1)]
    except csv.Error as e:
        raise FileRefused("broken", str(e)) from None
    table = _table("csv", records)
    table.delimiter = delimiter
    return table


def _decode(data: bytes) -> tuple[str, str]:
    if b"\x00" in data[:4096]:
        raise FileRefused("not_spreadsheet")
    encoding = "utf8"
    try:
        if data.startswith(b"\xef\xbb\xbf"):
            encoding = "utf8bom"
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text, encoding = data.decode("cp1251", errors="replace"), "cp1251"
        if not _reads_as_cyrillic(text):
            raise FileRefused("unknown_encoding") from None
    if _CONTROL.search(text[:4096]):
        raise FileRefused("not_spreadsheet")
    return text, encoding


def _reads_as_cyrillic(text: str) -> bool:
    """cp1251 decodes almost any bytes: only text that reads as Russian is taken for it (few
    other non-ASCII characters, few words mixing Latin and Cyrillic letters as "Josй")."""
    if "\ufffd" in text:
        return False
    text = text[:65536]  # a sample decides as well as the whole file, in far less time
    letters = len(_CYRILLIC.findall(text))
    others = sum(1 for c in text if ord(c) > 127 and not _CYRILLIC.match(c))
    words = [w for w in _WORD.findall(text) if _CYRILLIC.search(w)]
    mixed = sum(1 for w in words if re.search(r"[A-Za-z]", w))
    return letters > 0 and others * 10 <= letters and mixed * 10 <= len(words)


def _delimiter(line: str) -> str:
    widths = {d: len(next(csv.reader([line], delimiter=d))) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: widths[d])
    return best if widths[best] > 1 else ","


def _table(fmt: str, records: Iterable[tuple[int, list[str]]]) -> Sheet:
    """The first non-empty row is the header; empty rows are skipped; at most MAX_ROWS."""
    header: list[str] | None = None
    table = Sheet(fmt, [])
    for number, cells in records:
        if not any(cells):
            continue
        if header is None:
            header = [_unquoted(c) for c in cells]
            while header and not header[-1]:
                header.pop()
            table.header = header
            continue
        if len(table.rows) >= MAX_ROWS:
            raise FileRefused("too_many_rows", str(MAX_ROWS))
        table.rows.append((number, [_unquoted(c) for c in cells]))
    if header is None:
        raise FileRefused("empty")
    return table


def _read_xlsx(data: bytes, sheet: str | None) -> Sheet:
    import openpyxl  # only an .xlsx needs it

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        unpacked = sum(info.file_size for info in archive.infolist())
        kind = archive.read("mimetype") if "mimetype" in names else b""
    except (zipfile.BadZipFile, OSError, KeyError):
        raise FileRefused("broken", "xlsx") from None
    if "xl/workbook.xml" not in names:
        if b"opendocument.spreadsheet" in kind:
            raise FileRefused("old_format", "ods")
        raise FileRefused("not_spreadsheet")
    if unpacked > MAX_UNPACKED_BYTES:
        raise FileRefused("too_big", str(MAX_FILE_BYTES // 1024))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles it does not read
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    # a damaged archive fails inside openpyxl or its XML parser with many exception types
    except Exception:
        raise FileRefused("broken", "xlsx") from None
    try:
        titles = list(book.sheetnames)
        if sheet is None:
            chosen = titles[0] if titles else ""
        else:
            found = [t for t in titles if t.strip().casefold() == sheet.strip().casefold()]
            if not found:
                raise FileRefused("no_sheet", sheet, titles)
            chosen = found[0]
        if not chosen:
            raise FileRefused("empty")
        records = _xlsx_rows(book[chosen])
        table = _table("xlsx", records)
        table.sheet, table.sheets = chosen, titles
        return table
    except FileRefused:
        raise
    except Exception:
        raise FileRefused("broken", "xlsx") from None
    finally:
        book.close()


def _xlsx_rows(sheet: object) -> Iterable[tuple[int, list[str]]]:
    for number, row in enumerate(sheet.iter_rows(), start=1):  # type: ignore[attr-defined]
        cells: list[str] = []
        for cell in row:
            if getattr(cell, "data_type", None) == "f":
                raise FileRefused("formula", str(getattr(cell, "coordinate", number)))
            cells.append(_cell_text(getattr(cell, "value", None)))
        yield number, cells


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


Cell = str | int | date | None

# a text cell a spreadsheet would run as a formula (or DDE) when it opens a CSV
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def neutralized(cell: str) -> str:
    """A text cell as a CSV carries it: one beginning as a formula would (``=``, ``+``,
    ``-``, ``@``, a tab or CR) gets a leading apostrophe, so a spreadsheet shows it as text;
    a plain number ("-5") is a number, never a formula, and is left as it is. Reading drops
    that apostrophe again (:func:`_unquoted`)."""
    if cell.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def _unquoted(cell: str) -> str:
    """A cell :func:`neutralized` wrote (or a spreadsheet kept with its text apostrophe): the
    apostrophe dropped. No nickname, number, date or username begins with one."""
    if cell.startswith("'") and cell[1:].startswith(_FORMULA_START):
        return cell[1:]
    return cell


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Cell]], *,
              delimiter: str = ",", bom: bool = False) -> bytes:
    """UTF-8 CSV (with a BOM when asked: what Excel needs to see the letters right); a text
    cell that would start a formula is :func:`neutralized`, numbers stay numbers."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow([neutralized(name) for name in header])
    for row in rows:
        writer.writerow(["" if c is None else c.isoformat() if isinstance(c, date)
                         else neutralized(c) if isinstance(c, str) else c for c in row])
    return ("\ufeff" if bom else "").encode() + out.getvalue().encode("utf-8")


def write_xlsx(header: Sequence[str], rows: Iterable[Sequence[Cell]], *, title: str,
               more: Sequence[tuple[str, Sequence[str], Iterable[Sequence[Cell]]]] = (),
               text: Collection[str] = ()) -> bytes:
    """One sheet (then one for each of ``more``: title, header, rows): the header in bold,
    numbers as numbers, dates as date cells (YYYY-MM-DD). The columns of the first sheet named
    in ``text`` (the nickname) stay text cells formatted as text: "007" is not the number 7."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    _fill(sheet, title, header, rows, {i for i, name in enumerate(header) if name in text})
    for more_title, more_header, more_rows in more:
        _fill(book.create_sheet(), more_title, more_header, more_rows)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _fill(sheet: Any, title: str, header: Sequence[str], rows: Iterable[Sequence[Cell]],
          text: Collection[int] = ()) -> None:
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    sheet.title = title[:31]
    for column, name in enumerate(header, start=1):
        sheet.cell(row=1, column=column, value=name).font = Font(bold=True)
    for number, row in enumerate(rows, start=2):
        for column, value in enumerate(row, start=1):
            if column - 1 in text:
                cell = sheet.cell(row=number, column=column,
                                  value=None if value is None else str(value))
                cell.data_type = "s"
                cell.number_format = "@"  # typed over in a spreadsheet, it stays text
                continue
            cell = sheet.cell(row=number, column=column, value=_xlsx_value(value))
            if isinstance(value, date):
                cell.number_format = "YYYY-MM-DD"
            elif isinstance(value, str) and value.startswith("="):
                cell.data_type = "s"  # text, never a formula
    for index, name in enumerate(header, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = max(12, min(40, len(name) + 4))


def _xlsx_value(cell: Cell) -> Cell:
    # text that a spreadsheet would show as a number goes back as a number (no "number
    # stored as text" warnings); not "007", whose zeros a number would lose
    if isinstance(cell, str) and re.fullmatch(r"-?(?:0|[1-9]\d{0,14})", cell):
        return int(cell)
    return cell

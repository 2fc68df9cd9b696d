"""Issue 21: files as spreadsheets write them (storage/spreadsheets/files.py, import_csv.py), the
export->import round trip both ways, and the refusals that leave the database untouched."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from pathlib import Path

import pytest

from storage import Database
from storage.spreadsheets.columns import (
    EXPORTED,
    TEXT_COLUMNS,
    WAITING,
    ImportReport,
    parse_csv,
    parse_table,
)
from storage.spreadsheets.files import (
    MAX_FILE_BYTES,
    MAX_ROWS,
    FileRefused,
    read_table,
    write_csv,
    write_xlsx,
)
from tests.storage.conftest import ADMIN, NOW, add_players

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "import"
TODAY = NOW.date()


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def refused(data: bytes, sheet: str | None = None) -> tuple[str, str]:
    with pytest.raises(FileRefused) as err:
        read_table(data, sheet)
    return err.value.code, err.value.value


def test_libreoffice_xlsx_first_sheet_and_named_sheet() -> None:
    table = read_table(fixture("club-ru.xlsx"))
    assert (table.format, table.sheet, table.sheets) == ("xlsx", "Игроки", ["Игроки", "Архив"])
    assert table.rows[0] == (2, ["Борис", "1200", "14", "2026-02-12", "", "@boris_m", "капитан"])
    archive = read_table(fixture("club-ru.xlsx"), sheet=" архив ")
    assert archive.sheet == "Архив"
    assert archive.rows == [(2, ["Давний Друг", "2500", "2026-01-30"])]
    with pytest.raises(FileRefused) as err:
        read_table(fixture("club-ru.xlsx"), sheet="Лист3")
    assert err.value.code == "no_sheet" and err.value.sheets == ["Игроки", "Архив"]


def test_excel_csv_in_windows_1251_with_semicolons() -> None:
    table = read_table(fixture("club-ru-1251.csv"))
    assert (table.format, table.encoding, table.delimiter) == ("csv", "cp1251", ";")
    assert table.header[:4] == ["Ник", "Баллы", "Игр", "Последняя игра"]
    assert table.rows[0][1][:4] == ["Борис", "1\u00a0200", "14", "12.02.2026"]


@pytest.mark.parametrize("name", ["club-ru.xlsx", "club-ru-1251.csv"])
def test_russian_columns_numbers_and_dates_understood(name: str) -> None:
    report = ImportReport()
    rows = parse_table(read_table(fixture(name)), report, TODAY)
    assert [(r.nickname, r.points, r.games_played, r.last_game_date, r.tg_id, r.username)
            for r in rows] == [
        ("Борис", 1200, 14, date(2026, 2, 12), None, "boris_m"),
        ("Анна", 85, 6, date(2026, 3, 1), 700, None),
        ("Старый Волк", 40, 3, date(2025, 11, 20), None, None),
    ]
    assert report.ignored == ["Комментарий"]
    assert [c for _, c in report.columns] == [
        "nickname", "points", "games_played", "last_game_date", "telegram_id", "username"]
    assert [(r.line, r.reason) for r in report.refused] == [
        (5, "nickname_too_short"), (6, "bad_number")]


def test_google_sheets_csv() -> None:
    table = read_table(fixture("club-en.csv"))
    assert (table.encoding, table.delimiter) == ("utf8", ",")
    report = ImportReport()
    rows = parse_table(table, report, TODAY)
    assert [(r.nickname, r.points, r.last_game_date) for r in rows] == [
        ("Night Owl", 1200, date(2026, 2, 20)), ("Kate", 300, date(2026, 3, 5)),
        ("Sam", 10, date(2026, 2, 15))]
    assert report.ignored == ["Notes"]
    assert [(r.line, r.reason, r.value) for r in report.refused] == [
        (5, "bad_date", "2026-02-30")]


@pytest.mark.parametrize(("data", "encoding", "delimiter"), [
    ("\ufeffНик\tОчки\tДата\r\nБорис\t1 200\t1.2.2026\r\n".encode(), "utf8bom", "\t"),
    (b"sep=;\r\nnickname;points\r\nBoris;1\xc2\xa0200\r\n", "utf8", ";"),
    (b"NICK NAME,Score\n\n\"Boris\",\"1,200\"\n", "utf8", ","),
    ("никнейм;баллы\nБорис;1\u202f200\n".encode("utf-8"), "utf8", ";"),
])
def test_forms_of_csv(data: bytes, encoding: str, delimiter: str) -> None:
    table = read_table(data)
    assert (table.encoding, table.delimiter) == (encoding, delimiter)
    report = ImportReport()
    rows = parse_table(table, report, TODAY)
    assert [(r.nickname, r.points) for r in rows] == [("Борис" if "Б" in table.rows[0][1][0]
                                                       else "Boris", 1200)]


def test_numbers_and_dates_that_stay_refused() -> None:
    csv = ("nickname,points,games,last game\n"
           "Abcd,1 20,1,01.02.2026\nBcde,1.200,1,01.02.2026\nCdef,12.5,1,01.02.2026\n"
           "Defg,1,1,31.02.26\nEfgh,1,1,01.02.27\nFghi,1,1,2/1/2026\nGhij,1,1,01.02.26\n")
    report = ImportReport()
    rows = parse_table(read_table(csv.encode()), report, TODAY)
    assert [(r.nickname, r.last_game_date) for r in rows] == [("Ghij", date(2026, 2, 1))]
    assert [r.reason for r in report.refused] == [
        "bad_number", "bad_number", "bad_number", "bad_date", "bad_date", "bad_date"]


def test_refusals_of_the_whole_file() -> None:
    assert refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR") == ("not_spreadsheet", "")
    assert refused("Nick,Points\nJos\xe9,1\n".encode("latin-1")) == ("unknown_encoding", "")
    assert refused(fixture("encrypted.xlsx"))[0] == "encrypted"
    assert refused(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 500) == ("old_format", "xls")
    assert refused(fixture("club-ru.xlsx")[:3000]) == ("broken", "xlsx")
    assert refused(fixture("formula.xlsx")) == ("formula", "B3")
    assert refused(b"x" * (MAX_FILE_BYTES + 1))[0] == "too_big"
    assert refused(b" \n\r\n")[0] == "empty"
    docx = io.BytesIO()
    with zipfile.ZipFile(docx, "w") as archive:
        archive.writestr("word/document.xml", "<w/>")
    assert refused(docx.getvalue())[0] == "not_spreadsheet"
    ods = io.BytesIO()
    with zipfile.ZipFile(ods, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
    assert refused(ods.getvalue()) == ("old_format", "ods")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", "<a/>")
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (65 * 1024 * 1024))
    assert len(bomb.getvalue()) < MAX_FILE_BYTES
    assert refused(bomb.getvalue())[0] == "too_big"


def test_row_limit_in_csv_and_xlsx() -> None:
    rows = [[f"Player{i}", "1"] for i in range(MAX_ROWS)]
    assert len(read_table(write_csv(["nickname", "points"], rows)).rows) == MAX_ROWS
    assert refused(write_csv(["nickname", "points"], [*rows, ["One More", "1"]])) == (
        "too_many_rows", str(MAX_ROWS))
    big = write_xlsx(["nickname", "points"], [*rows, ["One More", "1"]], title="s")
    assert refused(big) == ("too_many_rows", str(MAX_ROWS))


def test_written_xlsx_reads_back_with_numbers_dates_and_text() -> None:
    data = write_xlsx(["nickname", "points", "last_game_date", "note"],
                      [["Борис", 1200, date(2026, 2, 12), "=1+1"], ["Anna", "85", None, ""]],
                      title="balances")
    table = read_table(data)
    assert table.rows == [(2, ["Борис", "1200", "2026-02-12", "=1+1"]),
                          (3, ["Anna", "85", "", ""])]


def test_csv_text_that_would_start_a_formula_is_neutralized_and_read_back() -> None:
    header = ["nickname", "points", "note", "more", "at", "plain", "minus"]
    cells: list[str | int | date | None] = [
        "-Ace-", -5, "=HYPERLINK(\"http://x\")", "+7 x", "@SUM(A1)", "007", "-5"]
    data = write_csv(header, [cells])
    written = data.decode().splitlines()[1]
    assert written == "'-Ace-,-5,\"'=HYPERLINK(\"\"http://x\"\")\",'+7 x,'@SUM(A1),007,-5"
    table = read_table(data)
    assert table.rows == [(2, [str(c) for c in cells])]
    # a semicolon CSV as Excel saves it keeps the apostrophe: read back the same
    table = read_table(b"nickname;points\n'-Ace-;'-5\n'Bob;12\n")
    assert table.rows == [(2, ["-Ace-", "-5"]), (3, ["'Bob", "12"])]


def test_xlsx_keeps_the_nickname_column_as_text() -> None:
    import openpyxl

    data = write_xlsx(EXPORTED, [["007", 12, 1, date(2026, 3, 1), None, "", 0, ""]],
                      title="balances", text=TEXT_COLUMNS)
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert sheet is not None
    cell = sheet["A2"]
    assert (cell.value, cell.data_type, cell.number_format) == ("007", "s", "@")
    assert sheet["B2"].value == 12
    assert read_table(data).rows[0][1][:2] == ["007", "12"]
    # text that only looks like a number keeps its zeros in any sheet
    assert read_table(write_xlsx(["a"], [["007"], ["12"]], title="x")).rows == [
        (2, ["007"]), (3, ["12"])]


WAITING_CSV = (
    "nickname,points,games_played,last_game_date,telegram_id,username\n"
    "Old Timer,120,87,2026-02-01,,@OldTimer\n"
    "007,40,12,01.02.2026,5,\n"
    "-Ace-,30,9,2026-03-01,77,\n"
    "Newbie,0,0,,,\n"
)


@pytest.mark.parametrize("form", ["csv", "xlsx"])
async def test_the_export_lists_the_waiting_records_and_reads_back_unchanged(
        db: Database, form: str) -> None:
    await add_players(db, 5, nick=False)
    report = await db.imports.run(WAITING_CSV, admin_id=ADMIN, now=NOW, apply=True)
    assert (len(report.added), report.linked, report.refused) == (4, ["007"], [])
    exported = await db.ledger.export_xlsx() if form == "xlsx" \
        else (await db.ledger.export_csv()).encode()
    table = read_table(exported)
    assert table.header == list(EXPORTED)
    assert [cells for _, cells in table.rows] == [
        ["007", "40", "12", "2026-02-01", "5", "", "0", ""],
        ["Old Timer", "120", "87", "2026-02-01", "", "oldtimer", "", WAITING],
        ["-Ace-", "30", "9", "2026-03-01", "77", "", "", WAITING],
        ["Newbie", "0", "0", "", "", "", "", WAITING],
    ]
    if form == "csv":
        assert "'-Ace-,30" in exported.decode()
    before = await _state(db)
    for apply in (False, True):
        again = await db.imports.run(exported, admin_id=ADMIN, now=NOW, apply=apply)
        assert (again.added, again.refused, again.ignored) == ([], [], [])
        assert sorted(again.unchanged) == ["-Ace-", "007", "Newbie", "Old Timer"]
    assert await _state(db) == before
    assert [r.nickname for r in await db.imports.pending()] == ["-Ace-", "Newbie", "Old Timer"]


async def _state(db: Database) -> tuple[object, ...]:
    async with db.read() as conn:
        tables = []
        for name in ("players", "ledger", "imported_players"):
            async with conn.execute(f"SELECT * FROM {name} ORDER BY 1") as cur:
                tables.append([tuple(r) for r in await cur.fetchall()])
    return tuple(tables)


@pytest.mark.parametrize("form", ["csv", "xlsx"])
async def test_export_then_import_changes_nothing(db: Database, form: str) -> None:
    await add_players(db, 5, 6)
    await db.ledger.adjust(5, 1200, reason="gift", admin_id=ADMIN, now=NOW)
    offline = await db.players.create_offline("Guest Star")
    await db.ledger.adjust(offline.tg_id, 7, reason="gift", admin_id=ADMIN, now=NOW)
    data = (await db.ledger.export_csv()).encode() if form == "csv" \
        else await db.ledger.export_xlsx()
    before = await _state(db)
    for apply in (False, True):
        report = await db.imports.run(data, admin_id=ADMIN, now=NOW, apply=apply)
        assert report.file_error is None and report.refused == [] and report.added == []
        assert len(report.unchanged) == 3
    assert await _state(db) == before


@pytest.mark.parametrize("form", ["csv", "xlsx"])
async def test_import_then_export_gives_the_same_rows(db: Database, form: str) -> None:
    await add_players(db, 5, 6, nick=False)
    header = ["nickname", "points", "games_played", "last_game_date", "telegram_id", "username"]
    rows: list[list[str | int | date | None]] = [
        ["Борис", 1200, 14, date(2026, 2, 12), 5, ""], ["Anna", 85, 6, date(2026, 3, 1), 6, ""]]
    data = write_csv(header, rows) if form == "csv" else write_xlsx(header, rows, title="x")
    report = await db.imports.run(data, admin_id=ADMIN, now=NOW, apply=True)
    assert report.linked == ["Борис", "Anna"]
    assert await db.ledger.export_rows() == [[*row, 0, ""] for row in rows]  # no no-shows
    exported = await db.ledger.export_xlsx() if form == "xlsx" \
        else (await db.ledger.export_csv()).encode()
    before = await _state(db)
    again = await db.imports.run(exported, admin_id=ADMIN, now=NOW, apply=True)
    assert (again.added, again.refused, again.unchanged) == ([], [], ["Борис", "Anna"])
    assert await _state(db) == before


async def test_rows_imported_before_issue_21_stay_unchanged(db: Database) -> None:
    """A record keeps the hash its import computed; the old hash (of the raw cells) still
    counts as the same row, so re-sending an old file is not refused as changed."""
    old = "nickname,points,games_played,last_game_date,telegram_id,username\n" \
          "Old Timer,120,87,01.02.2026,,@oldtimer\n"
    await db.imports.run(old, admin_id=ADMIN, now=NOW, apply=True)
    (row,) = parse_csv(old, ImportReport(), TODAY)
    assert row.legacy_hash != row.row_hash
    async with db.transaction() as conn:
        await conn.execute("UPDATE imported_players SET row_hash = ?", (row.legacy_hash,))
    report = await db.imports.run(old, admin_id=ADMIN, now=NOW, apply=False)
    assert report.unchanged == ["Old Timer"] and report.refused == []


async def test_a_refused_file_writes_nothing(db: Database) -> None:
    before = await _state(db)
    for data in (fixture("formula.xlsx"), fixture("encrypted.xlsx"), b"\x00\x01",
                 b"nickname,games\nAbcd,1\n"):
        report = await db.imports.run(data, admin_id=ADMIN, now=NOW, apply=True)
        assert report.file_error is not None and not report.applied
    assert await _state(db) == before


def test_a_title_above_the_header() -> None:
    data = write_xlsx(["Рейтинг клуба, март 2026", ""],
                      [["", ""], ["Ник", "Баллы"], ["Борис", 12]], title="s")
    report = ImportReport()
    rows = parse_table(read_table(data), report, TODAY)
    assert [(r.line, r.nickname, r.points) for r in rows] == [(4, "Борис", 12)]
    assert report.file_error is None and report.ignored == []
    report = ImportReport()
    assert parse_table(read_table(b"Title\nName,Score\nBoris,1\n"), report, TODAY) == []
    assert report.file_error == "missing_column" and report.ignored == ["Title"]

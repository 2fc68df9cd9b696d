"""Issue 21 over HTTP: files a real spreadsheet program wrote (tests/fixtures/import, made by
LibreOffice Calc) through /import, dry run then apply; the refused rows' file fixed and sent
again; a named sheet; every whole-file refusal writing nothing; /export xlsx and the round trip.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import App
from storage.spreadsheets.columns import ALIASES
from storage.spreadsheets.files import (
    MAX_FILE_BYTES,
    MAX_ROWS,
    Cell,
    read_table,
    write_csv,
    write_xlsx,
)
from tests.bot.conftest import ADMIN_ID, Ask
from tests.fakes.telegram_server import FakeTelegram
from views.i18n import Translator

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "import"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


async def _admin(fake: FakeTelegram, ask: Ask, language: str = "en") -> None:
    fake.user(ADMIN_ID, "Admin", language_code=language)
    await ask(ADMIN_ID, "/start")


async def _player(fake: FakeTelegram, ask: Ask, tg_id: int, name: str) -> None:
    fake.user(tg_id, name, language_code="en")
    await ask(tg_id, "/start")


async def _pending(app: App) -> list[str]:
    return [r.nickname for r in await app.services.db.imports.pending()]


async def _state(app: App) -> tuple[object, ...]:
    async with app.services.db.read() as conn:
        tables = []
        for name in ("players", "ledger", "imported_players"):
            async with conn.execute(f"SELECT * FROM {name} ORDER BY 1") as cur:
                tables.append([tuple(r) for r in await cur.fetchall()])
    return tuple(tables)


async def test_libreoffice_xlsx_dry_run_apply_and_the_refused_rows_sent_again(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _admin(fake, ask)
    await _player(fake, ask, 700, "Anna")
    sent = await fake.send_document(ADMIN_ID, "club.xlsx", fixture("club-ru.xlsx"),
                                    caption="/import")
    dry = (await fake.next_message(ADMIN_ID)).said
    assert "Dry run" in dry and "Would add 3 players" in dry
    assert "(linked to their Telegram accounts at once: 1)" in dry
    assert "File: .xlsx, sheet “Игроки”." in dry
    assert ("Columns: Ник → nickname, Баллы → points, Игр → games_played, Последняя игра → "
            "last_game_date, Telegram ID → telegram_id, Логин → username.") in dry
    assert "Columns ignored (not known): Комментарий." in dry
    assert "line 5: nickname too short (Ёж)" in dry
    assert "line 6: not a whole number ≥ 0 (points=десять)" in dry
    refused = await fake.next_message(ADMIN_ID)
    assert refused.document_name == "club-refused.xlsx" and refused.document_bytes is not None
    assert "Fix them and send this file again" in (refused.caption or "")
    table = read_table(refused.document_bytes)
    assert table.header[-2:] == ["Комментарий", "reason"]
    assert [cells[:2] + cells[-1:] for _, cells in table.rows] == [
        ["Ёж", "5", "nickname too short (Ёж)"],
        ["Мария", "десять", "not a whole number ≥ 0 (points=десять)"]]
    assert await _pending(app) == []

    await fake.reply(ADMIN_ID, "/import apply", sent)
    done = (await fake.next_message(ADMIN_ID)).said
    assert done.startswith("<b>Imported</b> 3 players (linked to their Telegram accounts: 1)")
    assert (await fake.next_message(ADMIN_ID)).document_name == "club-refused.xlsx"
    assert await _pending(app) == ["Борис", "Старый Волк"]
    anna = await app.services.db.players.get(700)
    assert anna is not None and anna.nickname == "Анна" and anna.games_played == 6
    assert await app.services.db.ledger.balance(700) == 85

    # the refused rows' file, fixed in place (its reason column is then ignored)
    fixed = [[("Ёжик" if c == "Ёж" else "10" if c == "десять" else c) for c in cells[:-1]]
             for _, cells in table.rows]
    await fake.send_document(ADMIN_ID, "club-refused.xlsx",
                             write_xlsx(table.header, fixed, title="refused"),
                             caption="/import apply")
    again = (await fake.next_message(ADMIN_ID)).said
    assert again.startswith("<b>Imported</b> 2 players") and "refused rows: 0" in again
    assert "Columns ignored (not known): Комментарий, reason." in again
    assert await _pending(app) == ["Борис", "Мария", "Старый Волк", "Ёжик"]


async def test_excel_csv_in_windows_1251_said_in_russian(app: App, fake: FakeTelegram,
                                                         ask: Ask) -> None:
    await _admin(fake, ask, "ru")
    sent = await fake.send_document(ADMIN_ID, "клуб.csv", fixture("club-ru-1251.csv"),
                                    caption="/import")
    dry = (await fake.next_message(ADMIN_ID)).said
    assert "<b>Проверка, ничего не записано.</b> Добавятся 3 игрока" in dry
    assert "кодировка Windows-1251 (так сохраняет старый Excel" in dry
    assert "разделитель — точка с запятой" in dry
    assert "Пропущены (неизвестные) столбцы: Комментарий." in dry
    assert "строка 5: слишком короткий ник (Ёж)" in dry
    refused = await fake.next_message(ADMIN_ID)
    assert refused.document_name == "клуб-refused.csv" and refused.document_bytes is not None
    lines = refused.document_bytes.decode("utf-8-sig").splitlines()
    assert lines[0].endswith(";Комментарий;причина")
    assert lines[1] == "Ёж;5;1;01.02.2026;;;;слишком короткий ник (Ёж)"
    await fake.reply(ADMIN_ID, "/import apply", sent)
    assert (await fake.next_message(ADMIN_ID)).said.startswith("<b>Импортировано:</b> 3 игрока")
    await fake.next_message(ADMIN_ID)
    records = {r.nickname: r for r in await app.services.db.imports.pending()}
    assert sorted(records) == ["Анна", "Борис", "Старый Волк"]
    assert (records["Борис"].points, records["Борис"].link_username) == (1200, "boris_m")


async def test_google_sheets_csv(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _admin(fake, ask)
    await _player(fake, ask, 701, "Kate")
    await fake.send_document(ADMIN_ID, "Club - Sheet1.csv", fixture("club-en.csv"),
                             caption="/import")
    dry = (await fake.next_message(ADMIN_ID)).said
    assert "Would add 3 players" in dry and "File: CSV, UTF-8, separated by commas." in dry
    assert "line 5: bad date (2026-02-30)" in dry
    assert "Columns ignored (not known): Notes." in dry
    assert (await fake.next_message(ADMIN_ID)).document_name == "Club_-_Sheet1-refused.csv"
    await fake.send_document(ADMIN_ID, "Club - Sheet1.csv", fixture("club-en.csv"),
                             caption="/import apply")
    assert (await fake.next_message(ADMIN_ID)).said.startswith("<b>Imported</b> 3 players")
    await fake.next_message(ADMIN_ID)
    assert await _pending(app) == ["Night Owl", "Sam"]
    assert await app.services.db.ledger.balance(701) == 300


async def test_a_sheet_named_in_the_caption(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _admin(fake, ask)
    sent = await fake.send_document(ADMIN_ID, "club.xlsx", fixture("club-ru.xlsx"),
                                    caption="/import Архив")
    dry = (await fake.next_message(ADMIN_ID)).said
    assert "Would add 1 player " in dry and "sheet “Архив”" in dry
    await fake.reply(ADMIN_ID, "/import apply", sent)  # the sheet of the file's caption
    assert (await fake.next_message(ADMIN_ID)).said.startswith("<b>Imported</b> 1 player ")
    assert await _pending(app) == ["Давний Друг"]
    await fake.send_document(ADMIN_ID, "club.xlsx", fixture("club-ru.xlsx"),
                             caption="/import apply Лист3")
    assert (await fake.next_message(ADMIN_ID)).text == (
        "There is no sheet named “Лист3”. Sheets in the file: Игроки, Архив. "
        "Nothing was imported.")


async def test_whole_file_refusals_write_nothing(app: App, fake: FakeTelegram,
                                                 ask: Ask) -> None:
    await _admin(fake, ask)
    before = await _state(app)
    many = write_csv(["nickname", "points"], [[f"Player{i}", 0] for i in range(MAX_ROWS + 1)])
    cases = [
        ("formula.xlsx", fixture("formula.xlsx"), "Cell B3 holds a formula."),
        ("encrypted.xlsx", fixture("encrypted.xlsx"), "protected by a password"),
        ("broken.xlsx", fixture("club-ru.xlsx")[:4000], "The file is damaged"),
        ("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "This is not a spreadsheet"),
        ("old.csv", "Nick,Points\nJosé,1\n".encode("latin-1"), "neither UTF-8 nor Windows-1251"),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "The .xls format"),
        ("many.csv", many, f"Too many rows (at most {MAX_ROWS})"),
        ("big.csv", b"nickname,points\n" + b"x" * MAX_FILE_BYTES, "too big"),
        ("cols.csv", "Имя,Очки\nБорис,1\n".encode(),
         "Required column missing: nickname. Nothing was imported.\n"
         "Columns ignored (not known): Имя."),
    ]
    for name, data, expected in cases:
        await fake.send_document(ADMIN_ID, name, data, caption="/import apply")
        answer = await fake.next_message(ADMIN_ID)
        assert answer.text is not None and expected in answer.text, name
        assert answer.text.count("\n") <= 1, name  # one message, no refused rows' file
    assert await _state(app) == before
    assert "import" not in [a.action for a in await app.services.db.admin_log.recent(50)]


async def test_export_xlsx_and_the_round_trip(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _admin(fake, ask)
    await _player(fake, ask, 701, "Kate")
    await fake.send_document(ADMIN_ID, "club.csv", fixture("club-en.csv"),
                             caption="/import apply")
    await fake.next_message(ADMIN_ID)
    await fake.next_message(ADMIN_ID)
    document = await ask(ADMIN_ID, "/export xlsx")
    assert document.document_name == "balances-2026-03-10.xlsx"
    assert document.document_bytes is not None
    table = read_table(document.document_bytes)
    assert table.header == ["nickname", "points", "games_played", "last_game_date",
                            "telegram_id", "username", "no_shows", "status"]
    # the players who have not linked yet are listed too, waiting
    assert [cells for _, cells in table.rows] == [
        ["Kate", "300", "9", "2026-03-05", "701", "", "0", ""],
        ["Night Owl", "1200", "20", "2026-02-20", "", "nightowl", "", "waiting"],
        ["Sam", "10", "1", "2026-02-15", "", "", "", "waiting"]]
    csv_document = await ask(ADMIN_ID, "/export")
    assert csv_document.document_bytes is not None
    assert csv_document.document_bytes.decode().splitlines()[1:] == [
        "Kate,300,9,2026-03-05,701,,0,", "Night Owl,1200,20,2026-02-20,,nightowl,,waiting",
        "Sam,10,1,2026-02-15,,,,waiting"]

    before = await _state(app)
    for name, data in (("b.xlsx", document.document_bytes),
                       ("b.csv", csv_document.document_bytes)):
        await fake.send_document(ADMIN_ID, name, data, caption="/import apply")
        report = (await fake.next_message(ADMIN_ID)).said
        assert report.startswith("<b>Imported</b> 0 players") and "unchanged: 3" in report
        assert "refused rows: 0" in report
        assert "no_shows" not in report  # the export's own column: skipped, not "ignored"
    assert await _state(app) == before
    assert "Usage: <code>/export</code>" in (await ask(ADMIN_ID, "/export pdf")).said


def test_every_column_name_is_in_the_help_and_the_docs() -> None:
    docs = (FIXTURES.parent.parent.parent / "docs" / "bot.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in docs.splitlines()
            if line.startswith("| `")}
    tr = Translator.load()
    helps = {lang: tr.t(lang, "club.import.usage") for lang in ("ru", "en")}
    for column, names in ALIASES.items():
        help_lines = {lang: next(line for line in text.splitlines() if names[0] in line)
                      for lang, text in helps.items()}
        for name in names:
            assert name in rows[column], (column, name)
            for lang, line in help_lines.items():
                assert name in line, (lang, column, name)


async def test_a_failed_download_never_logs_the_file_url(
        app: App, fake: FakeTelegram, ask: Ask, caplog: pytest.LogCaptureFixture) -> None:
    """The file's URL holds the bot's token: a download that fails is logged without it."""
    await _admin(fake, ask)
    fake.file_status = 500
    caplog.set_level(logging.DEBUG)
    await fake.send_document(ADMIN_ID, "club.csv", fixture("club-en.csv"),
                             caption="/import apply")
    answer = await fake.next_message(ADMIN_ID)
    assert answer.text == ("The file could not be downloaded from Telegram. Nothing was"
                           " imported; send it again.")
    assert await _pending(app) == []
    logged = [logging.Formatter().format(r) + repr(r.__dict__) for r in caplog.records]
    assert any("could not be downloaded" in line for line in logged)
    assert not [line for line in logged if fake.token in line or "/file/bot" in line]
    fake.file_status = None
    await fake.send_document(ADMIN_ID, "club.csv", fixture("club-en.csv"), caption="/import")
    assert "Dry run" in (await fake.next_message(ADMIN_ID)).said


async def test_a_long_report_stays_one_message(app: App, fake: FakeTelegram, ask: Ask) -> None:
    """40 refused rows with 300-character values would pass Telegram's 4096: the report stops
    listing in time; the refused rows' file has them all."""
    await _admin(fake, ask)
    rows: list[list[Cell]] = [[f"Player {i} " + "x" * 300, 1, "01.02.2026"] for i in range(40)]
    await fake.send_document(ADMIN_ID, "long.csv",
                             write_csv(["nickname", "points", "last game"], rows),
                             caption="/import")
    report = (await fake.next_message(ADMIN_ID)).said
    assert report is not None and len(report.encode("utf-16-le")) // 2 <= 4096
    assert "refused rows: 40" in report and "more rows" in report
    refused = await fake.next_message(ADMIN_ID)
    assert refused.document_bytes is not None
    assert len(refused.document_bytes.decode("utf-8-sig").splitlines()) == 41

"""Issue 21: ``python -m storage import DB_OR_URL FILE [--apply]`` (storage/tools/import_cli.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from storage import Database
from storage.__main__ import main
from storage.spreadsheets.files import read_table
from storage.tools import import_cli
from tests.pg_cluster import Cluster

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "import"
ROOT = Path(__file__).resolve().parent.parent.parent


def _pending(db_path: Path) -> list[str]:
    async def read() -> list[str]:
        db = await Database.open(db_path)
        try:
            return [r.nickname for r in await db.imports.pending()]
        finally:
            await db.close()
    return asyncio.run(read())


@pytest.fixture
def club_db(db_path: Path) -> Path:
    _pending(db_path)  # creates the database
    return db_path


def test_dry_run_report_then_apply_then_again(club_db: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    xlsx = str(FIXTURES / "club-ru.xlsx")
    refused = tmp_path / "refused.csv"
    assert main(["import", str(club_db), xlsx, "--refused", str(refused)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        "dry run: nothing written", "file: .xlsx, sheet 'Игроки' (sheets: Игроки, Архив)"]
    for expected in ("columns: Ник -> nickname, Баллы -> points, Игр -> games_played,",
                     "ignored columns: Комментарий", "would add: 3 (Борис, Анна, Старый Волк)",
                     "refused: 2", "  line 5: nickname_too_short (Ёж)",
                     "  line 6: bad_number (points=десять)", f"{xlsx} --apply"):
        assert expected in out
    assert _pending(club_db) == []
    table = read_table(refused.read_bytes())
    assert table.header[-1] == "reason"
    assert [cells[0] + " | " + cells[-1] for _, cells in table.rows] == [
        "Ёж | nickname_too_short (Ёж)", "Мария | bad_number (points=десять)"]

    assert main(["import", str(club_db), str(FIXTURES / "club-ru-1251.csv"), "--apply"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("applied\nfile: CSV, Windows-1251")
    assert "separated by semicolons" in out and "added: 3 (Борис, Анна, Старый Волк)" in out
    assert _pending(club_db) == ["Анна", "Борис", "Старый Волк"]
    # the same players from the .xlsx: unchanged, whatever form the file has
    assert main(["import", str(club_db), xlsx, "--apply"]) == 0
    assert "unchanged: 3 (Борис, Анна, Старый Волк)" in capsys.readouterr().out


@pytest.mark.parametrize(("target", "file", "message"), [
    (None, "formula.xlsx", "cannot import {file}: cell B3 holds a formula: paste the values"
                           " instead; nothing written"),
    (None, "encrypted.xlsx", "cannot import {file}: the .xlsx is protected by a password;"
                             " nothing written"),
    (None, "letter.docx", "cannot import {file}: not a spreadsheet: send .xlsx or CSV text;"
                          " nothing written"),
    (None, "missing.csv", "cannot read {file}: No such file or directory"),
    ("mysql://club@localhost/mafia", "club-en.csv",
     "mysql:// databases are not supported by this build: pass the SQLite database file"),
    ("nowhere.sqlite3", "club-en.csv", "no database at nowhere.sqlite3"),
])
def test_what_it_cannot_import_is_one_line_and_exit_2(
        club_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        target: str | None, file: str, message: str) -> None:
    path = FIXTURES / file
    if file == "letter.docx":  # a zip, but no workbook in it
        path = tmp_path / file
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("word/document.xml", "<w:document/>")
    assert main(["import", target or str(club_db), str(path), "--apply"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == message.format(file=path) + "\n"
    assert _pending(club_db) == []


def test_as_a_module(club_db: Path) -> None:
    """The real entry point and its exit statuses."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "storage", "import", str(club_db), *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    ok = run(str(FIXTURES / "club-en.csv"))
    assert ok.returncode == 0, ok.stderr
    assert "would add: 3 (Night Owl, Kate, Sam)" in ok.stdout
    assert "  line 5: bad_date (2026-02-30)" in ok.stdout
    bad = run(str(FIXTURES / "formula.xlsx"))
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


def test_import_export_import_changes_nothing(club_db: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A club checks its move by exporting: the players who have not linked yet are there
    (waiting), and the export imported again changes nothing."""
    source = tmp_path / "club.csv"
    source.write_text("nickname,points,games_played,last_game_date,telegram_id,username\n"
                      "Old Timer,120,87,2026-02-01,,@oldtimer\n-Ace-,30,9,2026-03-01,77,\n")
    assert main(["import", str(club_db), str(source), "--apply"]) == 0
    assert "added: 2" in capsys.readouterr().out
    assert main(["export", str(club_db)]) == 0
    exported = capsys.readouterr().out
    assert exported.splitlines()[1:] == [
        "Old Timer,120,87,2026-02-01,,oldtimer,,waiting", "'-Ace-,30,9,2026-03-01,77,,,waiting"]
    back = tmp_path / "export.csv"
    back.write_text(exported)
    assert main(["import", str(club_db), str(back), "--apply"]) == 0
    out = capsys.readouterr().out
    assert "added: 0" in out and "refused: 0" in out and "unchanged: 2" in out
    assert sorted(_pending(club_db)) == ["-Ace-", "Old Timer"]


def test_export_as_xlsx(club_db: Path, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "balances.xlsx"
    assert main(["export", str(club_db), "--xlsx", str(out)]) == 0
    assert capsys.readouterr().out == f"exported to {out}\n"
    assert read_table(out.read_bytes()).header == [
        "nickname", "points", "games_played", "last_game_date", "telegram_id", "username",
        "no_shows", "status"]


def test_an_unreachable_url_is_one_line_without_its_password(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql://club:s3cret@127.0.0.1:1/mafia"  # nothing listens on port 1
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["import", str(FIXTURES / "club-en.csv")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "s3cret" not in captured.err
    assert "127.0.0.1:1" in captured.err and "password on the command line" not in captured.err


@pytest.mark.parametrize("url", ["postgresql://club:s3cret@127.0.0.1:1/mafia",
                                 "postgresql://club@127.0.0.1:1/mafia?password=s3cret"])
def test_a_password_on_the_command_line_is_refused(
        club_db: Path, url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line is visible to every user of the machine (ps): the URL with its
    password comes from DATABASE_URL, never from there."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for argv in (["import", url, str(FIXTURES / "club-en.csv")], ["copy", str(club_db), url]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "s3cret" not in err
        assert "password on the command line" in err and "DATABASE_URL" in err
    # without DATABASE_URL, the PostgreSQL database must be named somewhere
    assert main(["import", str(FIXTURES / "club-en.csv")]) == 2
    assert "set DATABASE_URL" in capsys.readouterr().err
    assert main(["copy", str(club_db)]) == 2
    assert "set DATABASE_URL" in capsys.readouterr().err


async def test_import_into_postgresql_named_by_the_environment(
        pg: Cluster, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = await pg.new_database()
    monkeypatch.setenv("DATABASE_URL", url)
    file = str(FIXTURES / "club-en.csv")
    assert await asyncio.to_thread(main, ["import", file]) == 0
    out = capsys.readouterr().out
    assert "would add: 3" in out and f"python -m storage import {file} --apply" in out
    assert await asyncio.to_thread(main, ["import", file, "--apply"]) == 0
    assert "added: 3" in capsys.readouterr().out


async def test_import_into_postgresql_by_url(
        pg: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    """The same dry run and apply on a PostgreSQL database named by its URL."""
    url = await pg.new_database()
    file = str(FIXTURES / "club-en.csv")
    assert await import_cli.main(url, Path(file), apply=False, sheet=None, refused=None) == 0
    out = capsys.readouterr().out
    assert "would add: 3 (Night Owl, Kate, Sam)" in out
    assert await import_cli.main(url, Path(file), apply=True, sheet=None, refused=None) == 0
    assert "added: 3" in capsys.readouterr().out
    db = await Database.open(url)
    try:
        assert len(await db.imports.pending()) == 3
    finally:
        await db.close()

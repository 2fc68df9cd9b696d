"""A plain (non-editable) install from the wheel carries the texts and answers in Russian, and
carries the schema's migrations."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str | Path, cwd: Path) -> str:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.soak
def test_the_wheel_ships_the_texts(tmp_path: Path) -> None:
    """Soak test (about 30 s on an idle machine): pip builds the wheel and installs it into a
    fresh virtualenv, where a new interpreter reads the installed texts."""
    # a clean copy of the sources: no egg-info or build/ left over from earlier builds
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("engine", "record", "standing", "storage", "views", "bot", "web", "locales"):
        shutil.copytree(ROOT / name, source / name, ignore=junk)
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, source,
         cwd=tmp_path)
    (wheel,) = wheels.glob("mafia_club_bot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"locales/ru/main.ftl", "locales/en/game.ftl"} <= set(names)
    sql = {str(p.relative_to(ROOT)) for p in (ROOT / "storage" / "schema").glob("*/*.sql")}
    assert sql and sql <= set(names)

    # A fresh venv; the dependencies come from this venv's site-packages through a .pth line
    # (a path added that way does not process this venv's own .pth files, so the editable
    # install of the project stays invisible there).
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                     cwd=tmp_path).strip())
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index",
         "--no-deps", "--find-links", wheels, "mafia-club-bot", cwd=tmp_path)
    # after the install: pip would take the editable install seen through it as "satisfied"
    (site / "deps-from-test-venv.pth").write_text(sysconfig.get_path("purelib") + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _run(python, "-c",
               "import views.i18n; from views.i18n import t; print(views.i18n.__file__); "
               "print(t('ru', 'balance.text', points=22)); print(t('ru', 'start.back', name='A'))",
               cwd=elsewhere).splitlines()
    assert out[0].startswith(str(site)), out  # the installed copy, not the checkout
    assert out[1] == "<b>Баланс:</b> 22 балла"
    assert out[2].startswith("С возвращением, A!")

    # the installed runners read every migration from the installed package
    from storage.schema import postgres, sqlite

    out = _run(python, "-c",
               "from storage.schema import postgres, sqlite; "
               "print(sqlite.__file__, sqlite.MIGRATIONS == sqlite.load('sqlite'),"
               " sqlite.SCHEMA_VERSION, postgres.SCHEMA_VERSION)",
               cwd=elsewhere).split()
    assert out[0].startswith(str(site)), out
    assert out[1:] == ["True", str(sqlite.SCHEMA_VERSION), str(postgres.SCHEMA_VERSION)]

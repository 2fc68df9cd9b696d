"""``python -m bot check`` (the Docker HEALTHCHECK) and the start-up refusal without texts."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import views.i18n
from bot.__main__ import run_check
from bot.app import create_app, health_check
from bot.startup import StartupError
from tests.bot.conftest import make_settings
from tests.bot.test_process import STARTS_WITHIN, _env
from tests.fakes.telegram_server import FakeTelegram

# one after another on one worker (tests/conftest.py): each start of the bot costs seconds of CPU
pytestmark = pytest.mark.xdist_group("bot_processes")


async def _check(cwd: Path, env: dict[str, str]) -> tuple[int, list[str], list[str]]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "check", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(proc.communicate(), STARTS_WITHIN)
    assert proc.returncode is not None
    return proc.returncode, stdout.decode().splitlines(), stderr.decode().splitlines()


@pytest.mark.soak
async def test_check_passes_and_fails_on_a_bad_token(
    fake: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Soak test (12-24 s beside the suite): the real ``python -m bot check`` passes (it pays
    aiogram's import, 6-10 s of CPU); the bad token's answer is the same command's code
    (``run_check``) run in this process, beside it, as it is nothing but another answer of
    getMe."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    good = _env(tmp_path / "a", BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url)
    bad = make_settings(fake, tmp_path / "b",
                        bot_token="987654321:AAF-some-other-token-000000000000")
    (code1, out1, err1), code2 = await asyncio.gather(
        _check(tmp_path / "a", good), asyncio.to_thread(run_check, bad))
    assert (code1, err1) == (0, [])
    assert len(out1) == 1 and out1[0].startswith(f"ok: @{fake.bot_user['username']} answers")
    assert (tmp_path / "a" / "db" / "mafia.sqlite3").exists()
    assert "getMe" in [method for method, _ in fake.calls]
    printed = capsys.readouterr()
    assert (code2, printed.out) == (1, "")
    assert printed.err.splitlines() == [
        f"error: the Bot API at {fake.base_url} rejected BOT_TOKEN (Unauthorized)"]


async def test_check_rejects_unknown_arguments(tmp_path: Path) -> None:
    code, out, err = await _check(tmp_path, _env(tmp_path))
    assert (code, out, err) == (1, [], ["error: BOT_TOKEN is not set"])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chek", cwd=tmp_path, env=_env(tmp_path),
        stderr=asyncio.subprocess.PIPE)
    _, stderr = await proc.communicate()
    assert proc.returncode == 2
    assert stderr.decode().splitlines() == ["usage: python -m bot [check]"]


@pytest.fixture
def no_locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    empty = tmp_path / "locales"
    empty.mkdir()
    monkeypatch.setattr(views.i18n, "LOCALES_DIR", empty)
    views.i18n.default_translator.cache_clear()
    yield empty
    views.i18n.default_translator.cache_clear()


async def test_start_refuses_without_texts(
    no_locales: Path, fake: FakeTelegram, tmp_path: Path
) -> None:
    settings = make_settings(fake, tmp_path)
    with pytest.raises(StartupError) as error:
        await create_app(settings)
    assert str(error.value).startswith("translations missing: no translations for 'ru'")
    assert "\n" not in str(error.value)
    assert not settings.database_path.exists()  # refused before touching anything
    with pytest.raises(StartupError, match="translations missing"):
        await health_check(settings)


async def test_start_refuses_with_one_language_only(
    no_locales: Path, fake: FakeTelegram, tmp_path: Path
) -> None:
    (no_locales / "ru").mkdir()
    (no_locales / "ru" / "main.ftl").write_text("k = v\n", encoding="utf-8")
    with pytest.raises(StartupError, match=r"^translations missing for en$"):
        await create_app(make_settings(fake, tmp_path))

"""``python -m bot`` as a real process against the fake server, and its one-line failures."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from storage.backends.single import ProcessLock
from tests.fakes.telegram_server import FakeTelegram

# one after another on one worker (tests/conftest.py): each start of the bot costs seconds of CPU
pytestmark = pytest.mark.xdist_group("bot_processes")

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH", "ADMIN_IDS", "HOST_IDS",
            "NIGHT_SECONDS", "MAFIA_AGREE_SECONDS", "VOTE_TURN_SECONDS", "LAST_WORD_SECONDS",
            "DEFAULT_LOCALE")
# a real start imports aiogram (6-10 s of CPU): generous, as only a failure waits it out
STARTS_WITHIN = 180


def _env(tmp_path: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    env["DATABASE_PATH"] = str(tmp_path / "db" / "mafia.sqlite3")
    env.update(values)
    return env


async def _spawn(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    # cwd is tmp_path: no .env from the repository is read
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def _fails(tmp_path: Path, env: dict[str, str]) -> tuple[int, list[str]]:
    proc = await _spawn(tmp_path, env)
    _, stderr = await asyncio.wait_for(proc.communicate(), STARTS_WITHIN)
    assert proc.returncode is not None
    return proc.returncode, stderr.decode().splitlines()


async def test_missing_token_is_one_line(tmp_path: Path) -> None:
    code, lines = await _fails(tmp_path, _env(tmp_path))
    assert code != 0
    assert lines == ["error: BOT_TOKEN is not set"]


async def test_malformed_token_is_one_line(tmp_path: Path) -> None:
    code, lines = await _fails(tmp_path, _env(tmp_path, BOT_TOKEN="not-a-token"))
    assert code != 0
    assert len(lines) == 1 and lines[0].startswith("error: BOT_TOKEN is malformed")


@pytest.mark.soak
async def test_unreachable_api_or_rejected_token_is_one_line(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    """Soak test (12 s alone, 23-35 s beside the suite): two real ``python -m bot`` starts,
    each paying aiogram's import (~10 s of CPU); they run at once."""
    url = f"http://127.0.0.1:{_free_port()}"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    unreachable = _env(tmp_path / "a", BOT_TOKEN=fake.token, TELEGRAM_API_URL=url)
    rejected = _env(tmp_path / "b", BOT_TOKEN="987654321:AAF-some-other-token-000000000000",
                    TELEGRAM_API_URL=fake.base_url)
    (code1, lines1), (code2, lines2) = await asyncio.gather(
        _fails(tmp_path / "a", unreachable), _fails(tmp_path / "b", rejected)
    )
    assert code1 != 0
    assert len(lines1) == 1 and lines1[0].startswith(f"error: cannot reach the Bot API at {url}")
    assert code2 != 0
    assert lines2 == [f"error: the Bot API at {fake.base_url} rejected BOT_TOKEN (Unauthorized)"]


async def test_html_answer_at_start_up_is_one_line(fake: FakeTelegram, tmp_path: Path) -> None:
    """A proxy's HTML page instead of the Bot API's JSON: one line, exit non-zero."""
    fake.html_answers = True
    code, lines = await _fails(tmp_path, _env(tmp_path, BOT_TOKEN=fake.token,
                                              TELEGRAM_API_URL=fake.base_url))
    assert code != 0
    assert lines == [f"error: the Bot API at {fake.base_url} did not answer JSON "
                     "(is TELEGRAM_API_URL a Bot API server?)"]


@pytest.mark.soak
async def test_second_process_on_one_sqlite_file_refuses(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    """SQLite runs one bot process: a second one on the same file exits with one line naming
    the first, before importing aiogram; once the first is gone (kill -9: the kernel drops its
    lock) a new one starts, answers, logs and stops on SIGTERM with exit status 0 (this last
    process is also the test of a plain run: one start fewer).
    Soak test (about 40 s on an idle machine): two real ``python -m bot`` starts, each paying
    aiogram's import (its subject is the command: not forked)."""
    env = _env(tmp_path, BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url)
    first = await _spawn(tmp_path, env)
    try:
        await fake.wait_call("setMyCommands", timeout=STARTS_WITHIN)
        code, lines = await _fails(tmp_path, env)
        assert code == 1
        assert lines == [f"error: another bot process (pid {first.pid}) is running on "
                         f"{tmp_path / 'db' / 'mafia.sqlite3'}: SQLite allows one; stop it, or "
                         "set DATABASE_URL to PostgreSQL to run several"]
        assert first.returncode is None  # the first goes on answering
        fake.user(1, "Анна", language_code="ru")
        await fake.send(1, "/start")
        assert "Анна" in ((await fake.next_message(1, timeout=20)).text or "")
    finally:
        if first.returncode is None:
            first.kill()
        await asyncio.wait_for(first.communicate(), 60)
    fake.calls.clear()  # wait for the new process's own start
    fake.commands.clear()
    second = await _spawn(tmp_path, env)
    try:
        await fake.wait_call("setMyCommands", timeout=STARTS_WITHIN)
        await fake.send(1, "/start")
        # this process's own answer ("welcome back"): the first one's answer may come again,
        # sent before the kill and not yet marked sent (docs/delivery.md: at least once)
        await fake.wait_for(lambda: any("С возвращением, Анна" in (m.text or "")
                                        for m in fake.messages(1)), 20, "the answer")
        assert ("all_private_chats", "en") in fake.commands
    finally:
        if second.returncode is None:
            second.send_signal(signal.SIGTERM)
        stdout, stderr = await asyncio.wait_for(second.communicate(), 60)
    assert second.returncode == 0, stderr.decode()
    log = stdout.decode()
    assert "msg=started" in log and "msg=stopped" in log
    assert "level=INFO" in log
    assert fake.token.split(":")[1] not in log  # the token never reaches the log
    assert "Traceback" not in stderr.decode()
    assert (tmp_path / "db" / "mafia.sqlite3").exists()


def test_the_refusal_comes_before_aiogram_is_imported(tmp_path: Path) -> None:
    """A second process on one SQLite file refuses at once: aiogram's import (seconds of CPU)
    comes after the process lock."""
    env = _env(tmp_path, BOT_TOKEN="123456789:AAF-a-token-000000000000000000000",
               TELEGRAM_API_URL="http://127.0.0.1:9")
    probe = ("import sys; from bot.__main__ import main; code = main([]); "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'aiogram', 'aiohttp'}))")
    (tmp_path / "db").mkdir()
    lock = ProcessLock.take(tmp_path / "db" / "mafia.sqlite3")
    try:
        done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
    finally:
        lock.release()
    assert done.stdout.splitlines() == ["[]"]
    assert done.stderr.splitlines() == [
        f"error: another bot process (pid {os.getpid()}) is running on "
        f"{tmp_path / 'db' / 'mafia.sqlite3'}: SQLite allows one; stop it, or set DATABASE_URL "
        "to PostgreSQL to run several"]

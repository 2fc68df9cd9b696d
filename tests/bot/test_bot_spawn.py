"""tests/bot_spawn.py: a bot forked from the pre-imported fork server behaves as ``python -m
bot`` started afresh — its own process, its environment and directory, its exit status, its
output in the file given, ended by ``kill -9``."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from tests.bot_spawn import start_bot
from tests.fakes.telegram_server import FakeTelegram
from tests.game.test_kill9 import HOST, SETTINGS

# one after another on one worker, its bots forked by one fork server (tests/bot_spawn.py)
pytestmark = pytest.mark.xdist_group("bot_forks")


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env.update(values)
    return env


async def test_a_bad_setting_exits_as_the_command_does(tmp_path: Path) -> None:
    output = tmp_path / "out.log"
    proc = await start_bot(_env(BOT_TOKEN="not-a-token"), tmp_path, output)
    assert await asyncio.wait_for(proc.wait(), 60) == 2  # python -m bot's code for settings
    lines = proc.output().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: BOT_TOKEN is malformed"), lines
    assert proc.returncode == 2
    # the environment is the child's own: the parent's is untouched
    assert os.environ.get("BOT_TOKEN") != "not-a-token"


async def test_a_forked_bot_answers_and_dies_of_kill9(fake: FakeTelegram, tmp_path: Path) -> None:
    output = tmp_path / "out.log"
    env = _env(BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url, HOST_IDS=str(HOST),
               DEFAULT_LOCALE="en")
    (tmp_path / ".env").write_text("DATABASE_PATH=from-dotenv.sqlite3\n")  # its cwd's .env
    proc = await start_bot(env, tmp_path, output)
    try:
        assert proc.pid != os.getpid()
        await fake.wait_call("setMyCommands", timeout=60)
        fake.user(1, "Ann", language_code="en")
        await fake.send(1, "/start")
        assert "Ann" in ((await fake.next_message(1, timeout=20)).text or "")
        assert (tmp_path / "from-dotenv.sqlite3").exists()  # its directory, its settings
        assert proc.returncode is None
    finally:
        proc.send_signal(signal.SIGKILL)
        code = await asyncio.wait_for(proc.wait(), 30)
    assert code == -signal.SIGKILL
    assert "msg=started" in proc.output()  # its log went to the file given
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)  # gone, and reaped by the fork server

"""``python -m bot`` killed with SIGKILL in the middle of a night: the next process goes on."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.cluster.share import THIS_DATABASE
from storage.db import Database
from tests.bot_spawn import BotProcess, start_bot
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.harness import approve_club
from tests.pg_cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
CLUB = -100999
HOST = 800
PLAYERS = list(range(6001, 6011))

# one after another on one worker, its bots forked by one fork server (tests/bot_spawn.py)
pytestmark = pytest.mark.xdist_group("bot_forks")
SETTINGS = ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH", "DATABASE_URL", "ADMIN_IDS",
            "HOST_IDS",
            "NIGHT_SECONDS", "MAFIA_AGREE_SECONDS", "VOTE_TURN_SECONDS", "LAST_WORD_SECONDS",
            "DEFAULT_LOCALE", "FLOOD_BURST")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def bot_env(tmp_path: Path, fake: FakeTelegram, **settings: str) -> dict[str, str]:
    """The environment of a bot against the fake (``settings`` override the defaults)."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url,
               DATABASE_PATH=str(tmp_path / "mafia.sqlite3"), HOST_IDS=str(HOST),
               NIGHT_SECONDS="60", MAFIA_AGREE_SECONDS="4", VOTE_TURN_SECONDS="60",
               LAST_WORD_SECONDS="1", DEFAULT_LOCALE="en",
               FLOOD_BURST="0")  # the fake's users answer at machine speed
    env.update(settings)
    return env


async def fork(tmp_path: Path, fake: FakeTelegram, output: Path, module: str = "bot",
               **settings: str) -> BotProcess:
    """As ``spawn``, forked from the pre-imported fork server (tests/bot_spawn.py): no import
    paid again; stdout and stderr appended to ``output``."""
    return await start_bot(bot_env(tmp_path, fake, **settings), tmp_path, output, module)


async def spawn(tmp_path: Path, fake: FakeTelegram, stderr: Any = asyncio.subprocess.PIPE,
                module: str = "bot", **settings: str) -> asyncio.subprocess.Process:
    """``python -m bot`` (or ``module``, a wrapper of its ``main``) against the fake."""
    env = bot_env(tmp_path, fake, **settings)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, cwd=tmp_path, env=env,
        stdout=stderr if stderr is not asyncio.subprocess.PIPE else asyncio.subprocess.DEVNULL,
        stderr=stderr)


def db_env(target: str | Path) -> dict[str, str]:
    """The settings pointing ``python -m bot`` at ``target``."""
    return {"DATABASE_URL": target} if isinstance(target, str) else {}


def prompts(fake: FakeTelegram, uid: int, prefix: str) -> list[SentMessage]:
    return [m for m in fake.messages(uid) if any(d.startswith(prefix) for _, d in m.buttons())]


def sent_once(fake: FakeTelegram, uid: int, prefix: str) -> bool:
    """Telegram took one message with buttons of ``prefix`` for ``uid`` (buttons removed since
    or not)."""
    return sum(1 for r in fake.log if r.method == "sendMessage" and r.status == 200
               and r.chat_id == uid and prefix in json.dumps(r.params)) == 1


@pytest.mark.soak
async def deal_a_table(fake: FakeTelegram, club: int = CLUB) -> int:
    """``/newgame`` in ``club``, every player joins, ``/deal``: the game's id once every card
    is in."""
    await fake.send(HOST, "/newgame", chat_id=club)
    await fake.wait_for(lambda: prompts(fake, club, "gl:"), 30, "the lobby")
    lobby = prompts(fake, club, "gl:")[0]
    game = int(lobby.buttons()[0][1].split(":")[1])
    for uid in PLAYERS:
        await fake.callback_answer(await fake.press(uid, lobby, f"gl:{game}:join"), 20)
    await fake.send(HOST, "/deal", chat_id=club)
    await fake.wait_for(lambda: all(any(m.protect_content for m in fake.messages(u))
                                    for u in PLAYERS), 30, "the cards")
    return game


async def test_sigkill_mid_night_then_the_night_goes_on(fake: FakeTelegram, tmp_path: Path,
                                                       bot_database: str | Path) -> None:
    """Soak test (10-20 s, more when the worker's fork server starts with it): two starts of
    the bot (forked), a lobby, a deal and a night over HTTP, and the Mafia's real 4 s window."""
    db = await Database.open(bot_database)
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(db, CLUB)  # its games count
    for i, uid in enumerate(PLAYERS, 1):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        await db.players.set_nickname(uid, f"Gamer{i}")
        fake.user(uid, f"U{uid}", language_code="en")
    await db.players.record_game_played(PLAYERS, datetime.now(UTC).date())  # no newbies
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")

    output = tmp_path / "bot.log"
    proc = await fork(tmp_path, fake, output, **db_env(bot_database))
    try:
        game = await deal_a_table(fake)
        await fake.send(HOST, "/night", chat_id=CLUB)
        prefix = f"gn:{game}:1:"
        await fake.wait_for(lambda: sum(bool(prompts(fake, u, prefix)) for u in PLAYERS) >= 5, 30,
                         "the night prompts")
        await asyncio.sleep(0.3)
        actors = [u for u in PLAYERS if prompts(fake, u, prefix)]
        # a player with its own choice (the Mafia may change theirs while their window is open)
        first = next(u for u in actors if "team" not in prompts(fake, u, prefix)[0].body)
        actors.remove(first)
        actors.insert(0, first)
        old = prompts(fake, first, prefix)[0]
        answer = await fake.callback_answer(await fake.press(first, old, old.buttons()[0][1]), 20)
        assert answer["text"].startswith("Accepted")
    finally:
        proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: as if the power went out
        await proc.wait()

    events = await db.games.events(game)
    assert [e.kind for e in events].count("choice") == 1

    told = sum("restarted" in m.body for m in fake.messages(CLUB))
    proc = await fork(tmp_path, fake, output, **db_env(bot_database))
    try:
        # the players still to choose have their prompts (the outbox delivered them before
        # the kill): nobody gets the same buttons twice; the one who chose has none open
        own = [u for u in actors[1:] if "team" not in prompts(fake, u, prefix)[0].body]
        await fake.wait_for(lambda: sum("restarted" in m.body for m in fake.messages(CLUB))
                            > told, 30, "the game rebuilt")
        assert not prompts(fake, first, prefix)  # its prompt was closed, no new one
        # buttons from before the kill still work
        for uid in own:
            message = prompts(fake, uid, prefix)[0]
            await fake.callback_answer(await fake.press(uid, message, message.buttons()[0][1]),
                                       20)
        await fake.wait_for(lambda: any("Morning after night 1" in m.body
                                     for m in fake.messages(CLUB)), 60, "the morning")
        kinds = [e.kind for e in await db.games.events(game)]
        assert "night_resolved" in kinds
        assert all(sent_once(fake, u, prefix) for u in actors)
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 30)
        await db.close()
    assert "Traceback" not in proc.output(), proc.output()[-2000:]


async def test_sigkill_between_the_games_row_and_its_lobby_post(fake: FakeTelegram,
                                                                tmp_path: Path,
                                                                pg: Cluster) -> None:
    """/newgame commits the game's row, then queues the lobby's post in a step of its own. A
    lock on the log holds that step; the process is killed there. The next process posts the
    lobby once, players join it, and /newgame is refused while it is open."""
    url = await pg.new_database()
    db = await Database.open(url)
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(db, CLUB)  # its games count
    for i, uid in enumerate(PLAYERS[:2], 1):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        await db.players.set_nickname(uid, f"Gamer{i}")
        fake.user(uid, f"U{uid}", language_code="en")
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")
    blocker = await asyncpg.connect(url)
    output = tmp_path / "bot.log"
    try:
        block = blocker.transaction()
        await block.start()
        await blocker.execute("LOCK TABLE game_events IN SHARE MODE")  # inserts wait
        proc = await fork(tmp_path, fake, output, DATABASE_URL=url)
        try:
            await fake.send(HOST, "/newgame", chat_id=CLUB)

            async def step_waits() -> bool:
                return bool(await db.games.running()) and bool(await blocker.fetchval(
                    "SELECT count(*) FROM pg_locks WHERE relation = 'game_events'::regclass"
                    f" AND NOT granted AND {THIS_DATABASE}"))
            for _ in range(300):
                if await step_waits():
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the lobby's step never waited on the log")
        finally:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        await block.rollback()
        [game] = await db.games.running()
        assert await db.games.events(game.id) == []
        assert not prompts(fake, CLUB, "gl:")  # the post never left

        proc = await fork(tmp_path, fake, output, DATABASE_URL=url)
        try:
            await fake.wait_for(lambda: prompts(fake, CLUB, "gl:"), 30, "the lobby")
            lobby = prompts(fake, CLUB, "gl:")[0]
            assert (f"gl:{game.id}:join" in [data for _, data in lobby.buttons()])
            for uid in PLAYERS[:2]:
                answer = await fake.callback_answer(
                    await fake.press(uid, lobby, f"gl:{game.id}:join"), 20)
                assert answer["text"].startswith("You are at the table"), answer
            await fake.send(HOST, "/newgame", chat_id=CLUB)
            await fake.wait_for(lambda: any(f"#{game.id} is already open" in m.body
                                            for m in fake.messages(CLUB)),
                                20, "the refusal of a second lobby")
            assert len(prompts(fake, CLUB, "gl:")) == 1
            assert [e.kind for e in await db.games.events(game.id)] == ["lobby_posted"]
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 30)
        assert "Traceback" not in proc.output(), proc.output()[-2000:]
    finally:
        await blocker.close()
        await db.close()

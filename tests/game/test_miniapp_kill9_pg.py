"""The host's Mini App through a ``kill -9`` of the club's holder (real bot processes on one
PostgreSQL, bot/cluster/club_calls.py): a press made while nobody holds the club waits for the next
holder, which answers it; a press the holder took and was killed running is not run again by
the next holder — the caller gets the timeout answer and the game has it at most once."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from bot.cluster.share import MEMBER_CLASS, THIS_DATABASE
from storage.db import Database
from tests.bot_spawn import BotProcess
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import free_port
from tests.game.test_kill9 import HOST, PLAYERS, deal_a_table, fork
from tests.pg_cluster import Cluster
from tests.web.initdata import sign_init_data

CLUB = -100_840_001
pytestmark = pytest.mark.xdist_group("bot_forks")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def _members(admin: asyncpg.Connection) -> int:
    return int(await admin.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::bigint::oid"
        f" AND objid = 0 AND objsubid = 2 AND granted AND {THIS_DATABASE}", MEMBER_CLASS))


async def _until(check: Any, within: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not await check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.soak
async def test_the_mini_app_through_the_holders_kill9(fake: FakeTelegram, tmp_path: Path,
                                                      pg: Cluster) -> None:
    """Soak test (25-40 s): three bot starts, a lobby and a deal, and a call that must outlast
    its 10 s timeout."""
    url = await pg.new_database()
    db = await Database.open(url)
    admin = await asyncpg.connect(url)
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for i, uid in enumerate(PLAYERS, 1):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        await db.players.set_nickname(uid, f"Gamer{i}")
        fake.user(uid, f"U{uid}", language_code="en")
    await db.players.record_game_played(PLAYERS, datetime.now(UTC).date())
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")
    ports = [free_port() for _ in range(3)]
    procs: list[BotProcess] = []

    async def start(n: int) -> BotProcess:
        proc = await fork(tmp_path, fake, tmp_path / f"bot{n}.log", DATABASE_URL=url,
                          WEB_PORT=str(ports[n]), WEB_HOST="127.0.0.1")
        procs.append(proc)
        return proc

    def auth() -> dict[str, str]:
        return {"Authorization": f"tma {sign_init_data(fake.token, HOST, datetime.now(UTC))}"}

    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=40))
    try:
        first = await start(0)  # alone: it holds the club, the game lives there
        game = await deal_a_table(fake, CLUB)
        second = await start(1)

        async def joined() -> bool:
            return await _members(admin) == 2
        await _until(joined, 30, "the second process")

        async def state(port: int) -> tuple[int, Any]:
            async with session.get(f"http://127.0.0.1:{port}/host/{game}/state?lang=en",
                                   headers=auth()) as r:
                return r.status, await r.json()

        async def act(port: int, action: str, moment: int) -> tuple[int, Any]:
            async with session.post(f"http://127.0.0.1:{port}/host/{game}/act?lang=en",
                                    headers=auth(),
                                    json={"action": action, "arg": None, "step": moment}) as r:
                return r.status, await r.json()

        async def served(port: int = ports[1]) -> bool:
            try:
                return (await state(port))[0] == 200
            except aiohttp.ClientError:
                return False
        await _until(served, 30, "the second's Mini App (forwarded to the first)")
        moment = (await state(ports[1]))[1]["step"]

        # 1. the holder killed, then the press at the other: it waits for the next holder
        first.send_signal(signal.SIGKILL)
        await first.wait()
        status, body = await act(ports[1], "vote", moment)
        assert status == 200 and body["ok"], body
        kinds = [e.kind for e in await db.games.events(game)]
        assert kinds.count("vote_start") == 1

        # 2. the holder (now the second) takes a press and is killed while writing it
        await start(2)
        await _until(joined, 30, "the third process")
        # counted a member as its share connection begins: "try again" (503) until it is ready
        await _until(partial(served, ports[2]), 30, "the third's Mini App (forwarded)")
        status, now = await state(ports[2])
        assert status == 200 and now["stage"] == "vote"
        lock = admin.transaction()
        await lock.start()
        await admin.execute("LOCK TABLE game_events IN SHARE MODE")  # the step's write waits
        pressed = asyncio.create_task(act(ports[2], "pause", now["step"]))

        async def writing() -> bool:
            return bool(await db.query(
                "SELECT 1 FROM pg_locks WHERE relation = 'game_events'::regclass"
                f" AND NOT granted AND {THIS_DATABASE}"))
        await _until(writing, 20, "the holder writing the pause")
        second.send_signal(signal.SIGKILL)
        await second.wait()
        await lock.rollback()
        status, body = await pressed
        assert status == 503 and body["error"] == "timeout", body
        assert "look at it" in body["text"]

        async def restored() -> bool:
            return (await state(ports[2]))[0] == 200
        await _until(restored, 30, "the third holding the club")
        status, after = await state(ports[2])
        assert after["stage"] == "vote" and not after["paused"]  # not applied, not run again
        await asyncio.sleep(1.5)  # a look or two of the new holder: the taken call stays undone
        kinds = [e.kind for e in await db.games.events(game)]
        assert kinds.count("pause") == 0 and kinds.count("vote_start") == 1
        assert not (await state(ports[2]))[1]["paused"]
    finally:
        await session.close()
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
        await admin.close()
        await db.close()

"""A takeover mid-night on PostgreSQL (two real bot processes, ``kill -9`` of the club's
holder): the survivor rebuilds the game and does not send again the night prompts its players
already have (the outbox knows they were delivered); the buttons they have work, the night
resolves, and every player got the night's buttons once."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from storage.db import Database
from tests.bot_spawn import BotProcess
from tests.fakes.telegram_server import FakeTelegram
from tests.game.test_kill9 import HOST, PLAYERS, deal_a_table, fork, prompts, sent_once
from tests.game.test_miniapp_kill9_pg import _members, _until
from tests.pg_cluster import Cluster

CLUB = -100_840_038
pytestmark = pytest.mark.xdist_group("bot_forks")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.mark.soak
async def test_a_takeover_mid_night_sends_no_prompt_twice(fake: FakeTelegram, tmp_path: Path,
                                                          pg: Cluster) -> None:
    """Soak test (20-40 s): two bot starts, a lobby, a deal, a night, and a takeover that
    waits for the killed holder's session to end."""
    url = await pg.new_database()
    db = await Database.open(url)
    admin = await asyncpg.connect(url)
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for i, uid in enumerate(PLAYERS, 1):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        await db.players.set_nickname(uid, f"Gamer{i}")
        fake.user(uid, f"U{uid}", language_code="en")
    await db.players.record_game_played(PLAYERS, datetime.now(UTC).date())  # no newbies
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")
    procs: list[BotProcess] = []

    async def start(n: int) -> BotProcess:
        proc = await fork(tmp_path, fake, tmp_path / f"bot{n}.log", DATABASE_URL=url,
                          NIGHT_SECONDS="120", MAFIA_AGREE_SECONDS="120")
        procs.append(proc)
        return proc

    try:
        first = await start(0)  # alone: it holds the club, the game lives there
        game = await deal_a_table(fake, CLUB)
        await fake.send(HOST, "/night", chat_id=CLUB)
        prefix = f"gn:{game}:1:"
        kinds = []
        for _ in range(300):
            kinds = [e.kind for e in await db.games.events(game)]
            if "night_start" in kinds:
                break
            await asyncio.sleep(0.1)
        # every night actor's prompt delivered (the outbox marked it sent)
        actors = [u for u in PLAYERS if (await db.query(
            "SELECT count(*) FROM outbox WHERE chat_id = ? AND key LIKE ?",
            (u, f"g{game}:s1:prompt:%")))[0][0]]
        assert len(actors) >= 5

        async def delivered() -> bool:
            rows = await db.query(
                "SELECT count(*) FROM outbox WHERE key LIKE ? AND method = 'send'"
                " AND status <> 'sent'", (f"g{game}:s1:prompt:%",))
            return int(rows[0][0]) == 0
        await _until(delivered, 30, "the night's prompts delivered")
        assert all(sent_once(fake, u, prefix) for u in actors)
        second = await start(1)

        async def joined() -> bool:
            return await _members(admin) == 2
        await _until(joined, 30, "the second process")
        told = sum("restarted" in m.body for m in fake.messages(CLUB))
        first.send_signal(signal.SIGKILL)  # the holder dies: the second takes the club
        await first.wait()
        await fake.wait_for(lambda: sum("restarted" in m.body for m in fake.messages(CLUB))
                            > told, 60, "the survivor's takeover of the game")

        async def settled() -> bool:
            rows = await db.query("SELECT count(*) FROM outbox WHERE status = 'pending'")
            return int(rows[0][0]) == 0
        await _until(settled, 30, "the survivor's outbox drained")
        # nobody got the night's buttons twice, and the buttons they have work
        assert all(sent_once(fake, u, prefix) for u in actors)
        held = {u: prompts(fake, u, prefix)[0] for u in actors if prompts(fake, u, prefix)}
        mafia = [u for u, m in held.items() if "team" in m.body]  # they agree on one target
        common = set.intersection(*({d.rsplit(":", 1)[1] for _, d in held[u].buttons()}
                                    for u in mafia)) if mafia else set()
        for uid, message in held.items():
            data = message.buttons()[0][1]
            if uid in mafia:
                data = next(d for _, d in message.buttons() if d.endswith(f":{min(common)}"))
            answer = await fake.callback_answer(await fake.press(uid, message, data), 30)
            assert "out of date" not in answer.get("text", ""), answer
        await fake.wait_for(lambda: any("Morning after night 1" in m.body
                                        for m in fake.messages(CLUB)), 60, "the morning")
        assert all(sent_once(fake, u, prefix) for u in actors)
        assert second.returncode is None
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
        await admin.close()
        await db.close()

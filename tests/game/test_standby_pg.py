"""Several ``python -m bot`` on one PostgreSQL (bot/cluster/sharing.py): one polls Telegram, and
when it dies another takes the poller's role over; ``kill -9`` of any of them at random moments of
whole games, and the games go on: results equal the engine's count from each log, the ledger exact,
every outcome delivered, every update written to the inbox and handled.

The bots are forked from a pre-imported fork server (tests/bot_spawn.py), ``python -m bot``'s
``main`` as the command runs it. Soak test: 50-100 s here (the games go on until at least 5
kills, 2 of the one in charge; ``STANDBY_GAMES``, default 1, sets how many games at least).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import tests.game.test_kill9_games as kill9_games
from storage.db import Database
from tests.bot_spawn import BotProcess, start_bot
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import wait_until
from tests.game.test_kill9 import HOST, ROOT, SETTINGS
from tests.game.test_kill9_games import TIMERS, check, play_one, seed_club
from tests.pg_cluster import Cluster

# one after another on one worker, its bots forked by one fork server (tests/bot_spawn.py)
pytestmark = pytest.mark.xdist_group("bot_forks")
GAMES = int(os.environ.get("STANDBY_GAMES", "1"))
PROCESSES = 3
PLAYERS = kill9_games.PLAYERS


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


class Process:
    def __init__(self, proc: BotProcess, log: Path) -> None:
        self.proc, self.log = proc, log

    def said(self, text: str) -> bool:
        return self.log.exists() and text in self.log.read_text()

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    @property
    def in_charge(self) -> bool:
        """The poller (the one ``getUpdates`` consumer of the token)."""
        return self.alive and self.said("role=poller")


class Fleet:
    """``PROCESSES`` bots on one database; a killed one is replaced by a new one at once (as
    a supervisor would), which then waits its turn."""

    def __init__(self, tmp_path: Path, fake: FakeTelegram, url: str, rng: random.Random) -> None:
        self.tmp_path, self.fake, self.url, self.rng = tmp_path, fake, url, rng
        self.procs: list[Process] = []
        self.kills = 0
        self.kills_in_charge = 0
        self.started = 0

    async def spawn(self) -> Process:
        self.started += 1
        log = self.tmp_path / f"bot{self.started}.log"
        env = {k: v for k, v in os.environ.items()
               if k.upper() not in (*SETTINGS, "DATABASE_URL")}
        env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=self.fake.token,
                   TELEGRAM_API_URL=self.fake.base_url, DATABASE_URL=self.url,
                   HOST_IDS=str(HOST), DEFAULT_LOCALE="en", **TIMERS)
        proc = await start_bot(env, self.tmp_path, log)
        process = Process(proc, log)
        self.procs.append(process)
        return process

    def alive(self) -> list[Process]:
        return [p for p in self.procs if p.alive]

    async def start(self) -> None:
        for _ in range(PROCESSES):
            await self.spawn()

    async def kill(self) -> None:
        victim = self.rng.choice(self.alive())
        self.kills_in_charge += victim.in_charge
        victim.proc.send_signal(signal.SIGKILL)
        await victim.proc.wait()
        self.kills += 1
        await self.spawn()

    async def stop(self) -> None:
        for p in self.alive():
            p.proc.send_signal(signal.SIGTERM)
        for p in self.procs:
            if p.alive:
                await asyncio.wait_for(p.proc.wait(), 60)


def in_charge(fleet: Fleet) -> list[Process]:
    return [p for p in fleet.alive() if p.in_charge]


async def all_in_the_inbox(db: Database, fake: FakeTelegram) -> None:
    """Every update the fake handed out (to any process, killed or not) was written to the
    inbox and handled: none lost between receiving and handling."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while True:
        rows = await db.query("SELECT update_id, handled FROM inbox")
        ids = {int(r[0]) for r in rows}
        pending = sorted(int(r[0]) for r in rows if r[1] is None)
        missing = sorted(set(fake.delivered_at) - ids)
        if not missing and not pending:
            return
        assert loop.time() < deadline, (missing, pending)
        await asyncio.sleep(0.2)


async def test_one_polls_and_another_takes_over_at_kill9(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    fleet = Fleet(tmp_path, fake, await pg.new_database(), random.Random(1))
    first = await fleet.spawn()
    try:
        await wait_until(lambda: first.in_charge, 90, "the first in charge")
        second = await fleet.spawn()
        await wait_until(lambda: second.said("msg=joined"), 90, "the second joined")
        await fake.wait_call("setMyCommands", timeout=90)
        fake.user(1, "Ann", language_code="en")
        await fake.send(1, "/start")
        await fake.next_message(1, timeout=30)
        assert not second.in_charge
        polls = sum(m == "getUpdates" for m, _ in fake.calls)
        await asyncio.sleep(2)
        assert not second.in_charge  # still waiting: one poller per token
        assert sum(m == "getUpdates" for m, _ in fake.calls) - polls <= 3  # one long poll

        loop = asyncio.get_running_loop()
        first.proc.send_signal(signal.SIGKILL)
        await first.proc.wait()
        killed = loop.time()
        fake.user(2, "Bob", language_code="en")
        await fake.send(2, "/start")
        reply = await fake.next_message(2, timeout=60)
        assert "Bob" in (reply.text or "")
        assert second.in_charge
        print(f"kill -9 -> the other answers: {loop.time() - killed:.1f} s")
        # /start's handler goes on after its reply; a stop meanwhile closes the database under
        # it (a shutdown race of one process, not of this one: see the report)
        await asyncio.sleep(2)
    finally:
        await fleet.stop()
    for p in fleet.procs:
        assert "Traceback" not in p.log.read_text(), p.log.read_text()


@pytest.mark.soak
async def test_kill9_of_random_processes_during_whole_games(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At least 5 kills, some of the one in charge: every game finishes with the points the
    engine counts from its log, no point lost or counted twice, every outcome posted."""
    monkeypatch.setattr(kill9_games, "KILL_CHANCE", 0.2)
    url = await pg.new_database()
    db = await Database.open(url)
    await seed_club(db, fake)
    rng = random.Random(20)
    fleet = Fleet(tmp_path, fake, url, rng)
    await fleet.start()
    expected = sum([await db.ledger.balance(u) for u in PLAYERS])
    try:
        await wait_until(lambda: len(in_charge(fleet)) == 1, 120, "one process in charge")
        played = 0
        while played < GAMES or fleet.kills < 5 or fleet.kills_in_charge < 2:
            assert played < GAMES + 3, (fleet.kills, fleet.kills_in_charge)
            game_id = await play_one(fake, db, fleet, rng, played)  # type: ignore[arg-type]
            expected += await check(db, fake, game_id)
            assert sum([await db.ledger.balance(u) for u in PLAYERS]) == expected
            played += 1
        assert len(in_charge(fleet)) <= 1  # never two at once
        await all_in_the_inbox(db, fake)
    finally:
        await fleet.stop()
        await db.close()
    assert fleet.kills >= 5 and fleet.kills_in_charge >= 2

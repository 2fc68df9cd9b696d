"""Three bots on one PostgreSQL share ten clubs (bot/cluster/sharing.py): twenty games
played at once by simulated players over the fake Bot API, and ``kill -9`` of random
processes at random moments; each killed one is started again at once (as a supervisor
would). Every game's points equal the engine's count from its log, the ledger is exact, every
morning's news, verdict and outcome reaches its club chat, every update handed out is in the
inbox and handled, and none was handled twice except one a killed process was handling.

The bots are forked from a pre-imported fork server (tests/bot_spawn.py: ``python -m
tests.game.relaxed_bot`` without paying aiogram's import at each start). Soak test: two games
per club (``SHARING_GAMES``, 20 by default) with at least 5 kills take minutes of whole games
over HTTP. It prints the seconds from each kill until every club of the killed process had a
holder again, its games restored (no assertion: a measurement, docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest

import tests.game.test_kill9_games as kill9_games
from storage.db import Database
from tests.bot_spawn import BotProcess, start_bot
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import wait_until
from tests.game.test_kill9 import ROOT, SETTINGS
from tests.game.test_kill9_games import TIMERS, check, play_one, seed_club
from tests.game.test_standby_pg import all_in_the_inbox
from tests.pg_cluster import Cluster

# one after another on one worker, its bots forked by one fork server (tests/bot_spawn.py)
pytestmark = pytest.mark.xdist_group("bot_forks")
PROCESSES = 3
CLUBS = [-100_700_000 - i for i in range(10)]
HOSTS = {club: 8_100 + i for i, club in enumerate(CLUBS)}
PLAYERS = {club: list(range(71_000 + 10 * i, 71_006 + 10 * i)) for i, club in enumerate(CLUBS)}
GAMES = int(os.environ.get("SHARING_GAMES", "20"))
KILLS = 5
MORE_ROUNDS = 10  # of one game a club, at most, while the kills are not all made


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


class Fleet:
    """``PROCESSES`` bots (the relaxed one: no rate limits, the fake enforces none)."""

    def __init__(self, tmp_path: Path, fake: FakeTelegram, url: str, rng: random.Random) -> None:
        self.tmp_path, self.fake, self.url, self.rng = tmp_path, fake, url, rng
        self.procs: list[BotProcess] = []
        self.logs: list[Path] = []
        self.killed_at: list[float] = []  # time.monotonic(), as the fake's request log
        self.victims: list[tuple[Path, float]] = []  # the killed one's log, when (wall)

    async def spawn(self) -> None:
        log = self.tmp_path / f"bot{len(self.procs) + 1}.log"
        env = {k: v for k, v in os.environ.items()
               if k.upper() not in (*SETTINGS, "DATABASE_URL")}
        env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=self.fake.token,
                   TELEGRAM_API_URL=self.fake.base_url, DATABASE_URL=self.url,
                   HOST_IDS=",".join(map(str, HOSTS.values())), DEFAULT_LOCALE="en", **TIMERS)
        self.procs.append(await start_bot(env, self.tmp_path, log,
                                          module="tests.game.relaxed_bot"))
        self.logs.append(log)

    def alive(self) -> list[BotProcess]:
        return [p for p in self.procs if p.returncode is None]

    def joined(self) -> list[BotProcess]:
        """Alive and past its start (a start costs seconds of CPU: killing a process still
        importing aiogram tests nothing)."""
        return [p for p, log in zip(self.procs, self.logs, strict=True)
                if p.returncode is None and log.exists() and "msg=joined" in log.read_text()]

    async def kill(self) -> None:
        victim = self.rng.choice(self.joined())
        victim.send_signal(signal.SIGKILL)
        self.victims.append((self.logs[self.procs.index(victim)], time.time()))
        self.killed_at.append(time.monotonic())
        await victim.wait()
        await self.spawn()

    async def keep_killing(self, every: tuple[float, float]) -> None:
        """A kill at a random moment while at least two run (one is left to hold the clubs;
        a machine this busy needs tens of seconds to start one)."""
        while True:
            await wait_until(lambda: len(self.joined()) >= 2, 180, "two processes running")
            await asyncio.sleep(self.rng.uniform(*every))
            await self.kill()

    async def stop(self) -> None:
        for p in self.alive():
            p.send_signal(signal.SIGTERM)
        for p in self.procs:
            if p.returncode is None:
                await asyncio.wait_for(p.wait(), 60)

    def takeovers(self) -> list[tuple[float, float]]:
        """For each kill of a process holding clubs, the seconds until every one of them had
        a holder again with its games restored (each club's earliest "club taken" after the
        kill, in any log), and of those the last restore's own seconds (from the look that
        took the club)."""
        out = []
        for victim, killed in self.victims:
            held: set[str] = set()
            for line in victim.read_text().splitlines():
                if 'msg="club taken"' in line:
                    held.add(_club(line))
                elif "given back" in line:
                    held.discard(_club(line))
            retaken: dict[str, tuple[float, float]] = {}
            for log in self.logs:
                for line in log.read_text().splitlines() if log != victim else []:
                    if 'msg="club taken"' in line and _club(line) in held:
                        at = _at(line)
                        if at > killed and at < retaken.get(_club(line), (at + 1, 0))[0]:
                            retaken[_club(line)] = (at, float(line.split("seconds=")[1]
                                                              .split()[0]))
            if held:
                assert set(retaken) == held, (victim, held, retaken)
                last = max(retaken.values())
                out.append((last[0] - killed, last[1]))
        return out

    def said(self, text: str) -> int:
        return sum(log.read_text().count(text) for log in self.logs if log.exists())


def _club(line: str) -> str:
    return line.split("club=", 1)[1].split()[0]


def _at(line: str) -> float:
    return datetime.fromisoformat(line.split()[0].removeprefix("ts=")).timestamp()


class NoKill:
    """play_one's kills are the fleet's here, at moments of their own."""

    kills = 0  # play_one repeats an action at once after a kill of its own: none here

    async def kill(self) -> None:
        return None


def answered_twice(fake: FakeTelegram) -> dict[str, list[float]]:
    answers: dict[str, list[float]] = defaultdict(list)
    for request in fake.log:
        if request.method == "answerCallbackQuery" and request.status == 200:
            answers[str(request.params.get("callback_query_id"))].append(request.at)
    return {q: at for q, at in answers.items() if len(at) > 1}


@pytest.mark.soak
async def test_ten_clubs_shared_by_three_processes_through_kill9s(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kill9_games, "KILL_CHANCE", 0.0)
    url = await pg.new_database()
    db = await Database.open(url)
    for club in CLUBS:
        await seed_club(db, fake, club=club, host=HOSTS[club], players=PLAYERS[club])
    everyone = [u for club in CLUBS for u in PLAYERS[club]]
    expected = sum([await db.ledger.balance(u) for u in everyone])
    rng = random.Random(20)
    fleet = Fleet(tmp_path, fake, url, rng)
    for _ in range(PROCESSES):
        await fleet.spawn()
    games: dict[int, list[int]] = {club: [] for club in CLUBS}

    async def play_club(club: int, count: int) -> None:
        club_rng = random.Random(club)
        for played in range(count):
            games[club].append(await play_one(fake, db, NoKill(), club_rng,  # type: ignore[arg-type]
                                              played, club=club, host=HOSTS[club],
                                              players=PLAYERS[club]))

    killer: asyncio.Task[None] | None = None
    try:
        await wait_until(lambda: fleet.said("msg=joined") >= PROCESSES, 300, "all joined")
        await wait_until(lambda: fleet.said("club taken") >= len(CLUBS), 120, "clubs taken")
        killer = asyncio.create_task(fleet.keep_killing((3.0, 10.0)))
        counts = [GAMES // len(CLUBS) + (i < GAMES % len(CLUBS)) for i in range(len(CLUBS))]
        await asyncio.gather(*(play_club(c, n) for c, n in zip(CLUBS, counts, strict=True)))
        # the games went faster than the kills (each kill waits for a new process's start): a
        # game more in each club until they are all made (on an idle machine 2 were too few)
        for _ in range(MORE_ROUNDS):
            if len(fleet.killed_at) >= KILLS:
                break
            await asyncio.gather(*(play_club(c, 1) for c in CLUBS))
        killer.cancel()
        assert len(fleet.killed_at) >= KILLS  # all during the games
        points = 0
        for club in CLUBS:
            for game_id in games[club]:
                points += await check(db, fake, game_id, club=club)
        assert sum([await db.ledger.balance(u) for u in everyone]) == expected + points
        await all_in_the_inbox(db, fake)
        # a press answered twice was being handled by a process killed before its mark
        for query, at in answered_twice(fake).items():
            assert any(at[0] - 1 <= k <= at[-1] for k in fleet.killed_at), (query, at)
    finally:
        if killer is not None:
            killer.cancel()
        await fleet.stop()
        await db.close()
    takeovers = fleet.takeovers()
    print(f"kills: {len(fleet.killed_at)}, presses answered twice: "
          f"{len(answered_twice(fake))}, clubs held again after a kill, s (of which the "
          "look's lock and restore): " + " ".join(f"{t:.1f} ({r:.1f})" for t, r in takeovers))


def test_a_takeover_is_measured_to_each_club_s_earliest_retake(tmp_path: Path) -> None:
    """A club taken over twice (its new holder killed in turn) counts at its first retake, in
    whichever log it is: the first log's later take once read as a 10 s takeover."""
    def line(at: str, club: int, seconds: float) -> str:
        return (f'ts=2026-12-01T16:00:{at}+00:00 level=INFO logger=bot.cluster.sharing '
                f'msg="club taken" club={club} games=1 seconds={seconds}\n')

    fleet = Fleet(tmp_path, None, "", random.Random(0))  # type: ignore[arg-type]
    a, b, victim = (tmp_path / f"bot{i}.log" for i in (1, 2, 3))
    victim.write_text(line("00.000", 1, 0.1) + line("00.000", 2, 0.1))
    b.write_text(line("02.000", 1, 0.4) + line("02.500", 2, 0.9))  # taken 2 and 2.5 s after
    a.write_text(line("11.000", 1, 0.2))  # after b was killed too
    fleet.logs = [a, b, victim]
    killed = datetime.fromisoformat("2026-12-01T16:00:00.500+00:00").timestamp()
    fleet.victims = [(victim, killed)]
    assert fleet.takeovers() == [(2.0, 0.9)]

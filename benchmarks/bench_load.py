"""Load benchmark: ``python -m benchmarks.bench_load --games N [--minutes M] [--out FILE]``.

The real bot process (``python -m bot``) runs against the project's fake Bot API server
(``tests/fakes/telegram_server.py``) with Telegram's rate limits on (30 messages a second
overall, 1 a second per private chat after a burst of 3, 20 a minute per group: 429 with
``retry_after`` beyond them). Simulated players in this process play ``N`` concurrent
12-player games to the end with compressed timers: random legal choices (the buttons they are
given), some players slow, some missing their turn. With ``--panel`` the hosts deal and start
the nights and votes with their private panel's buttons instead of typed commands. Then it
prints (and with ``--out`` writes as JSON) a table of figures; what each figure means is in
docs/benchmarks.md.

Before the games, a 20-player table is dealt alone: the time from ``/deal`` to the last card,
against the minimum Telegram's limits allow.

This file is the entry point (set-up, the 20-player deal, the run); the simulated host and
players are in ``benchmarks/load/players.py``, the figures, the ledger check and the table
text in ``benchmarks/load/figures.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.load.figures import (
    SENDS,
    figures,
    ledger_check,
    percentile,
    settle,
    table_text,
    write_log,
)
from benchmarks.load.lag import LoopLag
from benchmarks.load.machine import (
    MachineLoad,
    cpu_times,
    local_postmaster,
    own_cpu,
    process_cpu,
    server_cpu,
    steal_percent,
    used_share,
)
from benchmarks.load.players import Bench, SimTable, wait_until
from benchmarks.places import PgPlace
from storage.db import Database
from storage.models import CLUB_APPROVED, CLUB_STATUSES
from tests.fakes.telegram_server import FakeTelegram, TelegramLimits

ROOT = Path(__file__).resolve().parents[1]
PLAYERS_PER_GAME = 12
DEAL_TABLE = 20
TIMERS = {"NIGHT_SECONDS": "3", "MAFIA_AGREE_SECONDS": "2", "VOTE_TURN_SECONDS": "2",
          "LAST_WORD_SECONDS": "0.5"}
SETTINGS = ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH", "DATABASE_URL", "ADMIN_IDS",
            "HOST_IDS",
            "NIGHT_SECONDS", "MAFIA_AGREE_SECONDS", "VOTE_TURN_SECONDS", "LAST_WORD_SECONDS",
            "DEFAULT_LOCALE", "WEB_PORT", "WEB_URL")


# ---------------------------------------------------------------------- set-up
async def prefill(target: str | Path, tables: list[SimTable]) -> None:
    """Players registered with nicknames, not newbies; clubs in English and approved by the
    network (a pending club's games are friendly: no ledger rows, no rating to move)."""
    db = await Database.open(target)
    try:
        for table in tables:
            await db.clubs.ensure(table.club, title=f"Club {table.index}", locale="en")
            await db.clubs.set_status(table.club, CLUB_APPROVED, by=0, now=datetime.now(UTC),
                                      expect=CLUB_STATUSES)
            for uid in table.players:
                await db.players.register(uid, display_name=f"U{uid}", language="en")
                await db.players.set_nickname(uid, f"P{uid}")
            await db.players.record_game_played(table.players, datetime.now(UTC).date())
    finally:
        await db.close()


def make_tables(first: int, count: int, size: int) -> list[SimTable]:
    return [SimTable(index=first + g, club=-1_000_000 - (first + g), host=900_000 + first + g,
                  players=[1_000_000 + (first + g) * 100 + i for i in range(size)])
            for g in range(count)]


def introduce(fake: FakeTelegram, tables: list[SimTable]) -> None:
    for table in tables:
        fake.group(table.club, f"Club {table.index}")
        fake.user(table.host, f"Host{table.index}", language_code="en")
        for uid in table.players:
            fake.user(uid, f"U{uid}", language_code="en")


async def spawn(tmp: Path, fake: FakeTelegram, hosts: list[int],
                target: str | Path, log: str = "bot.log") -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url,
               DATABASE_PATH=str(tmp / "mafia.sqlite3"), HOST_IDS=",".join(map(str, hosts)),
               DEFAULT_LOCALE="en", **TIMERS)
    if isinstance(target, str):
        env["DATABASE_URL"] = target
    output = (tmp / log).open("wb")  # the child's logs (stdout)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp, env=env,
        stdout=output, stderr=output)


def proc_stats(pid: int) -> tuple[float, float]:
    """(peak RSS in MB, CPU seconds user+system) of a live process, from /proc."""
    peak = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return peak, process_cpu(pid)


# ---------------------------------------------------------------------- the 20-player deal
async def deal_table(bench: Bench, table: SimTable) -> dict[str, Any]:
    fake = bench.fake
    await bench.lobby(table)
    start_log = len(fake.log)
    sent = await bench.deal(table)
    await wait_until(lambda: all(bench.has_card(u) for u in table.players), 120, "the cards")
    update_id = max(u for u, upd in fake.sent_updates.items()
                    if upd.get("message", {}).get("text") == "/deal"
                    and upd["message"]["chat"]["id"] == table.club)
    delivered = fake.delivered_at.get(update_id, sent)
    cards = [r.at for r in fake.log[start_log:]
             if r.status == 200 and r.method in SENDS and r.params.get("protect_content")
             and r.chat_id in table.players]
    club_posts = sum(1 for r in fake.log[start_log:]
                     if r.status == 200 and r.method in SENDS and r.chat_id == table.club)
    await fake.send(table.host, "/endgame", chat_id=table.club)
    table.over = True
    # the minimum: 20 cards at 30 a second overall (each to its own chat, within its burst)
    minimum = len(table.players) / 30
    took = max(cards) - delivered
    return {"players": len(table.players), "seconds": took, "minimum": minimum,
            "ratio": took / minimum, "club_posts": club_posts}


async def server_writes(url: str) -> tuple[int, int]:
    """The server's transaction ids given out so far (one per transaction that wrote, in any
    of its databases: the benchmark's alone on a throwaway server) and its WAL flushes."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT pg_current_xact_id()::text::bigint,"
                                  " (SELECT wal_sync FROM pg_stat_wal)")
        assert row is not None
        return int(row[0]), int(row[1])
    finally:
        await conn.close()


# ---------------------------------------------------------------------- main
async def run(games: int, minutes: float, seed: int, panel: bool = False,
              url: str | None = None, processes: int = 1,
              arrival: float = 0.0) -> dict[str, Any]:
    rng = random.Random(seed)
    steal: float | None = None
    used: float | None = None
    harness_cpu: float | None = None
    server_seconds: float | None = None
    server_written: tuple[int, int] | None = None  # write transactions, WAL flushes
    tmp = Path(tempfile.mkdtemp(prefix="bench_load_"))
    target: str | Path = tmp / "mafia.sqlite3"
    if url is not None:  # a fresh database "bench" on that server
        place = PgPlace(url)
        await place.create()
        target = place.target
    deal = make_tables(0, 1, DEAL_TABLE)
    tables = make_tables(1, games, PLAYERS_PER_GAME)
    bench_start = time.monotonic()
    await prefill(target, deal + tables)
    async with FakeTelegram(limits=TelegramLimits()) as fake:
        introduce(fake, deal + tables)
        hosts = [t.host for t in deal + tables]
        # several processes (PostgreSQL): the same command each, sharing the clubs
        procs = [await spawn(tmp, fake, hosts, target, f"bot{i}.log" if i else "bot.log")
                 for i in range(processes)]
        proc = procs[0]
        peak, cpu = 0.0, 0.0
        cpus: list[float] = []
        logs = [tmp / ("bot.log" if i == 0 else f"bot{i}.log") for i in range(processes)]
        lag = LoopLag()
        machine: MachineLoad | None = None  # the cores, and each bot's, second by second
        try:
            def ready() -> bool:
                if any(p.returncode is not None for p in procs):
                    return True  # a process that stopped: its log says why
                return any(m == "setMyCommands" for m, _ in fake.calls) and (
                    processes == 1 or all("msg=joined" in log.read_text() for log in logs))

            await wait_until(ready, 120, "the bots to start")
            await asyncio.sleep(3 if processes > 1 else 1)  # the clubs shared out
            start_cpus = [proc_stats(p.pid)[1] for p in procs]
            machine = MachineLoad([p.pid for p in procs])
            start_cpu = start_cpus[0]
            bench = Bench(fake, rng, time.monotonic() + 120)
            deal_result = await deal_table(bench, deal[0])
            await asyncio.sleep(2)
            fake.log.clear()
            bench = Bench(fake, rng, time.monotonic() + minutes * 60, panel=panel)
            for t in tables:
                if rng.random() < 0.25:
                    bench.slow.update(rng.sample(t.players, 2))
            started = time.monotonic()
            cpu_before, harness_before = cpu_times(), own_cpu()
            # the server's own processes (not other runs' clusters on a shared machine)
            postmaster = None if url is None else await local_postmaster(str(target))
            server_before = 0.0 if postmaster is None else server_cpu(postmaster)
            writes_before = None if url is None else await server_writes(str(target))
            lag.start()
            machine.start()
            # --arrival: the tables open one after another over that many seconds (0: at once)
            await asyncio.gather(*(bench.play(t, arrival * i / len(tables))
                                   for i, t in enumerate(tables)))
            await lag.stop()
            await machine.stop()
            wall = time.monotonic() - started
            cpu_after = cpu_times()
            steal, used = steal_percent(cpu_before, cpu_after), used_share(cpu_before, cpu_after)
            harness_cpu = own_cpu() - harness_before
            if postmaster is not None:
                server_seconds = server_cpu(postmaster) - server_before
            if writes_before is not None:
                after = await server_writes(str(target))
                server_written = (after[0] - writes_before[0], after[1] - writes_before[1])
            await settle(target, tables)  # the last posts and ledger writes
            peak, cpu = proc_stats(proc.pid)
            cpu -= start_cpu
            cpus = [proc_stats(p.pid)[1] - c for p, c in zip(procs, start_cpus, strict=True)]
        finally:
            for p in procs:
                if p.returncode is None:
                    p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    await asyncio.wait_for(p.wait(), 30)
                except TimeoutError:
                    p.kill()
        result = figures(fake, tables, bench, lag, machine)
        write_log(fake.log, tmp / "requests.jsonl")
        good, problems = await ledger_check(target, tables, fake)
    durations = [t.finished_at - t.phases[0][0] for t in tables if t.finished_at]
    log_text = "".join(log.read_text(errors="replace") for log in logs)
    result.update(
        games=games, finished=good, stuck=games - good, problems=problems[:10],
        wall_seconds=wall, game_minutes=(statistics.median(durations) / 60 if durations
                                         else float("nan")),
        peak_rss_mb=peak, cpu_seconds=cpu, deal=deal_result, processes=processes,
        cpu_seconds_per_process=cpus,
        harness_lag_ms=tuple(1000 * percentile(lag.samples, q) for q in (50, 99, 100)),
        tracebacks=log_text.count("Traceback"), workdir=str(tmp), steal_percent=steal,
        used_percent=None if used is None else 100 * used, harness_cpu_seconds=harness_cpu,
        postgres_cpu_seconds=server_seconds,
        postgres_writes=server_written, arrival_seconds=arrival,
        # (seconds into the games, share of the machine used, the busiest bot's share of a core)
        machine_seconds=[] if machine is None else [
            (round(end - started, 1), round(share, 3), round(busiest, 3))
            for end, share, busiest in machine.seconds],
        total_seconds=time.monotonic() - bench_start,
        machine=f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=10,
                        help="give up on games not over after this long (they count as stuck)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--panel", action="store_true",
                        help="the hosts deal and start nights and votes from their panel")
    parser.add_argument("--url", default=None,
                        help="run the bot on this PostgreSQL server (a database 'bench' is"
                        " created there) instead of a SQLite file")
    parser.add_argument("--arrival", type=float, default=0.0,
                        help="open the tables one after another over this many seconds"
                        " (default 0: all at once, the worst case)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="with --url: run once per count given (e.g. 1 2), each time with"
                        " that many bot processes sharing the clubs; same seed")
    args = parser.parse_args()
    if args.url is None and args.processes != [1]:
        parser.error("--processes needs --url: on SQLite one process runs the bot")
    results = []
    for processes in args.processes:
        result = asyncio.run(run(args.games, args.minutes, args.seed, args.panel, args.url,
                                 processes, args.arrival))
        backend = "PostgreSQL" if args.url else "SQLite"
        print(f"bench_load --games {args.games}{' --panel' if args.panel else ''}"
              f"{f' --arrival {args.arrival:g}' if args.arrival else ''} "
              f"on {result['machine']}, {backend}, {processes} process(es)")
        print(table_text(result))
        print("CPU seconds per process: "
              + ", ".join(f"{c:.1f}" for c in result["cpu_seconds_per_process"]))
        for problem in result["problems"]:
            print("  ", problem)
        results.append(result)
    if args.out:
        args.out.write_text(json.dumps(results if len(results) > 1 else results[0],
                                       indent=2, default=str))


if __name__ == "__main__":
    main()

"""Storage benchmark: ``python -m benchmarks.bench_storage [--players N] [--rows N]``.

Fills a fresh database (in a temporary directory unless ``--path``) with players and ledger
rows through one bulk transaction, then reports the median (and p95) over many runs of the
operations the bot does most or that must stay fast. Figures are recorded in docs/storage.md.

``--postgres``: on a throwaway durable PostgreSQL cluster (Debian's binaries, started as
tests/pg_cluster.py starts them) instead of SQLite; ``--url``: on that server. Game steps a
second with several writers at once: ``benchmarks/bench_writers.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import cast

from benchmarks.places import PgPlace, SqlitePlace, throwaway_cluster
from storage import Database, GamePoints
from storage.backends.postgres import PgConnection
from storage.repos.outbox import EDIT, Queued

CLUB = -1001
TODAY = date(2026, 6, 1)


async def fill(db: Database, players: int, rows: int, rng: random.Random) -> None:
    """``players`` players (70% with a nickname, last games spread over 150 days) and
    ``rows`` game ledger rows spread over them."""
    people = []
    for tg_id in range(1, players + 1):
        last = TODAY - timedelta(days=rng.randrange(150))
        nick = f"player {tg_id}" if rng.random() < 0.7 else None
        people.append((tg_id, f"Player {tg_id}", nick, None if nick is None else nick.casefold(),
                       (last - timedelta(days=200)).isoformat(), last.isoformat(),
                       rng.randrange(1, 60)))
    reasons = ("survived_day", "survived_night", "vote_for_mafia", "team_win")
    ledger = [(rng.randrange(1, players + 1), rng.choice((1, 1, 2, 5, 6)),
               rng.choice(reasons), "2026-01-01") for _ in range(rows)]
    if db.backend == "postgresql":
        await _fill_pg(db, people, ledger)
        return
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO players (tg_id, display_name, nickname, nickname_key,"
            " first_game_date, last_game_date, games_played) VALUES (?, ?, ?, ?, ?, ?, ?)",
            people,
        )
        await conn.execute(
            "INSERT INTO clubs (chat_id, title, locale) VALUES (?, 'Bench club', 'ru')", (CLUB,)
        )
    # SQLite: the ledger in transactions of 10,000 rows, 1,000 rows an INSERT
    batch, per_insert = 10_000, 1_000
    for start in range(0, rows, batch):
        async with db.transaction() as conn:
            for first in range(start, min(rows, start + batch), per_insert):
                chunk = ledger[first:min(rows, first + per_insert)]
                await conn.execute(
                    "INSERT INTO ledger (tg_id, points, kind, reason, phase, day) VALUES "
                    + ",".join(["(?, ?, 'game', ?, 'day 1', ?)"] * len(chunk)),
                    [v for row in chunk for v in row])


async def _fill_pg(db: Database, people: Sequence[tuple[object, ...]],
                   ledger: list[tuple[int, int, str, str]]) -> None:
    """PostgreSQL: players and ledger each in one COPY (the seeding only; row by row, a million
    INSERTs over TCP take many minutes). The cache triggers are statement-level: each COPY
    fires them once over all its rows, so balances and the rank histogram come out exact."""
    async with db.transaction() as conn:
        raw = cast(PgConnection, conn).raw
        await raw.copy_records_to_table(
            "players", records=people,
            columns=["tg_id", "display_name", "nickname", "nickname_key", "first_game_date",
                     "last_game_date", "games_played"])
        await raw.execute("INSERT INTO clubs (chat_id, title, locale)"
                          " VALUES ($1, 'Bench club', 'ru')", CLUB)
        await raw.copy_records_to_table(
            "ledger", records=[(t, p, "game", r, "day 1", d) for t, p, r, d in ledger],
            columns=["tg_id", "points", "kind", "reason", "phase", "day"])


async def timed(runs: int, op: Callable[[int], Awaitable[object]]) -> list[float]:
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        await op(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def line(name: str, samples: list[float], target: str) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"| {name} | {len(samples)} | {statistics.median(samples):.2f} | {p95:.2f} |"
            f" {target} |")


async def run(place: SqlitePlace | PgPlace, players: int, rows: int, runs: int,
              catch_up_runs: int) -> None:
    rng = random.Random(7)
    db = await Database.open(place.target)
    started = time.perf_counter()
    await fill(db, players, rows, rng)
    fill_s = time.perf_counter() - started
    await place.snapshot(db)
    if isinstance(place, PgPlace):
        db = await Database.open(place.target)  # closed for the snapshot
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}"
          f" {platform.release()}, Python {platform.python_version()}, {db.backend}")
    size = await place.size()
    print(f"filled {players:,} players and {rows:,} ledger rows in {fill_s:.1f} s"
          f" ({size / 1e6:.0f} MB)\n")
    print("| operation | runs | median ms | p95 ms | target |")
    print("|---|---|---|---|---|")

    ids = [rng.randrange(1, players + 1) for _ in range(runs * 5)]
    print(line("ledger.balance_with_rank", await timed(
        runs * 5, lambda i: db.ledger.balance_with_rank(ids[i])), "< 5 ms"), flush=True)
    print(line("ledger.top(20)", await timed(runs, lambda i: db.ledger.top(20)), "-"),
          flush=True)
    print(line("ledger.recent(10)", await timed(
        runs, lambda i: db.ledger.recent(ids[i], 10)), "-"), flush=True)

    games = []
    for _ in range(runs):
        seated = rng.sample(range(1, players + 1), 20)
        game_id = await db.games.create(CLUB, 1, seats=list(enumerate(seated, start=1)),
                                        created_at=datetime(2026, 6, 1, 20, 0))
        awards = [GamePoints(p, rng.choice((1, 2, 5, 6)), "survived_day", f"day {k}")
                  for p in seated for k in range(1, 4)]
        games.append((game_id, awards))

    async def finish(i: int) -> None:
        game_id, awards = games[i]
        assert await db.games.finish(game_id, status="finished", points=awards, day=TODAY)

    print(line("games.finish: 20 players, 60 ledger rows", await timed(runs, finish),
               "< 20 ms"), flush=True)

    open_game = await db.games.create(CLUB, 1, created_at=datetime(2026, 6, 1, 20, 0))

    async def append(i: int) -> None:
        await db.games.append_event(open_game, "choice", {"seat": i % 20, "target": 3})

    print(line("games.append_event", await timed(runs, append), "-"), flush=True)

    # a join: the lobby's seats, the step's log event and the lobby post's edit, together
    lobbies = [await db.games.create(CLUB, 1, created_at=datetime(2026, 6, 1, 20, 0))
               for _ in range(runs // 16 + 1)]
    joiners = rng.sample(range(1, players + 1), 16)

    async def join(i: int) -> None:
        game, n = lobbies[i // 16], i % 16 + 1
        await db.games.append_events_with_messages(
            game, [(n, "join", {"tg_id": joiners[n - 1]}, None)],
            [Queued(CLUB, EDIT, {"text": f"{n} seated"}, key=f"lobby-{game}")], now=float(i),
            seats=[(k, joiners[k - 1]) for k in range(1, n + 1)])

    print(line("a join (seats + log event + post edit)", await timed(runs, join), "-"),
          flush=True)

    due = len(await db.expiry.warn_due(TODAY))
    print(line(f"expiry.warn_due (a week's expiries: {due:,} players)", await timed(
        max(1, runs // 10), lambda i: db.expiry.warn_due(TODAY)), "-"), flush=True)
    # The catch-up burns more than half of all players at once (the bot was down for months).
    # Each run starts from a copy of the freshly filled file. Meanwhile a probe asks for a
    # balance again and again: its worst latency is how long the bot waits on the sweep.
    catch_up: list[float] = []
    probe_ms: list[float] = []
    burnt = 0
    for run_no in range(catch_up_runs):
        copy = await place.copy(run_no)
        other = await Database.open(copy)
        done = asyncio.Event()

        async def probe(other: Database = other, done: asyncio.Event = done) -> None:
            while not done.is_set():
                start = time.perf_counter()
                await other.ledger.balance_with_rank(ids[len(probe_ms) % len(ids)])
                probe_ms.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.005)

        prober = asyncio.create_task(probe())
        start = time.perf_counter()
        burnt = len(await other.expiry.sweep(TODAY))
        catch_up.append((time.perf_counter() - start) * 1000)
        done.set()
        await prober
        await other.close()
        await place.remove(copy)
    print(line(f"expiry.sweep catch-up ({burnt:,} players burnt)", catch_up, "< 2 s"))
    print(f"| ledger.balance_with_rank while a catch-up runs (p95 column: the worst) |"
          f" {len(probe_ms)} | {statistics.median(probe_ms):.2f} | {max(probe_ms):.2f} | - |")
    sweep_sizes: list[int] = []

    async def sweep(i: int) -> None:
        sweep_sizes.append(len(await db.expiry.sweep(TODAY + timedelta(days=i))))

    await db.expiry.sweep(TODAY)  # the main file's own catch-up, untimed
    daily = await timed(30, lambda i: sweep(i + 1))
    per_day = statistics.median(sweep_sizes)
    print(line(f"expiry.sweep daily (median {per_day:,.0f} players burnt)", daily, "< 2 s"))
    await db.close()
    await place.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_storage")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--catch-up-runs", type=int, default=5)
    parser.add_argument("--path", type=Path, default=None, help="database file (default: temp)")
    parser.add_argument("--url", default=None,
                        help="a PostgreSQL server instead (postgresql://user@host:port/any;"
                        " databases bench* are created and dropped there)")
    parser.add_argument("--postgres", action="store_true",
                        help="a throwaway durable PostgreSQL cluster (Debian's binaries)")
    args = parser.parse_args()
    if args.postgres and args.url is not None:
        parser.error("--postgres or --url, not both")
    sizes = (args.players, args.rows, args.runs, args.catch_up_runs)
    if args.postgres:
        with throwaway_cluster() as server:
            asyncio.run(_on_server(PgPlace(server), *sizes))
        return
    if args.url is not None:
        place = PgPlace(args.url)
        asyncio.run(_on_server(place, *sizes))
        return
    if args.path is not None:
        asyncio.run(run(SqlitePlace(args.path), *sizes))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(SqlitePlace(Path(tmp) / "bench.sqlite3"), *sizes))


async def _on_server(place: PgPlace, *sizes: int) -> None:
    await place.create()
    await run(place, *sizes)


if __name__ == "__main__":
    main()

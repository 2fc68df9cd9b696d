"""Storage benchmark: ``python -m benchmarks.bench_storage [--players N] [--rows N]``.

Fills a fresh database (in a temporary directory unless ``--path``) with players and ledger
rows through one bulk transaction, then reports the median (and p95) over many runs of the
operations the bot does most or that must stay fast. Figures are recorded in docs/storage.md.

``--postgres``: on a throwaway durable PostgreSQL cluster (Debian's binaries, started as
tests/pg_cluster.py starts them) instead of SQLite; ``--url``: on that server.

``--writers 1,2,4,8`` (with ``--postgres`` or ``--url``): game steps written per second by K
concurrent writers on one server, for each K, ``--seconds S`` each. Each writer is its own club
with its own game and its own :class:`Database` (its own connections, as separate bot processes
would have); all of them are asyncio tasks of this one process. A step is the bot's durable
write of a game step: ``games.append_events_with_messages`` with one log event and the edit of
the club's board, each writer one step at a time (a game's steps are written in order).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from benchmarks.places import PgPlace, SqlitePlace
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


WRITERS_DB = "bench_writers"
WRITERS_TEMPLATE = "bench_writers_template"


@dataclass
class WriterRun:
    k: int
    seconds: float
    steps: int
    latencies_ms: list[float]
    connections: int


async def _admin(server: str, *statements: str) -> None:
    conn = await asyncpg.connect(_on(server, "postgres"))
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _on(server: str, database: str) -> str:
    return urlunsplit(urlsplit(server)._replace(path=f"/{database}"))


async def _writer(db: Database, game_id: int, chat_id: int, first_seq: int, steps: int | None,
                  until: float, latencies: list[float]) -> int:
    """Steps of one game, one after another: ``steps`` of them, or until ``until``."""
    seq = first_seq
    done = 0
    while (done < steps) if steps is not None else (time.perf_counter() < until):
        start = time.perf_counter()
        await db.games.append_events_with_messages(
            game_id, [(seq, "choice", {"seat": seq % 12 + 1, "target": 3}, None)],
            [Queued(chat_id, EDIT, {"text": f"step {seq}"}, key=f"board-{game_id}")],
            now=float(seq))
        latencies.append((time.perf_counter() - start) * 1000)
        seq += 1
        done += 1
    return done


async def _writers_once(server: str, k: int, seconds: float, warm_up: int) -> WriterRun:
    """K writers on a fresh database (a copy of the migrated template)."""
    await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_DB}",
                 f"CREATE DATABASE {WRITERS_DB} TEMPLATE {WRITERS_TEMPLATE}")
    url = _on(server, WRITERS_DB)
    dbs: list[Database] = []
    try:
        for _ in range(k):
            dbs.append(await Database.open(url))
        chats = [CLUB - n for n in range(k)]
        async with dbs[0].transaction() as conn:
            await conn.executemany(
                "INSERT INTO clubs (chat_id, title, locale) VALUES (?, ?, 'ru')",
                [(chat, f"Bench club {chat}") for chat in chats])
        games = [await db.games.create(chat, 1, created_at=datetime(2026, 6, 1, 20, 0))
                 for db, chat in zip(dbs, chats, strict=True)]
        # warm-up (untimed): every writer's connections open, its statements prepared
        await asyncio.gather(*(
            _writer(db, game, chat, 1, warm_up, 0.0, [])
            for db, game, chat in zip(dbs, games, chats, strict=True)))
        probe = await asyncpg.connect(url)
        try:
            connections = int(await probe.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"))
        finally:
            await probe.close()
        latencies: list[list[float]] = [[] for _ in range(k)]
        start = time.perf_counter()
        until = start + seconds
        counts = await asyncio.gather(*(
            _writer(db, game, chat, warm_up + 1, None, until, lat)
            for db, game, chat, lat in zip(dbs, games, chats, latencies, strict=True)))
        elapsed = time.perf_counter() - start  # the last step begun before the end included
        return WriterRun(k, elapsed, sum(counts), [x for lat in latencies for x in lat],
                         connections)
    finally:
        for db in dbs:
            await db.close()
        await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_DB}")


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def run_writers(server: str, ks: Sequence[int], seconds: float, warm_up: int) -> None:
    await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_TEMPLATE}",
                 f"CREATE DATABASE {WRITERS_TEMPLATE}")
    try:
        migrated = await Database.open(_on(server, WRITERS_TEMPLATE))  # the migrations, once
        await migrated.close()
        conn = await asyncpg.connect(_on(server, "postgres"))
        try:
            settings = {name: await conn.fetchval(f"SHOW {name}") for name in
                        ("server_version", "fsync", "synchronous_commit", "max_connections")}
        finally:
            await conn.close()
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}"
              f" {platform.release()}, Python {platform.python_version()}")
        print(f"PostgreSQL {settings['server_version']} (fsync {settings['fsync']},"
              f" synchronous_commit {settings['synchronous_commit']}), over TCP")
        print(f"K concurrent writers, {seconds:g} s each K after {warm_up} untimed steps each;"
              " each writer its own club, its own game and its own Database object (its own"
              " connections, as separate processes would have); all writers asyncio tasks of"
              " this one process (one event loop). A step: games.append_events_with_messages,"
              " one log event + the edit of the club's board, one commit; each writer one"
              " step at a time. Each K on a fresh database.\n", flush=True)
        rows = []
        for k in ks:
            rows.append(await _writers_once(server, k, seconds, warm_up))
            print(f"K = {k}: {rows[-1].steps:,} steps", flush=True)
        print("\n| K | steps | steps/s total | steps/s per writer | p50 ms | p99 ms"
              " | connections |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            total = r.steps / r.seconds
            print(f"| {r.k} | {r.steps:,} | {total:,.0f} | {total / r.k:,.0f} |"
                  f" {statistics.median(r.latencies_ms):.2f} |"
                  f" {_percentile(r.latencies_ms, 0.99):.2f} | {r.connections} |")
    finally:
        await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_TEMPLATE}")


def _ks(text: str) -> list[int]:
    try:
        ks = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of counts: {text!r}") from None
    if not ks or min(ks) < 1:
        raise argparse.ArgumentTypeError(f"counts are 1 or more: {text!r}")
    return ks


@contextlib.contextmanager
def _throwaway_cluster() -> Iterator[str]:
    """A durable PostgreSQL cluster in a temporary directory; yields its server URL."""
    from tests.pg_cluster import Cluster, pg_bin

    bin_dir = pg_bin()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        raise SystemExit("PostgreSQL's binaries are missing (apt-get install postgresql)")
    cluster = Cluster(bin_dir, Path(tempfile.mkdtemp(prefix="mafia-pg-")))
    try:
        cluster.init()
        cluster.start(durable=True)
        try:
            yield cluster.url("postgres")
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(cluster.root, ignore_errors=True)


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
    parser.add_argument("--writers", type=_ks, default=None, metavar="K,K,...",
                        help="game steps per second with K concurrent writers, each K in turn"
                        " (with --postgres or --url)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="--writers: how long each K writes (default 5)")
    parser.add_argument("--warm-up", type=int, default=20,
                        help="--writers: untimed steps per writer first (default 20)")
    args = parser.parse_args()
    if args.postgres and args.url is not None:
        parser.error("--postgres or --url, not both")
    if args.writers is not None and not args.postgres and args.url is None:
        parser.error("--writers needs --postgres or --url")
    sizes = (args.players, args.rows, args.runs, args.catch_up_runs)
    if args.postgres:
        with _throwaway_cluster() as server:
            if args.writers is not None:
                asyncio.run(run_writers(server, args.writers, args.seconds, args.warm_up))
            else:
                asyncio.run(_on_server(PgPlace(server), *sizes))
        return
    if args.url is not None:
        if args.writers is not None:
            asyncio.run(run_writers(args.url, args.writers, args.seconds, args.warm_up))
            return
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

"""Game steps a second with K concurrent writers on one PostgreSQL server.

``python -m benchmarks.bench_writers [--writers 1,2,4,8] [--seconds S] [--url URL]``

For each K, K writers each write one game's steps for ``S`` seconds, one step after another
(a game's steps are written in order): each its own club, its own game and its own
:class:`Database` (its own pool, as separate bot processes have). A step is the bot's durable
write of a game step, ``games.append_events_with_messages`` with one log event and the edit of
the club's board: one commit. Each K runs twice on a fresh database, side by side:

* ``pool``: the storage as it is (a lock only where a check needs one, docs/storage.md);
* ``one lock``: every write first takes one advisory lock for the whole database, as every
  write of every process did before the pool (SQLite's ``BEGIN IMMEDIATE`` done on
  PostgreSQL): the figure to compare with.

Without ``--url`` a throwaway durable cluster is started (Debian's binaries, as
tests/pg_cluster.py starts them: ``fsync`` and ``synchronous_commit`` on). Beside the rates it
prints the CPU each step cost in the writers' process and in the server (when the server runs on
this machine), how many commits shared one WAL flush, and how busy the machine was: the
figures for the capacity model in docs/scaling.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import asyncpg

from benchmarks.load.machine import (
    cpu_times,
    local_postmaster,
    own_cpu,
    server_cpu,
    steal_percent,
    used_share,
)
from benchmarks.places import on_database, throwaway_cluster
from storage import Database
from storage.repos.games import Games
from storage.repos.outbox import EDIT, Queued
from storage.sql import Connection, Row

T = TypeVar("T")
WRITERS_DB = "bench_writers"
WRITERS_TEMPLATE = "bench_writers_template"
CLUB = -1_000_000_000_000
ONE_LOCK = 0x6D616669_77726974  # the lock every write took before the pool ("mafiwrit")
MODES = ("pool", "one lock")


class OneWriteLock:
    """``db`` with every write taking one advisory lock for the whole database first: how
    every write of every process began before the pool, for the "before" figure."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @asynccontextmanager
    async def transaction(self, *, background: bool = False) -> AsyncIterator[Connection]:
        async with self._db.transaction(background=background) as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(?)", (ONE_LOCK,))
            yield conn

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T:
        async def locked(conn: Connection) -> T:
            await conn.execute("SELECT pg_advisory_xact_lock(?)", (ONE_LOCK,))
            return await body(conn)
        return await self._db.write(locked, background=background)

    def read(self, *, background: bool = False) -> AbstractAsyncContextManager[Connection]:
        return self._db.read(background=background)

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        return await self._db.query(sql, params, background=background)

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        return await self._db.snapshot(body, background=background)

    async def set_cache(self, kib: int | None) -> None:
        await self._db.set_cache(kib)


@dataclass
class WriterRun:
    mode: str
    k: int
    seconds: float
    steps: int
    latencies_ms: list[float]
    client_cpu: float  # CPU seconds of this process (the writers) while they wrote
    server_cpu: float | None  # the server's, when it runs on this machine
    flushes: int | None  # WAL flushes (pg_stat_wal.wal_sync) while they wrote
    used: float | None  # share of the machine's cores used (anyone's) or stolen
    steal: float | None  # percent of the machine's time stolen by the hypervisor

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


async def _admin(server: str, *statements: str) -> None:
    conn = await asyncpg.connect(on_database(server, "postgres"))
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def _wal_flushes(server: str) -> int | None:
    conn = await asyncpg.connect(on_database(server, "postgres"))
    try:
        return int(await conn.fetchval("SELECT wal_sync FROM pg_stat_wal"))
    except asyncpg.PostgresError:  # before PostgreSQL 14
        return None
    finally:
        await conn.close()


async def _writer(games: Games, game_id: int, chat_id: int, first_seq: int,
                  steps: int | None, until: float, latencies: list[float]) -> int:
    """Steps of one game, one after another: ``steps`` of them, or until ``until``."""
    seq = first_seq
    done = 0
    while (done < steps) if steps is not None else (time.perf_counter() < until):
        start = time.perf_counter()
        await games.append_events_with_messages(
            game_id, [(seq, "choice", {"seat": seq % 12 + 1, "target": 3}, None)],
            [Queued(chat_id, EDIT, {"text": f"step {seq}"}, key=f"board-{game_id}")],
            now=float(seq))
        latencies.append((time.perf_counter() - start) * 1000)
        seq += 1
        done += 1
    return done


async def _once(server: str, mode: str, k: int, seconds: float, warm_up: int,
                postmaster: int | None) -> WriterRun:
    """K writers on a fresh database (a copy of the migrated template)."""
    await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_DB}",
                 f"CREATE DATABASE {WRITERS_DB} TEMPLATE {WRITERS_TEMPLATE}")
    url = on_database(server, WRITERS_DB)
    dbs: list[Database] = []
    try:
        for _ in range(k):
            dbs.append(await Database.open(url))
        chats = [CLUB - n for n in range(k)]
        async with dbs[0].transaction() as conn:
            await conn.executemany(
                "INSERT INTO clubs (chat_id, title, locale) VALUES (?, ?, 'ru')",
                [(chat, f"Bench club {chat}") for chat in chats])
        writers = [db.games if mode == "pool" else Games(OneWriteLock(db)) for db in dbs]
        games = [await w.create(chat, 1, created_at=datetime(2026, 6, 1, 20, 0))
                 for w, chat in zip(writers, chats, strict=True)]
        # warm-up (untimed): every writer's connection open, its statements prepared
        await asyncio.gather(*(
            _writer(w, game, chat, 1, warm_up, 0.0, [])
            for w, game, chat in zip(writers, games, chats, strict=True)))
        latencies: list[list[float]] = [[] for _ in range(k)]
        flushes_before = await _wal_flushes(server)
        cpu_before, client_before = cpu_times(), own_cpu()
        server_before = None if postmaster is None else server_cpu(postmaster)
        start = time.perf_counter()
        until = start + seconds
        counts = await asyncio.gather(*(
            _writer(w, game, chat, warm_up + 1, None, until, lat)
            for w, game, chat, lat in zip(writers, games, chats, latencies, strict=True)))
        elapsed = time.perf_counter() - start  # the last step begun before the end included
        cpu_after, client_cpu = cpu_times(), own_cpu() - client_before
        server_seconds = None if postmaster is None or server_before is None \
            else server_cpu(postmaster) - server_before
        flushes_after = await _wal_flushes(server)
        flushes = None if flushes_before is None or flushes_after is None \
            else flushes_after - flushes_before
        return WriterRun(mode, k, elapsed, sum(counts), [x for lat in latencies for x in lat],
                         client_cpu, server_seconds, flushes, used_share(cpu_before, cpu_after),
                         steal_percent(cpu_before, cpu_after))
    finally:
        for db in dbs:
            await db.close()
        await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_DB}")


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _ms_per_step(cpu: float | None, steps: int) -> str:
    return "—" if cpu is None or not steps else f"{1000 * cpu / steps:.2f}"


def table(rows: Sequence[WriterRun]) -> str:
    """The runs side by side, one line per K: each mode's rate and latency, then the pooled
    run's costs and the machine while it ran."""
    by = {(r.mode, r.k): r for r in rows}
    ks = sorted({r.k for r in rows})
    lines = [
        "| K | steps/s, pool (each) | p50 / p99 ms, pool | steps/s, one lock (each)"
        " | p50 / p99 ms, one lock | CPU ms a step, writers / server (pool)"
        " | commits a WAL flush (pool) | machine used / stolen, pool run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in ks:
        cells = [str(k)]
        for mode in MODES:
            r = by.get((mode, k))
            if r is None or not r.steps:
                cells += ["—", "—"]
                continue
            cells.append(f"{r.rate:,.0f} ({r.rate / k:,.0f})")
            cells.append(f"{statistics.median(r.latencies_ms):.2f} /"
                         f" {_percentile(r.latencies_ms, 0.99):.2f}")
        pooled = by.get(("pool", k))
        if pooled is None:
            cells += ["—", "—", "—"]
        else:
            cells.append(f"{_ms_per_step(pooled.client_cpu, pooled.steps)} /"
                         f" {_ms_per_step(pooled.server_cpu, pooled.steps)}")
            cells.append("—" if not pooled.flushes else f"{pooled.steps / pooled.flushes:.1f}")
            used = "—" if pooled.used is None else f"{100 * pooled.used:.0f} %"
            steal = "—" if pooled.steal is None else f"{pooled.steal:.1f} %"
            cells.append(f"{used} / {steal}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


async def run(server: str, ks: Sequence[int], seconds: float, warm_up: int,
              modes: Sequence[str]) -> list[WriterRun]:
    await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_TEMPLATE}",
                 f"CREATE DATABASE {WRITERS_TEMPLATE}")
    try:
        migrated = await Database.open(on_database(server, WRITERS_TEMPLATE))  # once
        await migrated.close()
        conn = await asyncpg.connect(on_database(server, "postgres"))
        try:
            settings = {name: await conn.fetchval(f"SHOW {name}") for name in
                        ("server_version", "fsync", "synchronous_commit")}
        finally:
            await conn.close()
        postmaster = await local_postmaster(on_database(server, "postgres"))
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}"
              f" {platform.release()}, Python {platform.python_version()};"
              f" load average {_load()} at the start")
        print(f"PostgreSQL {settings['server_version']} (fsync {settings['fsync']},"
              f" synchronous_commit {settings['synchronous_commit']}), over TCP;"
              f" {'on this machine' if postmaster else 'elsewhere: its CPU not read'}")
        print(f"{seconds:g} s for each K and mode after {warm_up} untimed steps a writer;"
              " all writers asyncio tasks of this one process.\n", flush=True)
        rows = []
        for k in ks:
            for mode in modes:
                rows.append(await _once(server, mode, k, seconds, warm_up, postmaster))
                print(f"K = {k}, {mode}: {rows[-1].steps:,} steps, load average {_load()}",
                      flush=True)
        print()
        print(table(rows))
        return rows
    finally:
        await _admin(server, f"DROP DATABASE IF EXISTS {WRITERS_TEMPLATE}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _ks(text: str) -> list[int]:
    try:
        ks = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of counts: {text!r}") from None
    if not ks or min(ks) < 1:
        raise argparse.ArgumentTypeError(f"counts are 1 or more: {text!r}")
    return ks


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_writers")
    parser.add_argument("--writers", type=_ks, default=[1, 2, 4, 8], metavar="K,K,...",
                        help="the numbers of concurrent writers, each in turn (default 1,2,4,8)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long each K and mode writes (default 5)")
    parser.add_argument("--warm-up", type=int, default=20,
                        help="untimed steps per writer first (default 20)")
    parser.add_argument("--mode", choices=("both", *MODES), default="both",
                        help="the pool, one lock for every write (before the pool), or both")
    parser.add_argument("--url", default=None,
                        help="a PostgreSQL server (postgresql://user@host:port/any; databases"
                        " bench_writers* are created and dropped there) instead of a"
                        " throwaway cluster")
    args = parser.parse_args()
    modes = MODES if args.mode == "both" else (args.mode,)
    if args.url is not None:
        asyncio.run(run(args.url, args.writers, args.seconds, args.warm_up, modes))
        return
    with throwaway_cluster() as server:
        asyncio.run(run(server, args.writers, args.seconds, args.warm_up, modes))


if __name__ == "__main__":
    main()

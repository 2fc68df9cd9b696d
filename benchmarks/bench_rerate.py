"""The skill rating's speed: ``python -m benchmarks.bench_rerate [--games N] [--ends N]``.

- ``rerate``: N generated finished games (default 100,000: 2,000 players, tables of 8 to 12
  seats, 2 to 4 of them the Mafia, random winners, a draw now and then) written straight into a
  fresh SQLite file, then ``python -m storage rerate``'s work timed (``Ratings.rerate``: every
  outcome and seat read, every game folded, the table replaced); the fold alone is timed too.
- A game's end: ``Games.finish`` of a 10-seat game (its points, no winner), median and p90 of
  ``--ends`` games on the file above; then the rating's update of each of those games alone
  (``record_outcome``: the outcome numbered, the 10 players' ratings read, rated overall and
  per side, written) in a write transaction of its own, commit included: what the rating
  adds to a game's end is at most that.

Wall-clock and CPU times are both printed: on a shared machine the CPU time is the figure that
does not depend on the neighbours.

Figures are recorded in docs/benchmarks.md ("The skill rating").
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
from datetime import UTC, date, datetime
from pathlib import Path

from engine import Role, Winner
from standing.rating import RatedGame, rerate
from storage import Database, GamePoints
from storage.sql import Connection
from storage.standing.ratings import record_outcome

CLUB = -100777
HOST = 1
PLAYERS = 2000
FIRST = 10_000
NOW = datetime(2026, 6, 1, 18, tzinfo=UTC)
DAY = date(2026, 6, 1)
CIVILIAN_CARDS = [Role.DOCTOR, Role.POLICEMAN, Role.LUCKY, Role.SPORTSMAN, Role.JUDGE,
                  Role.LAWYER, Role.MARILYN, Role.OLIGARCH, Role.MANIAC, Role.MARILYN_SISTER]


def generated(count: int, seed: int = 1) -> list[tuple[list[int], list[Role], Winner]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        size = rnd.randint(8, 12)
        mafia = rnd.randint(2, 4)
        seats = rnd.sample(range(FIRST, FIRST + PLAYERS), size)
        roles = [Role.MAFIA] * mafia + CIVILIAN_CARDS[:size - mafia]
        winner = rnd.choices([Winner.CIVILIANS, Winner.MAFIA, Winner.DRAW], [50, 48, 2])[0]
        out.append((seats, roles, winner))
    return out


async def fill(db: Database, games: list[tuple[list[int], list[Role], Winner]]) -> None:
    async def body(conn: Connection) -> None:
        await conn.executemany(
            "INSERT INTO players (tg_id, display_name) VALUES (?, ?)",
            [(tg, f"P{tg}") for tg in range(FIRST, FIRST + PLAYERS)])
        await conn.execute("INSERT INTO clubs (chat_id, title, locale) VALUES (?, 'Bench', 'en')",
                           (CLUB,))
        await conn.executemany(
            "INSERT INTO games (id, club_chat_id, host_id, created_at, status, finished_on)"
            " VALUES (?, ?, ?, ?, 'finished', ?)",
            [(i, CLUB, HOST, NOW.isoformat(), DAY.isoformat())
             for i in range(1, len(games) + 1)])
        await conn.executemany(
            "INSERT INTO game_seats (game_id, seat, tg_id, role) VALUES (?, ?, ?, ?)",
            [(i, s, tg, str(role)) for i, (seats, roles, _) in enumerate(games, start=1)
             for s, (tg, role) in enumerate(zip(seats, roles, strict=True), start=1)])
        await conn.executemany(
            "INSERT INTO game_outcomes (game_id, winner) VALUES (?, ?)",
            [(i, str(w)) for i, (_, _, w) in enumerate(games, start=1)])
    await db.write(body)


async def ends(db: Database, count: int) -> tuple[list[int], list[float]]:
    rnd = random.Random(count)
    took, ended = [], []
    for _ in range(count):
        seats = rnd.sample(range(FIRST, FIRST + PLAYERS), 10)
        game = await db.games.create(CLUB, HOST, seats=list(enumerate(seats, start=1)),
                                     created_at=NOW)
        roles = [Role.MAFIA] * 3 + CIVILIAN_CARDS[:7]
        await db.games.set_roles(game, {s: str(r) for s, r in enumerate(roles, start=1)})
        await db.games.set_status(game, "running")
        points = [GamePoints(tg, 1, "survived_night", "night 1") for tg in seats]
        start = time.perf_counter()
        await db.games.finish(game, status="finished", points=points, day=DAY)
        took.append(time.perf_counter() - start)
        ended.append(game)
    return ended, took


async def ratings_at_end(db: Database, games: list[int]) -> tuple[list[float], float]:
    """Each game's rating update in a transaction of its own; (wall times, CPU time)."""
    took = []
    cpu = time.process_time()
    for game in games:
        start = time.perf_counter()
        async with db.transaction() as conn:
            await record_outcome(conn, game, "civilians")
        took.append(time.perf_counter() - start)
    return took, (time.process_time() - cpu) / len(games)


def ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.2f} ms"


async def run(count: int, end_count: int) -> None:
    print(f"python {platform.python_version()}, {os.cpu_count()} cores,"
          f" load average {os.getloadavg()[0]:.1f}")
    games = generated(count)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            await fill(db, games)
            print(f"{count:,} games written in {time.perf_counter() - start:.1f} s")
            start, cpu = time.perf_counter(), time.process_time()
            rated = await db.ratings.rerate()
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"rerate: {rated:,} games in {took:.1f} s ({took / rated * 1e6:.0f} µs a game);"
                  f" CPU time {cpu:.1f} s")
            folded = [RatedGame(i, tuple((tg, r.team) for tg, r in zip(s, roles, strict=True)), w)
                      for i, (s, roles, w) in enumerate(games, start=1)]
            start, cpu = time.perf_counter(), time.process_time()
            rerate(folded)
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"the fold alone: {took:.1f} s ({took / count * 1e6:.0f} µs a game);"
                  f" CPU time {cpu:.1f} s")
            warm, _ = await ends(db, 20)
            await ratings_at_end(db, warm)
            ended, plain = await ends(db, end_count)
            print(f"a game's end (its points): median {ms(plain, 0.5)}, p90 {ms(plain, 0.9)}")
            rating, cpu = await ratings_at_end(db, ended)
            print(f"the rating's update at a game's end, alone: median {ms(rating, 0.5)},"
                  f" p90 {ms(rating, 0.9)}; CPU time {cpu * 1000:.2f} ms a game"
                  f" (mean {statistics.mean(rating) * 1000:.2f} ms)")
        finally:
            await db.close()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_rerate")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--ends", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.ends))


if __name__ == "__main__":
    main()

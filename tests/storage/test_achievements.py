"""The achievements as stored, on both backends: written at a counted game's end with its
rating (the levels its log earns, once), equal to the rebuild from the logs, nothing for a
friendly or voided game, the void rebuilding its players', and ``python -m storage rerate``
writing the same rows; the end's messages queued in its transaction; a player's levels listed
in the same order on both, whatever PostgreSQL database's default collation."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import asyncpg

from standing.achievements import Earned, rebuild
from standing.facts import game_facts
from storage import Database, GamePoints
from storage.__main__ import main as storage_main
from storage.repos.outbox import SEND, Queued
from tests.pg_cluster import Cluster
from tests.standing.logs import Logged, day, game, night, tech
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players
from tests.storage.played import play_games

DAY = date(2026, 3, 10)
SIX = ["mafia_chief", "mafia", "doctor", "sportsman", "lucky", "marilyn"]
CIVILIANS_WIN = (tech(1), tech(2))


def saves(n: int) -> list[Logged]:
    """A six-seat game in which the Doctor (seat 3) saves Marilyn ``n`` nights."""
    steps = []
    for _ in range(n):
        steps += [night(s1=6, s2=6, s3=6), day()]
    return game(SIX, *steps, *CIVILIANS_WIN)


async def rows(db: Database) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    progress = await db.query("SELECT tg_id, achievement, value, best FROM achievement_progress"
                              " ORDER BY tg_id, achievement")
    levels = await db.query("SELECT tg_id, achievement, level, game_id, earned_on"
                            " FROM achievements ORDER BY tg_id, achievement, level")
    return [tuple(r) for r in progress], [tuple(r) for r in levels]


async def logged_game(db: Database, log: Sequence[Logged], players: Sequence[int], *,
                      friendly: bool = False, tell: list[Sequence[Earned]] | None = None
                      ) -> int:
    """The log's game stored as the bot stores one, seat n sat by ``players[n - 1]``, and
    ended with the winner its log gives."""
    deal = next(e for e in log if e.kind == "deal")
    dealt = deal.payload["seats"]
    assert isinstance(dealt, list)
    seats = [dict(s) for s in dealt]
    for s in seats:
        s["tg_id"] = players[int(s["seat"]) - 1]
    events = [(e.seq, e.kind, dict(e.payload, seats=seats) if e.kind == "deal" else e.payload,
               NOW) for e in log]
    game_id = await db.games.create(CLUB, ADMIN, created_at=NOW, friendly=friendly,
                                    seats=[(int(s["seat"]), int(s["tg_id"])) for s in seats])
    await db.games.set_roles(game_id, {int(s["seat"]): str(s["role"]) for s in seats})
    await db.games.set_status(game_id, "running")
    await db.games.append_events_with_messages(game_id, events, [], now=0.0)
    facts = game_facts(log)
    assert facts is not None

    def told(earned: Sequence[Earned]) -> list[Queued]:
        assert tell is not None
        tell.append(earned)
        return [Queued(e.tg_id, SEND, {"text": f"{e.achievement} {e.level}"},
                       key=f"ach:{e.game_id}:{e.tg_id}:{e.achievement}:{e.level}")
                for e in earned]

    ended = await db.games.finish(
        game_id, status="finished", day=DAY, winner=str(facts.winner),
        points=[] if friendly else [GamePoints(players[0], 1, "survived_night")],
        tell=told if tell is not None else None)
    assert ended or friendly  # (a friendly game's end writes no points: it says so)
    return game_id


async def test_a_games_end_earns_its_levels_once_and_queues_the_messages(
        db: Database) -> None:
    await add_players(db, *range(1, 7))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    told: list[Sequence[Earned]] = []
    first = await logged_game(db, saves(3), range(1, 7), tell=told)
    earned = [(e.tg_id, e.achievement, e.level) for e in told[0]]
    assert (3, "doctor_saves", 1) in earned and (3, "doctor_triple", 1) in earned
    assert (3, "games", 1) in earned and (1, "wins", 1) not in earned
    progress, levels = await rows(db)
    assert (3, "doctor_saves", 3, 3) in progress
    assert (3, "doctor_triple", 1, first, DAY.isoformat()) in levels
    queued = await db.query("SELECT chat_id, payload FROM outbox WHERE key LIKE 'ach:%'")
    assert len(queued) == len(told[0])
    second = await logged_game(db, saves(2), range(1, 7), tell=told)
    assert [(e.achievement, e.level) for e in told[1] if e.tg_id == 3] == [
        ("doctor_saves", 5)]
    mine = await db.achievements.of(3)
    assert mine[0].game_id == second and mine[0].achievement == "doctor_saves"
    assert {(a.achievement, a.level) for a in mine} >= {("doctor_saves", 1), ("games", 1)}
    assert (await db.achievements.progress(3))["doctor_saves"].value == 5
    # the same end again writes nothing more
    before = await rows(db)
    assert not await db.games.finish(second, status="finished", points=[], day=DAY,
                                     winner="civilians")
    assert await rows(db) == before


async def test_the_rebuild_writes_the_rows_the_ends_wrote(db: Database) -> None:
    await add_players(db, *range(1, 13))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    rnd = random.Random(11)
    logs = [saves(1), saves(3), game(SIX, *CIVILIANS_WIN),
            game(SIX, night(s4=2), tech(1)),  # the Sportsman takes a Mafia with him
            game(SIX, *(tech(s) for s in range(3, 7))),  # the Mafia win
            game(SIX, night(s1=5, s2=5), day(), night(s1=5, s2=5, s3=5), *CIVILIANS_WIN)]
    played = []
    for _ in range(25):
        log = rnd.choice(logs)
        players = rnd.sample(range(1, 13), 6)
        played.append((await logged_game(db, log, players), log, players))
    at_the_ends = await rows(db)
    assert at_the_ends[1], "the games earned something"
    assert await db.achievements.rebuild() == 25
    assert await rows(db) == at_the_ends
    # the pure fold over the same games gives the same levels
    folded = []
    for game_id, log, players in played:
        facts = game_facts(log)
        assert facts is not None
        folded.append((game_id, facts.__class__(facts.winner, {
            s: f.__class__(f.seat, players[s - 1], f.name, f.role, f.won, f.survived, f.left,
                           f.fouls) for s, f in facts.seats.items()}, facts.phases)))
    expected = sorted((e.tg_id, e.achievement, e.level, e.game_id, DAY.isoformat())
                      for e in rebuild(folded).earned)
    assert [tuple(r) for r in at_the_ends[1]] == expected


async def test_a_friendly_game_earns_nothing_and_a_void_takes_its_levels_back(
        db: Database) -> None:
    await add_players(db, *range(1, 13))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await logged_game(db, saves(3), range(1, 7), friendly=True)
    assert await rows(db) == ([], [])
    kept = await logged_game(db, saves(1), range(1, 7))
    after_one = await rows(db)
    voided = await logged_game(db, saves(3), range(1, 7))
    await logged_game(db, game(SIX, *CIVILIANS_WIN), range(7, 13))  # others' game
    others = [r for r in (await rows(db))[1] if int(r[0]) >= 7]
    await db.voids.void(voided, by=ADMIN, reason="a mistake", now=NOW)
    progress, levels = await rows(db)
    assert [r for r in levels if int(r[0]) < 7] == after_one[1]
    assert [r for r in progress if int(r[0]) < 7] == after_one[0]
    assert [r for r in levels if int(r[0]) >= 7] == others
    assert all(r[3] == kept for r in levels if int(r[0]) < 7)
    again = await rows(db)
    await db.achievements.rebuild()
    assert await rows(db) == again


async def test_rerate_rebuilds_the_achievements_of_real_games(db_target: str | Path,
                                                               tmp_path: Path) -> None:
    """Games played by the game service: their ends earned levels; with the rows gone,
    ``python -m storage rerate`` writes the same ones."""
    games = await play_games(db_target, tmp_path, sizes=(8, 10))
    db = await Database.open(db_target)
    try:
        at_the_ends = await rows(db)
        assert {int(r[3]) for r in at_the_ends[1]} <= set(games)
        assert any(r[1] == "games" for r in at_the_ends[1])
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM achievements")
            await conn.execute("DELETE FROM achievement_progress")
    finally:
        await db.close()
    assert await asyncio.to_thread(storage_main, ["rerate", str(db_target)]) == 0
    db = await Database.open(db_target)
    try:
        assert await rows(db) == at_the_ends
    finally:
        await db.close()


async def five_wins_in_a_row(db: Database) -> list[str]:
    """Five games the Doctor (seat 3, account 3) wins to the end: the fifth earns the fifth
    win and the streak of five at once. The ids of that game's levels, as listed."""
    await add_players(db, *range(1, 7))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    for _ in range(5):
        last = await logged_game(db, game(SIX, *CIVILIANS_WIN), range(1, 7))
    return [a.achievement for a in await db.achievements.of(3) if a.game_id == last]


async def test_one_games_levels_are_listed_in_id_order(db: Database) -> None:
    """Byte order, as SQLite and PostgreSQL's "C" compare: '_' before the letters."""
    ids = await five_wins_in_a_row(db)
    assert {"wins", "win_streak"} <= set(ids)
    assert ids == sorted(ids) and ids.index("win_streak") < ids.index("wins")


async def test_the_order_is_the_same_in_a_database_that_ignores_underscores(
        pg: Cluster) -> None:
    """A PostgreSQL database created with a default collation that skips punctuation (ICU's
    English, "shifted") sorts "wins" before "win_streak"; the achievements' ids are in "C"
    there all the same, so a player's levels come in SQLite's order."""
    name = f"icu_shifted_{os.getpid()}"
    admin = await asyncpg.connect(pg.url("postgres"))
    try:
        await admin.execute(f"CREATE DATABASE {name} LOCALE_PROVIDER icu"
                            " ICU_LOCALE 'en-US-u-ka-shifted' TEMPLATE template0")
    finally:
        await admin.close()
    db = await Database.open(pg.url(name))
    try:
        own = await db.query("SELECT x FROM (VALUES ('win_streak'), ('wins')) AS v(x)"
                             " ORDER BY x")
        assert [r[0] for r in own] == ["wins", "win_streak"]  # the database's own order
        ids = await five_wins_in_a_row(db)
        assert {"wins", "win_streak"} <= set(ids)
        assert ids == sorted(ids) and ids.index("win_streak") < ids.index("wins")
    finally:
        await db.close()

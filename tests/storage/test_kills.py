"""Who killed whom at night, on both backends: games played by the game service keep, at their
end, the kills their logs give (``standing.facts``); the rivals count them; ``python -m storage
rerate`` reads the kills of games that ended before they were kept to the same rows; a voided
game's kills are read no more."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

from standing.facts import Exit, game_facts
from storage import Database
from storage.__main__ import main as storage_main
from storage.standing.kills import kills_of
from tests.storage.conftest import ADMIN, NOW
from tests.storage.played import play_games


async def kill_rows(db: Database) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await db.query(
        "SELECT seq, game_id, killer_tg, killer_role, victim_tg, victim_role FROM night_kills"
        " ORDER BY seq, killer_tg, victim_tg")]


async def test_a_games_end_keeps_its_night_kills_and_rerate_reads_old_ones(
        db_target: str | Path, tmp_path: Path) -> None:
    games = await play_games(db_target, tmp_path, sizes=(8, 10, 9))
    db = await Database.open(db_target)
    try:
        seqs = {int(r[1]): int(r[0]) for r in await db.query(
            "SELECT seq, game_id FROM game_outcomes")}
        expected = []
        victims: Counter[tuple[int, str]] = Counter()  # (victim, killer's card): deaths
        for game_id in games:
            facts = game_facts(await db.games.events(game_id))
            assert facts is not None
            expected += kills_of(seqs[game_id], game_id, facts)
            for seat in facts.seats.values():
                if seat.left is not None and seat.left.how is Exit.NIGHT:
                    for card in {str(facts.role(by)) for by in seat.left.by if by != seat.seat}:
                        victims[(seat.tg_id, card)] += 1
        kept = await kill_rows(db)
        assert kept == sorted(expected) and kept  # the harness's Mafia kill at night
        victim, killer = int(kept[0][4]), int(kept[0][2])
        assert await db.kills.killed_by(victim) == {
            card: n for (tg, card), n in victims.items() if tg == victim}
        mine = await db.kills.killed(killer)
        assert sum(mine.values()) == sum(1 for k in kept if k[2] == killer)
        rival = next(r for r in await db.history.rivals(victim, limit=50) if r.tg_id == killer)
        assert rival.killed_you == sum(1 for k in kept if k[2] == killer and k[4] == victim)
        # as if the games had ended before the kills were kept
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM night_kills")
            await conn.execute("UPDATE game_outcomes SET kills_read = 0")
        assert [g for _, g in await db.kills.unread()] == games
    finally:
        await db.close()
    assert await asyncio.to_thread(storage_main, ["rerate", str(db_target)]) == 0
    db = await Database.open(db_target)
    try:
        assert await kill_rows(db) == kept
        assert await db.kills.unread() == []
        # a voided game's kills count no more (its players' history goes at the rebuild)
        game_id = int(kept[0][1])
        await db.voids.void(game_id, by=ADMIN, reason="a mistake", now=NOW)
        left = [k for k in kept if k[1] != game_id]
        deaths = {(k[0], str(k[3])) for k in left if k[4] == victim}  # (game, killer's card)
        assert await db.kills.killed_by(victim) == dict(Counter(card for _, card in deaths))
    finally:
        await db.close()

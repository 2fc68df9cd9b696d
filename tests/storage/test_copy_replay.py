"""``python -m storage copy`` replays every finished game from its log on the copy through the
engine: the winner and every player's points must be what the copy's ledger holds."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from record.outcome import replay_outcome
from storage import Database
from storage.__main__ import main
from storage.tools.copy import CopyError, check_replays
from tests.pg_cluster import Cluster
from tests.storage.played import play_games


def _lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "replayed" in line]


async def test_copy_replays_every_finished_game(pg: Cluster, db_path: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    games = await play_games(db_path, tmp_path, sizes=(8, 10))
    url = await pg.empty_database()
    assert await asyncio.to_thread(main, ["copy", str(db_path), url]) == 0
    out = capsys.readouterr().out
    [line] = _lines(out)
    assert line.startswith("ok: finished games replayed from their logs: 2 games")
    assert "every check passed" in out
    copied = await Database.open(url)
    try:  # the replay on the copy is the points each player got in the file
        source = await Database.open(db_path)
        try:
            for game_id in games:
                game = await copied.games.get(game_id)
                outcome = replay_outcome(game, await copied.games.events(game_id))
                assert outcome.winner is not None and outcome.winner in line
                in_file = sorted((r.tg_id, r.points, r.reason, r.phase)
                                 for r in await source.stats.game_points(game_id))
                assert list(outcome.points) == in_file and in_file
        finally:
            await source.close()
    finally:
        await copied.close()


def _swap_two_seats(db_path: Path, game_id: int) -> None:
    """The file's log of ``game_id`` says two players with different points sat in each
    other's seats: the log, the ledger and every balance still copy over unchanged."""
    con = sqlite3.connect(db_path)
    try:
        points = dict(con.execute("SELECT tg_id, sum(points) FROM ledger WHERE game_id = ?"
                                  " GROUP BY tg_id", (game_id,)).fetchall())
        seq, payload = con.execute("SELECT seq, payload FROM game_events WHERE game_id = ?"
                                   " AND kind = 'deal'", (game_id,)).fetchone()
        deal = json.loads(payload)
        seats = deal["seats"]
        a = seats[0]
        b = next(s for s in seats if points.get(s["tg_id"], 0) != points.get(a["tg_id"], 0))
        a["tg_id"], b["tg_id"] = b["tg_id"], a["tg_id"]
        con.execute("DROP TRIGGER game_events_append_only_u")  # corrupted by hand
        con.execute("UPDATE game_events SET payload = ? WHERE game_id = ? AND seq = ?",
                    (json.dumps(deal), game_id, seq))
        con.commit()
    finally:
        con.close()


async def test_a_log_that_disagrees_with_its_points_fails_the_copy(
        pg: Cluster, db_path: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    [game] = await play_games(db_path, tmp_path)
    _swap_two_seats(db_path, game)
    url = await pg.empty_database()
    assert await asyncio.to_thread(main, ["copy", str(db_path), url]) == 2
    captured = capsys.readouterr()
    # every comparison of the copy with the file passed: only the replay saw it
    assert "ok: finished games' logs" in captured.out
    assert "ok: finished games' points" in captured.out
    assert "every check passed" not in captured.out
    assert f"game {game}: its points are not what its log replays to" in captured.err


async def _copied(pg: Cluster, db_path: Path, tmp_path: Path) -> tuple[str, int]:
    [game] = await play_games(db_path, tmp_path)
    url = await pg.empty_database()
    assert await asyncio.to_thread(main, ["copy", str(db_path), url]) == 0
    return url, game


async def test_a_corrupted_copy_is_detected(pg: Cluster, db_path: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    url, game = await _copied(pg, db_path, tmp_path)
    said: list[str] = []
    conn = await asyncpg.connect(url)
    try:
        assert await check_replays(conn, replay_outcome, said.append) == 1
        assert said and said[0].startswith("ok: finished games replayed")
        # a ledger row of the game written twice on the copy
        await conn.execute(
            "INSERT INTO ledger (tg_id, points, kind, reason, game_id, phase, day)"
            " SELECT tg_id, points, kind, reason, game_id, phase, day FROM ledger"
            " WHERE game_id = $1 ORDER BY id LIMIT 1", game)
        with pytest.raises(CopyError, match=f"game {game}: its points are not what its log"):
            await check_replays(conn, replay_outcome, said.append)
    finally:
        await conn.close()


async def test_a_copy_whose_log_lost_its_end_is_detected(
        pg: Cluster, db_path: Path, tmp_path: Path) -> None:
    url, game = await _copied(pg, db_path, tmp_path)
    conn = await asyncpg.connect(url)
    try:
        last = await conn.fetchval(
            "SELECT max(seq) FROM game_events WHERE game_id = $1 AND kind IN"
            " ('night_resolved', 'day_resolved', 'tech')", game)
        # corrupted by hand
        await conn.execute("ALTER TABLE game_events DISABLE TRIGGER game_events_append_only")
        await conn.execute("DELETE FROM game_events WHERE game_id = $1 AND seq >= $2",
                           game, last)
        with pytest.raises(CopyError, match=f"game {game} is finished, but its log replays"
                                            " to a game that is not over"):
            await check_replays(conn, replay_outcome, print)
        await conn.execute("UPDATE game_events SET payload = '{}' WHERE game_id = $1"
                           " AND kind = 'deal'", game)
        with pytest.raises(CopyError, match=f"game {game} cannot be replayed from its log"):
            await check_replays(conn, replay_outcome, print)
    finally:
        await conn.close()

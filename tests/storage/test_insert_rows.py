"""The one chunked multi-row INSERT (``storage.sql.insert_rows``), on both backends: rows read
from an iterator a statement's worth at a time, every row written once and in order, and a game's
points and the rating's history written through it as before."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine import Winner
from storage import Database, GamePoints
from storage.sql import Connection, insert_rows
from storage.standing import history
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players


class Counting:
    """A connection that notes each statement's values and how far ``rows`` had been read."""

    def __init__(self, conn: Connection, read: list[int]) -> None:
        self.conn = conn
        self.read = read
        self.seen: list[tuple[int, int]] = []  # (values bound, rows read so far)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        self.seen.append((len(params), self.read[0]))
        return await self.conn.execute(sql, params)


async def test_rows_are_read_a_statement_at_a_time_and_written_in_order(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    read = [0]

    def rows() -> Iterator[history.HistoryRow]:
        for seq in range(1, 1202):
            read[0] += 1
            yield (1 + seq % 3, seq, seq, "mafia", "mafia", "win", 25.0 + seq / 1000, 8.0)

    async with db.transaction() as conn:
        counting = Counting(conn, read)
        await insert_rows(counting, "rating_history",  # type: ignore[arg-type]
                          history.COLUMNS, rows(), at_once=500)
    # 500, 500 and 201 rows of 8 values, each sent once its rows were read, not before
    assert counting.seen == [(4000, 500), (4000, 1000), (1608, 1201)]
    written = await db.query("SELECT tg_id, seq, game_id, mu FROM rating_history ORDER BY seq")
    assert [tuple(r) for r in written] == [(1 + s % 3, s, s, 25.0 + s / 1000)
                                           for s in range(1, 1202)]
    async with db.transaction() as conn:
        await insert_rows(conn, "rating_history", history.COLUMNS, [], at_once=500)  # nothing
    assert len(await db.query("SELECT 1 FROM rating_history")) == 1201


async def test_a_games_points_and_history_are_written_through_it(db: Database) -> None:
    """A game's end: its ledger rows (a zero is no row) and its seats' history, in order."""
    await add_players(db, *range(1, 11))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(s, s) for s in range(1, 11)],
                                    created_at=NOW)
    await db.games.set_roles(game_id, {s: "mafia" if s <= 3 else "lucky" for s in range(1, 11)})
    await db.games.set_status(game_id, "running")
    assert await db.games.finish(game_id, status="finished", day=NOW.date(), points=[
        GamePoints(tg, tg % 3, "win") for tg in range(1, 11)], winner=str(Winner.CIVILIANS))
    ledger = await db.query("SELECT tg_id, points, kind, reason, game_id, day FROM ledger"
                            " WHERE game_id = ? ORDER BY id", (game_id,))
    assert [tuple(r) for r in ledger] == [(tg, tg % 3, "game", "win", game_id,
                                          NOW.date().isoformat())
                                          for tg in range(1, 11) if tg % 3]
    written = await db.query("SELECT tg_id, role, result FROM rating_history"
                             " WHERE game_id = ? ORDER BY tg_id", (game_id,))
    assert [tuple(r) for r in written] == [
        (tg, "mafia" if tg <= 3 else "lucky", "loss" if tg <= 3 else "win")
        for tg in range(1, 11)]

"""A player's counted games as stored (``rating_history``): one row per player and counted game
with the card dealt, the result and the overall rating after it. Written at a game's end with
the ratings (``ratings.record_outcome``) and rebuilt with them by ``Ratings.rerate``; read here
for the rating's graph, the records by card and side, ``/top role`` and the rivals.

Only counted games have rows (``standing/counting.py``), and only once they ended: nothing of a
running game is ever here.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from engine import Role, Winner
from standing.rating import Held, Key, Side
from standing.roles import MIN_ROLE_GAMES, RIVALS, Point, Record, Rival, SeatResult, result_of
from storage.sql import Connection, Row, Store, insert_rows
from storage.standing import kills

COLUMNS = "tg_id, seq, game_id, role, team, result, mu, sigma"
ROWS_AT_ONCE = 500  # rows of one INSERT (8 values each: far below either backend's limit)
ROLES = tuple(Role)
RESULTS = tuple(SeatResult)

HistoryRow = tuple[int, int, int, str, str, str, float, float]


def rows_of(seq: int, game_id: int, seats: Iterable[tuple[int, Role]], winner: Winner,
            after: Mapping[Key, Held]) -> list[HistoryRow]:
    """The history's rows of one rated game: each seat's card, result and overall rating."""
    out: list[HistoryRow] = []
    for tg_id, role in seats:
        held = after.get((tg_id, Side.ALL))
        if held is None:  # a game without both teams rates nobody
            continue
        out.append((tg_id, seq, game_id, str(role), str(role.team),
                    str(result_of(role.team, winner)), held.model.mu, held.model.sigma))
    return out


class Rows:
    """The history of a whole rebuild, kept in compact arrays (a million rows and more)."""

    def __init__(self) -> None:
        self.tg = array("q")
        self.seq = array("q")
        self.game = array("q")
        self.role = array("b")
        self.result = array("b")
        self.mu = array("d")
        self.sigma = array("d")

    def add(self, rows: Iterable[HistoryRow]) -> None:
        for tg_id, seq, game_id, role, _, result, mu, sigma in rows:
            self.tg.append(tg_id)
            self.seq.append(seq)
            self.game.append(game_id)
            self.role.append(ROLES.index(Role(role)))
            self.result.append(RESULTS.index(SeatResult(result)))
            self.mu.append(mu)
            self.sigma.append(sigma)

    def __len__(self) -> int:
        return len(self.tg)

    def __iter__(self) -> Iterator[HistoryRow]:
        for i in range(len(self.tg)):
            role = ROLES[self.role[i]]
            yield (self.tg[i], self.seq[i], self.game[i], str(role), str(role.team),
                   str(RESULTS[self.result[i]]), self.mu[i], self.sigma[i])


async def write(conn: Connection, rows: Iterable[HistoryRow]) -> None:
    """Insert history rows, many to a statement (read a statement's worth at a time)."""
    await insert_rows(conn, "rating_history", COLUMNS, rows, at_once=ROWS_AT_ONCE)


class RoleRanked(NamedTuple):
    """A line of ``/top role``: the competition rank by win rate with the card (then games);
    the player by the nickname held now (None: none, and never the Telegram name)."""

    rank: int
    tg_id: int
    nickname: str | None
    record: Record


_COUNTS = ("count(*), sum(CASE WHEN {p}result = 'win' THEN 1 ELSE 0 END),"
           " sum(CASE WHEN {p}result = 'draw' THEN 1 ELSE 0 END)")


def _records(rows: Iterable[Row]) -> dict[str, Record]:
    return {str(r[0]): Record(int(r[1]), int(r[2] or 0), int(r[3] or 0)) for r in rows}


class History:
    """The players' counted games (``db.history``): the graph, the cards, the rivals."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def points(self, tg_id: int) -> list[Point]:
        """The player's overall rating after each counted game, oldest first."""
        rows = await self._db.query(
            "SELECT seq, game_id, role, result, mu, sigma FROM rating_history"
            " WHERE tg_id = ? ORDER BY seq", (tg_id,))
        return [Point(int(r[0]), int(r[1]), str(r[2]), SeatResult(r[3]), float(r[4]),
                      float(r[5])) for r in rows]

    async def roles(self, tg_id: int) -> dict[str, Record]:
        """The player's record with each card dealt (a card never dealt is missing)."""
        return _records(await self._db.query(
            f"SELECT role, {_COUNTS.format(p='')} FROM rating_history WHERE tg_id = ?"
            " GROUP BY role", (tg_id,)))

    async def everyone(self, role: str | None = None) -> dict[str, Record]:
        """Everyone's record with each card (``role``: with that card only): each seat dealt
        it in a counted game is one game."""
        if role is None:
            return _records(await self._db.query(
                f"SELECT role, {_COUNTS.format(p='')} FROM rating_history GROUP BY role",
                background=True))
        return _records(await self._db.query(
            f"SELECT role, {_COUNTS.format(p='')} FROM rating_history WHERE role = ?"
            " GROUP BY role", (role,)))

    async def top_role(self, role: str, *, limit: int = 10,
                       min_games: int = MIN_ROLE_GAMES) -> list[RoleRanked]:
        """The players best at a card: by win rate with it, then by games (more first), of
        those with at least ``min_games`` counted games with it (a blocked account is on no
        board)."""
        rows = await self._db.query(
            f"SELECT h.tg_id, p.nickname, {_COUNTS.format(p='h.')}"
            " FROM rating_history h JOIN players p ON p.tg_id = h.tg_id"
            " WHERE h.role = ? AND p.blocked = 0"
            " GROUP BY h.tg_id, p.nickname HAVING count(*) >= ?",
            (role, min_games))
        lines = sorted(((int(r[0]), None if r[1] is None else str(r[1]),
                         Record(int(r[2]), int(r[3]), int(r[4]))) for r in rows),
                       key=lambda t: (-(t[2].wins * 1.0 / t[2].games), -t[2].games, t[0]))
        out: list[RoleRanked] = []
        for index, (tg_id, nickname, record) in enumerate(lines[:limit]):
            same = out and (out[-1].record.wins, out[-1].record.games) == (record.wins,
                                                                           record.games)
            out.append(RoleRanked(out[-1].rank if same else index + 1, tg_id, nickname, record))
        return out

    async def rivals(self, tg_id: int, *, limit: int = RIVALS) -> list[Rival]:
        """The players met most at counted games (then by account), with the games on the
        same side and against, and the player's wins in each; each by the nickname it holds
        now (None: none, and never the Telegram name, which players are not shown)."""
        async with self._db.read() as conn:
            return await _rivals(conn, tg_id, limit)


async def _rivals(conn: Connection, tg_id: int, limit: int) -> list[Rival]:
    rows = await conn.execute_fetchall(
        "SELECT o.tg_id, p.nickname,"
        " sum(CASE WHEN o.team = me.team THEN 1 ELSE 0 END),"
        " sum(CASE WHEN o.team = me.team AND me.result = 'win' THEN 1 ELSE 0 END),"
        " sum(CASE WHEN o.team <> me.team THEN 1 ELSE 0 END),"
        " sum(CASE WHEN o.team <> me.team AND me.result = 'win' THEN 1 ELSE 0 END)"
        " FROM rating_history me"
        " JOIN rating_history o ON o.seq = me.seq AND o.tg_id <> me.tg_id"
        " JOIN players p ON p.tg_id = o.tg_id"
        " WHERE me.tg_id = ? GROUP BY o.tg_id, p.nickname"
        " ORDER BY count(*) DESC, o.tg_id LIMIT ?", (tg_id, limit))
    killed = await kills.between(conn, tg_id)
    return [Rival(int(r[0]), None if r[1] is None else str(r[1]), int(r[2]), int(r[3]),
                  int(r[4]), int(r[5]), *killed.get(int(r[0]), (0, 0))) for r in rows]


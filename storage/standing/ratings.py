"""The ratings' rows: written at a game's end, read by the profile and the leaderboards, and
rebuilt from the outcomes by ``rerate``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from datetime import date
from typing import NamedTuple

from engine import Role, Winner
from standing.counting import counts_for_standing
from standing.facts import GameFacts
from standing.rating import (
    MODEL,
    PROVISIONAL_GAMES,
    Held,
    Key,
    RatedGame,
    Rating,
    Side,
    Standings,
)
from storage.sql import Connection, Store, insert_rows
from storage.standing import history, kills, seasons

_COLUMNS = "tg_id, side, mu, sigma, games, wins"
ROLES = frozenset(str(r) for r in Role)
ROWS_AT_ONCE = 500  # rows of one INSERT (6 values each: far below SQLite's limit)


class OutcomeRow(NamedTuple):
    """A finished game's row as the counting rule reads it."""

    status: str
    winner: str | None
    voided_at: str | None = None
    friendly: bool = False


class Ranked(NamedTuple):
    """A line of the rating's leaderboard: the competition rank (1, 2, 2, 4) by ordinal; the
    player by the nickname held now (None: none, and never the Telegram name)."""

    rank: int
    tg_id: int
    nickname: str | None
    rating: Rating


async def _seats(conn: Connection, game_ids: Sequence[int]) -> dict[int, list[tuple[int, Role]]]:
    """Each game's seated accounts with the card dealt (games without every card dealt are
    left out)."""
    out: dict[int, list[tuple[int, Role]]] = {}
    broken: set[int] = set()
    for start in range(0, len(game_ids), ROWS_AT_ONCE):
        chunk = game_ids[start:start + ROWS_AT_ONCE]
        marks = ",".join("?" * len(chunk))
        async with conn.execute(
            f"SELECT game_id, tg_id, role FROM game_seats WHERE game_id IN ({marks})"
            " ORDER BY game_id, seat", chunk,
        ) as cur:
            for game_id, tg_id, role in await cur.fetchall():
                if role not in ROLES:  # a seat without a card dealt: the game is not rated
                    broken.add(int(game_id))
                else:
                    out.setdefault(int(game_id), []).append((int(tg_id), Role(role)))
    return {g: seats for g, seats in out.items() if g not in broken}


def _rated(game_id: int, winner: str, seats: Iterable[tuple[int, Role]]) -> RatedGame:
    return RatedGame(game_id, tuple((tg, role.team) for tg, role in seats), Winner(winner))


async def _read(conn: Connection, tg_ids: Iterable[int]) -> dict[Key, Rating]:
    ids = sorted(set(tg_ids))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM ratings WHERE tg_id IN ({marks})", ids)
    return {(int(r[0]), Side(r[1])): Rating(float(r[2]), float(r[3]), int(r[4]), int(r[5]))
            for r in rows}


async def _write(conn: Connection, ratings: dict[Key, Rating]) -> None:
    rows = [(tg, str(side), r.mu, r.sigma, r.games, r.wins)
            for (tg, side), r in sorted(ratings.items())]
    await insert_rows(conn, "ratings", _COLUMNS, rows, at_once=ROWS_AT_ONCE,
                      tail=" ON CONFLICT (tg_id, side) DO UPDATE SET mu = excluded.mu,"
                      " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins")


class Counted(NamedTuple):
    """A game that counts, as its end rated it: its number and its facts (None: its log
    gives none)."""

    seq: int
    facts: GameFacts | None


async def record_outcome(conn: Connection, game_id: int, winner: str,
                         ended_on: date | None = None) -> Counted | None:
    """At a game's end, in the transaction that applies its points (``Games.finish``, which
    has locked the seated players' rows, so two games sharing a player take their numbers in
    the order they commit): number the outcome, note its season (of ``ended_on``, the day it
    ended in its club's time zone; None: the game's day) and rate the game if it counts,
    overall and in its season. None unless it counts."""
    rows = await conn.execute_fetchall(
        "SELECT status, voided_at, friendly, finished_on FROM games WHERE id = ?", (game_id,))
    status, voided_at, friendly, finished_on = next(iter(rows))
    day = ended_on if ended_on is not None else date.fromisoformat(str(finished_on))
    season = await seasons.season_key(conn, day)
    numbered = await conn.execute_fetchall(
        "INSERT INTO game_outcomes (game_id, winner, kills_read, ended_on, season)"
        " VALUES (?, ?, 1, ?, ?) RETURNING seq",
        (game_id, winner, day.isoformat(), season))
    seq = int(next(iter(numbered))[0])
    if not counts_for_standing(OutcomeRow(str(status), winner, voided_at, bool(friendly))):
        return None
    seats = (await _seats(conn, [game_id])).get(game_id)
    if not seats:
        return Counted(seq, None)
    standings = Standings()
    standings.held.update(
        (key, Held(MODEL.rating(mu=r.mu, sigma=r.sigma), r.games, r.wins))
        for key, r in (await _read(conn, (tg for tg, _ in seats))).items())
    game = _rated(game_id, winner, seats)
    after = standings.add(game)
    await _write(conn, {key: held.rating for key, held in after.items()})
    await seasons.rate(conn, season, game)
    await history.write(conn, history.rows_of(seq, game_id, seats, Winner(winner), after))
    facts = kills.facts_of(game_id, await kills.log_of(conn, game_id))
    if facts is not None:
        await kills.write(conn, seq, kills.kills_of(seq, game_id, facts), mark=False)
    return Counted(seq, facts)


class Ratings:
    """The players' skill ratings (``db.ratings``)."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def of(self, tg_id: int) -> dict[Side, Rating]:
        """A player's ratings by side (a side never rated is missing)."""
        async with self._db.read() as conn:
            return {side: r for (_, side), r in (await _read(conn, [tg_id])).items()}

    async def top(self, side: Side = Side.ALL, *, limit: int = 10, provisional: bool = False,
                  club_chat_id: int | None = None) -> list[Ranked]:
        """The leaderboard by ordinal (``mu - 3 sigma``), best first; without the provisional
        ratings unless asked, and without the blocked accounts (as the board by points); a
        player without a nickname keeps the place, named by nothing (``nickname`` None);
        ``club_chat_id``: only the players who played a rated game there."""
        sql = ("SELECT r.tg_id, p.nickname, r.mu, r.sigma, r.games,"
               " r.wins FROM ratings r JOIN players p ON p.tg_id = r.tg_id"
               " WHERE r.side = ? AND r.games >= ? AND p.blocked = 0")
        params: list[object] = [str(side), 0 if provisional else PROVISIONAL_GAMES]
        if club_chat_id is not None:
            sql += (" AND EXISTS (SELECT 1 FROM game_seats s JOIN games g ON g.id = s.game_id"
                    " JOIN game_outcomes o ON o.game_id = g.id"
                    " WHERE s.tg_id = r.tg_id AND g.club_chat_id = ?)")
            params.append(club_chat_id)
        rows = await self._db.query(sql, params)
        ranked = sorted(
            ((int(r[0]), None if r[1] is None else str(r[1]),
              Rating(float(r[2]), float(r[3]), int(r[4]), int(r[5]))) for r in rows),
            key=lambda t: (-t[2].ordinal, t[0]))
        out: list[Ranked] = []
        for index, (tg_id, nickname, rating) in enumerate(ranked[:limit]):
            same = out and out[-1].rating.ordinal == rating.ordinal
            out.append(Ranked(out[-1].rank if same else index + 1, tg_id, nickname, rating))
        return out

    async def unread(self) -> list[int]:
        """The finished games whose outcome is still to be read from the log (ended before
        the outcomes were kept), in their order."""
        rows = await self._db.query(
            "SELECT game_id FROM game_outcomes WHERE winner IS NULL ORDER BY seq")
        return [int(r[0]) for r in rows]

    async def set_winner(self, game_id: int, winner: str | None) -> None:
        """The outcome read from the log of a game that ended before the outcomes were kept
        (None: the log has no winner; the row goes, and the game never counts)."""
        async with self._db.transaction() as conn:
            if winner is None:
                await conn.execute(
                    "DELETE FROM game_outcomes WHERE game_id = ? AND winner IS NULL", (game_id,))
            else:
                await conn.execute(
                    "UPDATE game_outcomes SET winner = ? WHERE game_id = ? AND winner IS NULL",
                    (winner, game_id))

    async def rerate(self) -> int:
        """Every rating (overall, per side, per season) and the players' history again from
        scratch: the counted outcomes
        folded in their order (read in one snapshot, folded outside any transaction), then
        both tables replaced in one write that first folds the games ended meanwhile.
        Returns the games rated."""
        standings, rows, folds = Standings(), history.Rows(), seasons.Folds()
        async with self._db.read(background=True) as conn:
            last, count = await _fold(conn, standings, rows, folds, 0)
        async with self._db.transaction() as conn:
            _, more = await _fold(conn, standings, rows, folds, last)
            await conn.execute("DELETE FROM ratings")
            await _write(conn, standings.ratings())
            await conn.execute("DELETE FROM rating_history")
            await history.write(conn, rows)
            await conn.execute("DELETE FROM season_ratings")
            await seasons.write(conn, folds.rows())
        return count + more


GAMES_AT_ONCE = 2000  # the outcomes read per query by ``rerate``


async def _fold(conn: Connection, standings: Standings, kept: history.Rows,
                folds: seasons.Folds, after: int) -> tuple[int, int]:
    """Fold the counted outcomes numbered after ``after``; (the last number, the games)."""
    last, count = after, 0
    while True:
        rows = await conn.execute_fetchall(
            "SELECT o.seq, o.game_id, o.winner, g.status, g.voided_at, g.friendly, o.season"
            " FROM game_outcomes o"
            " JOIN games g ON g.id = o.game_id WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
            (last, GAMES_AT_ONCE))
        batch = [(int(r[0]), int(r[1]), OutcomeRow(str(r[3]), r[2], r[4], bool(r[5])))
                 for r in rows]
        season_of = {int(r[1]): None if r[6] is None else str(r[6]) for r in rows}
        if not batch:
            return last, count
        last = batch[-1][0]
        counted = [(seq, game_id, str(row.winner)) for seq, game_id, row in batch
                   if counts_for_standing(row)]
        seats = await _seats(conn, [game_id for _, game_id, _ in counted])
        games = [(seq, seats[game_id], _rated(game_id, winner, seats[game_id]),
                  season_of[game_id]) for seq, game_id, winner in counted if game_id in seats]
        # the fold is pure computation: on a thread, so a rebuild in the bot's process (after
        # a void) leaves its event loop free while the library computes
        await asyncio.to_thread(_add_all, standings, kept, folds, games)
        count += len(games)


def _add_all(standings: Standings, rows: history.Rows, folds: seasons.Folds,
             games: Sequence[tuple[int, list[tuple[int, Role]], RatedGame, str | None]]
             ) -> None:
    for seq, seats, game, season in games:
        rows.add(history.rows_of(seq, game.game_id, seats, game.winner, standings.add(game)))
        folds.add(season, game)

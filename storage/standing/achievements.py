"""The achievements' rows: each player's running counters (``achievement_progress``) and the
levels earned (``achievements``), written at a game's end in the transaction that rates it and
rebuilt from the counted games' logs, in the order the games ended, by ``rerate`` (and for a
voided game's players by the void). The seasonal one (a season's top ten) has no rows: its
counter is read from the closed seasons' ratings when asked (``Achievements.progress``). The
catalogue and the fold are the pure ``standing.achievements``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, date, datetime
from typing import NamedTuple

from standing.achievements import SEASON_TOP, Awards, Count, Earned, ProgressKey, award
from standing.counting import counts_for_standing
from standing.facts import GameFacts, game_facts
from storage.sql import Connection, Store, insert_rows
from storage.standing.seasons import Seasons

log = logging.getLogger(__name__)

ROWS_AT_ONCE = 400  # rows of one INSERT (5 values each)
GAMES_AT_ONCE = 200  # the games whose logs one query reads


class Award(NamedTuple):
    """A level earned, as stored: the game that reached it and that game's day."""

    tg_id: int
    achievement: str
    level: int
    game_id: int
    earned_on: date


class _LogLine(NamedTuple):
    seq: int
    kind: str
    payload: dict[str, object]


class _Outcome(NamedTuple):
    """What the counting rule reads of a game (``counts_for_standing``)."""

    status: str
    winner: str | None
    voided_at: str | None
    friendly: bool


def _facts(game_id: int, events: Sequence[_LogLine]) -> GameFacts | None:
    """The game's facts; a log that cannot be replayed earns nothing (said in the log) rather
    than holding up its game's end, the same way at the end and in a rebuild."""
    try:
        return game_facts(events)
    except Exception:
        log.warning("game %s: its log gives no facts; no achievement is earned", game_id,
                    exc_info=True)
        return None


async def _logs(conn: Connection, game_ids: Sequence[int]) -> dict[int, list[_LogLine]]:
    out: dict[int, list[_LogLine]] = {g: [] for g in game_ids}
    for start in range(0, len(game_ids), GAMES_AT_ONCE):
        chunk = game_ids[start:start + GAMES_AT_ONCE]
        marks = ",".join("?" * len(chunk))
        rows = await conn.execute_fetchall(
            f"SELECT game_id, seq, kind, payload FROM game_events WHERE game_id IN ({marks})"
            " ORDER BY game_id, seq", chunk)
        for game_id, seq, kind, payload in rows:
            out[int(game_id)].append(_LogLine(int(seq), str(kind), json.loads(payload)))
    return out


async def _progress(conn: Connection, tg_ids: Iterable[int]) -> dict[ProgressKey, Count]:
    ids = sorted(set(tg_ids))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await conn.execute_fetchall(
        "SELECT tg_id, achievement, value, best FROM achievement_progress"
        f" WHERE tg_id IN ({marks})", ids)
    return {(int(r[0]), str(r[1])): Count(int(r[2]), int(r[3])) for r in rows}


async def _write(conn: Connection, progress: dict[ProgressKey, Count],
                 earned: Sequence[tuple[Earned, str]]) -> None:
    counters = [(tg, a, c.value, c.best) for (tg, a), c in sorted(progress.items())]
    await insert_rows(conn, "achievement_progress", "tg_id, achievement, value, best", counters,
                      at_once=ROWS_AT_ONCE,
                      tail=" ON CONFLICT (tg_id, achievement) DO UPDATE SET"
                      " value = excluded.value, best = excluded.best")
    levels = [(e.tg_id, e.achievement, e.level, e.game_id, day) for e, day in earned]
    await insert_rows(conn, "achievements", "tg_id, achievement, level, game_id, earned_on",
                      levels, at_once=ROWS_AT_ONCE)


async def record_achievements(conn: Connection, game_id: int, facts: GameFacts
                              ) -> list[Earned]:
    """At a counted game's end, in the transaction that rates it (``facts``: its log's, read
    there once): its players' counters move and the levels they reach are earned (returned,
    for the messages)."""
    rows = await conn.execute_fetchall("SELECT finished_on FROM games WHERE id = ?", (game_id,))
    day = str(next(iter(rows))[0])
    changed, earned = award(game_id, facts, await _progress(
        conn, (s.tg_id for s in facts.seats.values())))
    await _write(conn, changed, [(e, day) for e in earned])
    return earned


class Achievements:
    """The players' achievements (``db.achievements``)."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def of(self, tg_id: int) -> list[Award]:
        """The levels a player earned, the latest first."""
        rows = await self._db.query(
            "SELECT tg_id, achievement, level, game_id, earned_on FROM achievements"
            " WHERE tg_id = ? ORDER BY earned_on DESC, game_id DESC, achievement, level DESC",
            (tg_id,))
        return [Award(int(r[0]), str(r[1]), int(r[2]), int(r[3]), date.fromisoformat(r[4]))
                for r in rows]

    async def progress(self, tg_id: int, now: datetime | None = None) -> dict[str, Count]:
        """A player's counters by achievement (one never moved is missing: at 0), the
        seasonal one the closed seasons (at ``now``, by default the present) they ended in
        the top ten of."""
        async with self._db.read() as conn:
            counters = {a: c for (_, a), c in (await _progress(conn, [tg_id])).items()}
        seasons = len(await Seasons(self._db).top_tens(tg_id, now or datetime.now(UTC)))
        if seasons:
            counters[SEASON_TOP.id] = Count(seasons, seasons)
        return counters

    async def rebuild(self, players: Collection[int] | None = None) -> int:
        """Every counter and level again from the counted games' logs in their order (only
        ``players``' when given: a player's achievements are their own games' alone). Folded
        from one snapshot outside any transaction, then the rows replaced in one write that
        first folds the games ended meanwhile. Returns the games folded."""
        awards = Awards()
        days: dict[int, str] = {}
        async with self._db.read(background=True) as conn:
            last, count = await _fold(conn, awards, days, 0, players)
        async with self._db.transaction() as conn:
            _, more = await _fold(conn, awards, days, last, players)
            where, params = _only(players)
            await conn.execute(f"DELETE FROM achievement_progress{where}", params)
            await conn.execute(f"DELETE FROM achievements{where}", params)
            progress = {k: c for k, c in awards.progress.items() if c != Count()
                        and (players is None or k[0] in players)}
            await _write(conn, progress, [(e, days[e.game_id]) for e in awards.earned
                                          if players is None or e.tg_id in players])
        return count + more


def _only(players: Collection[int] | None) -> tuple[str, list[int]]:
    if players is None:
        return "", []
    ids = sorted(set(players))
    return f" WHERE tg_id IN ({','.join('?' * len(ids))})" if ids else " WHERE 1 = 0", ids


async def _fold(conn: Connection, awards: Awards, days: dict[int, str], after: int,
                players: Collection[int] | None) -> tuple[int, int]:
    """Fold the counted games numbered after ``after`` (those ``players`` sat in, when
    given); (the last number, the games folded)."""
    last, count = after, 0
    while True:
        sql = ("SELECT o.seq, o.game_id, o.winner, g.status, g.voided_at, g.friendly,"
               " g.finished_on FROM game_outcomes o JOIN games g ON g.id = o.game_id"
               " WHERE o.seq > ?")
        params: list[object] = [last]
        if players is not None:
            ids = sorted(set(players)) or [0]
            sql += (" AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = o.game_id"
                    f" AND s.tg_id IN ({','.join('?' * len(ids))}))")
            params += ids
        rows = list(await conn.execute_fetchall(sql + " ORDER BY o.seq LIMIT ?",
                                                [*params, GAMES_AT_ONCE]))
        if not rows:
            return last, count
        last = int(rows[-1][0])
        counted = [(int(r[1]), str(r[6])) for r in rows
                   if counts_for_standing(_Outcome(str(r[3]), r[2], r[4], bool(r[5])))]
        logs = await _logs(conn, [g for g, _ in counted])
        # the replays and the fold are pure computation: on a thread, so a rebuild in the
        # bot's process (after a void) leaves its event loop free
        count += await asyncio.to_thread(_add_all, awards, days, counted, logs)


def _add_all(awards: Awards, days: dict[int, str], counted: Sequence[tuple[int, str]],
             logs: dict[int, list[_LogLine]]) -> int:
    added = 0
    for game_id, day in counted:
        facts = _facts(game_id, logs[game_id])
        if facts is not None:
            days[game_id] = day
            awards.add(game_id, facts)
            added += 1
    return added

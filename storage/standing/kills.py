"""Who killed whom at night in the counted games (``night_kills``): read from a game's log
(``standing.facts``) once, at its end, in the transaction that rates it; the games that ended
before the table are read by ``python -m storage rerate`` (``game_outcomes.kills_read``).

A kill is a fact of its game and never changes; whether the game still counts is the history's
to say (a voided game leaves ``rating_history`` at the rebuild), so every read joins it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import NamedTuple

from record.outcome import LoggedEvent
from standing.facts import Exit, GameFacts, game_facts
from storage.sql import Connection, Store

log = logging.getLogger(__name__)

KillRow = tuple[int, int, int, str, int, str]  # seq, game_id, killer, role, victim, role


class _Event(NamedTuple):
    seq: int
    kind: str
    payload: dict[str, object]


def facts_of(game_id: int, events: Sequence[LoggedEvent]) -> GameFacts | None:
    """The game's facts; a log that cannot be replayed gives none (said in the log) rather
    than holding up its game's end."""
    try:
        return game_facts(events)
    except Exception:
        log.warning("game %s: its log gives no facts; no kill is kept", game_id, exc_info=True)
        return None


def kills_of(seq: int, game_id: int, facts: GameFacts) -> list[KillRow]:
    """One row per night death and shooter whose shot killed (the common pick: each Mafia
    player who picked the victim); the Sportsman's own death by his challenge is no kill."""
    out: list[KillRow] = []
    for seat, victim in sorted(facts.seats.items()):
        if victim.left is None or victim.left.how is not Exit.NIGHT:
            continue
        for by in victim.left.by:
            if by == seat:
                continue
            killer = facts.seats[by]
            out.append((seq, game_id, killer.tg_id, str(killer.role), victim.tg_id,
                        str(victim.role)))
    return out


async def log_of(conn: Connection, game_id: int) -> list[_Event]:
    rows = await conn.execute_fetchall(
        "SELECT seq, kind, payload FROM game_events WHERE game_id = ? ORDER BY seq", (game_id,))
    return [_Event(int(r[0]), str(r[1]), json.loads(r[2])) for r in rows]


async def write(conn: Connection, seq: int, rows: Sequence[KillRow], *,
                mark: bool = True) -> None:
    """The game's kills, and its outcome marked read (``mark``: at the end it is already)."""
    if rows:
        await conn.execute(
            "INSERT INTO night_kills (seq, game_id, killer_tg, killer_role, victim_tg,"
            " victim_role) VALUES " + ",".join(["(?, ?, ?, ?, ?, ?)"] * len(rows))
            + " ON CONFLICT DO NOTHING", [v for row in rows for v in row])
    if mark:
        await conn.execute("UPDATE game_outcomes SET kills_read = 1 WHERE seq = ?", (seq,))


async def between(conn: Connection, tg_id: int) -> dict[int, tuple[int, int]]:
    """Per other player: (the nights they killed this player, the nights this player killed
    them), in the counted games."""
    out: dict[int, list[int]] = {}
    for mine, theirs, index in (("victim_tg", "killer_tg", 0), ("killer_tg", "victim_tg", 1)):
        rows = await conn.execute_fetchall(
            f"SELECT k.{theirs}, count(*) FROM night_kills k"
            f" JOIN rating_history h ON h.tg_id = k.{mine} AND h.seq = k.seq"
            f" WHERE k.{mine} = ? GROUP BY k.{theirs}", (tg_id,))
        for r in rows:
            out.setdefault(int(r[0]), [0, 0])[index] = int(r[1])
    return {tg: (v[0], v[1]) for tg, v in out.items()}


class Kills:
    """The night kills of the counted games (``db.kills``)."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def killed_by(self, tg_id: int) -> dict[str, int]:
        """The player's night deaths by the killer's card (a death by two shooters of one
        card is one death)."""
        rows = await self._db.query(
            "SELECT k.killer_role, count(DISTINCT k.seq) FROM night_kills k"
            " JOIN rating_history h ON h.tg_id = k.victim_tg AND h.seq = k.seq"
            " WHERE k.victim_tg = ? GROUP BY k.killer_role", (tg_id,))
        return {str(r[0]): int(r[1]) for r in rows}

    async def killed(self, tg_id: int) -> dict[str, int]:
        """The players this player's shots killed at night, by the victim's card."""
        rows = await self._db.query(
            "SELECT k.victim_role, count(*) FROM night_kills k"
            " JOIN rating_history h ON h.tg_id = k.killer_tg AND h.seq = k.seq"
            " WHERE k.killer_tg = ? GROUP BY k.victim_role", (tg_id,))
        return {str(r[0]): int(r[1]) for r in rows}

    async def unread(self) -> list[tuple[int, int]]:
        """The outcomes (seq, game) whose kills are still to be read from the log (the games
        that ended before the kills were kept), in their order."""
        rows = await self._db.query(
            "SELECT seq, game_id FROM game_outcomes WHERE kills_read = 0 ORDER BY seq")
        return [(int(r[0]), int(r[1])) for r in rows]

    async def read_log(self, seq: int, game_id: int) -> int:
        """Read one such game's kills from its log; returns the kills kept."""
        async with self._db.read(background=True) as conn:
            events = await log_of(conn, game_id)
        facts = facts_of(game_id, events)
        rows = [] if facts is None else kills_of(seq, game_id, facts)
        async with self._db.transaction() as conn:
            await write(conn, seq, rows)
        return len(rows)

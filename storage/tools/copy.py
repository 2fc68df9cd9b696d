"""``python -m storage copy SRC.sqlite3 postgresql://...``: move a club network's SQLite file
onto PostgreSQL (the bot stopped), then check the copy against the file.

The target must be empty (its schema is created by the migrations). Every table of the file's
schema (:func:`copied_tables`; but the inbox) is copied in one transaction, ids kept; the
caches (``balances``, ``rank_histogram``) are not copied but computed on the target from its
players and ledger, so checking them against the file's checks the ledger itself. The cache
triggers are paused for the bulk load (re-enabled in the same transaction): one statement each
computes the caches instead.
Then: every balance, the ledger's sums (per player and
kind), every finished game's log and points, the queued outbox, the number of rows of every
table. Each check prints one line; any difference fails the copy.

Last, every finished game is replayed from its log on the target through the engine
(:func:`check_replays`, with the game layer's ``replay`` the command line hands in: storage
itself does not know what a game's events mean): its winner and every player's points must be
what the target's ledger holds for the game, so a log and points that disagree (in the file
already, or in the copy) fail the copy.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import asyncpg

from record.outcome import Replayed
from storage.backends.postgres import connect
from storage.db import Database
from storage.models import Game, GameEvent
from storage.repos.records import VOID_REASON

DERIVED = ("balances", "rank_histogram")  # kept by triggers on both sides
# the file's tables not copied, and why
NOT_COPIED = {
    "inbox": "updates as received, handled and pruned by PostgreSQL's processes only",
}
_SPOUSES = ("spouse_id", "spouse_proposed_to")
_CACHE_TRIGGERS = (("ledger", "ledger_balances"), ("balances", "balances_rank_histogram"))


class CopyError(Exception):
    """The copy was refused or did not check out (nothing is left half-written)."""


Report = Callable[[str], None]


Replay = Callable[[Game, Sequence[GameEvent]], Replayed]


def copied_tables(src: sqlite3.Connection) -> tuple[str, ...]:
    """The tables of the file's schema that are copied (all but :data:`DERIVED` and
    :data:`NOT_COPIED`), parents first: each after every table its foreign keys name (a
    player's spouse, a later row of the same table, is linked once every player is in)."""
    names = [str(r[0]) for r in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name")]
    todo = [n for n in names if n not in DERIVED and n not in NOT_COPIED]
    parents = {t: {str(r[2]) for r in src.execute(f"PRAGMA foreign_key_list({t})")} - {t}
               for t in todo}
    ordered: list[str] = []
    while todo:
        ready = next((t for t in todo if parents[t] <= set(ordered)), None)
        if ready is None:
            raise CopyError(f"no order copies these tables parents first: {', '.join(todo)}")
        ordered.append(ready)
        todo.remove(ready)
    return tuple(ordered)


async def _identities(pg: asyncpg.Connection, tables: Sequence[str]) -> list[tuple[str, str]]:
    """(table, column) of every generated id of the copied tables on the target."""
    rows = await pg.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ANY($1::text[])"
        " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
        " ORDER BY table_name, column_name", list(tables))
    return [(str(r[0]), str(r[1])) for r in rows]


def _columns(src: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in src.execute(f"PRAGMA table_info({table})")]


async def copy(source: Path, url: str, report: Report = print,
               replay: Replay | None = None) -> None:
    """Copy and check; ``replay`` (the game layer's ``replay_outcome``) also replays every
    finished game (:func:`check_replays`)."""
    # the file brought to the code's schema first (as the bot would at its start)
    await (await Database.open(source)).close()
    try:
        target = await Database.open(url)  # creates the schema on an empty database
    except asyncpg.PostgresError as exc:
        raise CopyError(f"the target is not an empty database of this bot: {exc}") from None
    await target.close()
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        pg = await connect(url)
        try:
            tables = copied_tables(src)
            await _refuse_non_empty(pg, tables)
            await _copy_rows(src, pg, tables, report)
            await _verify(src, pg, tables, report)
            if replay is not None:
                await check_replays(pg, replay, report)
        finally:
            await pg.close()
    finally:
        src.close()


async def _refuse_non_empty(pg: asyncpg.Connection, tables: Sequence[str]) -> None:
    for table in (*tables, *DERIVED):
        if await pg.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise CopyError(f"the target is not empty ({table} has rows): copy into a new,"
                            " empty database")


async def _copy_rows(src: sqlite3.Connection, pg: asyncpg.Connection, tables: Sequence[str],
                     report: Report) -> None:
    async with pg.transaction():
        for table, trigger in _CACHE_TRIGGERS:
            await pg.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
        for table in tables:
            columns = _columns(src, table)
            rows = src.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            if table == "players":  # a spouse may be a later row: linked below
                at = [columns.index(c) for c in _SPOUSES]
                rows = [tuple(None if i in at else v for i, v in enumerate(r)) for r in rows]
            if rows:
                await pg.copy_records_to_table(table, records=rows, columns=columns)
            report(f"copied {table}: {len(rows):,} rows")
        spouses = src.execute(
            "SELECT tg_id, spouse_id, spouse_proposed_to FROM players"
            " WHERE spouse_id IS NOT NULL OR spouse_proposed_to IS NOT NULL").fetchall()
        await pg.executemany(
            "UPDATE players SET spouse_id = $2, spouse_proposed_to = $3 WHERE tg_id = $1",
            spouses)
        await pg.execute(
            "UPDATE balances b SET points = s.total FROM (SELECT tg_id, sum(points) AS total"
            " FROM ledger GROUP BY tg_id) s WHERE b.tg_id = s.tg_id")
        await pg.execute(
            "INSERT INTO rank_histogram (points, players) SELECT points, count(*)"
            " FROM balances WHERE ranked = 1 AND points > 0 GROUP BY points")
        for table, trigger in _CACHE_TRIGGERS:
            await pg.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")
        report("computed balances and rank_histogram from the ledger")
        # the next id follows the file's (AUTOINCREMENT) counter
        for table, key in await _identities(pg, tables):
            last = max(int(src.execute(f"SELECT coalesce(max({key}), 0) FROM {table}")
                           .fetchone()[0]), _sqlite_sequence(src, table))
            if last:
                await pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'), {last})")


def _sqlite_sequence(src: sqlite3.Connection, table: str) -> int:
    row = src.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
    return 0 if row is None else int(row[0])


def _same(what: str, mine: Sequence[Any], theirs: Sequence[Any], report: Report) -> None:
    if list(mine) != list(theirs):
        differ = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b) \
            if len(mine) == len(theirs) else None
        detail = (f"first difference at #{differ}: {mine[differ]!r} != {theirs[differ]!r}"
                  if differ is not None else f"{len(mine)} rows != {len(theirs)} rows")
        raise CopyError(f"check failed: {what}: {detail}")
    report(f"ok: {what}")


async def _verify(src: sqlite3.Connection, pg: asyncpg.Connection, tables: Sequence[str],
                  report: Report) -> None:
    async def check(what: str, sql: str, norm: Callable[[tuple[Any, ...]], Any] = tuple) -> int:
        mine = [norm(tuple(r)) for r in src.execute(sql)]
        theirs = [norm(tuple(r)) for r in await pg.fetch(sql)]
        _same(what, mine, theirs, report)
        return len(mine)

    for table in (*tables, *DERIVED):
        await check(f"{table}: as many rows", f"SELECT count(*) FROM {table}")
    n = await check("every balance (points, ranked)",
                    "SELECT tg_id, points, ranked FROM balances ORDER BY tg_id")
    report(f"   ({n:,} balances)")
    await check("rank histogram", "SELECT points, players FROM rank_histogram ORDER BY points")
    await check("ledger sums per player",
                "SELECT tg_id, CAST(sum(points) AS BIGINT), count(*) FROM ledger"
                " GROUP BY tg_id ORDER BY tg_id")
    await check("ledger sums per kind",
                "SELECT kind, CAST(sum(points) AS BIGINT), count(*) FROM ledger"
                " GROUP BY kind ORDER BY kind")
    await check("every balance is its ledger's sum (on the copy)",
                "SELECT count(*) FROM balances b WHERE b.points <> coalesce((SELECT"
                " sum(points) FROM ledger l WHERE l.tg_id = b.tg_id), 0)")
    games = await check(
        "finished games' logs (every event: seq, kind, payload, time)",
        "SELECT e.game_id, e.seq, e.kind, e.payload, e.at FROM game_events e"
        " JOIN games g ON g.id = e.game_id WHERE g.status = 'finished'"
        " ORDER BY e.game_id, e.seq")
    report(f"   ({games:,} events)")
    await check("finished games' points (every ledger row of a game)",
                "SELECT l.id, l.game_id, l.tg_id, l.points, l.reason, l.phase, l.day"
                " FROM ledger l JOIN games g ON g.id = l.game_id"
                " WHERE g.status = 'finished' ORDER BY l.id")
    await check("the games (status, seats, roles)",
                "SELECT g.id, g.status, s.seat, s.tg_id, s.role FROM games g"
                " LEFT JOIN game_seats s ON s.game_id = g.id ORDER BY g.id, s.seat")
    queued = await check(
        "the queued outbox (every pending request, in order)",
        "SELECT id, chat_id, key, method, payload, attempts, next_at, rev FROM outbox"
        " WHERE status = 'pending' ORDER BY id")
    report(f"   ({queued:,} queued requests)")
    await check("players", "SELECT tg_id, nickname, nickname_key, games_played,"
                " last_game_date, blocked, spouse_id, expired_for FROM players ORDER BY tg_id")


async def check_replays(pg: asyncpg.Connection, replay: Replay, report: Report) -> int:
    """Every finished game on ``pg`` replayed from its log: over, with a winner, and its
    points (every ledger row of the game: player, points, reason, phase) those the replay
    gives. Raises :class:`CopyError` naming the first game that differs; returns how many
    games were replayed."""
    games = await pg.fetch(
        "SELECT id, club_chat_id, host_id, created_at, finished_on FROM games"
        " WHERE status = 'finished' ORDER BY id")
    stored: dict[int, list[tuple[int, int, str, str | None]]] = {}
    for r in await pg.fetch(
            "SELECT l.game_id, l.tg_id, l.points, l.reason, l.phase FROM ledger l"
            " JOIN games g ON g.id = l.game_id WHERE g.status = 'finished'"
            f" AND l.kind = 'game' AND l.reason <> '{VOID_REASON}'"):  # a void's rows: no play
        stored.setdefault(int(r[0]), []).append((int(r[1]), int(r[2]), str(r[3]), r[4]))
    winners: dict[str, int] = {}
    rows = 0
    for g in games:
        game = Game(id=int(g[0]), club_chat_id=int(g[1]), host_id=int(g[2]),
                    created_at=datetime.fromisoformat(g[3]),
                    status="finished", commitment=None,
                    finished_on=None if g[4] is None else date.fromisoformat(g[4]), seats=())
        events = [GameEvent(game_id=game.id, seq=int(e[0]), kind=str(e[1]),
                            payload=json.loads(e[2]),
                            at=None if e[3] is None else datetime.fromisoformat(e[3]))
                  for e in await pg.fetch("SELECT seq, kind, payload, at FROM game_events"
                                          " WHERE game_id = $1 ORDER BY seq", game.id)]
        try:
            outcome = replay(game, events)
        except Exception as exc:  # the engine refused the log: the copy does not check out
            raise CopyError(f"check failed: game {game.id} cannot be replayed from its log:"
                            f" {type(exc).__name__}: {exc}") from None
        if outcome.winner is None:
            raise CopyError(f"check failed: game {game.id} is finished, but its log replays"
                            " to a game that is not over")
        mine = sorted(stored.get(game.id, []))
        if list(outcome.points) != mine:
            only = sorted(set(mine) ^ set(outcome.points))
            detail = f"; first difference {only[0]!r}" if only else ""
            raise CopyError(
                f"check failed: game {game.id}: its points are not what its log replays to"
                f" ({len(mine)} ledger rows, {len(outcome.points)} from the replay{detail})")
        winners[outcome.winner] = winners.get(outcome.winner, 0) + 1
        rows += len(mine)
    won = ", ".join(f"{w} {n:,}" for w, n in sorted(winners.items())) or "none"
    report(f"ok: finished games replayed from their logs: {len(games):,} games, the winner"
           f" ({won}) and every player's points equal the ledger's {rows:,} rows")
    return len(games)

"""Statements shared by several repositories; each runs inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime

from storage.errors import (
    FriendlyGame,
    InvalidAmount,
    InvalidValue,
    UnknownGame,
    UnknownPlayer,
)
from storage.models import DEFAULT_FINE_CAPS, KIND_GAME, FineCaps, GamePoints, Player
from storage.repos import _rows
from storage.sql import Connection, insert_rows, lock_rows

LEDGER_ROWS_AT_ONCE = 500  # rows of one INSERT (7 values each: far below SQLite's limit)


async def fetch_player(conn: Connection, tg_id: int) -> Player | None:
    rows = await conn.execute_fetchall(
        f"SELECT {_rows.PLAYER_COLUMNS} FROM players WHERE tg_id = ?", (tg_id,))
    return next((_rows.player(r) for r in rows), None)


async def require_player(conn: Connection, tg_id: int) -> Player:
    found = await fetch_player(conn, tg_id)
    if found is None:
        raise UnknownPlayer(tg_id)
    return found


async def balance(conn: Connection, tg_id: int) -> int:
    async with conn.execute("SELECT points FROM balances WHERE tg_id = ?", (tg_id,)) as cur:
        row = await cur.fetchone()
    return 0 if row is None else int(row[0])


FINE_CAP = "fine_cap"  # network_settings' names of the caps on fines (FineCaps)
GAME_FINE_CAP = "game_fine_cap"


async def fine_caps(conn: Connection) -> FineCaps:
    """The network's caps on fines as set (``/network``), or the defaults."""
    rows = await conn.execute_fetchall(
        "SELECT name, value FROM network_settings WHERE name IN (?, ?)",
        (FINE_CAP, GAME_FINE_CAP))
    found = {str(r[0]): int(r[1]) for r in rows}
    return FineCaps(fine=found.get(FINE_CAP, DEFAULT_FINE_CAPS.fine),
                    game=found.get(GAME_FINE_CAP, DEFAULT_FINE_CAPS.game))


async def game_fines(conn: Connection, game_id: int, tg_id: int) -> int:
    """The points a running game's fines took from the player, less those given back."""
    rows = list(await conn.execute_fetchall(
        "SELECT coalesce(sum(points), 0) FROM ledger WHERE game_id = ? AND tg_id = ?"
        " AND kind = ?", (game_id, tg_id, KIND_GAME)))
    return max(0, -int(rows[0][0]))


async def game_status(conn: Connection, game_id: int) -> str:
    rows = list(await conn.execute_fetchall("SELECT status FROM games WHERE id = ?",
                                            (game_id,)))
    if not rows:
        raise UnknownGame(game_id)
    return str(rows[0][0])


async def game_friendly(conn: Connection, game_id: int) -> bool:
    """The game is friendly: it writes no ledger row and counts toward nothing."""
    rows = list(await conn.execute_fetchall("SELECT friendly FROM games WHERE id = ?",
                                            (game_id,)))
    if not rows:
        raise UnknownGame(game_id)
    return bool(rows[0][0])


async def insert_ledger(
    conn: Connection,
    tg_id: int,
    points: int,
    *,
    kind: str,
    reason: str,
    day: date,
    at: datetime | None = None,
    game_id: int | None = None,
    phase: str | None = None,
    admin_id: int | None = None,
) -> int:
    """The new row's id."""
    rows = list(await conn.execute_fetchall(
        "INSERT INTO ledger (tg_id, points, kind, reason, game_id, phase, admin_id, day, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (tg_id, points, kind, reason, game_id, phase, admin_id, day.isoformat(),
         None if at is None else at.isoformat()),
    ))
    return int(rows[0][0])


async def reserved(conn: Connection, tg_id: int) -> int:
    """The points the player's open gift requests reserve (part of its balance). Read under
    the player's row lock, as every write that checks it is (storage/shop/requests.py)."""
    rows = list(await conn.execute_fetchall(
        "SELECT coalesce(sum(points), 0) FROM gift_requests WHERE tg_id = ? AND status = 'open'",
        (tg_id,)))
    return int(rows[0][0])


async def burn_requests(conn: Connection, players: str, params: Sequence[object],
                        now: datetime) -> int:
    """Close the open gift requests of the players the SQL condition ``players`` (on
    ``tg_id``) names: their points are burned (docs/rules.md#9-accounts: two months' absence,
    a block), so nothing is left to reserve. Run in the burn's transaction, under the players'
    row locks; the shop tells the players and the admins afterwards (``told_at`` is NULL). How
    many."""
    cur = await conn.execute(
        "UPDATE gift_requests SET status = 'burned', closed_at = ?"
        f" WHERE status = 'open' AND {players}",
        (now.astimezone(UTC).isoformat(timespec="seconds"), *params))
    return cur.rowcount


async def admin_log(
    conn: Connection, admin_id: int, action: str, details: str, now: datetime
) -> int:
    async with conn.execute(
        "INSERT INTO admin_log (admin_id, action, details, at) VALUES (?, ?, ?, ?) RETURNING id",
        (admin_id, action, details, now.isoformat()),
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def require_players(conn: Connection, tg_ids: Iterable[int]) -> None:
    wanted = sorted(set(tg_ids))
    if not wanted:
        return
    marks = ",".join("?" * len(wanted))
    found = {int(r[0]) for r in await conn.execute_fetchall(
        f"SELECT tg_id FROM players WHERE tg_id IN ({marks})", wanted)}
    for tg_id in wanted:
        if tg_id not in found:
            raise UnknownPlayer(tg_id)


async def games_played(conn: Connection, tg_ids: Iterable[int], day: date) -> None:
    """Count one more game for each player and move its first/last game dates."""
    ids = sorted(set(tg_ids))
    await require_players(conn, ids)
    iso = day.isoformat()
    if not ids:
        return
    # one statement for the table (PostgreSQL's cache triggers run once per statement)
    marks = ",".join(f"?{i}" for i in range(2, len(ids) + 2))
    await conn.execute(
        "UPDATE players SET games_played = games_played + 1,"
        " first_game_date = CASE WHEN first_game_date IS NULL OR first_game_date > ?1"
        "   THEN ?1 ELSE first_game_date END,"
        " last_game_date = CASE WHEN last_game_date IS NULL OR last_game_date < ?1"
        "   THEN ?1 ELSE last_game_date END"
        f" WHERE tg_id IN ({marks})",
        [iso, *ids],
    )


async def record_points(
    conn: Connection, game_id: int, rows: Sequence[GamePoints], day: date,
    touched: list[int] | None = None,
) -> bool:
    """Write a game's ledger rows once; False (and nothing written) if already applied.
    ``touched`` gets the accounts whose row it changes (games played). A friendly game
    writes nothing and counts for nobody: its points are refused (:class:`FriendlyGame`),
    an end without points returns False (the one guard every way of writing a game's
    points passes)."""
    if await game_friendly(conn, game_id):
        if rows:
            raise FriendlyGame(game_id)
        return False
    for row in rows:
        if row.points < 0:
            raise InvalidAmount(row.points)
        if not row.reason:
            raise InvalidValue("reason", row.reason, "empty")
    cur = await conn.execute(
        "INSERT INTO game_points_applied (game_id, day) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (game_id, day.isoformat()),
    )
    if cur.rowcount == 0:
        return False
    async with conn.execute("SELECT tg_id FROM game_seats WHERE game_id = ?", (game_id,)) as c:
        seated = [int(r[0]) for r in await c.fetchall()]
    players = set(seated) | {row.tg_id for row in rows}
    await lock_rows(conn, "players", "tg_id", players)  # their balances, beside an /adjust
    if touched is not None:
        touched.extend(players)
    await games_played(conn, players, day)  # also raises UnknownPlayer
    iso = day.isoformat()
    awarded = [(r.tg_id, r.points, KIND_GAME, r.reason, game_id, r.phase, iso)
               for r in rows if r.points != 0]
    await insert_rows(conn, "ledger", "tg_id, points, kind, reason, game_id, phase, day",
                      awarded, at_once=LEDGER_ROWS_AT_ONCE)
    return True


async def recount_games(conn: Connection, tg_ids: Iterable[int]) -> None:
    """Count each player's games and first/last game dates again from what remains: the games
    whose points were applied and not voided, where the player sat or was awarded (as
    :func:`record_points` counts them), and the old records an import linked to it. A voided
    game is then as if never played, whatever was counted since."""
    ids = sorted(set(tg_ids))
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    # the days of the games a player counts, then the imported records' last games
    days = (
        "SELECT a.day AS day, 1 AS games FROM game_points_applied a"
        " JOIN games g ON g.id = a.game_id"
        " WHERE g.voided_at IS NULL AND (EXISTS (SELECT 1 FROM game_seats s"
        "  WHERE s.game_id = a.game_id AND s.tg_id = players.tg_id)"
        "  OR EXISTS (SELECT 1 FROM ledger l WHERE l.game_id = a.game_id"
        f"  AND l.tg_id = players.tg_id AND l.kind = '{KIND_GAME}'))"
        " UNION ALL SELECT i.last_game_date, i.games_played FROM imported_players i"
        " WHERE i.claimed_by = players.tg_id"
    )
    await conn.execute(
        f"UPDATE players SET games_played = (SELECT coalesce(sum(games), 0) FROM ({days}) AS c),"
        f" first_game_date = (SELECT min(day) FROM ({days}) AS c),"
        f" last_game_date = (SELECT max(day) FROM ({days}) AS c)"
        f" WHERE tg_id IN ({marks})", ids)

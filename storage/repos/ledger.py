"""The points ledger: balances, ranks, game points, redemptions, adjustments, export."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime

from storage.errors import InsufficientBalance, InvalidAmount, InvalidValue
from storage.models import (
    KIND_ADJUST,
    KIND_REDEEM,
    BalanceInfo,
    GamePoints,
    LedgerRow,
    TopEntry,
    is_offline_account,
)
from storage.repos import _ops, _rows
from storage.repos.account_cache import AccountCache
from storage.spreadsheets.columns import EXPORTED, TEXT_COLUMNS, WAITING
from storage.spreadsheets.files import Cell, write_csv, write_xlsx
from storage.sql import Store, lock_rows

# engine.Reason's survived day and night: one reason when a game's lines are read
# (game.reason.survived)
SURVIVED = "('survived_day', 'survived_night')"


class Ledger:
    def __init__(self, db: Store, accounts: AccountCache | None = None) -> None:
        self._db = db
        self._accounts = accounts if accounts is not None else AccountCache()

    async def balance(self, tg_id: int) -> int:
        async with self._db.read() as conn:
            await _ops.require_player(conn, tg_id)
            return await _ops.balance(conn, tg_id)

    async def available(self, tg_id: int) -> int:
        """The points a fine may take now: the balance less what open gift requests reserve."""
        async with self._db.read() as conn:
            await _ops.require_player(conn, tg_id)
            return await _ops.balance(conn, tg_id) - await _ops.reserved(conn, tg_id)

    async def balance_with_rank(self, tg_id: int) -> BalanceInfo:
        """Points, competition rank (1 + players with more points) and how many are ranked.

        Ranked players: a nickname, not blocked, more than zero points.
        """
        async with self._db.read() as conn:
            async with conn.execute(
                "SELECT points, ranked FROM balances WHERE tg_id = ?", (tg_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                await _ops.require_player(conn, tg_id)
                points, ranked = 0, False
            else:
                points, ranked = int(row[0]), bool(row[1])
            async with conn.execute(
                "SELECT coalesce(sum(players), 0),"
                " coalesce(sum(players) FILTER (WHERE points > ?), 0) FROM rank_histogram",
                (points,),
            ) as cur:
                counts = await cur.fetchone()
            assert counts is not None
            total, above = int(counts[0]), int(counts[1])
            rank = 1 + above if ranked and points > 0 else None
        return BalanceInfo(points=points, rank=rank, players_ranked=total)

    async def recent(self, tg_id: int, limit: int = 10) -> list[LedgerRow]:
        """The player's latest ledger rows, newest first."""
        async with self._db.read() as conn:
            await _ops.require_player(conn, tg_id)
            async with conn.execute(
                f"SELECT {_rows.LEDGER_COLUMNS} FROM ledger WHERE tg_id = ?"
                " ORDER BY id DESC LIMIT ?",
                (tg_id, limit),
            ) as cur:
                return [_rows.ledger_row(r) for r in await cur.fetchall()]

    async def recent_grouped(self, tg_id: int, limit: int = 10) -> list[LedgerRow]:
        """The player's latest lines of points, newest first: a game's rows of one reason are
        one line (their points summed; a survived day and a survived night are one reason,
        ``survived``, when a game has both); every other row is a line of its own."""
        async with self._db.read() as conn:
            await _ops.require_player(conn, tg_id)
            async with conn.execute(
                "SELECT max(id) AS id, tg_id, CAST(sum(points) AS BIGINT) AS points, kind,"
                " CASE WHEN count(DISTINCT reason) > 1 THEN 'survived' ELSE min(reason) END"
                " AS reason, game_id, CASE WHEN count(*) = 1 THEN min(phase) END AS phase,"
                " min(admin_id) AS admin_id, max(day) AS day, max(at) AS at"
                " FROM (SELECT id, tg_id, points, kind, reason, game_id, phase, admin_id, day,"
                "  at, CASE WHEN kind <> 'game' THEN NULL"
                f"  WHEN reason IN {SURVIVED} THEN 'survived' ELSE reason END AS line"
                "  FROM ledger WHERE tg_id = ?) AS l"
                " GROUP BY tg_id, kind, game_id, line, CASE WHEN line IS NULL THEN id END"
                " ORDER BY max(id) DESC LIMIT ?",
                (tg_id, limit),
            ) as cur:
                return [_rows.ledger_row(r) for r in await cur.fetchall()]

    async def top(self, limit: int = 20) -> list[TopEntry]:
        """The leaderboard: most points first, ties share a rank (1, 2, 2, 4)."""
        async with self._db.read() as conn, conn.execute(
            "SELECT b.tg_id, b.points, p.nickname FROM balances b"
            " JOIN players p ON p.tg_id = b.tg_id"
            " WHERE b.ranked = 1 AND b.points > 0"
            " ORDER BY b.points DESC, p.nickname_key LIMIT ?",
            (limit,),
        ) as cur:
            rows = await cur.fetchall()
        entries: list[TopEntry] = []
        for index, row in enumerate(rows):
            rank = entries[-1].rank if entries and entries[-1].points == row[1] else index + 1
            entries.append(TopEntry(nickname=row[2], points=row[1], rank=rank, tg_id=row[0]))
        return entries

    async def record_game(
        self, game_id: int, rows: Sequence[GamePoints], *, day: date
    ) -> bool:
        """Write a finished game's points and count the game for its seats and the awarded
        players, all in one transaction. Returns False (writing nothing) if this game's points
        were already applied."""
        touched: list[int] = []  # the accounts whose games_played it counts
        async with self._accounts.writing(self._db, touched) as conn:
            return await _ops.record_points(conn, game_id, rows, day, touched)

    async def redeem(
        self, tg_id: int, points: int, *, reason: str, admin_id: int, now: datetime
    ) -> int:
        """Exchange ``points`` (> 0) for a gift; returns the new balance. Never takes the
        points open gift requests reserve (:class:`InsufficientBalance` names them)."""
        if points <= 0:
            raise InvalidAmount(points)
        return await self._change(
            tg_id, -points, kind=KIND_REDEEM, reason=reason, admin_id=admin_id, now=now
        )

    async def adjust(
        self, tg_id: int, points: int, *, reason: str, admin_id: int, now: datetime
    ) -> int:
        """Add (or, if negative, take) points; never below zero nor below the points open gift
        requests reserve. Returns the new balance."""
        if points == 0:
            raise InvalidAmount(points)
        return await self._change(
            tg_id, points, kind=KIND_ADJUST, reason=reason, admin_id=admin_id, now=now
        )

    async def expiry_date(self, tg_id: int) -> date | None:
        """When the nickname and points expire if no game is played (None: never played)."""
        async with self._db.read() as conn:
            player = await _ops.require_player(conn, tg_id)
        return player.expiry_date

    async def export_rows(self) -> list[list[str | int | date | None]]:
        """Every player with a nickname or points, in the columns ``/import`` reads
        (``storage.spreadsheets.columns.COLUMNS``): nickname, points, games_played, last_game_date,
        telegram_id (empty for an account without Telegram), username (the bot stores no
        usernames: always empty); then ``no_shows`` (the evenings signed up for and not come
        to) and ``status``, which ``/import`` skips (``EXPORTED``). Then the imported records
        no account has taken yet, as they were imported, with the status ``waiting``
        (``WAITING``): fed back to ``/import`` they are unchanged."""
        async with self._db.read() as conn:
            async with conn.execute(
                "SELECT p.nickname, b.points, p.games_played, p.last_game_date, p.tg_id,"
                " (SELECT count(*) FROM evening_signups e WHERE e.tg_id = p.tg_id"
                " AND e.came = 0)"
                " FROM players p JOIN balances b ON b.tg_id = p.tg_id"
                " WHERE p.nickname IS NOT NULL OR b.points > 0"
                " ORDER BY b.points DESC, p.tg_id"
            ) as cur:
                rows = await cur.fetchall()
            async with conn.execute(
                "SELECT nickname, points, games_played, last_game_date, link_tg_id,"
                " link_username FROM imported_players WHERE claimed_by IS NULL"
                " ORDER BY points DESC, nickname_key"
            ) as cur:
                waiting = await cur.fetchall()
        out: list[list[str | int | date | None]] = [
            [nickname or "", points, games, None if last is None else date.fromisoformat(last),
             None if is_offline_account(tg_id) else tg_id, "", int(no_shows), ""]
            for nickname, points, games, last, tg_id, no_shows in rows]
        out.extend([nickname, points, games, None if last is None else date.fromisoformat(last),
                    tg_id, username or "", None, WAITING]
                   for nickname, points, games, last, tg_id, username in waiting)
        return out

    async def export_csv(self) -> str:
        """:meth:`export_rows` as CSV text (dates ``YYYY-MM-DD``; text that would start a
        formula neutralized: ``storage/spreadsheets/files.py``)."""
        data = write_csv(EXPORTED, await self.export_rows())
        return data.decode("utf-8")

    async def export_xlsx(
        self, more: Sequence[tuple[str, Sequence[str], Iterable[Sequence[Cell]]]] = ()
    ) -> bytes:
        """:meth:`export_rows` as one ``.xlsx`` sheet with the same columns (date cells, the
        nickname and username as text), then the sheets of ``more``."""
        return write_xlsx(EXPORTED, await self.export_rows(), title="balances", more=more,
                          text=TEXT_COLUMNS)

    async def _change(
        self, tg_id: int, delta: int, *, kind: str, reason: str, admin_id: int, now: datetime
    ) -> int:
        if not reason.strip():
            raise InvalidValue("reason", reason, "empty")
        async with self._db.transaction() as conn:
            await lock_rows(conn, "players", "tg_id", [tg_id])  # the balance checked, then changed
            await _ops.require_player(conn, tg_id)
            current = await _ops.balance(conn, tg_id)
            # points taken never reach those promised to open gift requests
            held = await _ops.reserved(conn, tg_id) if delta < 0 else 0
            if current + delta < held:
                raise InsufficientBalance(tg_id, current, -delta, reserved=held)
            await _ops.insert_ledger(
                conn, tg_id, delta, kind=kind, reason=reason, day=now.date(), at=now,
                admin_id=admin_id,
            )
            await _ops.admin_log(
                conn, admin_id, kind, f"player={tg_id} points={delta} reason={reason}", now
            )
            return current + delta

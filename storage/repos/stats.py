"""Read-only queries for statistics and the web pages: games played, club tables, game points.

Nothing here writes. Every method reads one consistent snapshot (``Database.read``).
"""

from __future__ import annotations

from datetime import date

from engine import FineReason
from storage.models import KIND_GAME, STATUS_FINISHED, Club, LedgerRow, PlayedGame, TopEntry
from storage.repos import _rows
from storage.repos.records import VOID_REASON
from storage.sql import Store


def _ranks(rows: list[tuple[int, str, int]]) -> list[TopEntry]:
    """(tg_id, nickname, points) sorted by points descending -> competition ranks (1, 2, 2, 4)."""
    entries: list[TopEntry] = []
    for index, (tg_id, nickname, points) in enumerate(rows):
        rank = entries[-1].rank if entries and entries[-1].points == points else index + 1
        entries.append(TopEntry(nickname=nickname, points=points, rank=rank, tg_id=tg_id))
    return entries


# a fine given back: its foul undone, or its game aborted (docs/storage.md, "ledger")
RETURNED = (FineReason.FOUL_UNDONE.value, FineReason.GAME_ABORTED.value)
NO_LIMIT = 2**62  # LIMIT with no limit on both backends (SQLite's -1 is refused by PostgreSQL)


class Stats:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def played_games(self, tg_id: int, *, limit: int | None = None) -> list[PlayedGame]:
        """The finished games the player sat in (a voided or friendly one counts for
        nothing), newest first, with the card dealt."""
        async with self._db.read() as conn, conn.execute(
            "SELECT g.id, g.club_chat_id, c.title, g.finished_on, s.seat, s.role"
            " FROM game_seats s JOIN games g ON g.id = s.game_id"
            " JOIN clubs c ON c.chat_id = g.club_chat_id"
            " WHERE s.tg_id = ? AND g.status = ? AND g.voided_at IS NULL AND g.friendly = 0"
            " ORDER BY g.id DESC LIMIT ?",
            (tg_id, STATUS_FINISHED, NO_LIMIT if limit is None else limit),
        ) as cur:
            rows = await cur.fetchall()
        return [
            PlayedGame(game_id=r[0], club_chat_id=r[1], club_title=r[2],
                       finished_on=_rows.opt_date(r[3]), seat=r[4], role=r[5])
            for r in rows
        ]

    async def points_totals(self, tg_id: int) -> tuple[int, int]:
        """(earned, spent): the sum of the player's positive ledger rows and of the negative
        ones as a positive number (gifts, burns, fines, corrections down). An undone foul's
        reversing row (or an aborted game's) takes its fine back off "spent" rather than
        adding to "earned", so a foul recorded by mistake leaves both as they were. A void's
        rows take its game's points back off "earned" and its fines off "spent" the same
        way."""
        undone = "kind = ? AND reason IN (?, ?)"
        voided = "kind = ? AND reason = ?"
        async with self._db.read() as conn, conn.execute(
            f"SELECT coalesce(sum(points) FILTER (WHERE points > 0 AND NOT ({undone})"
            f" AND NOT ({voided})), 0)"
            f" + coalesce(sum(points) FILTER (WHERE points < 0 AND {voided}), 0),"
            f" coalesce(-sum(points) FILTER (WHERE points < 0 AND NOT ({voided})), 0)"
            f" - coalesce(sum(points) FILTER (WHERE points > 0 AND ({undone} OR {voided})), 0)"
            " FROM ledger WHERE tg_id = ?",
            (KIND_GAME, *RETURNED, KIND_GAME, VOID_REASON, KIND_GAME, VOID_REASON,
             KIND_GAME, VOID_REASON, KIND_GAME, *RETURNED, KIND_GAME, VOID_REASON, tg_id),
        ) as cur:
            row = await cur.fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    async def club_top(
        self, club_chat_id: int, *, since: date, until: date, limit: int = 20
    ) -> list[TopEntry]:
        """Points earned in the club's games (not voided) with a ledger day in [since, until],
        per ranked player (a nickname, not blocked), most first; ties share a rank."""
        async with self._db.read() as conn, conn.execute(
            "SELECT l.tg_id, p.nickname, sum(l.points) AS total FROM ledger l"
            " JOIN games g ON g.id = l.game_id"
            " JOIN players p ON p.tg_id = l.tg_id"
            " WHERE l.kind = ? AND g.club_chat_id = ? AND l.day BETWEEN ? AND ?"
            " AND g.voided_at IS NULL"
            " AND p.nickname IS NOT NULL AND p.blocked = 0"
            " GROUP BY l.tg_id, p.nickname, p.nickname_key HAVING sum(l.points) > 0"
            " ORDER BY total DESC, p.nickname_key LIMIT ?",
            (KIND_GAME, club_chat_id, since.isoformat(), until.isoformat(), limit),
        ) as cur:
            rows = await cur.fetchall()
        return _ranks([(int(r[0]), str(r[1]), int(r[2])) for r in rows])

    async def clubs(self) -> list[Club]:
        """Clubs with at least one finished game that counted (not friendly), by title (with
        their time zones: each club's board ends on its own day)."""
        async with self._db.read() as conn, conn.execute(
            "SELECT chat_id, title, locale, time_zone FROM clubs c WHERE EXISTS"
            " (SELECT 1 FROM games g WHERE g.club_chat_id = c.chat_id AND g.status = ?"
            "  AND g.friendly = 0)"
            " ORDER BY title, chat_id",
            (STATUS_FINISHED,),
        ) as cur:
            rows = await cur.fetchall()
        return [Club(chat_id=r[0], title=r[1], locale=r[2], time_zone=r[3]) for r in rows]

    async def finished_games(self, club_chat_id: int, *, limit: int = 20) -> list[PlayedGame]:
        """The club's latest finished games that counted (not friendly; ``seat``/``role``
        are 0/None: no player)."""
        async with self._db.read() as conn, conn.execute(
            "SELECT g.id, g.club_chat_id, c.title, g.finished_on FROM games g"
            " JOIN clubs c ON c.chat_id = g.club_chat_id"
            " WHERE g.club_chat_id = ? AND g.status = ? AND g.friendly = 0"
            " ORDER BY g.id DESC LIMIT ?",
            (club_chat_id, STATUS_FINISHED, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [PlayedGame(game_id=r[0], club_chat_id=r[1], club_title=r[2],
                           finished_on=_rows.opt_date(r[3]), seat=0, role=None) for r in rows]

    async def game_points(self, game_id: int) -> list[LedgerRow]:
        """The ledger rows a game wrote, in order."""
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_rows.LEDGER_COLUMNS} FROM ledger WHERE game_id = ? AND kind = ?"
            " ORDER BY id",
            (game_id, KIND_GAME),
        ) as cur:
            return [_rows.ledger_row(r) for r in await cur.fetchall()]

    async def nicknames(self, tg_ids: list[int]) -> dict[int, str | None]:
        """The current nickname of each player (None when it expired or was never set)."""
        if not tg_ids:
            return {}
        marks = ",".join("?" * len(tg_ids))
        async with self._db.read() as conn, conn.execute(
            f"SELECT tg_id, nickname FROM players WHERE tg_id IN ({marks})", tg_ids
        ) as cur:
            return {int(r[0]): r[1] for r in await cur.fetchall()}

"""The inbox: Telegram updates as received, so each is handled once (docs/scaling.md).

On PostgreSQL every update is written here before the next ``getUpdates`` confirms it to
Telegram (or before a webhook's 200), with its club: the process holding that club's lock
handles it (``club`` NULL: any process, which claims it first). An update_id already present is
a second delivery: dropped. A row is marked handled once its handler returned; rows left
unhandled by a process that died are handled by the next holder.
"""

from __future__ import annotations

from storage.models import ACTIVE_STATUSES
from storage.sql import Store

KEEP_HANDLED_S = 24 * 3600


class Inbox:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def add(self, update_id: int, payload: str, now: float,
                  club: int | None = None) -> bool:
        """Whether the update is new (False: it was received before)."""
        async with self._db.transaction() as conn:
            rows = list(await conn.execute_fetchall(
                "INSERT INTO inbox (update_id, payload, received, club) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
                (update_id, payload, now, club)))
        return bool(rows)

    async def add_many(self, updates: list[tuple[int, str, int | None]],
                       now: float) -> set[int]:
        """(update_id, payload, club) each, in one transaction: the ids that were new."""
        new: set[int] = set()
        async with self._db.transaction() as conn:
            for update_id, payload, club in updates:
                rows = await conn.execute_fetchall(
                    "INSERT INTO inbox (update_id, payload, received, club) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
                    (update_id, payload, now, club))
                new.update(int(r[0]) for r in rows)
        return new

    async def handled(self, update_id: int, now: float) -> None:
        # after the update's handler: nobody waits for it, so behind the games' steps
        async with self._db.transaction(background=True) as conn:
            await conn.execute("UPDATE inbox SET handled = ? WHERE update_id = ?"
                               " AND handled IS NULL", (now, update_id))

    async def pending(self) -> list[tuple[int, str]]:
        """Received and not handled, oldest first."""
        rows = await self._db.query(
            "SELECT update_id, payload FROM inbox WHERE handled IS NULL ORDER BY update_id")
        return [(int(r[0]), str(r[1])) for r in rows]

    async def pending_clubs(self) -> list[int]:
        """The clubs with updates waiting for their holder."""
        rows = await self._db.query(
            "SELECT DISTINCT club FROM inbox WHERE handled IS NULL AND club IS NOT NULL")
        return [int(r[0]) for r in rows]

    async def prune(self, now: float) -> int:
        async with self._db.transaction(background=True) as conn:
            cur = await conn.execute(
                "DELETE FROM inbox WHERE handled IS NOT NULL AND handled < ?",
                (now - KEEP_HANDLED_S,))
        return cur.rowcount

    # ------------------------------------------------------------------ routing
    async def club_of_game(self, game_id: int) -> int | None:
        rows = await self._db.query("SELECT club_chat_id FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def club_of_player(self, tg_id: int) -> int | None:
        """The club of the newest game not over that ``tg_id`` sits in or hosts."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        rows = await self._db.query(
            "SELECT g.club_chat_id FROM games g WHERE g.status IN (" + marks + ") AND"
            " (g.host_id = ? OR EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id"
            " AND s.tg_id = ?)) ORDER BY g.id DESC LIMIT 1",
            (*ACTIVE_STATUSES, tg_id, tg_id))
        return int(rows[0][0]) if rows else None

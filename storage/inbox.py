"""The inbox: Telegram updates as received, so each is handled once (docs/scaling.md).

The process running the clubs on PostgreSQL writes every update here before its next
``getUpdates`` confirms it to Telegram, and marks it handled once its handler returned. An
update_id already present is a second delivery: dropped. Rows left unhandled by a process that
died are handled by the next one at its start.
"""

from __future__ import annotations

from storage.sql import Store

KEEP_HANDLED_S = 24 * 3600


class Inbox:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def add(self, update_id: int, payload: str, now: float) -> bool:
        """Whether the update is new (False: it was received before)."""
        async with self._db.transaction() as conn:
            rows = list(await conn.execute_fetchall(
                "INSERT INTO inbox (update_id, payload, received) VALUES (?, ?, ?)"
                " ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
                (update_id, payload, now)))
        return bool(rows)

    async def handled(self, update_id: int, now: float) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE inbox SET handled = ? WHERE update_id = ?"
                               " AND handled IS NULL", (now, update_id))

    async def pending(self) -> list[tuple[int, str]]:
        """Received and not handled, oldest first."""
        rows = await self._db.query(
            "SELECT update_id, payload FROM inbox WHERE handled IS NULL ORDER BY update_id")
        return [(int(r[0]), str(r[1])) for r in rows]

    async def prune(self, now: float) -> int:
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "DELETE FROM inbox WHERE handled IS NOT NULL AND handled < ?",
                (now - KEEP_HANDLED_S,))
        return cur.rowcount

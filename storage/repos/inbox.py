"""The inbox: Telegram updates as received, so each is handled once (docs/scaling.md).

On PostgreSQL every update is written here before the next ``getUpdates`` confirms it to
Telegram (or before a webhook's 200), with its club: the process holding that club's lock
handles it (``club`` NULL: any process, which claims it first). An update_id already present is
a second delivery: dropped. A row is marked handled once its handler returned; rows left
unhandled by a process that died are handled by the next holder.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
        return (await self.clubs_of_games([game_id])).get(game_id)

    async def club_of_player(self, tg_id: int) -> int | None:
        """The club of the newest game not over that ``tg_id`` sits in or hosts."""
        return (await self.clubs_of_players([tg_id])).get(tg_id)

    async def clubs_of_games(self, game_ids: Iterable[int]) -> dict[int, int]:
        """Each game's club (a game that does not exist: absent), in one read."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        rows = await self._db.query(
            "SELECT id, club_chat_id FROM games WHERE id IN (" + _marks(ids) + ")", ids)
        return {int(r[0]): int(r[1]) for r in rows}

    async def clubs_of_players(self, tg_ids: Iterable[int]) -> dict[int, int]:
        """For each player in a game not over (seated or hosting), the club of the newest such
        game (a player in none: absent), in one read."""
        ids = sorted(set(tg_ids))
        if not ids:
            return {}
        rows = await self._db.query(
            "SELECT p.tg_id, g.id, g.club_chat_id FROM games g JOIN ("
            " SELECT host_id AS tg_id, id AS game_id FROM games WHERE host_id IN ("
            + _marks(ids) + ") UNION SELECT tg_id, game_id FROM game_seats WHERE tg_id IN ("
            + _marks(ids) + ")) p ON p.game_id = g.id WHERE g.status IN ("
            + _marks(ACTIVE_STATUSES) + ")",
            (*ids, *ids, *ACTIVE_STATUSES))
        newest: dict[int, tuple[int, int]] = {}
        for tg_id, game_id, club in rows:
            if int(game_id) > newest.get(int(tg_id), (-1, 0))[0]:
                newest[int(tg_id)] = (int(game_id), int(club))
        return {tg_id: club for tg_id, (_, club) in newest.items()}


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))

"""Smaller records: immunity orders, first-day kills, complaints, the admin action log."""

from __future__ import annotations

from datetime import date, datetime

from storage.errors import (
    ImmunityAlreadyUsed,
    InvalidOrder,
    InvalidValue,
    UnknownClub,
    UnknownOrder,
)
from storage.models import FINAL_STATUSES, AdminAction, Complaint, ImmunityOrder, Player
from storage.repos import _ops, _rows
from storage.sql import Connection, Store, lock_rows

MAX_COMPLAINT_LENGTH = 2000
_ORDER_COLUMNS = "id, game_id, orderer_id, holder_id, announce_name, accepted, used"


async def orders_of_game(conn: Connection, game_id: int) -> list[ImmunityOrder]:
    """The game's friend orders, in order (the game checked: UnknownGame)."""
    await _ops.game_status(conn, game_id)
    async with conn.execute(
        f"SELECT {_ORDER_COLUMNS} FROM immunity_orders WHERE game_id = ? ORDER BY id",
        (game_id,),
    ) as cur:
        return [_rows.order(r) for r in await cur.fetchall()]


async def killed_on(conn: Connection, club_chat_id: int, day: date) -> set[int]:
    """Who was killed on the first day of a game in this club on ``day``."""
    return {int(r[0]) for r in await conn.execute_fetchall(
        "SELECT tg_id FROM first_day_killed WHERE club_chat_id = ? AND day = ?",
        (club_chat_id, day.isoformat()))}


async def _fetch_order(conn: Connection, order_id: int) -> ImmunityOrder:
    async with conn.execute(
        f"SELECT {_ORDER_COLUMNS} FROM immunity_orders WHERE id = ?", (order_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        raise UnknownOrder(order_id)
    return _rows.order(row)


class Immunity:
    """"Давай дружить" orders (RULES 5.2). Storage checks integrity (both seated, not self,
    one order per orderer and game); the sex / neighbour / spouse rules are the engine's."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def order(
        self, game_id: int, orderer_id: int, holder_id: int, *, announce_name: bool
    ) -> ImmunityOrder:
        async with self._db.transaction() as conn:
            status = await _ops.game_status(conn, game_id)
            if status in FINAL_STATUSES:
                raise InvalidOrder(game_id, "game_closed")
            await _ops.require_players(conn, (orderer_id, holder_id))
            if orderer_id == holder_id:
                raise InvalidOrder(game_id, "self")
            async with conn.execute(
                "SELECT count(*) FROM game_seats WHERE game_id = ? AND tg_id IN (?, ?)",
                (game_id, orderer_id, holder_id),
            ) as cur:
                row = await cur.fetchone()
            if row is None or int(row[0]) != 2:
                raise InvalidOrder(game_id, "not_seated")
            async with conn.execute(
                "INSERT INTO immunity_orders (game_id, orderer_id, holder_id,"
                " announce_name) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (game_id, orderer_id, holder_id, int(announce_name)),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                raise InvalidOrder(game_id, "duplicate")
            return await _fetch_order(conn, int(row[0]))

    async def accept(self, order_id: int) -> ImmunityOrder:
        """The host accepted the order."""
        async with self._db.transaction() as conn:
            await _fetch_order(conn, order_id)
            await conn.execute("UPDATE immunity_orders SET accepted = 1 WHERE id = ?", (order_id,))
            return await _fetch_order(conn, order_id)

    async def for_game(self, game_id: int) -> list[ImmunityOrder]:
        async with self._db.read() as conn:
            return await orders_of_game(conn, game_id)

    async def mark_used(self, order_id: int) -> ImmunityOrder:
        """The immunity saved its holder; raises ImmunityAlreadyUsed the second time."""
        async with self._db.transaction() as conn:
            await lock_rows(conn, "immunity_orders", "id", [order_id])  # used once
            order = await _fetch_order(conn, order_id)
            if order.used:
                raise ImmunityAlreadyUsed(order_id)
            await conn.execute("UPDATE immunity_orders SET used = 1 WHERE id = ?", (order_id,))
            return await _fetch_order(conn, order_id)


class FirstDayKilled:
    """"Убит в первые сутки" marks: per club and calendar day (RULES 5.1)."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def mark(self, club_chat_id: int, day: date, tg_id: int) -> None:
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT 1 FROM clubs WHERE chat_id = ?", (club_chat_id,)
            ) as cur:
                if await cur.fetchone() is None:
                    raise UnknownClub(club_chat_id)
            await conn.execute(
                "INSERT INTO first_day_killed (club_chat_id, day, tg_id)"
                " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (club_chat_id, day.isoformat(), tg_id),
            )

    async def has(self, club_chat_id: int, day: date, tg_id: int) -> bool:
        async with self._db.read() as conn, conn.execute(
            "SELECT 1 FROM first_day_killed WHERE club_chat_id = ? AND day = ? AND tg_id = ?",
            (club_chat_id, day.isoformat(), tg_id),
        ) as cur:
            return await cur.fetchone() is not None

    async def for_day(self, club_chat_id: int, day: date) -> set[int]:
        async with self._db.read() as conn:
            return await killed_on(conn, club_chat_id, day)


class Complaints:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def add(self, from_id: int, about_id: int, text: str, now: datetime) -> Complaint:
        body = text.strip()
        if from_id == about_id:
            raise InvalidValue("complaint", about_id, "self")
        if not body:
            raise InvalidValue("complaint", text, "empty")
        if len(body) > MAX_COMPLAINT_LENGTH:
            raise InvalidValue("complaint", len(body), "too_long")
        async with self._db.transaction() as conn:
            await _ops.require_players(conn, (from_id, about_id))
            async with conn.execute(
                "INSERT INTO complaints (from_id, about_id, text, at) VALUES (?, ?, ?, ?)"
                " RETURNING id",
                (from_id, about_id, body, now.isoformat()),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            return Complaint(id=int(row[0]), from_id=from_id, about_id=about_id, text=body,
                             at=now)

    async def count_from(self, from_id: int, day: date) -> int:
        """Complaints ``from_id`` filed on ``day`` (by the date of their timestamp)."""
        async with self._db.read() as conn, conn.execute(
            "SELECT count(*) FROM complaints WHERE from_id = ? AND substr(at, 1, 10) = ?",
            (from_id, day.isoformat()),
        ) as cur:
            row = await cur.fetchone()
        return 0 if row is None else int(row[0])

    async def counts(self) -> list[tuple[Player, int]]:
        """(player complained about, number of complaints), most complained about first."""
        async with self._db.read() as conn, conn.execute(
            "SELECT about_id, count(*) FROM complaints GROUP BY about_id"
            " ORDER BY count(*) DESC, about_id"
        ) as cur:
            rows = [(int(r[0]), int(r[1])) for r in await cur.fetchall()]
            result = []
            for tg_id, count in rows:
                result.append((await _ops.require_player(conn, tg_id), count))
        return result

    async def about(self, tg_id: int, limit: int = 20) -> list[Complaint]:
        """The latest complaints about one player, newest first."""
        async with self._db.read() as conn, conn.execute(
            "SELECT id, from_id, about_id, text, at FROM complaints WHERE about_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (tg_id, limit),
        ) as cur:
            return [_rows.complaint(r) for r in await cur.fetchall()]


class AdminLog:
    """Who did what, when. redeem/adjust/block/unblock write here by themselves."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def record(self, admin_id: int, action: str, details: str, now: datetime) -> int:
        if not action:
            raise InvalidValue("action", action, "empty")
        async with self._db.transaction() as conn:
            return await _ops.admin_log(conn, admin_id, action, details, now)

    async def recent(self, limit: int = 20) -> list[AdminAction]:
        async with self._db.read() as conn, conn.execute(
            "SELECT id, admin_id, action, details, at FROM admin_log ORDER BY id DESC LIMIT ?",
            (limit,),
        ) as cur:
            return [_rows.admin_action(r) for r in await cur.fetchall()]

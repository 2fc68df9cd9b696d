"""The catalogue: the network's gifts, and each admin's dialog waiting for a typed value."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from storage.errors import GiftRefused, InvalidValue
from storage.models import Gift, GiftDraft
from storage.repos import _ops
from storage.sql import Connection, Lock, Row, Store, lock_key, lock_rows

NAME_MAX = 64
PRICE_MAX = 1_000_000
STOCK_MAX = 100_000
DRAFT_FIELDS = ("name", "price", "stock", "photo")

GIFT_COLUMNS = (
    "g.id, g.name, g.price, g.stock,"
    " (SELECT count(*) FROM gift_requests r WHERE r.gift_id = g.id AND r.status = 'open'),"
    " g.photo, g.active"
)


def gift_row(row: Row) -> Gift:
    """``row`` holds the GIFT_COLUMNS, in order."""
    return Gift(id=int(row[0]), name=str(row[1]), price=int(row[2]), stock=int(row[3]),
                reserved=int(row[4]), photo=row[5], active=bool(row[6]))


def clean_name(name: str) -> str:
    """The name as stored: spaces collapsed; 1 to NAME_MAX characters, no control character."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidValue("name", name, "empty")
    if len(cleaned) > NAME_MAX:
        raise InvalidValue("name", name, "too_long")
    if any(unicodedata.category(c).startswith("C") for c in cleaned):
        raise InvalidValue("name", name, "bad_chars")
    return cleaned


def name_key(name: str) -> str:
    """Two names with the same key are one gift's ("Mug" and "mug ")."""
    return " ".join(name.casefold().split())


def check_price(price: int) -> int:
    if not 0 < price <= PRICE_MAX:
        raise InvalidValue("price", price, "range")
    return price


def check_stock(stock: int) -> int:
    if not 0 <= stock <= STOCK_MAX:
        raise InvalidValue("stock", stock, "range")
    return stock


async def fetch_gift(conn: Connection, gift_id: int) -> Gift | None:
    rows = await conn.execute_fetchall(f"SELECT {GIFT_COLUMNS} FROM gifts g WHERE g.id = ?",
                                       (gift_id,))
    return next((gift_row(r) for r in rows), None)


@dataclass(frozen=True, slots=True)
class _Keep:
    """An edit's field left as it is (the photo may be set to None: removed)."""


KEEP = _Keep()


class Gifts:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def get(self, gift_id: int) -> Gift | None:
        async with self._db.read() as conn:
            return await fetch_gift(conn, gift_id)

    async def catalogue(self, *, active_only: bool = False) -> list[Gift]:
        """Active gifts first, cheapest first; then the retired ones."""
        where = " WHERE g.active = 1" if active_only else ""
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {GIFT_COLUMNS} FROM gifts g{where}"
                " ORDER BY g.active DESC, g.price, g.id")
        return [gift_row(r) for r in rows]

    async def add(self, name: str, price: int, stock: int, *, admin_id: int,
                  now: datetime) -> Gift:
        """A new active gift. :class:`GiftRefused` "name_taken" when another gift (retired
        too) has this name."""
        name = clean_name(name)
        check_price(price)
        check_stock(stock)
        async with self._db.transaction() as conn:
            await lock_key(conn, Lock.GIFT_NAME)
            await _name_free(conn, name, None)
            rows = list(await conn.execute_fetchall(
                "INSERT INTO gifts (name, name_key, price, stock, created_at)"
                " VALUES (?, ?, ?, ?, ?) RETURNING id",
                (name, name_key(name), price, stock, now.isoformat())))
            gift_id = int(rows[0][0])
            await _ops.admin_log(conn, admin_id, "gift_add",
                                 f"gift={gift_id} name={name} price={price} stock={stock}", now)
            gift = await fetch_gift(conn, gift_id)
        assert gift is not None
        return gift

    async def edit(self, gift_id: int, *, admin_id: int, now: datetime,
                   name: str | None = None, price: int | None = None,
                   stock: int | None = None, photo: str | _Keep | None = KEEP,
                   active: bool | None = None) -> Gift:
        """Change the fields given. Open requests keep the price they reserved; the stock may
        not go below the items they reserve (:class:`GiftRefused` "below_reserved")."""
        changes: list[tuple[str, object]] = []
        if name is not None:
            name = clean_name(name)
            changes += [("name", name), ("name_key", name_key(name))]
        if price is not None:
            changes.append(("price", check_price(price)))
        if stock is not None:
            changes.append(("stock", check_stock(stock)))
        if not isinstance(photo, _Keep):
            changes.append(("photo", photo))
        if active is not None:
            changes.append(("active", int(active)))
        async with self._db.transaction() as conn:
            if name is not None:
                await lock_key(conn, Lock.GIFT_NAME)
            await lock_rows(conn, "gifts", "id", [gift_id])  # the reserved items counted
            gift = await fetch_gift(conn, gift_id)
            if gift is None:
                raise GiftRefused("unknown_gift")
            if name is not None:
                await _name_free(conn, name, gift_id)
            if stock is not None and stock < gift.reserved:
                raise GiftRefused("below_reserved", gift=gift, available=gift.reserved)
            if changes:
                await conn.execute(
                    f"UPDATE gifts SET {', '.join(f'{c} = ?' for c, _ in changes)} WHERE id = ?",
                    (*(v for _, v in changes), gift_id))
                details = " ".join(f"{c}={v}" for c, v in changes if c != "name_key")
                await _ops.admin_log(conn, admin_id, "gift_edit", f"gift={gift_id} {details}",
                                     now)
            fresh = await fetch_gift(conn, gift_id)
        assert fresh is not None
        return fresh

    async def draft(self, admin_id: int) -> GiftDraft | None:
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT admin_id, field, gift_id, name, price, at FROM gift_drafts"
                " WHERE admin_id = ?", (admin_id,))
        return next((GiftDraft(int(r[0]), str(r[1]), r[2], r[3], r[4],
                               datetime.fromisoformat(r[5])) for r in rows), None)

    async def set_draft(self, admin_id: int, field: str, *, now: datetime,
                        gift_id: int | None = None, name: str | None = None,
                        price: int | None = None) -> None:
        """The admin's dialog now waits for ``field`` (replacing whatever it waited for)."""
        if field not in DRAFT_FIELDS:
            raise InvalidValue("field", field, "unknown")
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO gift_drafts (admin_id, field, gift_id, name, price, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (admin_id) DO UPDATE SET"
                " field = excluded.field, gift_id = excluded.gift_id, name = excluded.name,"
                " price = excluded.price, at = excluded.at",
                (admin_id, field, gift_id, name, price, now.isoformat()))

    async def drop_draft(self, admin_id: int) -> bool:
        """The dialog waits for nothing; False if it did not."""
        async with self._db.transaction() as conn:
            cur = await conn.execute("DELETE FROM gift_drafts WHERE admin_id = ?", (admin_id,))
            return cur.rowcount > 0


async def _name_free(conn: Connection, name: str, gift_id: int | None) -> None:
    rows = list(await conn.execute_fetchall(
        f"SELECT {GIFT_COLUMNS} FROM gifts g WHERE g.name_key = ?", (name_key(name),)))
    taken = [gift_row(r) for r in rows if int(r[0]) != gift_id]
    if taken:
        raise GiftRefused("name_taken", gift=taken[0])

"""The players' gift requests: asked, then handed over, cancelled, withdrawn, expired or burned,
and told: each change is told to the player and the admins once, through the outbox.

While open, a request reserves its points (the price when it was asked) and one item of its
gift. Every write that checks a balance, a reservation or a stock takes the row locks in one
order: the player's row, the gift's row, the request's row (``lock_rows``; nothing on SQLite,
whose one writer serializes them), so two players asking for the last item, a double press, a
handover beside a cancel or a block never both succeed and never wait in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from storage.errors import GiftRefused, UnknownClub
from storage.models import KIND_REDEEM, REQUEST_OPEN, GiftRequest, is_offline_account
from storage.repos import _ops
from storage.repos.outbox import Queued, enqueue_in
from storage.shop.gifts import fetch_gift
from storage.sql import Connection, Row, Store, lock_rows

REQUEST_COLUMNS = (
    "r.id, r.gift_id, g.name, r.tg_id, r.points, r.status, r.created_at, r.closed_at,"
    " r.closed_by, r.ledger_id, r.announced_at, r.told_at, r.club_chat_id"
)
_FROM = " FROM gift_requests r JOIN gifts g ON g.id = r.gift_id"
# changed and not yet told: a new request the admins have not heard of, or an end nobody heard
UNTOLD = "(r.announced_at IS NULL OR (r.status <> 'open' AND r.told_at IS NULL))"

EXPORT_COLUMNS = ("request", "asked_at", "nickname", "telegram_id", "gift_id", "gift",
                  "points", "status", "closed_at", "closed_by", "ledger_row")


def _at(moment: datetime) -> str:
    """A moment as stored: UTC to the second, so that text compares as time."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def request_row(row: Row) -> GiftRequest:
    """``row`` holds the REQUEST_COLUMNS, in order."""
    return GiftRequest(
        id=int(row[0]), gift_id=int(row[1]), gift_name=str(row[2]), tg_id=int(row[3]),
        points=int(row[4]), status=str(row[5]), created_at=datetime.fromisoformat(row[6]),
        closed_at=None if row[7] is None else datetime.fromisoformat(row[7]),
        closed_by=row[8], ledger_id=row[9], announced=row[10] is not None,
        told=row[11] is not None, club_chat_id=None if row[12] is None else int(row[12]))


async def fetch_request(conn: Connection, request_id: int) -> GiftRequest | None:
    rows = await conn.execute_fetchall(f"SELECT {REQUEST_COLUMNS}{_FROM} WHERE r.id = ?",
                                       (request_id,))
    return next((request_row(r) for r in rows), None)


class GiftRequests:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def reserved(self, tg_id: int) -> int:
        """The points the player's open requests reserve."""
        async with self._db.read() as conn:
            return await _ops.reserved(conn, tg_id)

    async def get(self, request_id: int) -> GiftRequest | None:
        async with self._db.read() as conn:
            return await fetch_request(conn, request_id)

    async def open_of(self, tg_id: int) -> list[GiftRequest]:
        """The player's open requests, oldest first."""
        return await self._select(" WHERE r.tg_id = ? AND r.status = 'open' ORDER BY r.id",
                                  (tg_id,))

    async def open_all(self, limit: int = 50) -> list[GiftRequest]:
        """Every open request, oldest first (``/gift_requests``)."""
        return await self._select(" WHERE r.status = 'open' ORDER BY r.id LIMIT ?", (limit,))

    async def count_open(self) -> int:
        rows = await self._db.query("SELECT count(*) FROM gift_requests WHERE status = 'open'")
        return int(rows[0][0])

    async def ask(self, tg_id: int, gift_id: int, *, price: int, card: int,
                  now: datetime, club_chat_id: int | None = None) -> GiftRequest:
        """A new open request for one item of the gift at ``price`` (the price the player saw),
        from the message ``card``, to be collected at the club ``club_chat_id`` (None: no
        club named; an unknown one: :class:`UnknownClub`). Refused (:class:`GiftRefused`,
        nothing written) for a blocked account ("blocked"), a second request from the same
        card ("duplicate", naming the first), an unknown or retired gift, a price changed
        since, no item left, or fewer available points than the price ("insufficient",
        ``available``: balance less the player's open requests)."""
        async with self._db.transaction() as conn:
            await lock_rows(conn, "players", "tg_id", [tg_id])  # its balance and reservations
            player = await _ops.require_player(conn, tg_id)
            if player.blocked:
                raise GiftRefused("blocked")
            rows = list(await conn.execute_fetchall(
                f"SELECT {REQUEST_COLUMNS}{_FROM} WHERE r.tg_id = ? AND r.card = ?",
                (tg_id, card)))
            if rows:
                raise GiftRefused("duplicate", request=request_row(rows[0]))
            await lock_rows(conn, "gifts", "id", [gift_id])  # its items left
            gift = await fetch_gift(conn, gift_id)
            if gift is None:
                raise GiftRefused("unknown_gift")
            if not gift.active:
                raise GiftRefused("retired", gift=gift)
            if gift.price != price:
                raise GiftRefused("price_changed", gift=gift)
            if gift.left <= 0:
                raise GiftRefused("out_of_stock", gift=gift)
            available = await _ops.balance(conn, tg_id) - await _ops.reserved(conn, tg_id)
            if available < gift.price:
                raise GiftRefused("insufficient", gift=gift, available=max(0, available))
            if club_chat_id is not None and not list(await conn.execute_fetchall(
                    "SELECT 1 FROM clubs WHERE chat_id = ?", (club_chat_id,))):
                raise UnknownClub(club_chat_id)
            rows = list(await conn.execute_fetchall(
                "INSERT INTO gift_requests (gift_id, tg_id, points, card, created_at,"
                " club_chat_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (gift_id, tg_id, gift.price, card, _at(now), club_chat_id)))
            made = await fetch_request(conn, int(rows[0][0]))
        assert made is not None
        return made

    async def hand_over(self, request_id: int, *, admin_id: int,
                        now: datetime) -> tuple[GiftRequest, int]:
        """The gift was handed over: one 'redeem' ledger row of the request's points (the gift's
        name its reason), one item off the stock, the request closed. Returns it and the
        player's balance after. Refused when it is no longer open ("closed", naming it) or the
        balance no longer holds its points ("insufficient": a fine took them meanwhile)."""
        seen = await self.get(request_id)
        if seen is None:
            raise GiftRefused("unknown_request")
        async with self._db.transaction() as conn:
            await lock_rows(conn, "players", "tg_id", [seen.tg_id])
            await lock_rows(conn, "gifts", "id", [seen.gift_id])
            await lock_rows(conn, "gift_requests", "id", [request_id])
            request = await fetch_request(conn, request_id)
            assert request is not None
            if not request.open:
                raise GiftRefused("closed", request=request)
            balance = await _ops.balance(conn, request.tg_id)
            if balance < request.points:
                raise GiftRefused("insufficient", request=request, available=balance)
            ledger_id = await _ops.insert_ledger(
                conn, request.tg_id, -request.points, kind=KIND_REDEEM,
                reason=request.gift_name, day=now.date(), at=now, admin_id=admin_id)
            await conn.execute("UPDATE gifts SET stock = stock - 1 WHERE id = ?",
                               (request.gift_id,))
            await conn.execute(
                "UPDATE gift_requests SET status = 'handed_over', closed_at = ?, closed_by = ?,"
                " ledger_id = ? WHERE id = ?",
                (_at(now), admin_id, ledger_id, request_id))
            await _ops.admin_log(
                conn, admin_id, "gift_handed_over",
                f"request={request_id} player={request.tg_id} gift={request.gift_id}"
                f" points={-request.points}", now)
            closed = await fetch_request(conn, request_id)
        assert closed is not None
        return closed, balance - request.points

    async def cancel(self, request_id: int, *, admin_id: int, now: datetime) -> GiftRequest:
        """An admin cancels an open request: its points and item are free again."""
        return await self._close(request_id, "cancelled", now, admin_id=admin_id)

    async def withdraw(self, request_id: int, *, tg_id: int, now: datetime) -> GiftRequest:
        """The player takes its own open request back ("not_yours" for another's)."""
        return await self._close(request_id, "withdrawn", now, tg_id=tg_id)

    async def expire(self, before: datetime, *, now: datetime) -> int:
        """Close every request still open that was asked at ``before`` or earlier; how many.
        One statement: a request handed over meanwhile is no longer open, and stays so."""
        async with self._db.transaction(background=True) as conn:
            cur = await conn.execute(
                "UPDATE gift_requests SET status = 'expired', closed_at = ?"
                " WHERE status = 'open' AND created_at <= ?",
                (_at(now), _at(before)))
            return cur.rowcount

    async def untold(self, limit: int = 200) -> list[GiftRequest]:
        """The requests with something to tell (:data:`UNTOLD`), oldest first."""
        return await self._select(f" WHERE {UNTOLD} ORDER BY r.id LIMIT ?", (limit,))

    async def mark_told(self, told: Sequence[tuple[GiftRequest, Sequence[Queued]]],
                        now: datetime, wall: float) -> list[tuple[Sequence[Queued], list[int]]]:
        """Each request told with its messages, in one transaction: the mark and its messages
        are written only if the request is still as the teller read it (status, announced,
        not told), so a change meanwhile is told by the next teller and nothing twice. Returns
        the messages queued with the chats given a new row (to wake the delivery)."""
        queued: list[tuple[Sequence[Queued], list[int]]] = []
        if not told:
            return queued
        at = _at(now)
        async with self._db.transaction() as conn:
            for request, messages in told:
                cur = await conn.execute(
                    "UPDATE gift_requests SET announced_at = coalesce(announced_at, ?),"
                    " told_at = CASE WHEN status = 'open' THEN NULL ELSE ? END"
                    " WHERE id = ? AND status = ? AND told_at IS NULL"
                    " AND (announced_at IS NULL) = ?",
                    (at, at, request.id, request.status, not request.announced))
                if cur.rowcount:
                    queued.append((messages, await enqueue_in(conn, messages, wall)))
        return queued

    async def export_rows(self) -> list[list[str | int | date | None]]:
        """Every request, oldest first, in :data:`EXPORT_COLUMNS`."""
        rows = await self._db.query(
            "SELECT r.id, r.created_at, p.nickname, p.tg_id, r.gift_id, g.name, r.points,"
            " r.status, r.closed_at, r.closed_by, r.ledger_id"
            f"{_FROM} JOIN players p ON p.tg_id = r.tg_id ORDER BY r.id")
        return [[int(r[0]), str(r[1]), r[2] or "",
                 None if is_offline_account(int(r[3])) else int(r[3]), int(r[4]), str(r[5]),
                 int(r[6]), str(r[7]), r[8], r[9], r[10]] for r in rows]

    async def _close(self, request_id: int, status: str, now: datetime, *,
                     admin_id: int | None = None, tg_id: int | None = None) -> GiftRequest:
        async with self._db.transaction() as conn:
            await lock_rows(conn, "gift_requests", "id", [request_id])
            request = await fetch_request(conn, request_id)
            if request is None:
                raise GiftRefused("unknown_request")
            if tg_id is not None and request.tg_id != tg_id:
                raise GiftRefused("not_yours")
            if request.status != REQUEST_OPEN:
                raise GiftRefused("closed", request=request)
            await conn.execute(
                "UPDATE gift_requests SET status = ?, closed_at = ?, closed_by = ? WHERE id = ?",
                (status, _at(now), admin_id, request_id))
            if admin_id is not None:
                await _ops.admin_log(conn, admin_id, f"gift_{status}",
                                     f"request={request_id} player={request.tg_id}", now)
            closed = await fetch_request(conn, request_id)
        assert closed is not None
        return closed

    async def _select(self, where: str, params: Sequence[object]) -> list[GiftRequest]:
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(f"SELECT {REQUEST_COLUMNS}{_FROM}{where}",
                                               params)
        return [request_row(r) for r in rows]

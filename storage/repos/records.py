"""Smaller records: immunity orders, first-day kills, complaints, the admin action log, voided
games and the players' appeals.

A void (:class:`Voids`) reverses each of the game's ``game`` ledger rows with a row of reason
``void`` (same game, the admin who voided it): the fines given back first, then the points
taken back, each at most what the player may spend then (the balance less what open gift
requests reserve, as a fine takes); what it could not take back is kept in
``game_void_shortfalls``. The players' games and first/last game dates are counted again
without the game, its open appeals close, the admin log says who did it, and the messages
telling it are queued in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time

from storage.errors import (
    DailyLimit,
    ImmunityAlreadyUsed,
    InvalidOrder,
    InvalidValue,
    UnknownClub,
    UnknownOrder,
    VoidRefused,
)
from storage.models import (
    APPEAL_KEPT,
    APPEAL_OPEN,
    APPEAL_VOIDED,
    FINAL_STATUSES,
    KIND_GAME,
    STATUS_FINISHED,
    AdminAction,
    Appeal,
    Complaint,
    Game,
    ImmunityOrder,
    Player,
    Voided,
    VoidLine,
)
from storage.repos import _ops, _rows
from storage.repos.account_cache import AccountCache
from storage.repos.games import fetch_game
from storage.repos.outbox import Queued, enqueue_in
from storage.sql import Connection, Row, Store, lock_rows
from storage.standing.achievements import Achievements
from storage.standing.ratings import Ratings

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


async def _count_from(conn: Connection, from_id: int, day: date) -> int:
    async with conn.execute(
        "SELECT count(*) FROM complaints WHERE from_id = ? AND substr(at, 1, 10) = ?",
        (from_id, day.isoformat()),
    ) as cur:
        row = await cur.fetchone()
    return 0 if row is None else int(row[0])


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

    async def add(self, from_id: int, about_id: int, text: str, now: datetime, *,
                  per_day: int | None = None) -> Complaint:
        """A complaint; with ``per_day``, refused (:class:`DailyLimit`) when ``from_id`` filed
        that many on ``now``'s day already. The count and the insert are one transaction
        under the complainant's row lock (SQLite: its one writer), so a burst of complaints
        stores exactly ``per_day``."""
        body = text.strip()
        if from_id == about_id:
            raise InvalidValue("complaint", about_id, "self")
        if not body:
            raise InvalidValue("complaint", text, "empty")
        if len(body) > MAX_COMPLAINT_LENGTH:
            raise InvalidValue("complaint", len(body), "too_long")
        async with self._db.transaction() as conn:
            await lock_rows(conn, "players", "tg_id", [from_id])  # the day's count, then the row
            await _ops.require_players(conn, (from_id, about_id))
            if per_day is not None and await _count_from(conn, from_id, now.date()) >= per_day:
                raise DailyLimit(from_id, "complaint", per_day)
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
        async with self._db.read() as conn:
            return await _count_from(conn, from_id, day)

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


VOID_REASON = "void"  # the ledger reason of a void's reversing rows (game.reason.void)
MAX_REASON_LENGTH = 500
_APPEAL_COLUMNS = "id, game_id, tg_id, reason, status, created_at, closed_at, closed_by"


def _appeal(row: Row) -> Appeal:
    return Appeal(id=int(row[0]), game_id=int(row[1]), tg_id=int(row[2]), reason=str(row[3]),
                  status=str(row[4]), created_at=datetime.fromisoformat(row[5]),
                  closed_at=_rows.opt_datetime(row[6]),
                  closed_by=None if row[7] is None else int(row[7]))


def _reason(text: str) -> str:
    reason = " ".join(text.split())
    if not reason:
        raise InvalidValue("reason", text, "empty")
    if len(reason) > MAX_REASON_LENGTH:
        raise InvalidValue("reason", len(reason), "too_long")
    return reason


async def ended_at(conn: Connection, game: Game) -> datetime | None:
    """When a finished game ended: its log's last event, else the start of its finish day
    (UTC); None for a game not finished."""
    if game.status != STATUS_FINISHED:
        return None
    rows = list(await conn.execute_fetchall(
        "SELECT max(at) FROM game_events WHERE game_id = ?", (game.id,)))
    if rows and rows[0][0] is not None:
        at = datetime.fromisoformat(rows[0][0])
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    if game.finished_on is None:
        return None
    return datetime.combine(game.finished_on, time(), UTC)


async def _fetch_appeal(conn: Connection, appeal_id: int) -> Appeal | None:
    rows = list(await conn.execute_fetchall(
        f"SELECT {_APPEAL_COLUMNS} FROM appeals WHERE id = ?", (appeal_id,)))
    return _appeal(rows[0]) if rows else None


async def _reverse(conn: Connection, game: Game, by: int, now: datetime,
                   touched: list[int]) -> tuple[VoidLine, ...]:
    """The reversing rows of every ``game`` row of the game, the shortfalls, the recount."""
    rows = [(int(r[0]), int(r[1]), r[2]) for r in await conn.execute_fetchall(
        "SELECT tg_id, points, phase FROM ledger WHERE game_id = ? AND kind = ? ORDER BY id",
        (game.id, KIND_GAME))]
    applied = list(await conn.execute_fetchall(
        "SELECT 1 FROM game_points_applied WHERE game_id = ?", (game.id,)))
    counted = {s.tg_id for s in game.seats} if applied else set()
    players = sorted(counted | {tg_id for tg_id, _, _ in rows})
    await lock_rows(conn, "players", "tg_id", players)  # beside a /redeem, a hand-over
    touched.extend(players)
    day = now.date()
    lines: list[VoidLine] = []
    for tg_id in players:
        mine = [(points, phase) for who, points, phase in rows if who == tg_id]
        returned = short = 0
        # fines given back first: the points they free are the void's to take back too
        for points, phase in sorted(mine, key=lambda row: row[0] >= 0):
            back = -points
            if back < 0:  # points taken back: never below what the player may spend
                free = await _ops.balance(conn, tg_id) - await _ops.reserved(conn, tg_id)
                taken = min(-back, max(0, free))
                short += -back - taken
                back = -taken
            if back:
                await _ops.insert_ledger(conn, tg_id, back, kind=KIND_GAME, reason=VOID_REASON,
                                         day=day, at=now, game_id=game.id, phase=phase,
                                         admin_id=by)
                returned += back
        if short:
            await conn.execute(
                "INSERT INTO game_void_shortfalls (game_id, tg_id, points) VALUES (?, ?, ?)",
                (game.id, tg_id, short))
        lines.append(VoidLine(tg_id=tg_id, returned=returned, short=short))
    return tuple(lines)


class Voids:
    def __init__(self, db: Store, accounts: AccountCache | None = None) -> None:
        self._db = db
        self._accounts = accounts if accounts is not None else AccountCache()

    async def ended(self, game_id: int) -> tuple[Game, datetime | None]:
        """The game and when it ended (None: not finished)."""
        async with self._db.read() as conn:
            game = await fetch_game(conn, game_id)
            return game, await ended_at(conn, game)

    async def void(self, game_id: int, *, by: int, reason: str, now: datetime,
                   tell: Callable[[Voided], Sequence[Queued]] | None = None,
                   wall: float = 0.0) -> tuple[Voided, list[int]]:
        """Void a finished game (see the module's docstring) and queue ``tell(voided)``'s
        messages in the same transaction; returns the void and the chats of the new outbox
        rows. A game voided already (also by a void running at the same moment: the game's
        row is locked first) or not finished: :class:`VoidRefused`, nothing written."""
        why = _reason(reason)
        touched: list[int] = []
        async with self._accounts.writing(self._db, touched) as conn:
            await lock_rows(conn, "games", "id", [game_id])  # a second void waits, then sees it
            game = await fetch_game(conn, game_id)
            if game.voided:
                raise VoidRefused("already_voided", game=game)
            if game.status != STATUS_FINISHED:
                raise VoidRefused("not_finished", game=game)
            await conn.execute(
                "UPDATE games SET voided_at = ?, voided_by = ?, void_reason = ? WHERE id = ?",
                (now.isoformat(), by, why, game_id))
            lines = await _reverse(conn, game, by, now, touched)
            await _ops.recount_games(conn, touched)
            closing = [_appeal(r) for r in await conn.execute_fetchall(
                f"SELECT {_APPEAL_COLUMNS} FROM appeals WHERE game_id = ? AND status = ?"
                " ORDER BY id", (game_id, APPEAL_OPEN))]
            await conn.execute(
                "UPDATE appeals SET status = ?, closed_at = ?, closed_by = ?"
                " WHERE game_id = ? AND status = ?",
                (APPEAL_VOIDED, now.isoformat(), by, game_id, APPEAL_OPEN))
            taken = -sum(line.returned for line in lines if line.returned < 0)
            short = sum(line.short for line in lines)
            await _ops.admin_log(conn, by, "void",
                                 f"game={game_id} taken={taken} short={short} reason={why}", now)
            voided = Voided(
                game=await fetch_game(conn, game_id), lines=lines,
                appeals=tuple(Appeal(id=a.id, game_id=a.game_id, tg_id=a.tg_id,
                                     reason=a.reason, status=APPEAL_VOIDED,
                                     created_at=a.created_at, closed_at=now, closed_by=by)
                              for a in closing))
            chats = await enqueue_in(conn, tell(voided) if tell is not None else (), wall)
        # the game no longer counts: every rating again from scratch, and its players'
        # achievements from their own games (a crash before this leaves it to `python -m
        # storage rerate`)
        await Ratings(self._db).rerate()
        await Achievements(self._db).rebuild(players=[s.tg_id for s in voided.game.seats])
        return voided, chats

    async def shortfalls(self, game_id: int) -> dict[int, int]:
        """The points a void of the game could not take back, per player."""
        rows = await self._db.query(
            "SELECT tg_id, points FROM game_void_shortfalls WHERE game_id = ?", (game_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    async def appeal(self, game_id: int, tg_id: int, reason: str, *, now: datetime,
                     tell: Callable[[Appeal], Sequence[Queued]] | None = None,
                     wall: float = 0.0) -> tuple[Appeal, list[int]]:
        """A seated player's appeal against a finished game not voided (one per player and
        game), ``tell(appeal)``'s messages queued in the same transaction; returns it and the
        chats of the new outbox rows. When it may be made is the caller's rule
        (:meth:`ended`)."""
        why = _reason(reason)
        async with self._db.transaction() as conn:
            await lock_rows(conn, "games", "id", [game_id])  # beside a void of the game
            game = await fetch_game(conn, game_id)
            if game.voided:
                raise VoidRefused("already_voided", game=game)
            if game.status != STATUS_FINISHED:
                raise VoidRefused("not_finished", game=game)
            if game.seat_of(tg_id) is None:
                raise VoidRefused("not_seated", game=game)
            rows = list(await conn.execute_fetchall(
                "INSERT INTO appeals (game_id, tg_id, reason, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING id",
                (game_id, tg_id, why, now.isoformat())))
            if not rows:
                existing = list(await conn.execute_fetchall(
                    f"SELECT {_APPEAL_COLUMNS} FROM appeals WHERE game_id = ? AND tg_id = ?",
                    (game_id, tg_id)))
                raise VoidRefused("duplicate", game=game, appeal=_appeal(existing[0]))
            await _ops.admin_log(conn, tg_id, "appeal", f"game={game_id} reason={why}", now)
            appeal = await _fetch_appeal(conn, int(rows[0][0]))
            assert appeal is not None
            chats = await enqueue_in(conn, tell(appeal) if tell is not None else (), wall)
            return appeal, chats

    async def get_appeal(self, appeal_id: int) -> Appeal | None:
        async with self._db.read() as conn:
            return await _fetch_appeal(conn, appeal_id)

    async def keep(self, appeal_id: int, *, by: int, now: datetime,
                   tell: Callable[[Appeal], Sequence[Queued]] | None = None,
                   wall: float = 0.0) -> tuple[Appeal, list[int]]:
        """Close an open appeal, the result kept; ``tell(appeal)``'s messages queued in the
        same transaction. A decided appeal (a second press, a void meanwhile) or an unknown
        one: :class:`VoidRefused`, nothing written."""
        async with self._db.transaction() as conn:
            found = await _fetch_appeal(conn, appeal_id)
            if found is None:
                raise VoidRefused("unknown_appeal")
            await lock_rows(conn, "games", "id", [found.game_id])  # as a void of its game
            cur = await conn.execute(
                "UPDATE appeals SET status = ?, closed_at = ?, closed_by = ?"
                " WHERE id = ? AND status = ?",
                (APPEAL_KEPT, now.isoformat(), by, appeal_id, APPEAL_OPEN))
            appeal = await _fetch_appeal(conn, appeal_id)
            assert appeal is not None
            if cur.rowcount == 0:
                raise VoidRefused("closed", appeal=appeal)
            await _ops.admin_log(conn, by, "appeal_kept",
                                 f"appeal={appeal_id} game={appeal.game_id}", now)
            chats = await enqueue_in(conn, tell(appeal) if tell is not None else (), wall)
            return appeal, chats

    async def appeal_of(self, game_id: int, tg_id: int) -> Appeal | None:
        rows = await self._db.query(
            f"SELECT {_APPEAL_COLUMNS} FROM appeals WHERE game_id = ? AND tg_id = ?",
            (game_id, tg_id))
        return _appeal(rows[0]) if rows else None



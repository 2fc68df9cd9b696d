"""A club's evenings: the announcement, the sign-ups and their waitlist, the reminders' marks,
the night's invitations and check-ins, and the no-shows recorded at the end.

Every change of an evening takes the evening's row lock first (PostgreSQL's writers run side by
side; SQLite has one writer), reads the list, changes it and reads it again, then queues the
messages the caller composes from the change (``compose``: the post's edit, a promotion's
private message...) in the same transaction: the list and what is said about it are never
apart (docs/delivery.md). A refused change writes nothing and says why (``refused``).

Places are derived, never stored: a sign-up's place is its order among the evening's rows, so
a cancel moves everyone behind it up, and two presses for the last seat at once are one after
the other under the lock (one gets the seat, the other the waitlist).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from storage.models import (
    EVENING_CANCELLED,
    EVENING_CLOSED,
    EVENING_LIVE,
    EVENING_OPEN,
    EVENING_STARTED,
    Evening,
    EveningChange,
    EveningList,
    PlayerEvening,
    SignUp,
)
from storage.repos.outbox import Queued, enqueue_in
from storage.sql import Connection, Row, Store, lock_rows

Compose = Callable[[EveningChange], Sequence[Queued]]
"""The messages a change causes, queued in its transaction (called only when it changed)."""
Body = Callable[[Connection, EveningList], Awaitable[str | None]]

REMINDERS = ("day", "soon")  # the day before; two hours before
_EVENING = ("SELECT id, club_chat_id, host_id, starts_at, timezone, tables, seats, status,"
            " created_at, reminded_day, reminded_soon FROM evenings")
_LIVE = "status IN ('open', 'started')"


def stamp(at: datetime) -> str:
    """A moment as stored: UTC ISO text to the second (compares as text in time order)."""
    return at.astimezone(UTC).isoformat(timespec="seconds")


def _evening(row: Row) -> Evening:
    return Evening(
        id=int(row[0]), club_chat_id=int(row[1]), host_id=int(row[2]),
        starts_at=datetime.fromisoformat(row[3]), timezone=str(row[4]), tables=int(row[5]),
        seats=int(row[6]), status=str(row[7]), created_at=datetime.fromisoformat(row[8]),
        reminded_day=row[9] is not None, reminded_soon=row[10] is not None)


async def _fetch(conn: Connection, evening_id: int) -> Evening | None:
    rows = await conn.execute_fetchall(f"{_EVENING} WHERE id = ?", (evening_id,))
    return next((_evening(r) for r in rows), None)


async def _list(conn: Connection, evening: Evening) -> EveningList:
    rows = await conn.execute_fetchall(
        "SELECT s.tg_id, coalesce(p.nickname, p.display_name), p.language, s.invited_game,"
        " s.checked_in, s.came FROM evening_signups s JOIN players p ON p.tg_id = s.tg_id"
        " WHERE s.evening_id = ? ORDER BY s.seq", (evening.id,))
    return EveningList(evening, tuple(
        SignUp(tg_id=int(r[0]), name=str(r[1]), language=r[2], place=i,
               invited_game=None if r[3] is None else int(r[3]), checked_in=bool(r[4]),
               came=None if r[5] is None else bool(r[5]))
        for i, r in enumerate(rows, 1)))


async def _read(conn: Connection, evening_id: int) -> EveningList | None:
    evening = await _fetch(conn, evening_id)
    return None if evening is None else await _list(conn, evening)


class Evenings:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def _change(self, evening_id: int, wall: float, compose: Compose,
                      body: Body) -> EveningChange | None:
        """Under the evening's lock: ``body`` changes it (returns a refusal code, or None);
        the change's messages are queued with it. None: no such evening."""
        async with self._db.transaction() as conn:
            await lock_rows(conn, "evenings", "id", [evening_id])
            before = await _read(conn, evening_id)
            if before is None:
                return None
            refused = await body(conn, before)
            if refused is not None:
                return EveningChange(before, before, refused)
            after = await _read(conn, evening_id)
            assert after is not None
            change = EveningChange(before, after)
            new = await enqueue_in(conn, compose(change), wall)
            return EveningChange(before, after, None, tuple(new))

    # ------------------------------------------------------------------ the announcement
    async def announce(self, club_chat_id: int, host_id: int, starts_at: datetime,
                       timezone: str, tables: int, seats: int, *, now: datetime, wall: float,
                       compose: Compose) -> EveningChange | None:
        """A new evening and its post; None when the club has one at that time already."""
        async with self._db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "INSERT INTO evenings (club_chat_id, host_id, starts_at, timezone, tables,"
                " seats, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING id",
                (club_chat_id, host_id, stamp(starts_at), timezone, tables, seats, stamp(now)))
            if not rows:
                return None
            made = await _read(conn, int(next(iter(rows))[0]))
            assert made is not None
            change = EveningChange(made, made)
            new = await enqueue_in(conn, compose(change), wall)
            return EveningChange(made, made, None, tuple(new))

    # ------------------------------------------------------------------ the list
    async def sign_up(self, evening_id: int, tg_id: int, *, now: datetime, wall: float,
                      compose: Compose) -> EveningChange | None:
        """The player on the list (last); refused: ``started`` (or ``cancelled``,
        ``closed``), ``already``."""
        async def body(conn: Connection, before: EveningList) -> str | None:
            if (refused := _not_open(before.evening, now)) is not None:
                return refused
            if before.of(tg_id) is not None:
                return "already"
            await conn.execute(
                "INSERT INTO evening_signups (evening_id, tg_id, seq, signed_at) VALUES (?1, ?2,"
                " (SELECT coalesce(max(seq), 0) + 1 FROM evening_signups WHERE evening_id = ?1),"
                " ?3)", (evening_id, tg_id, stamp(now)))
            return None
        return await self._change(evening_id, wall, compose, body)

    async def leave(self, evening_id: int, tg_id: int, *, now: datetime, wall: float,
                    compose: Compose) -> EveningChange | None:
        """The player off the list (everyone behind moves up); refused: ``started`` (or
        ``cancelled``, ``closed``), ``not_listed``."""
        async def body(conn: Connection, before: EveningList) -> str | None:
            if (refused := _not_open(before.evening, now)) is not None:
                return refused
            if before.of(tg_id) is None:
                return "not_listed"
            await conn.execute("DELETE FROM evening_signups WHERE evening_id = ? AND tg_id = ?",
                               (evening_id, tg_id))
            return None
        return await self._change(evening_id, wall, compose, body)

    async def cancel(self, evening_id: int, *, wall: float,
                     compose: Compose) -> EveningChange | None:
        """The evening called off; refused: ``cancelled``, ``closed``."""
        async def body(conn: Connection, before: EveningList) -> str | None:
            if before.evening.status not in EVENING_LIVE:
                return before.evening.status
            await conn.execute("UPDATE evenings SET status = ? WHERE id = ?",
                               (EVENING_CANCELLED, evening_id))
            return None
        return await self._change(evening_id, wall, compose, body)

    # ------------------------------------------------------------------ its timers
    async def remind(self, evening_id: int, kind: str, *, now: datetime, wall: float,
                     compose: Compose) -> EveningChange | None:
        """The reminder ``kind`` (``day``, ``soon``) marked sent with its messages, once
        whoever calls (a restart, two processes); refused: ``done`` (sent already, or the
        evening is over or called off)."""
        if kind not in REMINDERS:
            raise ValueError(f"no reminder {kind!r}")

        async def body(conn: Connection, before: EveningList) -> str | None:
            cur = await conn.execute(
                f"UPDATE evenings SET reminded_{kind} = ? WHERE id = ?"
                f" AND reminded_{kind} IS NULL AND {_LIVE}", (stamp(now), evening_id))
            return None if cur.rowcount else "done"
        return await self._change(evening_id, wall, compose, body)

    async def begin(self, evening_id: int, *, wall: float,
                    compose: Compose) -> EveningChange | None:
        """The evening's start: its sign-up closes; refused: ``done``."""
        async def body(conn: Connection, before: EveningList) -> str | None:
            cur = await conn.execute(
                "UPDATE evenings SET status = ? WHERE id = ? AND status = ?",
                (EVENING_STARTED, evening_id, EVENING_OPEN))
            return None if cur.rowcount else "done"
        return await self._change(evening_id, wall, compose, body)

    async def end(self, evening_id: int, *, now: datetime, since: datetime, until: datetime,
                  wall: float, compose: Compose) -> EveningChange | None:
        """The evening is over: each sign-up's ``came`` written (1: checked in, or seated
        at a game of the club opened between ``since`` and ``until``; else 0 for a seat,
        NULL for the waitlist); refused: ``done``."""
        async def body(conn: Connection, before: EveningList) -> str | None:
            cur = await conn.execute(
                f"UPDATE evenings SET status = ?, closed_at = ? WHERE id = ? AND {_LIVE}",
                (EVENING_CLOSED, stamp(now), evening_id))
            if not cur.rowcount:
                return "done"
            evening = before.evening
            await conn.execute(
                "UPDATE evening_signups SET came = CASE WHEN checked_in = 1 OR EXISTS ("
                " SELECT 1 FROM game_seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.tg_id = evening_signups.tg_id AND g.club_chat_id = ?1"
                " AND g.created_at >= ?2 AND g.created_at <= ?3) THEN 1"
                " WHEN seq <= (SELECT max(seq) FROM (SELECT seq FROM evening_signups"
                " WHERE evening_id = ?4 ORDER BY seq LIMIT ?5) firsts) THEN 0 END"
                " WHERE evening_id = ?4",
                (evening.club_chat_id, stamp(since), stamp(until), evening_id,
                 evening.capacity))
            return None
        return await self._change(evening_id, wall, compose, body)

    # ------------------------------------------------------------------ the night
    async def invite(self, evening_id: int, game_id: int, tg_ids: Sequence[int]) -> list[int]:
        """``game_id``'s lobby invites these players: those not checked in and not invited by
        another lobby still open (its game still in the lobby) are now its; returns them.
        Under the evening's lock: two tables inviting at once never invite one player twice."""
        if not tg_ids:
            return []
        marks = ",".join(f"?{i}" for i in range(3, 3 + len(tg_ids)))
        async with self._db.transaction() as conn:
            await lock_rows(conn, "evenings", "id", [evening_id])
            rows = await conn.execute_fetchall(
                f"UPDATE evening_signups SET invited_game = ?1 WHERE evening_id = ?2"
                f" AND checked_in = 0 AND tg_id IN ({marks}) AND (invited_game IS NULL"
                f" OR invited_game = ?1 OR NOT EXISTS (SELECT 1 FROM games g"
                f" WHERE g.id = evening_signups.invited_game AND g.status = 'lobby'))"
                f" RETURNING tg_id", (game_id, evening_id, *tg_ids))
        return sorted(int(r[0]) for r in rows)

    async def check_in(self, evening_id: int, tg_id: int, game_id: int) -> bool:
        """The player came and was seated at ``game_id``, whose lobby invited them."""
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE evening_signups SET checked_in = 1 WHERE evening_id = ? AND tg_id = ?"
                " AND invited_game = ?", (evening_id, tg_id, game_id))
            return bool(cur.rowcount)

    # ------------------------------------------------------------------ reads
    async def get(self, evening_id: int) -> EveningList | None:
        async with self._db.read() as conn:
            return await _read(conn, evening_id)

    async def live(self, clubs: Sequence[int] | None = None) -> list[Evening]:
        """The evenings whose timers still run (of these clubs), soonest first."""
        where = _LIVE
        params: tuple[int, ...] = ()
        if clubs is not None:
            if not clubs:
                return []
            where += f" AND club_chat_id IN ({','.join('?' * len(clubs))})"
            params = tuple(clubs)
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                f"{_EVENING} WHERE {where} ORDER BY starts_at, id", params)
        return [_evening(r) for r in rows]

    async def tonight(self, club_chat_id: int, *, since: datetime,
                      until: datetime) -> EveningList | None:
        """The club's evening (not called off) starting between ``since`` and ``until``,
        the earliest."""
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                f"{_EVENING} WHERE club_chat_id = ? AND {_LIVE} AND starts_at >= ?"
                " AND starts_at <= ? ORDER BY starts_at, id LIMIT 1",
                (club_chat_id, stamp(since), stamp(until)))
            found = next((_evening(r) for r in rows), None)
            return None if found is None else await _list(conn, found)

    async def of_player(self, tg_id: int) -> list[PlayerEvening]:
        """The evenings the player is on the list of whose sign-up is open or which are
        under way, soonest first, with the place."""
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT e.id, e.club_chat_id, e.host_id, e.starts_at, e.timezone, e.tables,"
                " e.seats, e.status, e.created_at, e.reminded_day, e.reminded_soon, c.title,"
                " (SELECT count(*) FROM evening_signups o WHERE o.evening_id = e.id"
                "  AND o.seq <= s.seq)"
                " FROM evening_signups s JOIN evenings e ON e.id = s.evening_id"
                " JOIN clubs c ON c.chat_id = e.club_chat_id"
                " WHERE s.tg_id = ? AND e.status IN ('open', 'started')"
                " ORDER BY e.starts_at, e.id", (tg_id,))
        found = []
        for r in rows:
            evening = _evening(r)
            found.append(PlayerEvening(evening, str(r[11]), int(r[12]), evening.capacity))
        return found

    async def no_shows(self, tg_id: int) -> int:
        """The evenings the player had a seat at and did not come to."""
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT count(*) FROM evening_signups WHERE tg_id = ? AND came = 0", (tg_id,))
        return int(next(iter(rows))[0])


def _not_open(evening: Evening, now: datetime) -> str | None:
    """Why the evening's list cannot change now: called off, over, or begun."""
    if evening.status in (EVENING_CANCELLED, EVENING_CLOSED):
        return evening.status
    if evening.status != EVENING_OPEN or now >= evening.starts_at:
        return EVENING_STARTED
    return None

"""Games: seats and roles, status, the deal's seed commitment and the append-only event log."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from standing.achievements import Earned
from storage.errors import (
    FineAboveCap,
    FriendlyGame,
    GameClosed,
    InsufficientBalance,
    InvalidAmount,
    InvalidValue,
    UnknownClub,
    UnknownGame,
)
from storage.models import (
    ACTIVE_STATUSES,
    FINAL_STATUSES,
    GAME_STATUSES,
    KIND_GAME,
    STATUS_FINISHED,
    Fine,
    Game,
    GameEvent,
    GamePoints,
    Seat,
)
from storage.repos import _ops, _rows
from storage.repos.account_cache import AccountCache
from storage.repos.outbox import Queued, enqueue_in
from storage.sql import Connection, Store, lock_rows
from storage.standing.achievements import record_achievements
from storage.standing.ratings import record_outcome


async def fetch_game(conn: Connection, game_id: int) -> Game:
    async with conn.execute(
        "SELECT id, club_chat_id, host_id, created_at, status, commitment, finished_on,"
        " table_no, thread_id, own_topic, voided_at, voided_by, void_reason, friendly"
        " FROM games WHERE id = ?",
        (game_id,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        raise UnknownGame(game_id)
    async with conn.execute(
        "SELECT seat, tg_id, role FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
    ) as cur:
        seats = tuple(Seat(seat=r[0], tg_id=r[1], role=r[2]) for r in await cur.fetchall())
    return Game(
        id=row["id"],
        club_chat_id=row["club_chat_id"],
        host_id=row["host_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        status=row["status"],
        commitment=row["commitment"],
        finished_on=_rows.opt_date(row["finished_on"]),
        seats=seats,
        table_no=int(row["table_no"]),
        thread_id=None if row["thread_id"] is None else int(row["thread_id"]),
        own_topic=bool(row["own_topic"]),
        voided_at=_rows.opt_datetime(row["voided_at"]),
        voided_by=row["voided_by"],
        void_reason=row["void_reason"],
        friendly=bool(row["friendly"]),
    )


async def _require_open(conn: Connection, game_id: int) -> None:
    status = await _ops.game_status(conn, game_id)
    if status in FINAL_STATUSES:
        raise GameClosed(game_id, status)


def _event_text(kind: str, payload: Mapping[str, Any]) -> str:
    """A log event's payload as stored; refuses an empty kind and what JSON cannot hold."""
    if not kind:
        raise InvalidValue("kind", kind, "empty")
    try:
        return json.dumps(dict(payload), ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidValue("payload", payload, "not_json") from exc


@dataclass(frozen=True)
class Seating:
    """A lobby's seats as a step leaves them, ``(seat, tg_id)`` numbered from 1, and what of
    them is stored already: seats ``1..kept`` as they are, ``stored`` seats in all (None: not
    known, every seat is written again). A join, the busiest step of an evening, inserts its
    one new seat in one statement."""

    seats: Sequence[tuple[int, int]]
    kept: int = 0
    stored: int | None = None


async def _write_seats(conn: Connection, game_id: int, seating: Seating) -> None:
    """The seats after ``seating.kept`` written again, those beyond them deleted first unless
    none is stored. The new seats go in one statement that also checks the game is open and
    each player exists; only when it inserts fewer rows are those checked one by one, to
    raise the refusal (:class:`GameClosed`, :class:`UnknownPlayer`)."""
    new = [(seat, tg_id) for seat, tg_id in seating.seats if seat > seating.kept]
    if seating.stored is None or seating.stored > seating.kept:
        await conn.execute("DELETE FROM game_seats WHERE game_id = ? AND seat > ?",
                           (game_id, seating.kept))
    if new:
        values = ",".join(["(CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS BIGINT))"]
                          * len(new))
        closed = ",".join("?" * len(FINAL_STATUSES))
        cur = await conn.execute(
            "INSERT INTO game_seats (game_id, seat, tg_id)"
            " SELECT v.column1, v.column2, p.tg_id"
            f" FROM (VALUES {values}) AS v"
            " JOIN games g ON g.id = v.column1 AND g.status NOT IN (" + closed + ")"
            " JOIN players p ON p.tg_id = v.column3",
            [*(x for seat, tg_id in new for x in (game_id, seat, tg_id)), *FINAL_STATUSES])
        if cur.rowcount == len(new):
            return
    await _require_open(conn, game_id)
    await _ops.require_players(conn, (p for _, p in new))
    if new:  # the insert found the game open and every player, yet wrote fewer rows
        raise RuntimeError(f"seats of game {game_id} not written")


@dataclass(frozen=True)
class GameChange:
    """What a game step changes in the ``games`` row and its seats' roles besides its log,
    and the fines it writes (written in the step's transaction, after its events); ``None``:
    unchanged."""

    roles: Mapping[int, str] | None = None
    commitment: str | None = None
    status: str | None = None
    fines: tuple[Fine, ...] = ()

    def then(self, later: GameChange) -> GameChange:
        """This change followed by ``later`` (the later one's values win; fines add up)."""
        return GameChange(
            roles=later.roles if later.roles is not None else self.roles,
            commitment=later.commitment if later.commitment is not None else self.commitment,
            status=later.status if later.status is not None else self.status,
            fines=self.fines + later.fines)


async def _write_fines(conn: Connection, game_id: int, fines: Sequence[Fine]) -> None:
    """A running game's fines and their reversals as ``game`` ledger rows; a fine larger than
    what its player may spend (the balance less what open gift requests reserve, as for
    ``/redeem``) raises :class:`InsufficientBalance`, one above the network's caps (one foul's
    fine, a player's fines in this game) :class:`FineAboveCap` (the caller's transaction
    writes nothing then: the step reads the balance and the caps again and decides anew)."""
    for fine in fines:
        if fine.points == 0:
            raise InvalidAmount(fine.points)
        if not fine.reason or not fine.phase:
            raise InvalidValue("fine", fine, "empty")
    await lock_rows(conn, "players", "tg_id", sorted({f.tg_id for f in fines}))
    caps = await _ops.fine_caps(conn) if any(f.points < 0 for f in fines) else None
    for fine in fines:
        await _ops.require_player(conn, fine.tg_id)
        if fine.points < 0:
            assert caps is not None
            if -fine.points > caps.fine:
                raise FineAboveCap("fine", -fine.points, caps.fine)
            in_game = await _ops.game_fines(conn, game_id, fine.tg_id) - fine.points
            if in_game > caps.game:
                raise FineAboveCap("game", in_game, caps.game)
            balance = await _ops.balance(conn, fine.tg_id)
            held = await _ops.reserved(conn, fine.tg_id)
            if balance + fine.points < held:
                raise InsufficientBalance(fine.tg_id, balance, -fine.points, reserved=held)
        await _ops.insert_ledger(conn, fine.tg_id, fine.points, kind=KIND_GAME,
                                 reason=fine.reason, day=fine.day, game_id=game_id,
                                 phase=fine.phase)


async def _apply_change(conn: Connection, game_id: int, change: GameChange) -> None:
    """Write the roles, the commitment and the status an open game's step changed, in 2 to 4
    statements (the deal's step waits for them, each a trip to the database's thread under a
    busy loop); the one path for each of them alone too."""
    if change.fines:
        await _require_open(conn, game_id)
        if await _ops.game_friendly(conn, game_id):
            raise FriendlyGame(game_id)  # no fine, nor its reversal, in a friendly game
        await _write_fines(conn, game_id, change.fines)
    if change.roles is None and change.commitment is None and change.status is None:
        return
    if change.status is not None and change.status not in GAME_STATUSES:
        raise InvalidValue("status", change.status, "unknown_status")
    if change.commitment is not None and not change.commitment:
        raise InvalidValue("commitment", change.commitment, "empty")
    rows = list(await conn.execute_fetchall(
        "SELECT status, commitment FROM games WHERE id = ?", (game_id,)))
    if not rows:
        raise UnknownGame(game_id)
    status, commitment = str(rows[0][0]), rows[0][1]
    if status in FINAL_STATUSES:
        raise GameClosed(game_id, status)
    if change.roles is not None:
        seat_numbers = {int(r[0]) for r in await conn.execute_fetchall(
            "SELECT seat FROM game_seats WHERE game_id = ?", (game_id,))}
        for seat, role in change.roles.items():
            if seat not in seat_numbers:
                raise InvalidValue("seat", seat, "no_such_seat")
            if not role:
                raise InvalidValue("role", role, "empty")
        await conn.executemany(
            "UPDATE game_seats SET role = ? WHERE game_id = ? AND seat = ?",
            [(role, game_id, seat) for seat, role in change.roles.items()])
    if change.commitment is not None and commitment is not None \
            and commitment != change.commitment:
        raise InvalidValue("commitment", change.commitment, "already_set")
    sets = {"commitment": change.commitment, "status": change.status}
    written = {k: v for k, v in sets.items() if v is not None}
    if written:
        await conn.execute(
            f"UPDATE games SET {', '.join(f'{k} = ?' for k in written)} WHERE id = ?",
            (*written.values(), game_id))


def _check_seats(seats: Sequence[tuple[int, int]]) -> None:
    numbers = [s for s, _ in seats]
    players = [p for _, p in seats]
    if any(n <= 0 for n in numbers):
        raise InvalidValue("seats", list(seats), "seat_not_positive")
    if len(set(numbers)) != len(numbers):
        raise InvalidValue("seats", list(seats), "duplicate_seat")
    if len(set(players)) != len(players):
        raise InvalidValue("seats", list(seats), "duplicate_player")


class Games:
    def __init__(self, db: Store, accounts: AccountCache | None = None) -> None:
        self._db = db
        self._accounts = accounts if accounts is not None else AccountCache()

    async def create(
        self,
        club_chat_id: int,
        host_id: int,
        *,
        seats: Sequence[tuple[int, int]] = (),
        created_at: datetime,
        table_no: int = 1,
        thread_id: int | None = None,
        own_topic: bool = False,
        friendly: bool = False,
    ) -> int:
        """A new game in status 'lobby'; ``seats`` are (seat number, tg_id) pairs;
        ``table_no`` its table's number in the club chat, ``thread_id`` the forum topic it
        speaks in (``own_topic``: the bot created it); ``friendly``: its club is not
        approved, the game writes no ledger row and counts toward nothing."""
        _check_seats(seats)
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT 1 FROM clubs WHERE chat_id = ?", (club_chat_id,)
            ) as cur:
                if await cur.fetchone() is None:
                    raise UnknownClub(club_chat_id)
            await _ops.require_players(conn, (p for _, p in seats))
            async with conn.execute(
                "INSERT INTO games (club_chat_id, host_id, created_at, table_no, thread_id,"
                " own_topic, friendly) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (club_chat_id, host_id, created_at.isoformat(), table_no, thread_id,
                 int(own_topic), int(friendly)),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            game_id = int(row[0])
            await conn.executemany(
                "INSERT INTO game_seats (game_id, seat, tg_id) VALUES (?, ?, ?)",
                [(game_id, s, p) for s, p in seats],
            )
            return game_id

    async def get(self, game_id: int) -> Game:
        async with self._db.read() as conn:
            return await fetch_game(conn, game_id)

    async def set_seats(self, game_id: int, seats: Sequence[tuple[int, int]]) -> Game:
        """Replace the seating (lobby joins, leaves, reordering); roles are cleared."""
        _check_seats(seats)
        async with self._db.transaction() as conn:
            await _write_seats(conn, game_id, Seating(seats))
            return await fetch_game(conn, game_id)

    async def append_event(
        self, game_id: int, kind: str, payload: Mapping[str, Any], *, at: datetime | None = None
    ) -> int:
        """Append to the game's log; returns the event's sequence number (1, 2, ...)."""
        text = _event_text(kind, payload)
        async with self._db.transaction() as conn:
            await _require_open(conn, game_id)
            async with conn.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM game_events WHERE game_id = ?",
                (game_id,),
            ) as cur:
                row = await cur.fetchone()
            assert row is not None
            seq = int(row[0])
            await conn.execute(
                "INSERT INTO game_events (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, None if at is None else at.isoformat()),
            )
            return seq

    async def append_events_with_messages(
        self, game_id: int, events: Sequence[tuple[int, str, Mapping[str, Any], datetime | None]],
        messages: Sequence[Queued], *, now: float,
        seats: Sequence[tuple[int, int]] | Seating | None = None,
        change: GameChange | None = None,
    ) -> list[int]:
        """One step of a game in one transaction: its log events ``(seq, kind, payload, at)``,
        the messages they cause (the durable outbox, ``storage/repos/outbox.py``), if the step
        changed them, the lobby's seats (as :meth:`set_seats`; a :class:`Seating` says which
        of them are stored already), and ``change`` (the game's
        roles, commitment and status, as :meth:`set_roles`, :meth:`set_commitment` and
        :meth:`set_status`, after the events: one commit for the step; on SQLite one trip to
        the connection's thread). Returns the chat of each new outbox row (:func:`enqueue_in`)."""
        rows = []
        for seq, kind, payload, at in events:
            rows.append((game_id, seq, kind, _event_text(kind, payload),
                         None if at is None else at.isoformat()))
        seating = seats if isinstance(seats, Seating) or seats is None else Seating(seats)
        if seating is not None:
            _check_seats(seating.seats)

        async def step(conn: Connection) -> list[int]:
            if seating is not None:
                await _write_seats(conn, game_id, seating)  # the game checked open there
            elif rows:
                await _require_open(conn, game_id)
            if rows:
                await conn.executemany(
                    "INSERT INTO game_events (game_id, seq, kind, payload, at)"
                    " VALUES (?, ?, ?, ?, ?)", rows)
            if change is not None:
                await _apply_change(conn, game_id, change)
            return await enqueue_in(conn, messages, now)

        # the press waiting for this step is answered once it is durable: in one trip
        return await self._db.write(step)

    async def events(self, game_id: int, *, after: int = 0) -> list[GameEvent]:
        """The log in order (only events with ``seq > after``)."""
        async with self._db.read() as conn:
            await _ops.game_status(conn, game_id)
            async with conn.execute(
                "SELECT game_id, seq, kind, payload, at FROM game_events"
                " WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ) as cur:
                return [_rows.game_event(r) for r in await cur.fetchall()]

    async def open_count(self) -> int:
        """How many games are open (lobby, running, paused), in every club."""
        marks = ",".join("?" * len(ACTIVE_STATUSES))
        rows = await self._db.query(
            f"SELECT count(*) FROM games WHERE status IN ({marks})", ACTIVE_STATUSES)
        return int(rows[0][0])

    async def running(self, clubs: Sequence[int] | None = None) -> list[Game]:
        """Games not finished or aborted (lobby, running, paused): rebuild them at start (only
        those of ``clubs``, when given)."""
        async with self._db.read() as conn:
            marks = ",".join("?" * len(ACTIVE_STATUSES))
            sql = f"SELECT id FROM games WHERE status IN ({marks})"
            params: tuple[Any, ...] = ACTIVE_STATUSES
            if clubs is not None:
                sql += f" AND club_chat_id IN ({','.join('?' * len(clubs)) or 'NULL'})"
                params = (*params, *clubs)
            async with conn.execute(sql + " ORDER BY id", params) as cur:
                ids = [int(r[0]) for r in await cur.fetchall()]
            return [await fetch_game(conn, i) for i in ids]

    async def set_status(self, game_id: int, status: str) -> Game:
        """Move an open game to another status (use ``finish`` to end it with points)."""
        async with self._db.transaction() as conn:
            await _apply_change(conn, game_id, GameChange(status=status))
            return await fetch_game(conn, game_id)

    async def set_commitment(self, game_id: int, commitment: str) -> Game:
        """The deal's seed commitment (published before the deal; set once)."""
        async with self._db.transaction() as conn:
            await _apply_change(conn, game_id, GameChange(commitment=commitment))
            return await fetch_game(conn, game_id)

    async def set_roles(self, game_id: int, roles: Mapping[int, str]) -> Game:
        """Set the role of each listed seat (every key must be a seat of the game)."""
        async with self._db.transaction() as conn:
            await _apply_change(conn, game_id, GameChange(roles=roles))
            return await fetch_game(conn, game_id)

    async def finish(
        self, game_id: int, *, status: str, points: Sequence[GamePoints], day: date,
        winner: str | None = None, ended_on: date | None = None,
        tell: Callable[[Sequence[Earned]], Sequence[Queued]] | None = None, wall: float = 0.0,
    ) -> bool:
        """End the game: final status ('finished' or 'aborted'), finish day and its ledger
        rows in one transaction, with the outcome (``winner``, the engine's: civilians, mafia,
        draw) and the players' ratings it moves (storage/standing/; ``ended_on``: the day it
        ended in its club's time zone, which decides its season; None: ``day``). Idempotent
        by game id: returns False and writes nothing if this game's points were already
        applied. A friendly game ends with no points, no outcome and counts for nobody
        (``points`` given: :class:`FriendlyGame`, nothing written). A counted game also moves
        its players' achievements (storage/standing/achievements.py): the messages ``tell``
        makes of the levels earned are queued in the same transaction (``wall``: the
        outbox's clock)."""
        if status not in FINAL_STATUSES:
            raise InvalidValue("status", status, "not_final")
        touched: list[int] = []  # the accounts whose games_played it counts
        async with self._accounts.writing(self._db, touched) as conn:
            # the game's row first: a second end at the same moment waits, then finds the
            # points applied and writes nothing (not its status over the first one's)
            await lock_rows(conn, "games", "id", [game_id])
            await _ops.game_status(conn, game_id)
            async with conn.execute(
                "SELECT 1 FROM game_points_applied WHERE game_id = ?", (game_id,)
            ) as cur:
                if await cur.fetchone() is not None:
                    return False
            await conn.execute(
                "UPDATE games SET status = ?, finished_on = coalesce(finished_on, ?) WHERE id = ?",
                (status, day.isoformat(), game_id),
            )
            if not await _ops.record_points(conn, game_id, points, day, touched):
                return False
            counted = None
            if status == STATUS_FINISHED and winner is not None:
                counted = await record_outcome(conn, game_id, winner, ended_on)
            if counted is not None and counted.facts is not None:
                earned = await record_achievements(conn, game_id, counted.facts)
                if tell is not None and earned:
                    await enqueue_in(conn, tell(earned), wall)
            return True

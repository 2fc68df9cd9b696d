"""The network's settings (``/network``): the caps on one foul's fine and on a player's fines
in one game, and its own seasons' dates (standing/seasons.py). A setting nobody changed has no
row: its default (``DEFAULT_FINE_CAPS``; the calendar quarters)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from standing.seasons import Custom, check_custom, check_delete
from storage.errors import InvalidValue
from storage.models import Club, FineCaps
from storage.repos import _ops
from storage.repos.clubs import MAX_FOUL_POINTS, require_club
from storage.repos.keyed_cache import KeyedCache
from storage.repos.outbox import Queued, enqueue_in
from storage.sql import Lock, Store, lock_key
from storage.standing.seasons import customs

MAX_GAME_FINE_CAP = 10 * MAX_FOUL_POINTS
CAPS = {_ops.FINE_CAP: MAX_FOUL_POINTS, _ops.GAME_FINE_CAP: MAX_GAME_FINE_CAP}  # name -> top


@dataclass(frozen=True)
class CapChange:
    """A cap set: its value before and now, and the clubs whose fine it lowered (each with its
    fine before)."""

    name: str
    old: int
    new: int
    lowered: tuple[tuple[Club, int], ...] = ()


class Network:
    def __init__(self, db: Store, clubs: KeyedCache[Club]) -> None:
        self._db = db
        self._clubs = clubs  # the clubs' cache: a lowered fine is a club's write

    async def fine_caps(self) -> FineCaps:
        async with self._db.read() as conn:
            return await _ops.fine_caps(conn)

    async def set_cap(self, name: str, value: int, *, admin_id: int,
                      now: datetime) -> CapChange:
        """Set ``fine_cap`` or ``game_fine_cap`` (0 up to its top in ``CAPS``). A cap on one
        foul's fine lowers every club's fine above it, in the same transaction; the admin log
        says who set it and which club's fine went down."""
        top = CAPS.get(name)
        if top is None:
            raise InvalidValue("network setting", name, "unknown")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise InvalidValue(name, value, "out_of_range")
        lowered_ids: list[int] = []
        fresh: list[Club] = []
        lowered: list[tuple[Club, int]] = []
        async with self._clubs.writing(self._db, lowered_ids, fresh) as conn:
            if name == _ops.FINE_CAP and conn.concurrent:
                # every club's row first: a club's fine set meanwhile (Clubs.set_fouls, under
                # its row's lock) is either in before this lowers it, or meets the new cap
                await conn.execute_fetchall("SELECT 1 FROM clubs ORDER BY chat_id FOR UPDATE")
            caps = await _ops.fine_caps(conn)
            old = caps.fine if name == _ops.FINE_CAP else caps.game
            await conn.execute(
                "INSERT INTO network_settings (name, value, set_by, set_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value,"
                " set_by = excluded.set_by, set_at = excluded.set_at",
                (name, value, admin_id, now.isoformat()))
            await _ops.admin_log(conn, admin_id, f"network_{name}", f"{old} -> {value}", now)
            if name == _ops.FINE_CAP:
                above = {int(r[0]): int(r[1]) for r in await conn.execute_fetchall(
                    "SELECT chat_id, foul_points FROM clubs WHERE foul_points > ?"
                    " ORDER BY chat_id", (value,))}
                if above:
                    await conn.execute("UPDATE clubs SET foul_points = ? WHERE foul_points > ?",
                                       (value, value))
                for chat_id, before in above.items():
                    lowered_ids.append(chat_id)
                    club = await require_club(conn, chat_id)
                    fresh.append(club)
                    lowered.append((club, before))
                    await _ops.admin_log(conn, admin_id, "club_fine_lowered",
                                         f"club={chat_id} {before} -> {value}", now)
        return CapChange(name, old, value, tuple(lowered))

    async def set_season(self, custom: Custom, *, admin_id: int, now: datetime,
                         earliest: date) -> str | None:
        """A season of the network's own dates, written with the admin log's line; or why not
        (``check_custom``'s key: nothing written). ``earliest``: the first day no game may
        have ended on yet, anywhere (so no game ever changes season). A season moves no
        point: it only says which games a season's boards read."""
        async with self._db.transaction() as conn:
            await lock_key(conn, Lock.SEASON)  # one at a time: two may not overlap
            why = check_custom(custom, await customs(conn), earliest=earliest)
            if why is not None:
                return why
            await conn.execute(
                "INSERT INTO seasons (start_day, end_day, name, set_by, set_at)"
                " VALUES (?, ?, ?, ?, ?)", (custom.start.isoformat(), custom.end.isoformat(),
                                            custom.name, admin_id, now.isoformat()))
            await _ops.admin_log(conn, admin_id, "network_season",
                                 f"{custom.start} .. {custom.end} {custom.name}".strip(), now)
        return None

    async def delete_season(self, start: date, *, admin_id: int, now: datetime,
                            earliest: date) -> tuple[Custom | None, str | None]:
        """The custom season that starts on ``start`` deleted, written with the admin log's
        line: (the season, None); or why not, nothing written: (None, ``unknown``) when no
        custom season starts that day, (the season, ``started``) when it starts before
        ``earliest`` (``check_delete``) or a game already ended in it. Its days go back to
        their quarters; no point moves."""
        async with self._db.transaction() as conn:
            await lock_key(conn, Lock.SEASON)  # one at a time, as the seasons set
            found = next((c for c in await customs(conn) if c.start == start), None)
            if found is None:
                return None, "unknown"
            played = await conn.execute_fetchall(
                "SELECT 1 FROM game_outcomes WHERE season = ? LIMIT 1", (start.isoformat(),))
            why = check_delete(found, earliest=earliest) or ("started" if list(played) else None)
            if why is not None:
                return found, why
            await conn.execute("DELETE FROM seasons WHERE start_day = ?", (start.isoformat(),))
            await _ops.admin_log(conn, admin_id, "network_season_delete",
                                 f"{found.start} .. {found.end} {found.name}".strip(), now)
        return found, None

    async def post_season_end(self, season: str, club_chat_id: int, messages: Sequence[Queued],
                              *, now: datetime, wall: float) -> list[int] | None:
        """A closed season's post to a club's chat, queued once: ``messages`` go to the outbox
        in the transaction that marks the season posted there (None, nothing queued: posted
        already). Returns the chats of the new outbox rows."""
        async with self._db.transaction() as conn:
            marked = await conn.execute_fetchall(
                "INSERT INTO season_posts (season, club_chat_id, posted_at) VALUES (?, ?, ?)"
                " ON CONFLICT (season, club_chat_id) DO NOTHING RETURNING season",
                (season, club_chat_id, now.isoformat()))
            if not list(marked):
                return None
            return await enqueue_in(conn, messages, wall)

"""Clubs (group chats): title, locale, timers, composition presets, and the network's trust:
the status (pending, approved, refused, suspended), name, city, time zone. A club's admins and
hosts are the staff's (storage/staff.py); a chat's move re-addresses them with the rest."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime

from storage.errors import FineAboveCap, InvalidValue, UnknownClub
from storage.models import CLUB_STATUSES, Club, StaffRoles
from storage.repos import _ops
from storage.repos.keyed_cache import KeyedCache
from storage.repos.outbox import readdress_in
from storage.sql import Connection, Row, Store

CLUBS_CHANNEL = "mafia_clubs"  # a club written by a process: the chat ids, or "*"
_COLUMNS = ("chat_id, title, locale, timers, fate_by_host, foul_points, foul_limit, foul_public,"
            " status, name, city, time_zone, status_by, status_at, chat_admins_host,"
            " achievements_public, season_post")
_CLUB = f"SELECT {_COLUMNS} FROM clubs WHERE chat_id = ?"
MAX_NAME = 64  # a club's name or city: a line of a list, not a paragraph
MAX_ZONE = 64  # an IANA name ("America/Argentina/ComodRivadavia" is 32)
MAX_FOUL_POINTS = 1000  # a fine beyond this is a typing slip, not a club's price
MAX_FOUL_LIMIT = 20


async def _fetch(conn: Connection, chat_id: int) -> Club | None:
    return next((_club(r) for r in await conn.execute_fetchall(_CLUB, (chat_id,))), None)


def _club(row: Row) -> Club:
    return Club(
        chat_id=row["chat_id"], title=row["title"], locale=row["locale"],
        timers=dict(json.loads(row["timers"])), fate_by_host=bool(row["fate_by_host"]),
        foul_points=int(row["foul_points"]), foul_limit=int(row["foul_limit"]),
        foul_public=bool(row["foul_public"]), status=row["status"], name=row["name"],
        city=row["city"], time_zone=row["time_zone"],
        status_by=None if row["status_by"] is None else int(row["status_by"]),
        status_at=(None if row["status_at"] is None
                   else datetime.fromisoformat(row["status_at"])),
        chat_admins_host=bool(row["chat_admins_host"]),
        achievements_public=bool(row["achievements_public"]),
        season_post=bool(row["season_post"]),
    )


def _check_text(name: str, value: str | None, most: int) -> None:
    if value is not None and not (0 < len(value) <= most):
        raise InvalidValue(name, value, "bad_length")


async def require_club(conn: Connection, chat_id: int) -> Club:
    club = await _fetch(conn, chat_id)
    if club is None:
        raise UnknownClub(chat_id)
    return club


async def read_preset(conn: Connection, chat_id: int, size: int) -> list[str] | None:
    """The club's saved composition for ``size`` players."""
    async with conn.execute(
        "SELECT roles FROM club_presets WHERE chat_id = ? AND size = ?", (chat_id, size)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else [str(r) for r in json.loads(row[0])]


def _check_locale(locale: str) -> None:
    if not (0 < len(locale) <= 16):
        raise InvalidValue("locale", locale, "bad_length")


def _chat_id(club: Club) -> int:
    return club.chat_id


def club_cache(*, announce: bool = False) -> KeyedCache[Club]:
    """The clubs read on every group update, kept as the accounts are
    (storage/repos/keyed_cache.py): every write of a ``clubs`` row goes through
    :meth:`Clubs._writing`."""
    return KeyedCache(CLUBS_CHANNEL, _chat_id, rows=("clubs", "chat_id"), announce=announce)


class Clubs:
    def __init__(self, db: Store, cache: KeyedCache[Club], roles: KeyedCache[StaffRoles]
                 ) -> None:
        self._db = db
        self.cache = cache
        # the staff's roles by account (storage/staff.py): a chat's move re-addresses the
        # club's admins and hosts
        self.roles = roles

    def _writing(self, *chat_ids: int, fresh: list[Club] | None = None
                 ) -> AbstractAsyncContextManager[Connection]:
        return self.cache.writing(self._db, list(chat_ids), fresh)

    async def ensure(self, chat_id: int, *, title: str, locale: str) -> Club:
        """Create the club, or update its title (an existing club keeps its locale)."""
        _check_locale(locale)
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            await conn.execute(
                "INSERT INTO clubs (chat_id, title, locale) VALUES (?, ?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title",
                (chat_id, title, locale),
            )
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def chat_ids(self) -> list[int]:
        rows = await self._db.query("SELECT chat_id FROM clubs ORDER BY chat_id")
        return [int(r[0]) for r in rows]

    async def listed(self, statuses: Collection[str] = CLUB_STATUSES) -> list[Club]:
        """The clubs of these statuses, by status then chat id (``/clubs``)."""
        wanted = sorted(set(statuses))
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        rows = await self._db.query(
            f"SELECT {_COLUMNS} FROM clubs WHERE status IN ({marks}) ORDER BY status, chat_id",
            wanted)
        return [_club(r) for r in rows]

    async def set_status(self, chat_id: int, status: str, *, by: int, now: datetime,
                         expect: Collection[str], name: str | None = None,
                         city: str | None = None, time_zone: str | None = None
                         ) -> tuple[bool, Club]:
        """Move the club to ``status`` only if it is in one of ``expect`` now (one conditional
        UPDATE: of two admins pressing Approve and Refuse at once exactly one changes it), and
        write who did it to the admin log in the same transaction. ``name``/``city``/
        ``time_zone``: set too when given (None: unchanged). Returns ``(changed, the club as it
        is now)``: when not changed, the club says who changed it last and when."""
        if status not in CLUB_STATUSES:
            raise InvalidValue("club status", status, "unknown")
        _check_text("club name", name, MAX_NAME)
        _check_text("club city", city, MAX_NAME)
        _check_text("time zone", time_zone, MAX_ZONE)
        wanted = sorted(set(expect))
        if not wanted:
            raise InvalidValue("expected club status", wanted, "empty")
        fresh: list[Club] = []
        changed = False
        async with self._writing(chat_id, fresh=fresh) as conn:
            before = await require_club(conn, chat_id)
            marks = ",".join("?" * len(wanted))
            cur = await conn.execute(
                "UPDATE clubs SET status = ?, status_by = ?, status_at = ?,"
                " name = coalesce(?, name), city = coalesce(?, city),"
                " time_zone = coalesce(?, time_zone)"
                f" WHERE chat_id = ? AND status IN ({marks})",
                (status, by, now.astimezone(UTC).isoformat(timespec="seconds"), name, city,
                 time_zone, chat_id, *wanted))
            changed = cur.rowcount > 0
            if changed:
                await _ops.admin_log(conn, by, f"club_{status}",
                                     f"club={chat_id} from={before.status}", now)
            fresh.append(await require_club(conn, chat_id))
        return changed, fresh[0]

    async def set_details(self, chat_id: int, *, by: int, now: datetime,
                          name: str | None = None, city: str | None = None,
                          time_zone: str | None = None, clear_zone: bool = False) -> Club:
        """The club's name, city, time zone (None: unchanged; ``clear_zone``: back to the
        network's), written to the admin log with who did it."""
        _check_text("club name", name, MAX_NAME)
        _check_text("club city", city, MAX_NAME)
        _check_text("time zone", time_zone, MAX_ZONE)
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            club = await require_club(conn, chat_id)
            zone = None if clear_zone else (time_zone or club.time_zone)
            await conn.execute(
                "UPDATE clubs SET name = ?, city = ?, time_zone = ? WHERE chat_id = ?",
                (name or club.name, city or club.city, zone, chat_id))
            await _ops.admin_log(conn, by, "club_details",
                                 f"club={chat_id} name={name or club.name or ''}"
                                 f" city={city or club.city or ''} zone={zone or ''}", now)
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_chat_admins_host(self, chat_id: int, allowed: bool, *, by: int | None = None,
                                   now: datetime | None = None) -> Club:
        """Whether the chat's administrators may host in the approved club; ``by``/``now``:
        who switched it, written to the admin log in the same transaction when it changed."""
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            club = await require_club(conn, chat_id)
            await conn.execute("UPDATE clubs SET chat_admins_host = ? WHERE chat_id = ?",
                               (int(allowed), chat_id))
            if by is not None and now is not None and club.chat_admins_host != allowed:
                await _ops.admin_log(conn, by, "chat_admins_host",
                                     f"club={chat_id} {'on' if allowed else 'off'}", now)
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def get(self, chat_id: int) -> Club | None:
        return next((_club(r) for r in await self._db.query(_CLUB, (chat_id,))), None)

    async def cached(self, chat_id: int) -> Club | None:
        """:meth:`get`, from memory when read before and not written since (the club the bot
        reads for every group update; a chat with no club is remembered as such until
        :meth:`ensure`)."""
        return await self.cache.read_through(chat_id, self.get)

    async def set_locale(self, chat_id: int, locale: str) -> Club:
        _check_locale(locale)
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            await require_club(conn, chat_id)
            await conn.execute("UPDATE clubs SET locale = ? WHERE chat_id = ?", (locale, chat_id))
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_fate_by_host(self, chat_id: int, by_host: bool) -> Club:
        """The club's preference for shoot-outs: the host's draw, or the bot's."""
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            await require_club(conn, chat_id)
            await conn.execute("UPDATE clubs SET fate_by_host = ? WHERE chat_id = ?",
                               (int(by_host), chat_id))
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_achievements_public(self, chat_id: int, public: bool) -> Club:
        """Whether the club chat hears of a rare achievement earned at its tables."""
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            await require_club(conn, chat_id)
            await conn.execute("UPDATE clubs SET achievements_public = ? WHERE chat_id = ?",
                               (int(public), chat_id))
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_season_post(self, chat_id: int, post: bool) -> Club:
        """Whether the club chat gets a closed season's board as a picture."""
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            await require_club(conn, chat_id)
            await conn.execute("UPDATE clubs SET season_post = ? WHERE chat_id = ?",
                               (int(post), chat_id))
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_timers(self, chat_id: int, **seconds: int) -> Club:
        """Merge timer settings, e.g. ``set_timers(chat, night=90, vote_turn=45)`` (> 0 each)."""
        for name, value in seconds.items():
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise InvalidValue(f"timer {name}", value, "not_positive_int")
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            club = await require_club(conn, chat_id)
            timers = {**club.timers, **seconds}
            await conn.execute(
                "UPDATE clubs SET timers = ? WHERE chat_id = ?",
                (json.dumps(timers, sort_keys=True), chat_id),
            )
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def set_fouls(self, chat_id: int, *, points: int | None = None,
                        limit: int | None = None, public: bool | None = None,
                        by: int | None = None, now: datetime | None = None) -> Club:
        """What a foul costs (``points``, 0: a warning; never above the network's cap on one
        foul's fine: :class:`FineAboveCap`), from which foul in a game the host is offered the
        technical death (``limit``, 0: never), whether the club chat hears of each foul
        (``public``); None: unchanged. A fine changed ``by`` someone is in the admin log
        (``club_fine``), as the network's caps are."""
        if by is not None and now is None:
            raise ValueError("a change by someone needs its time")
        for name, value, top in (("foul points", points, MAX_FOUL_POINTS),
                                 ("foul limit", limit, MAX_FOUL_LIMIT)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 <= value <= top):
                raise InvalidValue(name, value, "out_of_range")
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            club = await require_club(conn, chat_id)
            # read under the club's row lock: a cap lowered meanwhile locks every club first
            # (storage/repos/network.py), so this fine is checked against the cap it meets
            cap = (await _ops.fine_caps(conn)).fine
            if points is not None and points > cap:
                raise FineAboveCap("fine", points, cap)
            await conn.execute(
                "UPDATE clubs SET foul_points = ?, foul_limit = ?, foul_public = ?"
                " WHERE chat_id = ?",
                (club.foul_points if points is None else points,
                 club.foul_limit if limit is None else limit,
                 int(club.foul_public if public is None else public), chat_id))
            if by is not None and now is not None and points is not None \
                    and points != club.foul_points:
                await _ops.admin_log(conn, by, "club_fine",
                                     f"club={chat_id} {club.foul_points} -> {points}", now)
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def save_preset(self, chat_id: int, size: int, roles: Sequence[str]) -> None:
        """The club's default composition for a table of ``size`` (one role name per seat)."""
        if size <= 0 or len(roles) != size:
            raise InvalidValue("preset", list(roles), "size_mismatch")
        if not all(isinstance(r, str) and r for r in roles):
            raise InvalidValue("preset", list(roles), "bad_role")
        async with self._db.transaction() as conn:
            await require_club(conn, chat_id)
            await conn.execute(
                "INSERT INTO club_presets (chat_id, size, roles) VALUES (?, ?, ?)"
                " ON CONFLICT (chat_id, size) DO UPDATE SET roles = excluded.roles",
                (chat_id, size, json.dumps(list(roles), ensure_ascii=False)),
            )

    async def preset(self, chat_id: int, size: int) -> list[str] | None:
        async with self._db.read() as conn:
            await require_club(conn, chat_id)
            return await read_preset(conn, chat_id, size)

    async def presets(self, chat_id: int) -> dict[int, list[str]]:
        """Every saved composition of the club: table size -> roles."""
        async with self._db.read() as conn:
            await require_club(conn, chat_id)
            async with conn.execute(
                "SELECT size, roles FROM club_presets WHERE chat_id = ? ORDER BY size", (chat_id,)
            ) as cur:
                return {int(r[0]): [str(x) for x in json.loads(r[1])]
                        for r in await cur.fetchall()}

    async def delete_preset(self, chat_id: int, size: int) -> bool:
        """Forget the composition for ``size``; False if there was none."""
        async with self._db.transaction() as conn:
            await require_club(conn, chat_id)
            cur = await conn.execute(
                "DELETE FROM club_presets WHERE chat_id = ? AND size = ?", (chat_id, size)
            )
            return cur.rowcount > 0

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> Club | None:
        """A group became a supergroup (Telegram's ``migrate_to_chat_id``): the club, its
        settings, hosts, presets, games (lobby, running and finished), evenings and
        first-day-killed marks move to ``new_chat_id`` in ONE transaction. Every table keyed by
        a club's chat id is re-addressed here, so a new one belongs in this function too.

        The new chat may already have a club row (the first update from the supergroup
        creates one with defaults): the old club's settings, status (the approval moves with
        the chat), hosts and club admins win, the new title is kept.
        Idempotent: returns ``None`` when there is nothing under ``old_chat_id`` (already moved).
        """
        if old_chat_id == new_chat_id:
            return None
        fresh: list[Club] = []
        async with self._writing(old_chat_id, new_chat_id, fresh=fresh) as conn:
            old = await _fetch(conn, old_chat_id)
            if old is None:
                return None
            kept = ("locale", "timers", "fate_by_host", "foul_points", "foul_limit",
                    "foul_public", "status", "name", "city", "time_zone", "status_by",
                    "status_at", "chat_admins_host", "achievements_public", "season_post")
            await conn.execute(
                f"INSERT INTO clubs (chat_id, title, {', '.join(kept)})"
                f" SELECT ?, title, {', '.join(kept)} FROM clubs WHERE chat_id = ?"
                " ON CONFLICT (chat_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in kept),
                (new_chat_id, old_chat_id),
            )
            await conn.execute(
                "INSERT INTO club_hosts (chat_id, tg_id)"
                " SELECT ?, tg_id FROM club_hosts WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
            await conn.execute(
                "INSERT INTO club_admins (chat_id, tg_id, granted_by, granted_at)"
                " SELECT ?, tg_id, granted_by, granted_at FROM club_admins WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
            await self.roles.announce_in(conn, None)  # every host's and admin's club moved
            await conn.execute(
                "INSERT INTO club_presets (chat_id, size, roles)"
                " SELECT ?, size, roles FROM club_presets WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
            await conn.execute("UPDATE games SET club_chat_id = ? WHERE club_chat_id = ?",
                               (new_chat_id, old_chat_id))
            await conn.execute("UPDATE evenings SET club_chat_id = ? WHERE club_chat_id = ?",
                               (new_chat_id, old_chat_id))
            await conn.execute(
                "UPDATE gift_requests SET club_chat_id = ? WHERE club_chat_id = ?",
                (new_chat_id, old_chat_id))
            await conn.execute(
                "INSERT INTO first_day_killed (club_chat_id, day, tg_id)"
                " SELECT ?, day, tg_id FROM first_day_killed WHERE club_chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
            await conn.execute("DELETE FROM first_day_killed WHERE club_chat_id = ?",
                               (old_chat_id,))
            await readdress_in(conn, old_chat_id, new_chat_id)  # the durable outbox's queue
            await conn.execute("DELETE FROM clubs WHERE chat_id = ?", (old_chat_id,))
            fresh.append(await require_club(conn, new_chat_id))
        self.roles.forget()
        return fresh[0]

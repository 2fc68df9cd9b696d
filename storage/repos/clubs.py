"""Clubs (group chats): title, locale, timers, composition presets, hosts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from storage.errors import InvalidValue, UnknownClub
from storage.models import Club
from storage.repos.keyed_cache import KeyedCache
from storage.repos.outbox import readdress_in
from storage.sql import Connection, Row, Store

CLUBS_CHANNEL = "mafia_clubs"  # a club written by a process: the chat ids, or "*"
_CLUB = ("SELECT chat_id, title, locale, timers, fate_by_host, foul_points, foul_limit,"
         " foul_public FROM clubs WHERE chat_id = ?")
MAX_FOUL_POINTS = 1000  # a fine beyond this is a typing slip, not a club's price
MAX_FOUL_LIMIT = 20


async def _fetch(conn: Connection, chat_id: int) -> Club | None:
    return next((_club(r) for r in await conn.execute_fetchall(_CLUB, (chat_id,))), None)


def _club(row: Row) -> Club:
    return Club(
        chat_id=row["chat_id"], title=row["title"], locale=row["locale"],
        timers=dict(json.loads(row["timers"])), fate_by_host=bool(row["fate_by_host"]),
        foul_points=int(row["foul_points"]), foul_limit=int(row["foul_limit"]),
        foul_public=bool(row["foul_public"]),
    )


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
    def __init__(self, db: Store, cache: KeyedCache[Club] | None = None) -> None:
        self._db = db
        self.cache = cache if cache is not None else club_cache()

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
                        limit: int | None = None, public: bool | None = None) -> Club:
        """What a foul costs (``points``, 0: a warning), from which foul in a game the host is
        offered the technical death (``limit``, 0: never), whether the club chat hears of
        each foul (``public``); None: unchanged."""
        for name, value, top in (("foul points", points, MAX_FOUL_POINTS),
                                 ("foul limit", limit, MAX_FOUL_LIMIT)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 <= value <= top):
                raise InvalidValue(name, value, "out_of_range")
        fresh: list[Club] = []
        async with self._writing(chat_id, fresh=fresh) as conn:
            club = await require_club(conn, chat_id)
            await conn.execute(
                "UPDATE clubs SET foul_points = ?, foul_limit = ?, foul_public = ?"
                " WHERE chat_id = ?",
                (club.foul_points if points is None else points,
                 club.foul_limit if limit is None else limit,
                 int(club.foul_public if public is None else public), chat_id))
            fresh.append(await require_club(conn, chat_id))
        return fresh[0]

    async def add_host(self, chat_id: int, tg_id: int) -> None:
        async with self._db.transaction() as conn:
            await require_club(conn, chat_id)
            await conn.execute(
                "INSERT INTO club_hosts (chat_id, tg_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (chat_id, tg_id),
            )

    async def remove_host(self, chat_id: int, tg_id: int) -> None:
        async with self._db.transaction() as conn:
            await require_club(conn, chat_id)
            await conn.execute(
                "DELETE FROM club_hosts WHERE chat_id = ? AND tg_id = ?", (chat_id, tg_id)
            )

    async def hosts(self, chat_id: int) -> list[int]:
        async with self._db.read() as conn:
            await require_club(conn, chat_id)
            async with conn.execute(
                "SELECT tg_id FROM club_hosts WHERE chat_id = ? ORDER BY tg_id", (chat_id,)
            ) as cur:
                return [int(r[0]) for r in await cur.fetchall()]

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
        creates one with defaults): the old club's settings win, the new title is kept.
        Idempotent: returns ``None`` when there is nothing under ``old_chat_id`` (already moved).
        """
        if old_chat_id == new_chat_id:
            return None
        fresh: list[Club] = []
        async with self._writing(old_chat_id, new_chat_id, fresh=fresh) as conn:
            old = await _fetch(conn, old_chat_id)
            if old is None:
                return None
            await conn.execute(
                "INSERT INTO clubs (chat_id, title, locale, timers, fate_by_host, foul_points,"
                " foul_limit, foul_public)"
                " SELECT ?, title, locale, timers, fate_by_host, foul_points, foul_limit,"
                " foul_public FROM clubs WHERE chat_id = ?"
                " ON CONFLICT (chat_id) DO UPDATE SET locale = excluded.locale,"
                " timers = excluded.timers, fate_by_host = excluded.fate_by_host,"
                " foul_points = excluded.foul_points, foul_limit = excluded.foul_limit,"
                " foul_public = excluded.foul_public",
                (new_chat_id, old_chat_id),
            )
            await conn.execute(
                "INSERT INTO club_hosts (chat_id, tg_id)"
                " SELECT ?, tg_id FROM club_hosts WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
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
                "INSERT INTO first_day_killed (club_chat_id, day, tg_id)"
                " SELECT ?, day, tg_id FROM first_day_killed WHERE club_chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id))
            await conn.execute("DELETE FROM first_day_killed WHERE club_chat_id = ?",
                               (old_chat_id,))
            await readdress_in(conn, old_chat_id, new_chat_id)  # the durable outbox's queue
            await conn.execute("DELETE FROM clubs WHERE chat_id = ?", (old_chat_id,))
            fresh.append(await require_club(conn, new_chat_id))
        return fresh[0]

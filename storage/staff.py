"""The network's staff: its admins, each club's admins and each club's hosts (``club_hosts``).
:class:`Staff` grants and revokes each role with a line in the admin log naming who did it
(``/staff``); a club's settings add and remove its hosts too (``add_host``, ``remove_host``,
with no line). The network's owners are the environment's ``ADMIN_IDS`` and are never stored.

An account's roles are read for every permission check (bot/services/permissions.py), so they
are kept in memory by account as the clubs are (storage/repos/keyed_cache.py): every write of
a role goes through ``roles.writing``, and on PostgreSQL it is announced on
:data:`STAFF_CHANNEL` to the other processes, which forget it at once. A chat's move
(``Clubs.move_chat``, which re-addresses every table keyed by a club's chat id) forgets every
account's roles.

May import: ``storage.repos`` (the clubs' rows, the statements it shares with them, the keyed
cache), ``storage.sql`` and the value modules (``storage.models``, ``storage.errors``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from storage.errors import UnknownClub
from storage.models import StaffRoles
from storage.repos import _ops
from storage.repos.clubs import require_club
from storage.repos.keyed_cache import KeyedCache
from storage.sql import Connection, Store

STAFF_CHANNEL = "mafia_staff"  # an account's roles written by a process: the ids, or "*"


def _tg_id(roles: StaffRoles) -> int:
    return roles.tg_id


def roles_cache(*, announce: bool = False) -> KeyedCache[StaffRoles]:
    """The staff's roles by account (a write locks the network admin's row, if any)."""
    return KeyedCache(STAFF_CHANNEL, _tg_id, rows=("network_admins", "tg_id"),
                      announce=announce)


async def read_roles(conn: Connection, tg_id: int) -> StaffRoles:
    network = await conn.execute_fetchall(
        "SELECT 1 FROM network_admins WHERE tg_id = ?", (tg_id,))
    admin_of = await conn.execute_fetchall(
        "SELECT chat_id FROM club_admins WHERE tg_id = ?", (tg_id,))
    host_of = await conn.execute_fetchall(
        "SELECT chat_id FROM club_hosts WHERE tg_id = ?", (tg_id,))
    return StaffRoles(tg_id, network_admin=bool(network),
                      club_admin_of=frozenset(int(r[0]) for r in admin_of),
                      host_of=frozenset(int(r[0]) for r in host_of))


def _at(now: datetime) -> str:
    return now.astimezone(UTC).isoformat(timespec="seconds")


class Staff:
    def __init__(self, db: Store, roles: KeyedCache[StaffRoles]) -> None:
        self._db = db
        self.roles = roles

    async def read(self, tg_id: int) -> StaffRoles:
        async with self._db.read() as conn:
            return await read_roles(conn, tg_id)

    async def cached(self, tg_id: int) -> StaffRoles:
        """:meth:`read`, from memory when read before and not written since (here, or by
        another process on PostgreSQL)."""
        roles = await self.roles.read_through(tg_id, self.read)
        return roles if roles is not None else StaffRoles(tg_id)

    async def network_admins(self) -> list[int]:
        rows = await self._db.query("SELECT tg_id FROM network_admins ORDER BY tg_id")
        return [int(r[0]) for r in rows]

    async def club_admins(self, chat_id: int) -> list[int]:
        rows = await self._db.query(
            "SELECT tg_id FROM club_admins WHERE chat_id = ? ORDER BY tg_id", (chat_id,))
        return [int(r[0]) for r in rows]

    async def hosts(self, chat_id: int) -> list[int]:
        """The club's hosts (``club_hosts``); :class:`UnknownClub` if there is no club."""
        async with self._db.read() as conn:
            await require_club(conn, chat_id)
            async with conn.execute(
                "SELECT tg_id FROM club_hosts WHERE chat_id = ? ORDER BY tg_id", (chat_id,)
            ) as cur:
                return [int(r[0]) for r in await cur.fetchall()]

    async def grant_network_admin(self, tg_id: int, *, by: int, now: datetime) -> bool:
        """Make ``tg_id`` a network admin; False (nothing written) if it already is one."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            cur = await conn.execute(
                "INSERT INTO network_admins (tg_id, granted_by, granted_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING", (tg_id, by, _at(now)))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "grant_network_admin", f"player={tg_id}", now)
            return cur.rowcount > 0

    async def revoke_network_admin(self, tg_id: int, *, by: int, now: datetime) -> bool:
        """False (nothing written) if ``tg_id`` was not a network admin."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            cur = await conn.execute("DELETE FROM network_admins WHERE tg_id = ?", (tg_id,))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "revoke_network_admin", f"player={tg_id}", now)
            return cur.rowcount > 0

    async def grant_club_admin(self, chat_id: int, tg_id: int, *, by: int,
                               now: datetime) -> bool:
        """Make ``tg_id`` an admin of the club; False (nothing written) if it already is."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            if not await conn.execute_fetchall(
                    "SELECT 1 FROM clubs WHERE chat_id = ?", (chat_id,)):
                raise UnknownClub(chat_id)
            cur = await conn.execute(
                "INSERT INTO club_admins (chat_id, tg_id, granted_by, granted_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (chat_id, tg_id, by, _at(now)))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "grant_club_admin",
                                     f"club={chat_id} player={tg_id}", now)
            return cur.rowcount > 0

    async def grant_host(self, chat_id: int, tg_id: int, *, by: int, now: datetime) -> bool:
        """Make ``tg_id`` a host of the club (``club_hosts``), in the admin log with who did it;
        False (nothing written) if it already is one."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            await require_club(conn, chat_id)
            cur = await conn.execute(
                "INSERT INTO club_hosts (chat_id, tg_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (chat_id, tg_id))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "grant_host", f"club={chat_id} player={tg_id}",
                                     now)
            return cur.rowcount > 0

    async def revoke_host(self, chat_id: int, tg_id: int, *, by: int, now: datetime) -> bool:
        """False (nothing written) if ``tg_id`` was not a host of the club."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            cur = await conn.execute(
                "DELETE FROM club_hosts WHERE chat_id = ? AND tg_id = ?", (chat_id, tg_id))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "revoke_host", f"club={chat_id} player={tg_id}",
                                     now)
            return cur.rowcount > 0

    async def revoke_club_admin(self, chat_id: int, tg_id: int, *, by: int,
                                now: datetime) -> bool:
        """False (nothing written) if ``tg_id`` was not an admin of the club."""
        async with self.roles.writing(self._db, [tg_id]) as conn:
            cur = await conn.execute(
                "DELETE FROM club_admins WHERE chat_id = ? AND tg_id = ?", (chat_id, tg_id))
            if cur.rowcount > 0:
                await _ops.admin_log(conn, by, "revoke_club_admin",
                                     f"club={chat_id} player={tg_id}", now)
            return cur.rowcount > 0


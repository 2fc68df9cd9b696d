"""Several processes sharing one club network on PostgreSQL: the locks and the inbox's claims
on one connection of each process's own (docs/scaling.md).

Every lock here is a *session* advisory lock on that connection: the server releases them all
the moment the connection ends (``kill -9``, a crash; a vanished machine after the TCP
keepalives give up). So a process that loses this connection has lost every club and role it
held, and must stop at once (``on_lost``): another may already be running them.

* a member lock, taken *shared* by every live process: the number of its holders is the number
  of processes, and a club-less update claimed by a session no longer holding it is free again;
* a role lock each for the poller, the outbox sender and the daily expiry;
* a lock per club, ``pg_try_advisory_lock(CLUB_CLASS, fold(chat_id))``: two chats folding to
  one key are held together, by one process, which is all that matters.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import Any

import asyncpg

from bot.delivery.waits import wait_event
from storage.backends import DatabaseUnavailable
from storage.backends.postgres import CONNECT_TIMEOUT_S, LOST
from storage.repos.account_cache import ACCOUNTS_CHANNEL, ALL
from storage.repos.clubs import CLUBS_CHANNEL
from storage.staff import STAFF_CHANNEL

# the server probes the share connection when idle: after 3 s of silence, every second, 4
# times; then it ends the session, and every lock of the process with it
KEEPALIVES = {"tcp_keepalives_idle": "3", "tcp_keepalives_interval": "1",
              "tcp_keepalives_count": "4"}
PING_TIMEOUT_S = 5.0
_FAILED: tuple[type[BaseException], ...] = (TimeoutError, *LOST)

log = logging.getLogger("storage.share")

MEMBER_CLASS = 0x6D616601  # "maf\x01": one shared lock per live process
ROLE_CLASS = 0x6D616602
CLUB_CLASS = 0x6D616603
INBOX_CHANNEL = "mafia_inbox"
OUTBOX_CHANNEL = "mafia_outbox"
CALLS_CHANNEL = "mafia_calls"  # a club call written: its club's holder claims it
ANSWERS_CHANNEL = "mafia_answers"  # a club call answered: the id, for the process waiting
KEEP_CALLS_S = 24 * 3600
NOTIFY_MAX = 7000  # bytes of one NOTIFY payload (the server's limit is 8000)
# pg_locks lists the advisory locks of every database on the server: count only this one's
THIS_DATABASE = "database = (SELECT oid FROM pg_database WHERE datname = current_database())"


class ProcessRole(IntEnum):
    POLLER = 1  # the one getUpdates consumer of the token
    SENDER = 2  # sends the durable outbox: Telegram's limits in one place
    EXPIRY = 3  # the daily expiry job


def fold(chat_id: int) -> int:
    """A chat id (64 bits) as the second key of a two-int advisory lock (signed 32 bits)."""
    u = (chat_id ^ (chat_id >> 32)) & 0xFFFFFFFF
    return u - (1 << 32) if u >= 1 << 31 else u


Forget = Callable[[str], None]  # a cache told what another process wrote (its payload)


def _keep(payload: str) -> None:
    """No cache to forget anything in."""


class ShareConnection:
    """This process's locks, its LISTEN and its claims, on one connection of its own.

    If the connection is lost while the server stays up, the locks are gone: ``on_lost``. If
    the server itself went away, nobody could take them meanwhile: once it answers again, this
    process takes back every lock it held (``on_lost`` if another process got one first).
    ``on_accounts``, ``on_clubs``, ``on_staff``: what another process wrote, told to this
    process's caches (the payload: the ids, or "*"). ``on_call`` and ``on_answer``: a club
    call written, one answered (its id), told to this process's club calls
    (bot/cluster/club_calls.py)."""

    def __init__(self, url: str, on_lost: Callable[[], None], *,
                 every: float = 1.0, on_accounts: Forget = _keep, on_clubs: Forget = _keep,
                 on_staff: Forget = _keep, on_call: Callable[[], None] = lambda: None,
                 on_answer: Callable[[int], None] = lambda call_id: None) -> None:
        self.url = url
        self.on_lost = on_lost
        self.every = every
        self.woken = asyncio.Event()  # an update was written to the inbox
        self._outbox_hooks: list[Callable[[list[int]], None]] = []
        self.on_call = on_call  # a club call written (bot/cluster/club_calls.py)
        self.on_answer = on_answer  # a club call answered: its id
        # an account written by a process (storage/repos/account_cache.py): the ids, or "*"
        self.on_accounts = on_accounts
        # a club written by a process (storage/repos/clubs.py): the chat ids, or "*"
        self.on_clubs = on_clubs
        # an account's staff roles written by a process (storage/staff.py): the ids, or "*"
        self.on_staff = on_staff
        self.roles: set[ProcessRole] = set()
        self.clubs: set[int] = set()
        self._conn: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # one statement at a time on the connection
        self._closing = False
        self._recovering: asyncio.Task[None] | None = None
        self.pid = 0

    async def join(self) -> None:
        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S,
                                     server_settings={**KEEPALIVES,
                                                      "application_name": "mafia-bot share"})
        try:
            await conn.execute("SELECT pg_advisory_lock_shared($1, 0)", MEMBER_CLASS)
            await conn.add_listener(INBOX_CHANNEL, self._inbox_notified)
            await conn.add_listener(OUTBOX_CHANNEL, self._outbox_notified)
            await conn.add_listener(ACCOUNTS_CHANNEL, self._accounts_notified)
            await conn.add_listener(CLUBS_CHANNEL, self._clubs_notified)
            await conn.add_listener(STAFF_CHANNEL, self._staff_notified)
            await conn.add_listener(CALLS_CHANNEL, self._calls_notified)
            await conn.add_listener(ANSWERS_CHANNEL, self._answer_notified)
        except BaseException:
            conn.terminate()
            raise
        self._forget_cached()  # what was written while nobody here listened
        self._conn = conn
        self.pid = conn.get_server_pid()
        conn.add_termination_listener(self._terminated)

    def _inbox_notified(self, *_: Any) -> None:
        self.woken.set()

    def on_outbox(self, hook: Callable[[list[int]], None]) -> None:
        """``hook`` runs with the chats of each ``NOTIFY mafia_outbox`` heard (rows queued)."""
        self._outbox_hooks.append(hook)

    def _outbox_notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        chats = [int(c) for c in payload.split(",") if c.strip()]
        for hook in self._outbox_hooks:
            hook(chats)

    def _calls_notified(self, *_: Any) -> None:
        self.on_call()
        self.woken.set()

    def _answer_notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        with contextlib.suppress(ValueError):
            self.on_answer(int(payload))

    def _accounts_notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.on_accounts(payload)

    def _clubs_notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.on_clubs(payload)

    def _staff_notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.on_staff(payload)

    def _forget_cached(self) -> None:
        self.on_accounts(ALL)
        self.on_clubs(ALL)
        self.on_staff(ALL)

    def _terminated(self, *_: Any) -> None:
        self._connection_failed()

    def _connection_failed(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()
        self._forget_cached()  # no more notifications until joined again
        if self._closing or self._recovering is not None:
            return
        log.warning("the share connection was lost")
        self._recovering = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        try:
            while not self._closing:
                await asyncio.sleep(self.every)
                try:
                    await self.join()
                    taken = [bool(await self._conn_fetchval(
                        "SELECT pg_try_advisory_lock($1, $2)", ROLE_CLASS, int(role)))
                        for role in sorted(self.roles)]
                    taken += [bool(await self._conn_fetchval(
                        "SELECT pg_try_advisory_lock($1, $2)", CLUB_CLASS, fold(club)))
                        for club in sorted(self.clubs)]
                except (*_FAILED, asyncpg.PostgresError):
                    conn, self._conn = self._conn, None
                    if conn is not None:
                        conn.terminate()
                    continue
                if not all(taken):
                    log.error("another process took over this one's clubs: stopping at once")
                    self.on_lost()
                else:
                    log.info("the share connection is back, every lock held again")
                return
        finally:
            self._recovering = None

    async def _conn_fetchval(self, sql: str, *args: Any) -> Any:
        assert self._conn is not None
        return await self._conn.fetchval(sql, *args, timeout=PING_TIMEOUT_S)

    async def _run(self, method: str, sql: str, *args: Any) -> Any:
        conn = self._conn
        if conn is None or self._recovering is not None:
            raise DatabaseUnavailable("the share connection is being restored")
        try:
            async with self._lock:
                return await getattr(conn, method)(sql, *args, timeout=PING_TIMEOUT_S * 2)
        except _FAILED as e:
            if not self._closing:
                self._connection_failed()
            raise DatabaseUnavailable(str(e)) from e

    async def wait_woken(self, at_most: float) -> None:
        """Until an update is written to the inbox, or ``at_most`` seconds (not ``wait_for``:
        the sharing loop, cancelled at a stop, went on forever; ``bot/delivery/waits.py``)."""
        await wait_event(self.woken, at_most)
        self.woken.clear()

    async def try_role(self, role: ProcessRole) -> bool:
        got = bool(await self._run("fetchval", "SELECT pg_try_advisory_lock($1, $2)",
                                   ROLE_CLASS, int(role)))
        if got:
            self.roles.add(role)
        return got

    async def members(self) -> int:
        return len(await self.member_sessions())

    async def member_sessions(self) -> set[int]:
        """The session (backend pid) of each live process sharing the database."""
        rows = await self._run(
            "fetch", "SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
            " AND classid = $1::bigint::oid AND objid = 0 AND objsubid = 2 AND granted"
            f" AND {THIS_DATABASE}", MEMBER_CLASS)
        return {int(r[0]) for r in rows}

    async def roles_held(self) -> dict[ProcessRole, int]:
        """Each role with a live holder: the holder's session."""
        rows = await self._run(
            "fetch", "SELECT objid::bigint, pid FROM pg_locks WHERE locktype = 'advisory'"
            f" AND classid = $1::bigint::oid AND objsubid = 2 AND granted AND {THIS_DATABASE}",
            ROLE_CLASS)
        known = {int(role) for role in ProcessRole}
        return {ProcessRole(int(r[0])): int(r[1]) for r in rows if int(r[0]) in known}

    async def held_elsewhere(self) -> set[int]:
        """The folded keys of the clubs other processes hold."""
        rows = await self._run(
            "fetch", "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory'"
            " AND classid = $1::bigint::oid AND objsubid = 2 AND granted AND pid <> $2"
            f" AND {THIS_DATABASE}", CLUB_CLASS, self.pid)
        return {fold_back(int(r[0])) for r in rows}

    async def try_club(self, chat_id: int) -> bool:
        got = bool(await self._run("fetchval", "SELECT pg_try_advisory_lock($1, $2)",
                                   CLUB_CLASS, fold(chat_id)))
        if got:
            self.clubs.add(chat_id)
        return got

    async def release_club(self, chat_id: int) -> None:
        self.clubs.discard(chat_id)
        await self._run("fetchval", "SELECT pg_advisory_unlock($1, $2)",
                        CLUB_CLASS, fold(chat_id))

    async def claim(self, clubs: Iterable[int], busy: Iterable[int],
                    limit: int) -> list[tuple[int, str]]:
        """Unhandled updates of ``clubs`` (held here) and club-less ones nobody alive claimed
        (claimed for this session now, ``FOR UPDATE SKIP LOCKED``), in update order; not those
        in ``busy`` (being handled here)."""
        rows = await self._run(
            "fetch",
            "WITH free AS (SELECT update_id FROM inbox WHERE handled IS NULL AND club IS NULL"
            "  AND (claimed IS NULL OR claimed <> $1 AND claimed NOT IN ("
            "    SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
            "    AND classid = $2::bigint::oid AND objid = 0 AND objsubid = 2 AND granted"
            f"    AND {THIS_DATABASE}))"
            "  ORDER BY update_id LIMIT $3 FOR UPDATE SKIP LOCKED),"
            " taken AS (UPDATE inbox SET claimed = $1 FROM free"
            "  WHERE inbox.update_id = free.update_id RETURNING inbox.update_id, inbox.payload)"
            " SELECT update_id, payload FROM taken"
            " UNION ALL SELECT update_id, payload FROM inbox WHERE handled IS NULL AND"
            "  (club = ANY($4::bigint[]) OR club IS NULL AND claimed = $1)"
            "  AND update_id <> ALL($5::bigint[])"
            " ORDER BY update_id LIMIT $3",
            self.pid, MEMBER_CLASS, limit, list(clubs), list(busy))
        seen: set[int] = set()
        out = []
        for r in rows:
            if int(r[0]) not in seen:
                seen.add(int(r[0]))
                out.append((int(r[0]), str(r[1])))
        return out

    async def add_updates(self, rows: list[tuple[int, str, int | None]],
                          now: float) -> set[int]:
        """Updates written to the inbox as received, ``(update_id, payload, club)`` each, in
        one statement committed on its own (the ids that were new; one already there is a
        second delivery). Not a write transaction of the database's group commits: a row is
        checked against nothing but its key, so it need not queue behind the games' writes
        for their lock, and the poller asks for the next batch only once this one is in.
        When one is new, the same statement wakes every process (``NOTIFY``, delivered once
        the rows are committed)."""
        if not rows:
            return set()
        found = await self._run(
            "fetch",
            "WITH new AS (INSERT INTO inbox (update_id, payload, received, club)"
            " SELECT u, p, $4, c FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS t(u, p, c)"
            " ON CONFLICT (update_id) DO NOTHING RETURNING update_id)"
            " SELECT update_id FROM new"
            " UNION ALL SELECT NULL FROM (SELECT pg_notify($5, '')) AS woken"
            "  WHERE EXISTS (SELECT 1 FROM new)",
            [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], now,
            INBOX_CHANNEL)
        return {int(r[0]) for r in found if r[0] is not None}

    async def mark_handled(self, update_ids: Iterable[int], now: float) -> None:
        """Rows whose handlers returned, marked handled in one statement (as
        :meth:`add_updates`, outside the write groups)."""
        await self._run("execute", "UPDATE inbox SET handled = $2"
                        " WHERE update_id = ANY($1::bigint[]) AND handled IS NULL",
                        list(update_ids), now)

    async def notify_outbox(self, chats: Iterable[int]) -> None:
        parts: list[str] = []
        for chat in sorted(set(chats)):
            parts.append(str(chat))
            if sum(len(p) + 1 for p in parts) > NOTIFY_MAX:
                await self._run("execute", "SELECT pg_notify($1, $2)", OUTBOX_CHANNEL,
                                ",".join(parts))
                parts = []
        if parts:
            await self._run("execute", "SELECT pg_notify($1, $2)", OUTBOX_CHANNEL,
                            ",".join(parts))

    # ------------------------------------------------------------------ club calls
    # A request for whichever process holds a club (bot/cluster/club_calls.py): written here by the
    # process that has it, claimed by the club's holder (only one not taken yet: a call taken
    # by a process that died is never run again), answered with NOTIFY to the one waiting.

    async def processes(self) -> list[tuple[int, list[int], int]]:
        """Each live process sharing the database: its session, its roles' numbers, its
        clubs' count."""
        rows = await self._run(
            "fetch", "SELECT pid, classid::bigint, objid::bigint FROM pg_locks"
            " WHERE locktype = 'advisory' AND objsubid = 2 AND granted"
            f" AND classid::bigint IN ($1, $2, $3) AND {THIS_DATABASE} ORDER BY pid",
            MEMBER_CLASS, ROLE_CLASS, CLUB_CLASS)
        found: dict[int, tuple[list[int], int]] = {}
        for pid, kind, key in ((int(r[0]), int(r[1]), int(r[2])) for r in rows):
            roles, clubs = found.get(pid, ([], 0))
            if kind == ROLE_CLASS:
                roles.append(key)
            found[pid] = (roles, clubs + (kind == CLUB_CLASS))
        return [(pid, sorted(roles), clubs) for pid, (roles, clubs) in found.items()]

    def holding(self) -> bool:
        """Whether this process's locks, and so its chats' claims, still stand."""
        return self._conn is not None and self._recovering is None and not self._closing

    async def claim_chat(self, chat_id: int) -> bool:
        """The chat's outbox is this sender's to send: it was free, already its, or its
        sender's session holds no member lock any more (a process lost)."""
        row = await self._run(
            "fetchrow",
            "INSERT INTO outbox_senders (chat_id, sender) VALUES ($1, $2)"
            " ON CONFLICT (chat_id) DO UPDATE SET sender = excluded.sender"
            " WHERE outbox_senders.sender = excluded.sender"
            "  OR outbox_senders.sender NOT IN (SELECT pid FROM pg_locks"
            "   WHERE locktype = 'advisory' AND classid = $3::bigint::oid AND objid = 0"
            f"   AND objsubid = 2 AND granted AND {THIS_DATABASE})"
            " RETURNING sender", chat_id, self.pid, MEMBER_CLASS)
        return row is not None

    async def release_chats(self) -> None:
        await self._run("execute", "DELETE FROM outbox_senders WHERE sender = $1", self.pid)

    async def add_call(self, club: int, kind: str, request: str, now: float) -> int:
        """The call written (committed on its own) and the holders woken: its id."""
        return int(await self._run(
            "fetchval",
            "WITH c AS (INSERT INTO club_calls (club, kind, request, created)"
            " VALUES ($1, $2, $3, $4) RETURNING id)"
            " SELECT id FROM c, LATERAL (SELECT pg_notify($5, '')) n",
            club, kind, request, now, CALLS_CHANNEL))

    async def claim_calls(self, clubs: Iterable[int],
                          limit: int) -> list[tuple[int, str, str]]:
        """Calls to ``clubs`` (held here) nobody took, taken for this session, oldest first:
        ``(id, kind, request)``."""
        clubs = list(clubs)
        if not clubs or limit <= 0:
            return []
        rows = await self._run(
            "fetch",
            "UPDATE club_calls SET taken = $1 WHERE id IN (SELECT id FROM club_calls"
            " WHERE answered IS NULL AND taken IS NULL AND club = ANY($2::bigint[])"
            " ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id, kind, request",
            self.pid, clubs, limit)
        return sorted((int(r[0]), str(r[1]), str(r[2])) for r in rows)

    async def answer_call(self, call_id: int, answer: str, now: float) -> None:
        """The answer written and the waiting process told (the NOTIFY comes at the commit, so
        the row is there to read when it arrives)."""
        await self._run(
            "execute",
            "WITH a AS (UPDATE club_calls SET answer = $2, answered = $3"
            " WHERE id = $1 AND answered IS NULL RETURNING id)"
            " SELECT pg_notify($4, id::text) FROM a",
            call_id, answer, now, ANSWERS_CHANNEL)

    async def take_answer(self, call_id: int) -> tuple[bool, str | None]:
        """(answered, the answer); an answered call's row is deleted as it is read (the one
        waiting is the only reader: a Mini App open on a process that does not hold its club
        asks for the table every 1.5 s)."""
        row = await self._run("fetchrow", "DELETE FROM club_calls WHERE id = $1"
                              " AND answered IS NOT NULL RETURNING answer", call_id)
        return (False, None) if row is None else (True, None if row[0] is None else str(row[0]))

    async def withdraw_call(self, call_id: int) -> bool:
        """Whether the call was withdrawn (deleted) before any holder took it: it never runs."""
        return await self._run(
            "fetchval", "DELETE FROM club_calls WHERE id = $1 AND taken IS NULL RETURNING true",
            call_id) is not None

    async def prune_calls(self, now: float) -> None:
        """The calls nobody waits for any more: told ones (no reader), taken by a process that
        died before answering."""
        await self._run("execute", "DELETE FROM club_calls WHERE created < $1",
                        now - KEEP_CALLS_S)

    async def close(self) -> None:
        self._closing = True
        if self._recovering is not None:
            self._recovering.cancel()
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), PING_TIMEOUT_S)
            if not conn.is_closed():
                conn.terminate()


def fold_back(objid: int) -> int:
    """pg_locks shows the key as an unsigned oid; :func:`fold` gives it signed."""
    return objid - (1 << 32) if objid >= 1 << 31 else objid

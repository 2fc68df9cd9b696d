"""The share connection (bot/cluster/share.py) on a real server: members counted, a
role and a club held by one process at a time and freed with its session; the inbox's rows
claimed by their club's holder, a club-less one by one process, and again by another once its
claimer is gone; a process whose session the server ended and whose club another took says so;
a process killed (its socket closed) frees its club and roles at once."""

from __future__ import annotations

import asyncio
import time

import asyncpg

from bot.cluster.share import ProcessRole, ShareConnection, fold
from storage.db import Database
from tests.pg_cluster import Cluster

X, Y = -100_700_001, -100_700_002


async def test_roles_clubs_and_claims_between_processes(pg: Cluster) -> None:
    url = await pg.new_database()
    db = await Database.open(url)
    lost: list[str] = []
    a = ShareConnection(url, lambda: lost.append("a"))
    b = ShareConnection(url, lambda: lost.append("b"))
    try:
        await a.join()
        await b.join()
        assert await a.members() == 2
        assert await a.try_role(ProcessRole.POLLER) is True
        assert await b.try_role(ProcessRole.POLLER) is False
        assert await a.try_club(X) is True
        assert await b.try_club(X) is False
        assert await b.held_elsewhere() == {fold(X)}
        assert await b.try_club(Y) is True
        now = time.time()
        await db.inbox.add(1, "{}", now)  # club-less
        await db.inbox.add(2, "{}", now, club=X)
        await db.inbox.add(3, "{}", now, club=Y)
        assert [u for u, _ in await a.claim([X], [], 10)] == [1, 2]
        assert [u for u, _ in await b.claim([Y], [], 10)] == [3]  # 1 is a's, alive
        assert [u for u, _ in await a.claim([X], [2], 10)] == [1]  # 2 being handled here
        await db.inbox.handled(1, now)
        assert [u for u, _ in await a.claim([X], [], 10)] == [2]

        await a.close()  # a dies: its session's locks go with it
        await db.inbox.add(4, "{}", now)
        await db.query("UPDATE inbox SET handled = NULL WHERE update_id = 1")
        for _ in range(50):  # the server ends the session in a moment
            if await b.members() == 1:
                break
            await asyncio.sleep(0.1)
        assert await b.members() == 1
        assert await b.try_role(ProcessRole.POLLER) is True
        assert await b.try_club(X) is True
        # 1 was claimed by a's session, no longer a member: free again
        assert [u for u, _ in await b.claim([X, Y], [], 10)] == [1, 2, 3, 4]
        assert lost == []
    finally:
        await a.close()
        await b.close()
        await db.close()


async def test_a_session_ended_by_the_server_takes_its_locks_back_or_says_lost(
    pg: Cluster
) -> None:
    url = await pg.new_database()
    lost: list[str] = []
    a = ShareConnection(url, lambda: lost.append("a"), every=0.2)
    b = ShareConnection(url, lambda: lost.append("b"), every=0.2)
    admin = await asyncpg.connect(url)
    try:
        await a.join()
        await b.join()
        assert await a.try_club(X) is True
        await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", a.pid)
        for _ in range(50):  # nobody took X meanwhile: a holds it again
            await asyncio.sleep(0.1)
            if a._recovering is None and a._conn is not None:
                break
        assert await b.try_club(X) is False
        assert lost == []
        first = a.pid
        await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", first)
        assert await b.try_club(X) is True  # b got it first: a must stop
        for _ in range(50):
            await asyncio.sleep(0.1)
            if lost:
                break
        assert lost == ["a"]
    finally:
        await admin.close()
        await a.close()
        await b.close()


async def test_a_process_killed_frees_its_club_and_roles_at_once(pg: Cluster) -> None:
    """``kill -9`` closes the share connection's socket on the process's side: the server ends
    its session there and then, and with it every lock (bot/cluster/share.py) — no
    lease to run out first. (The process killed does not come back: its recovery is held off.)"""
    url = await pg.new_database()
    lost: list[str] = []
    a = ShareConnection(url, lambda: lost.append("a"), every=60)
    b = ShareConnection(url, lambda: lost.append("b"))
    try:
        await a.join()
        await b.join()
        assert await a.try_club(X) is True
        assert await a.try_role(ProcessRole.SENDER) is True
        assert await b.try_club(X) is False
        assert a._conn is not None
        a._conn.terminate()  # what the kernel does to a killed process's socket
        for _ in range(50):
            if await b.members() == 1:
                break
            await asyncio.sleep(0.1)
        assert await b.members() == 1
        assert await b.try_club(X) is True
        assert await b.try_role(ProcessRole.SENDER) is True
        assert lost == []
    finally:
        await a.close()
        await b.close()


async def test_updates_written_wake_the_other_processes_in_the_same_statement(
        pg: Cluster) -> None:
    """The poller's batch and the wake of every process are one statement: a batch with a
    new update wakes the others (and itself); a second delivery of it wakes nobody."""
    url = await pg.new_database()
    db = await Database.open(url)
    poller = ShareConnection(url, lambda: None)
    other = ShareConnection(url, lambda: None)
    statements: list[str] = []
    try:
        await poller.join()
        await other.join()
        run = poller._run

        async def counted(method: str, sql: str, *args: object) -> object:
            statements.append(sql)
            return await run(method, sql, *args)

        poller._run = counted  # type: ignore[method-assign]
        assert await poller.add_updates([(7, "{}", X), (8, "{}", None)], time.time()) == {7, 8}
        assert len(statements) == 1
        await asyncio.wait_for(other.woken.wait(), 5)
        other.woken.clear()
        assert await poller.add_updates([(7, "{}", X)], time.time()) == set()  # again
        await asyncio.sleep(0.5)
        assert not other.woken.is_set()
        assert [u for u, _ in await other.claim([X], [], 10)] == [7, 8]
    finally:
        await poller.close()
        await other.close()
        await db.close()


async def test_two_deployments_on_one_server_see_none_of_each_others_locks(
        pg: Cluster) -> None:
    """Advisory locks are per database, and so is every count of them: a deployment on another
    database of the server (staging beside production, a parallel test worker) holding the
    same club and roles is neither a member here nor a holder of anything here."""
    url_a, url_b = await pg.new_database(), await pg.new_database()
    db_b = await Database.open(url_b)
    lost: list[str] = []
    a = ShareConnection(url_a, lambda: lost.append("a"))
    b = ShareConnection(url_b, lambda: lost.append("b"))
    try:
        await a.join()
        assert await a.try_club(X) is True
        assert await a.try_role(ProcessRole.POLLER) is True
        await b.join()
        assert await b.members() == 1
        assert await b.held_elsewhere() == set()
        assert await b.roles_held() == {}
        assert await b.try_club(X) is True
        assert await b.try_role(ProcessRole.POLLER) is True
        assert await b.roles_held() == {ProcessRole.POLLER: b.pid}
        assert await a.roles_held() == {ProcessRole.POLLER: a.pid}
        assert await a.held_elsewhere() == set()
        assert await a.members() == 1
        # a club-less update claimed by a session of this database now gone, whose pid the
        # server gave to a's session (a member over there): free again here
        await db_b.inbox.add(1, "{}", time.time())
        await db_b.query("UPDATE inbox SET claimed = ? WHERE update_id = 1", (a.pid,))
        assert [u for u, _ in await b.claim([X], [], 10)] == [1]
        # the same for a chat's outbox claimed by such a session: free for b's sender
        await db_b.query("INSERT INTO outbox_senders (chat_id, sender) VALUES (?, ?)"
                         " RETURNING chat_id", (X, a.pid))
        assert await b.claim_chat(X) is True
        assert await b.processes() == [(b.pid, [int(ProcessRole.POLLER)], 1)]
        assert lost == []
    finally:
        await a.close()
        await b.close()
        await db_b.close()

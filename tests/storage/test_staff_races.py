"""The staff's grants and revokes raced (storage/staff.py, ``Staff``), on both backends:
two admins (two processes: two pools on PostgreSQL) granting or revoking the same role at once
end consistent, one of them told it changed and one admin log row; and on PostgreSQL another
process's :class:`Permissions` answers with the new role at once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.cluster.share import ShareConnection
from bot.services.permissions import Permissions, Power
from storage import Database
from tests.pg_cluster import Cluster
from tests.storage.conftest import ADMIN, CLUB, NOW

PERSON = 9

Change = Callable[[Database, bool], Awaitable[bool]]


async def host(db: Database, grant: bool) -> bool:
    return await (db.staff.grant_host(CLUB, PERSON, by=ADMIN, now=NOW) if grant
                  else db.staff.revoke_host(CLUB, PERSON, by=ADMIN, now=NOW))


async def club_admin(db: Database, grant: bool) -> bool:
    return await (db.staff.grant_club_admin(CLUB, PERSON, by=ADMIN, now=NOW) if grant
                  else db.staff.revoke_club_admin(CLUB, PERSON, by=ADMIN, now=NOW))


async def network_admin(db: Database, grant: bool) -> bool:
    return await (db.staff.grant_network_admin(PERSON, by=ADMIN, now=NOW) if grant
                  else db.staff.revoke_network_admin(PERSON, by=ADMIN, now=NOW))


async def holds(db: Database, change: Change) -> bool:
    roles = await db.staff.read(PERSON)
    if change is host:
        return CLUB in roles.host_of and await db.staff.hosts(CLUB) == [PERSON]
    if change is club_admin:
        return CLUB in roles.club_admin_of
    return roles.network_admin


@pytest.mark.parametrize("change", [host, club_admin, network_admin])
async def test_the_same_role_granted_and_revoked_at_once_ends_consistent(
        db_target: str | Path, change: Change) -> None:
    first, second = await Database.open(db_target), await Database.open(db_target)
    try:
        await first.clubs.ensure(CLUB, title="Club", locale="ru")
        logged = 0
        for round_ in range(8):
            # the same grant twice at once: one writes it, the other finds it done
            done = await asyncio.gather(change(first, True), change(second, True))
            assert sorted(done) == [False, True] and await holds(second, change)
            # the same revoke twice at once
            done = await asyncio.gather(change(first, False), change(second, False))
            assert sorted(done) == [False, True] and not await holds(first, change)
            # a grant beside a revoke: whatever order, the end agrees with what each was told
            granted, revoked = await asyncio.gather(change(first, True), change(second, False))
            assert granted
            assert await holds(first, change) is not revoked, round_
            if await holds(first, change):
                assert await change(first, False)
            logged += 4
        actions = [a.action for a in await first.admin_log.recent(200)]
        assert len(actions) == logged
    finally:
        await first.close()
        await second.close()


@pytest.mark.postgresql_only
async def test_another_process_may_at_once(pg: Cluster) -> None:
    """A grant written by one process (its own pool) is what another process's Permissions
    answers in a moment: the roles' cache is forgotten by the writer's NOTIFY."""
    url = await pg.new_database()
    writer, reader = await Database.open(url), await Database.open(url)
    share = ShareConnection(url, lambda: None, every=0.05,
                            on_staff=reader.staff.roles.forget_payload,
                            on_clubs=reader.clubs.cache.forget_payload)
    permissions = Permissions(reader, owners={ADMIN})
    try:
        await writer.clubs.ensure(CLUB, title="Club", locale="ru")
        await share.join()
        assert not await permissions.may(PERSON, Power.GRANT_HOST, club_id=CLUB)
        assert not await permissions.may(PERSON, Power.HOST, club_id=CLUB)
        await writer.staff.grant_club_admin(CLUB, PERSON, by=ADMIN, now=NOW)
        await until(lambda: permissions.may(PERSON, Power.GRANT_HOST, club_id=CLUB), True)
        await writer.staff.revoke_club_admin(CLUB, PERSON, by=ADMIN, now=NOW)
        await until(lambda: permissions.may(PERSON, Power.GRANT_HOST, club_id=CLUB), False)
        await writer.staff.grant_host(CLUB, PERSON, by=ADMIN, now=NOW)
        await until(lambda: permissions.may(PERSON, Power.HOST, club_id=CLUB), True)
        await writer.staff.revoke_host(CLUB, PERSON, by=ADMIN, now=NOW)
        await until(lambda: permissions.may(PERSON, Power.HOST, club_id=CLUB), False)
        await writer.staff.grant_network_admin(PERSON, by=ADMIN, now=NOW)
        await until(lambda: permissions.may(PERSON, Power.NETWORK_SETTINGS), True)
    finally:
        await share.close()
        await writer.close()
        await reader.close()


async def until(ask: Callable[[], Awaitable[bool]], wanted: bool) -> None:
    for _ in range(150):  # the NOTIFY arrives at the writer's commit, in a moment
        if await ask() is wanted:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"still not {wanted}")

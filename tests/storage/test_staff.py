"""The network's trust in storage (storage/repos/clubs.py, storage/staff.py): a club's
status changes only from the status expected (two admins racing: one wins, the other reads who),
every change in the admin log; network and club admins granted and revoked, cached by account
and seen at once (here, and by another process on PostgreSQL); a supergroup migration keeps the
status and the club's admins; an existing database migrates to approved/pending."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from bot.cluster.share import ShareConnection
from storage import Database, InvalidValue, UnknownClub
from storage.models import StaffRoles
from storage.schema.postgres import MIGRATIONS as PG_MIGRATIONS
from storage.schema.postgres import migrate as pg_migrate
from storage.schema.sqlite import MIGRATIONS, migrate
from tests.pg_cluster import Cluster
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, NOW

OTHER = -100777
NEW_CHAT = -1009999


async def test_a_new_club_is_pending_and_approval_names_it(db: Database) -> None:
    club = await db.clubs.ensure(CLUB, title="Group", locale="ru")
    assert (club.status, club.approved, club.name, club.city, club.time_zone) == (
        "pending", False, None, None, None)
    assert club.label == "Group"
    changed, club = await db.clubs.set_status(
        CLUB, "approved", by=ADMIN, now=NOW, expect=("pending",), name="Red Square",
        city="Moscow", time_zone="Europe/Moscow")
    assert changed and club.approved
    assert (club.name, club.city, club.time_zone, club.status_by, club.status_at) == (
        "Red Square", "Moscow", "Europe/Moscow", ADMIN, NOW)
    assert club.label == "Red Square"
    assert await db.clubs.get(CLUB) == club == await db.clubs.cached(CLUB)
    [entry] = await db.admin_log.recent()
    assert (entry.admin_id, entry.action, entry.details) == (
        ADMIN, "club_approved", f"club={CLUB} from=pending")
    # a refusal expecting a pending club changes nothing and says who approved it
    changed, seen = await db.clubs.set_status(CLUB, "refused", by=ADMIN + 1, now=NOW,
                                              expect=("pending",))
    assert not changed and seen == club
    assert len(await db.admin_log.recent()) == 1
    changed, club = await db.clubs.set_status(CLUB, "suspended", by=ADMIN + 1, now=NOW,
                                              expect=("approved",))
    assert changed and (club.status, club.status_by, club.name) == (
        "suspended", ADMIN + 1, "Red Square")
    assert [c.chat_id for c in await db.clubs.listed(("suspended",))] == [CLUB]
    assert await db.clubs.listed(("pending", "approved")) == []


async def test_bad_status_changes_are_refused(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Group", locale="ru")
    for bad in ({"status": "deleted", "expect": ("pending",)},
                {"status": "approved", "expect": ()},
                {"status": "approved", "expect": ("pending",), "name": ""},
                {"status": "approved", "expect": ("pending",), "city": "x" * 65}):
        with pytest.raises(InvalidValue):
            await db.clubs.set_status(CLUB, by=ADMIN, now=NOW, **bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownClub):
        await db.clubs.set_status(OTHER, "approved", by=ADMIN, now=NOW, expect=("pending",))
    assert present(await db.clubs.get(CLUB)).status == "pending"
    assert await db.admin_log.recent() == []


async def test_details_and_chat_admins_hosting(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Group", locale="ru")
    club = await db.clubs.set_details(CLUB, by=ADMIN, now=NOW, name="N", city="C",
                                      time_zone="Asia/Vladivostok")
    assert (club.name, club.city, club.time_zone) == ("N", "C", "Asia/Vladivostok")
    club = await db.clubs.set_details(CLUB, by=ADMIN, now=NOW, city="D", clear_zone=True)
    assert (club.name, club.city, club.time_zone) == ("N", "D", None)
    assert [e.action for e in await db.admin_log.recent()] == ["club_details"] * 2
    assert club.chat_admins_host is True
    assert (await db.clubs.set_chat_admins_host(CLUB, False)).chat_admins_host is False
    assert present(await db.clubs.cached(CLUB)).chat_admins_host is False


async def test_approve_and_refuse_raced_one_wins(db: Database, db_target: str | Path) -> None:
    """Two admins (two processes: two pools) press Approve and Refuse at once."""
    await db.clubs.ensure(CLUB, title="Group", locale="ru")
    other = await Database.open(db_target)
    try:
        for _ in range(3):
            results = await asyncio.gather(
                db.clubs.set_status(CLUB, "approved", by=1, now=NOW, expect=("pending",)),
                other.clubs.set_status(CLUB, "refused", by=2, now=NOW, expect=("pending",)))
            assert sorted(changed for changed, _ in results) == [False, True]
            winner = next(club for changed, club in results if changed)
            loser = next(club for changed, club in results if not changed)
            assert loser.status == winner.status and loser.status_by == winner.status_by
            assert present(await db.clubs.get(CLUB)).status == winner.status
            assert len(await db.admin_log.recent()) == 1
            async with db.transaction() as conn:  # back to pending for the next round
                await conn.execute("UPDATE clubs SET status = 'pending' WHERE chat_id = ?",
                                   (CLUB,))
                await conn.execute("DELETE FROM admin_log")
            db.clubs.cache.forget()
            other.clubs.cache.forget()
    finally:
        await other.close()


async def test_network_and_club_admins(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="A", locale="ru")
    await db.clubs.ensure(OTHER, title="B", locale="ru")
    assert await db.staff.cached(7) == StaffRoles(7)
    assert await db.staff.grant_network_admin(7, by=ADMIN, now=NOW)
    assert not await db.staff.grant_network_admin(7, by=ADMIN, now=NOW)  # already
    assert (await db.staff.cached(7)).network_admin
    assert await db.staff.grant_club_admin(CLUB, 8, by=7, now=NOW)
    assert await db.staff.grant_host(OTHER, 8, by=7, now=NOW)
    assert await db.staff.cached(8) == StaffRoles(8, club_admin_of=frozenset({CLUB}),
                                                  host_of=frozenset({OTHER}))
    assert await db.staff.network_admins() == [7]
    assert await db.staff.club_admins(CLUB) == [8]
    with pytest.raises(UnknownClub):
        await db.staff.grant_club_admin(-5, 8, by=7, now=NOW)
    # revoked: seen by the very next read
    assert await db.staff.revoke_club_admin(CLUB, 8, by=7, now=NOW)
    assert not await db.staff.revoke_club_admin(CLUB, 8, by=7, now=NOW)
    assert await db.staff.revoke_host(OTHER, 8, by=7, now=NOW)
    assert await db.staff.cached(8) == StaffRoles(8)
    assert await db.staff.revoke_network_admin(7, by=ADMIN, now=NOW)
    assert not (await db.staff.cached(7)).network_admin
    log = [(e.admin_id, e.action, e.details) for e in reversed(await db.admin_log.recent())]
    assert log == [(ADMIN, "grant_network_admin", "player=7"),
                   (7, "grant_club_admin", f"club={CLUB} player=8"),
                   (7, "grant_host", f"club={OTHER} player=8"),
                   (7, "revoke_club_admin", f"club={CLUB} player=8"),
                   (7, "revoke_host", f"club={OTHER} player=8"),
                   (ADMIN, "revoke_network_admin", "player=7")]


async def test_a_clubs_hosts_named_and_removed_each_in_the_admin_log(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    assert await db.staff.grant_host(CLUB, 5, by=ADMIN, now=NOW)
    assert await db.staff.grant_host(CLUB, 3, by=ADMIN, now=NOW)
    assert not await db.staff.grant_host(CLUB, 5, by=ADMIN, now=NOW)  # already: no line
    assert await db.staff.hosts(CLUB) == [3, 5]
    assert (await db.staff.cached(5)).host_of == {CLUB}
    assert await db.staff.revoke_host(CLUB, 5, by=ADMIN, now=NOW)
    assert not await db.staff.revoke_host(CLUB, 42, by=ADMIN, now=NOW)
    assert await db.staff.hosts(CLUB) == [3]
    assert (await db.staff.cached(5)).host_of == frozenset()
    log = [(e.action, e.details) for e in reversed(await db.admin_log.recent())]
    assert log == [("grant_host", f"club={CLUB} player=5"), ("grant_host", f"club={CLUB} player=3"),
                   ("revoke_host", f"club={CLUB} player=5")]


async def test_a_supergroup_migration_keeps_the_status_and_the_staff(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Group", locale="ru")
    await db.clubs.set_status(CLUB, "approved", by=ADMIN, now=NOW, expect=("pending",),
                              name="N", city="C", time_zone="Asia/Omsk")
    await db.clubs.set_chat_admins_host(CLUB, False)
    await db.staff.grant_club_admin(CLUB, 8, by=ADMIN, now=NOW)
    await db.staff.grant_host(CLUB, 9, by=ADMIN, now=NOW)
    assert (await db.staff.cached(8)).club_admin_of == {CLUB}
    await db.clubs.ensure(NEW_CHAT, title="Supergroup", locale="ru")  # its first update
    moved = await db.clubs.move_chat(CLUB, NEW_CHAT)
    assert moved is not None and moved.approved
    assert (moved.title, moved.name, moved.city, moved.time_zone, moved.status_by,
            moved.chat_admins_host) == ("Supergroup", "N", "C", "Asia/Omsk", ADMIN, False)
    assert await db.staff.club_admins(NEW_CHAT) == [8]
    assert await db.staff.club_admins(CLUB) == []
    assert (await db.staff.cached(8)).club_admin_of == {NEW_CHAT}
    assert (await db.staff.cached(9)).host_of == {NEW_CHAT}


async def test_another_process_sees_a_grant_at_once(pg: Cluster) -> None:
    url = await pg.new_database()
    writer, reader = await Database.open(url), await Database.open(url)
    share = ShareConnection(url, lambda: None, every=0.05,
                            on_staff=reader.staff.roles.forget_payload)
    try:
        await writer.clubs.ensure(CLUB, title="Club", locale="ru")
        await share.join()
        assert await reader.staff.cached(7) == StaffRoles(7)
        await writer.staff.grant_network_admin(7, by=ADMIN, now=NOW)
        await _until_forgotten(reader, 7)
        assert (await reader.staff.cached(7)).network_admin
        assert (await reader.staff.cached(8)).club_admin_of == frozenset()
        await writer.staff.grant_club_admin(CLUB, 8, by=7, now=NOW)
        await _until_forgotten(reader, 8)
        assert (await reader.staff.cached(8)).club_admin_of == {CLUB}
        await writer.staff.revoke_network_admin(7, by=ADMIN, now=NOW)
        await _until_forgotten(reader, 7)
        assert not (await reader.staff.cached(7)).network_admin
        await writer.clubs.move_chat(CLUB, NEW_CHAT)  # every role forgotten
        await _until_forgotten(reader, 8)
        assert (await reader.staff.cached(8)).club_admin_of == {NEW_CHAT}
    finally:
        await share.close()
        await writer.close()
        await reader.close()


async def _until_forgotten(db: Database, tg_id: int) -> None:
    for _ in range(150):  # delivered at the writer's commit, in a moment
        if db.staff.roles.get(tg_id) == (False, None):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"roles of {tg_id} still cached")


# the existing database: played clubs approved, the others pending

_OLD_ROWS = (
    "INSERT INTO clubs (chat_id, title, locale) VALUES (-1, 'Played', 'ru'),"
    " (-2, 'Aborted only', 'ru'), (-3, 'Never played', 'ru')",
    "INSERT INTO games (id, club_chat_id, host_id, created_at, status) VALUES"
    " (1, -1, 9, '2026-01-01T20:00:00', 'finished'),"
    " (2, -1, 9, '2026-01-02T20:00:00', 'lobby'),"
    " (3, -2, 9, '2026-01-01T20:00:00', 'aborted')",
)


def _before_trust(migrations: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The migrations before the network's trust (the previous schema)."""
    return migrations[:next(i for i, (name, _) in enumerate(migrations)
                            if name.startswith("the network's trust"))]


async def _statuses(db: Database) -> dict[int, str]:
    return {c.chat_id: c.status for c in await db.clubs.listed()}


@pytest.mark.sqlite_only
async def test_an_existing_sqlite_database_migrates(db_path: Path) -> None:
    from storage.backends.sqlite_thread import SqliteConnection

    conn = await SqliteConnection.connect(db_path, busy_wait=10)
    await migrate(conn, _before_trust(MIGRATIONS))
    for sql in _OLD_ROWS:
        await conn.execute(sql)
    await conn.execute("INSERT INTO club_hosts (chat_id, tg_id) VALUES (-3, 5)")
    await conn.close()
    async with await Database.open(db_path) as db:
        assert await _statuses(db) == {-1: "approved", -2: "pending", -3: "pending"}
        assert present(await db.clubs.get(-1)).status_by is None
        assert await db.staff.network_admins() == []  # ADMIN_IDS are never stored
        assert await db.staff.cached(5) == StaffRoles(5, host_of=frozenset({-3}))


async def test_an_existing_postgresql_database_migrates(pg: Cluster) -> None:
    url = await pg.empty_database()
    conn = await asyncpg.connect(url)
    try:
        await pg_migrate(conn, _before_trust(PG_MIGRATIONS))
        for sql in _OLD_ROWS:
            await conn.execute(sql)
        await conn.execute("INSERT INTO club_hosts (chat_id, tg_id) VALUES (-3, 5)")
    finally:
        await conn.close()
    async with await Database.open(url) as db:
        assert await _statuses(db) == {-1: "approved", -2: "pending", -3: "pending"}
        assert await db.staff.network_admins() == []
        assert await db.staff.cached(5) == StaffRoles(5, host_of=frozenset({-3}))

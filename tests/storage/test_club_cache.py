"""The clubs cache (``Clubs.cached``, storage/repos/keyed_cache.py): the club read for every group
update is served from memory, every write of it through storage is seen at once by the next
read, a read under way while a write commits is not kept, and on PostgreSQL another process's
write reaches a sharing process's cache by NOTIFY; what nobody announces is seen after the TTL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cluster.share import ShareConnection
from storage import Database
from storage.errors import UnknownClub
from storage.models import Club
from storage.repos.keyed_cache import keep
from tests.pg_cluster import Cluster
from tests.storage.conftest import CLUB
from tests.storage.holding import stall_after_read
from tests.storage.test_account_cache import Clock

NEW_CHAT = -100999


def count_club_reads(db: Database) -> list[int]:
    """Every read of a ``clubs`` row from now on appends 1 to the list returned."""
    reads: list[int] = []
    query = db.query

    async def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
        if "FROM clubs" in sql:
            reads.append(1)
        return await query(sql, *args, **kwargs)

    db.query = counted  # type: ignore[method-assign]
    return reads


async def _cached(db: Database, chat_id: int = CLUB) -> Club:
    club = await db.clubs.cached(chat_id)
    assert club is not None
    return club


async def test_a_cached_club_is_read_once(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    db.clubs.cache.forget()
    reads = count_club_reads(db)
    first = await _cached(db)
    assert (await _cached(db), await _cached(db)) == (first, first)
    assert first == await db.clubs.get(CLUB)
    assert len(reads) == 2  # the first cached read and the get above


async def _moved(db: Database) -> object:
    return await db.clubs.move_chat(CLUB, NEW_CHAT)


WRITES: dict[str, tuple[Callable[[Database], Awaitable[object]], Callable[[Club], object]]] = {
    "title": (lambda db: db.clubs.ensure(CLUB, title="Renamed", locale="en"),
              lambda c: c.title),
    "locale": (lambda db: db.clubs.set_locale(CLUB, "en"), lambda c: c.locale),
    "fate by host": (lambda db: db.clubs.set_fate_by_host(CLUB, True),
                     lambda c: c.fate_by_host),
    "timers": (lambda db: db.clubs.set_timers(CLUB, night=77), lambda c: c.timers),
}


@pytest.mark.parametrize("write", sorted(WRITES))
async def test_every_write_of_a_club_is_seen_by_the_next_read(db: Database,
                                                               write: str) -> None:
    do, field = WRITES[write]
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    before = field(await _cached(db))
    await do(db)
    reads = count_club_reads(db)
    after = await _cached(db)
    assert field(after) != before
    assert reads == []  # the write kept the club as it committed it
    assert after == await db.clubs.get(CLUB)


async def test_a_moved_chat_is_seen_under_both_ids(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await db.clubs.set_locale(CLUB, "en")
    assert await db.clubs.cached(NEW_CHAT) is None  # no club yet: remembered as such
    assert (await _cached(db)).locale == "en"
    await db.clubs.move_chat(CLUB, NEW_CHAT)
    assert await db.clubs.cached(CLUB) is None
    moved = await _cached(db, NEW_CHAT)
    assert moved.locale == "en" and moved == await db.clubs.get(NEW_CHAT)


async def test_a_chat_without_a_club_is_remembered_until_ensure(db: Database) -> None:
    reads = count_club_reads(db)
    assert await db.clubs.cached(CLUB) is None
    assert await db.clubs.cached(CLUB) is None
    assert len(reads) == 1
    created = await db.clubs.ensure(CLUB, title="Club", locale="ru")
    assert await db.clubs.cached(CLUB) == created


async def test_a_failed_write_forgets_and_keeps_nothing(db: Database) -> None:
    assert await db.clubs.cached(CLUB) is None
    generation = db.clubs.cache.generation
    with pytest.raises(UnknownClub):
        await db.clubs.set_locale(CLUB, "en")  # refused inside its transaction
    assert db.clubs.cache.generation > generation
    assert db.clubs.cache.get(CLUB) == (False, None)


async def test_a_read_under_way_while_a_write_commits_is_not_kept(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    db.clubs.cache.forget()
    gate = stall_after_read(monkeypatch, db.clubs, "get")
    under_way = asyncio.create_task(db.clubs.cached(CLUB))
    await asyncio.sleep(0.05)
    await db.clubs.set_locale(CLUB, "en")  # committed meanwhile
    gate.set()
    stale = await under_way
    assert stale is not None and stale.locale == "ru"  # the read began before the write
    found, kept = db.clubs.cache.get(CLUB)  # but it was not kept: the write's club was
    assert found and kept is not None and kept.locale == "en"


async def test_an_unannounced_write_is_seen_after_the_ttl(db: Database,
                                                          db_target: str | Path) -> None:
    """Another writer that nobody listens to (a second process without the sharing connection,
    a command-line tool): the cached club is what was read, until the TTL."""
    clock = Clock()
    db.clubs.cache.clock = clock
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    assert (await _cached(db)).locale == "ru"
    other = await Database.open(db_target)
    try:
        await other.clubs.set_locale(CLUB, "en")
    finally:
        await other.close()
    assert (await _cached(db)).locale == "ru"  # served from memory
    clock.now += db.clubs.cache.ttl + 0.1
    assert (await _cached(db)).locale == "en"


async def _until_forgotten(db: Database, chat_id: int) -> None:
    for _ in range(150):  # delivered at the writer's commit, in a moment
        if db.clubs.cache.get(chat_id) == (False, None):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"club {chat_id} still cached")


async def test_another_process_write_reaches_a_sharing_process_by_notify(pg: Cluster) -> None:
    url = await pg.new_database()
    writer, reader = await Database.open(url), await Database.open(url)
    share = ShareConnection(url, lambda: None, every=0.05,
                            on_clubs=reader.clubs.cache.forget_payload)
    try:
        await writer.clubs.ensure(CLUB, title="Club", locale="ru")
        await writer.clubs.ensure(-7, title="Other", locale="ru")
        assert (await _cached(reader)).locale == "ru"
        await share.join()  # joining forgets what was written while nobody listened
        assert reader.clubs.cache.get(CLUB) == (False, None)
        assert (await _cached(reader)).timers == {}
        assert (await _cached(reader, -7)).title == "Other"
        await writer.clubs.set_timers(CLUB, night=40)
        await _until_forgotten(reader, CLUB)
        assert (await _cached(reader)).timers == {"night": 40}
        assert reader.clubs.cache.get(-7)[0]  # the others stay cached
        await writer.clubs.move_chat(CLUB, NEW_CHAT)
        await _until_forgotten(reader, CLUB)
        assert await reader.clubs.cached(CLUB) is None
        assert (await _cached(reader, NEW_CHAT)).timers == {"night": 40}
        # the share connection lost: every club forgotten (nobody listens until it is back)
        async with writer.transaction() as conn:
            await conn.execute("SELECT pg_terminate_backend(?)", (share.pid,))
        await _until_forgotten(reader, -7)
        await _until_forgotten(reader, NEW_CHAT)
    finally:
        await share.close()
        await writer.close()
        await reader.close()


def test_a_full_memory_drops_its_oldest_half_first() -> None:
    """``keep``: how the caches and the outbox's sent message ids stay bounded."""
    entries: dict[int, str] = {}
    for i in range(10):
        keep(entries, i, str(i), 4)
    assert entries == {6: "6", 7: "7", 8: "8", 9: "9"}

"""The accounts cache (storage/repos/account_cache.py): an account read for every update is served
from memory, every write of it through storage is seen at once by the next read, a read under
way while a write commits is not kept, and on PostgreSQL another process's write reaches a
sharing process's cache by NOTIFY; what nobody announces is seen after the TTL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path

import pytest

from bot.cluster.share import ShareConnection
from storage import Database
from storage.errors import NicknameTaken, UnknownPlayer
from storage.models import GamePoints, Player
from storage.repos.account_cache import AccountCache
from storage.txn.transactions import Transactions
from tests.pg_cluster import Cluster
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players
from tests.storage.holding import stall_after_read


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _cached(db: Database, tg_id: int) -> Player:
    player = await db.players.cached(tg_id)
    assert player is not None
    return player


async def test_an_unannounced_write_is_seen_after_the_ttl(db: Database,
                                                          db_target: str | Path) -> None:
    """Another writer (a second process, a command-line tool) that nobody listens to: the
    cached account is what was read (no read per update), until the TTL."""
    clock = Clock()
    db.accounts.clock = clock
    await add_players(db, 1)
    assert (await _cached(db, 1)).language == "ru"
    other = await Database.open(db_target)
    try:
        await other.players.set_language(1, "en")
    finally:
        await other.close()
    assert (await db.players.get(1)) is not None
    assert (await _cached(db, 1)).language == "ru"  # served from memory
    clock.now += db.accounts.ttl + 0.1
    assert (await _cached(db, 1)).language == "en"


async def _game_finished(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
    await db.games.finish(game, status="finished", day=date(2026, 3, 10),
                          points=[GamePoints(1, 1, "x")])


async def _points_recorded(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    game = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
    await db.ledger.record_game(game, [GamePoints(1, 1, "x")], day=date(2026, 3, 10))


WRITES: dict[str, tuple[Callable[[Database], Awaitable[object]], Callable[[Player], object]]] = {
    "language": (lambda db: db.players.set_language(1, "en"), lambda p: p.language),
    "sex": (lambda db: db.players.set_sex(1, "f"), lambda p: p.sex),
    "nickname": (lambda db: db.players.set_nickname(1, "Vera"), lambda p: p.nickname),
    "display name": (lambda db: db.players.register(1, display_name="Vera T"),
                     lambda p: p.display_name),
    "bot blocked": (lambda db: db.players.set_bot_blocked(1, True), lambda p: p.bot_blocked),
    "block": (lambda db: db.players.block(1, reason="x", admin_id=ADMIN, now=NOW),
              lambda p: p.blocked),
    "proposal": (lambda db: db.players.propose_spouse(1, 2), lambda p: p.spouse_proposed_to),
    "warned": (lambda db: db.expiry.mark_warned(1, date(2026, 3, 10)),
               lambda p: p.expiry_warned_on),
    "game played": (_game_finished, lambda p: p.games_played),
    "game played (ledger)": (_points_recorded, lambda p: p.games_played),
}


@pytest.mark.parametrize("write", sorted(WRITES))
async def test_every_write_of_an_account_is_seen_by_the_next_read(db: Database,
                                                                   write: str) -> None:
    do, field = WRITES[write]
    await add_players(db, 1, 2)
    before = field(await _cached(db, 1))
    await do(db)
    after = await _cached(db, 1)
    assert field(after) != before
    assert after == await db.players.get(1)


async def test_both_spouses_are_forgotten_on_a_wedding_and_a_divorce(db: Database) -> None:
    await add_players(db, 1, 2)
    await db.players.propose_spouse(1, 2)
    assert (await _cached(db, 1)).spouse_id is None and (await _cached(db, 2)).spouse_id is None
    await db.players.confirm_spouse(2, 1)
    assert (await _cached(db, 1)).spouse_id == 2 and (await _cached(db, 2)).spouse_id == 1
    await db.players.divorce(2)
    assert (await _cached(db, 1)).spouse_id is None and (await _cached(db, 2)).spouse_id is None


async def test_an_unblock_and_a_registration_are_seen_at_once(db: Database) -> None:
    assert await db.players.cached(5) is None  # not registered: remembered as such
    await db.players.register(5, display_name="New")
    assert (await _cached(db, 5)).display_name == "New"
    await db.players.block(5, reason="x", admin_id=ADMIN, now=NOW)
    assert (await _cached(db, 5)).blocked
    await db.players.unblock(5, admin_id=ADMIN, now=NOW)
    assert not (await _cached(db, 5)).blocked


async def test_a_read_under_way_while_a_write_commits_is_not_kept(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    await add_players(db, 1)
    gate = stall_after_read(monkeypatch, db.players, "get")
    under_way = asyncio.create_task(db.players.cached(1))
    await asyncio.sleep(0.05)
    await db.players.block(1, reason="x", admin_id=ADMIN, now=NOW)  # committed meanwhile
    gate.set()
    stale = await under_way
    assert stale is not None and not stale.blocked  # the read began before the write
    monkeypatch.undo()
    assert (await _cached(db, 1)).blocked  # but it was not kept


async def test_a_failed_write_forgets_too(db: Database) -> None:
    await add_players(db, 1, 2)
    await _cached(db, 1)
    generation = db.accounts.generation
    with pytest.raises(NicknameTaken):
        await db.players.set_nickname(1, "nick2")  # refused inside its transaction
    assert db.accounts.generation > generation
    assert db.accounts.get(1) == (False, None)


def test_the_cache_stays_bounded() -> None:
    cache = AccountCache()
    for i in range(25_000):
        cache.put(i, None, cache.generation, cache.clock())
    assert len(cache._entries) <= 20_000
    assert cache.get(24_999) == (True, None)


async def test_another_process_write_reaches_a_sharing_process_by_notify(pg: Cluster) -> None:
    url = await pg.new_database()
    writer, reader = await Database.open(url), await Database.open(url)
    told: list[str] = []

    def on_accounts(payload: str) -> None:
        told.append(payload)
        reader.accounts.forget_payload(payload)
    share = ShareConnection(url, lambda: None, on_accounts=on_accounts)
    try:
        await share.join()
        await add_players(writer, 1, 2, 3)
        # the registrations' own notices may still be on their way and would forget what the
        # reader caches next: a later write's notice comes after them (commit order)
        await writer.players.block(3, reason="x", admin_id=ADMIN, now=NOW)
        for _ in range(1500):
            if any("3" in payload.split(",") for payload in told):
                break
            await asyncio.sleep(0.02)
        assert any("3" in payload.split(",") for payload in told), told
        assert not (await _cached(reader, 1)).blocked
        assert (await _cached(reader, 2)).language == "ru"
        await writer.players.block(1, reason="x", admin_id=ADMIN, now=NOW)
        for _ in range(1500):  # delivered at the writer's commit (a generous bound: load)
            if reader.accounts.get(1) == (False, None):
                break
            await asyncio.sleep(0.02)
        assert (await _cached(reader, 1)).blocked
        assert reader.accounts.get(2)[0]  # the others stay cached
        await writer.expiry.sweep(date(2026, 3, 10))  # a write of any account: all forgotten
        for _ in range(1500):
            if reader.accounts.get(2) == (False, None):
                break
            await asyncio.sleep(0.02)
        assert reader.accounts.get(2) == (False, None)
    finally:
        await share.close()
        await writer.close()
        await reader.close()


async def test_a_read_under_way_is_kept_when_another_account_is_written(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    await add_players(db, 1, 2)
    gate = stall_after_read(monkeypatch, db.players, "get")
    under_way = asyncio.create_task(db.players.cached(1))
    await asyncio.sleep(0.05)
    await db.players.set_language(2, "en")  # another account
    gate.set()
    await under_way
    monkeypatch.undo()
    assert db.accounts.get(1)[0]  # kept: nothing of account 1 was written meanwhile


async def test_a_registration_or_a_setting_keeps_the_account_as_committed(
        db: Database) -> None:
    """``/start``, ``/lang``: the next update (the host's first panel press) reads nothing."""
    await db.players.register(7, display_name="Host")
    assert db.accounts.get(7) == (True, await db.players.get(7))
    await db.players.set_language(7, "en")
    found, player = db.accounts.get(7)
    assert found and player is not None and player.language == "en"
    with pytest.raises(UnknownPlayer):
        await db.players.set_language(8, "en")  # failed: nothing kept
    assert db.accounts.get(8) == (False, None)


async def test_two_writes_of_one_account_in_one_group_keep_nothing_stale(db: Database) -> None:
    """Two writes of the same account committed together: whichever returns first, the
    account kept is never the older one (the other's write would be hidden)."""
    await add_players(db, 1)
    if isinstance(db.transactions, Transactions):  # SQLite's groups' age limit (the pool has none)
        db.transactions.group_max_s = None
    release = asyncio.Event()
    holding = asyncio.Event()

    async def first() -> None:  # holds the writer so that the two below form one group
        async with db.transaction():
            holding.set()
            await release.wait()

    head = asyncio.create_task(first())
    await holding.wait()
    language = asyncio.create_task(db.players.set_language(1, "en"))  # keeps what it read
    sex = asyncio.create_task(db.players.set_sex(1, "f"))  # the group's last: commits it
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(head, language, sex)
    fresh = await db.players.get(1)
    assert fresh is not None and (fresh.language, fresh.sex) == ("en", "f")
    assert await db.players.cached(1) == fresh

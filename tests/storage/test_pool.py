"""PostgreSQL's pool: transactions side by side, and each kind of write that must be serialized
serialized by its own lock (docs/storage.md, "What a write locks"). Several ``Database``
objects on one database stand for several processes; each race is run many times."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from datetime import date

import asyncpg
import pytest

from storage import Database
from storage.db import WriteConflict
from storage.errors import InsufficientBalance, LookalikeNickname, NicknameTaken
from storage.models import GamePoints
from storage.repos.outbox import SEND, Queued
from storage.sql import Connection
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

pytestmark = pytest.mark.postgresql_only

ROUNDS = 20


@contextlib.asynccontextmanager
async def processes(db_target: str, n: int = 2) -> AsyncIterator[list[Database]]:
    opened = [await Database.open(db_target, pool_size=4) for _ in range(n)]
    try:
        yield opened
    finally:
        for db in opened:
            await db.close()


async def _ledger_sums(db_target: str) -> dict[int, tuple[int, int]]:
    """Each player's (balance, sum of its ledger rows), read apart from the bot's code."""
    conn = await asyncpg.connect(db_target)
    try:
        rows = await conn.fetch(
            "SELECT b.tg_id, b.points, coalesce(sum(l.points), 0) FROM balances b"
            " LEFT JOIN ledger l ON l.tg_id = b.tg_id GROUP BY b.tg_id, b.points")
        return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}
    finally:
        await conn.close()


async def _meanwhile(work: Awaitable[object]) -> bool:
    """Whether ``work`` finishes while the test holds something open (a generous bound, never
    reached when it does not wait; not cancelled when it is: the test releases what it holds
    and the work ends then)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=60)
    if not done:
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return bool(done)


async def test_two_clubs_write_while_the_other_is_open(db: Database, db_target: str) -> None:
    """No write lock: a transaction left open holds nobody else's write back (another club's
    step, another process's), and a read sees only what was committed."""
    await db.clubs.ensure(CLUB, title="A", locale="ru")
    await db.clubs.ensure(CLUB - 1, title="B", locale="ru")
    first = await db.games.create(CLUB, ADMIN, created_at=NOW)
    second = await db.games.create(CLUB - 1, ADMIN, created_at=NOW)
    opened, finish = asyncio.Event(), asyncio.Event()

    async def slow_step() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET status = 'running' WHERE id = ?", (first,))
            opened.set()
            await finish.wait()

    async with processes(db_target, 1) as (other,):
        held = asyncio.create_task(slow_step())
        await opened.wait()
        try:
            # each would wait for the open transaction behind one write lock
            assert await _meanwhile(db.games.set_status(second, "running"))
            assert await _meanwhile(other.games.append_event(second, "note", {"x": 1}))
            assert (await other.games.get(first)).status == "lobby"  # not committed yet
            assert not held.done()
        finally:
            finish.set()
            await held
    assert (await db.games.get(first)).status == "running"


async def test_a_games_points_and_an_adjust_of_one_player_at_once(db_target: str) -> None:
    """Two processes write the same players' ledger at the same moment (a game's end in one,
    an admin's /adjust and /redeem in the other): every balance is the sum of its rows, and
    nothing is lost or doubled."""
    async with processes(db_target) as (game_side, admin_side):
        players = list(range(1, 9))
        await add_players(game_side, *players)
        await game_side.clubs.ensure(CLUB, title="C", locale="ru")
        expected = dict.fromkeys(players, 0)
        for round_ in range(ROUNDS):
            game = await game_side.games.create(
                CLUB, ADMIN, seats=[(i, p) for i, p in enumerate(players, 1)], created_at=NOW)
            points = [GamePoints(p, 1 + (p + round_) % 4, f"r{round_}", None) for p in players]
            target = players[round_ % len(players)]
            recorded, adjusted, taken = await asyncio.gather(
                game_side.ledger.record_game(game, points, day=date(2026, 3, 10)),
                admin_side.ledger.adjust(target, 5, reason="bonus", admin_id=ADMIN, now=NOW),
                admin_side.ledger.redeem(players[-1 - round_ % 3], 1, reason="pin",
                                         admin_id=ADMIN, now=NOW),
                return_exceptions=True)
            assert recorded is True and isinstance(adjusted, int)
            for row in points:
                expected[row.tg_id] += row.points
            expected[target] += 5
            if not isinstance(taken, InsufficientBalance):
                assert isinstance(taken, int)
                expected[players[-1 - round_ % 3]] -= 1
        sums = await _ledger_sums(db_target)
        for player in players:
            assert sums[player] == (expected[player], expected[player])
            assert await admin_side.ledger.balance(player) == expected[player]


async def test_the_leaderboard_stays_whole_with_games_ending_side_by_side(
        db_target: str) -> None:
    """Games of different clubs ending at once move players between the same leaderboard
    buckets (in a different order each): no deadlock, and the buckets still count every
    ranked player once."""
    async with processes(db_target, 3) as dbs:
        players = list(range(1, 13))
        await add_players(dbs[0], *players)
        clubs = [CLUB - i for i in range(3)]
        for club in clubs:
            await dbs[0].clubs.ensure(club, title=str(club), locale="ru")
        for round_ in range(ROUNDS):
            finishing = []
            for i, db in enumerate(dbs):
                seated = players[i * 4:(i + 1) * 4]
                game = await db.games.create(clubs[i], ADMIN, created_at=NOW,
                                             seats=[(s, p) for s, p in enumerate(seated, 1)])
                rows = [GamePoints(p, (p * 7 + round_ * 3) % 5 + 1, "r", None) for p in seated]
                finishing.append(db.ledger.record_game(game, rows, day=date(2026, 3, 10)))
            assert await asyncio.gather(*finishing) == [True, True, True]
        conn = await asyncpg.connect(db_target)
        try:
            histogram = {int(r[0]): int(r[1]) for r in await conn.fetch(
                "SELECT points, players FROM rank_histogram")}
            counted = {int(r[0]): int(r[1]) for r in await conn.fetch(
                "SELECT points, count(*) FROM balances WHERE ranked = 1 AND points > 0"
                " GROUP BY points")}
        finally:
            await conn.close()
        assert histogram == counted and sum(counted.values()) == len(players)


@pytest.mark.parametrize(("first", "second", "refusal"), [
    ("Boris", "boris", NicknameTaken),  # the same nickname
    ("Boris", "B0ris", LookalikeNickname),  # one that looks like it
])
async def test_two_nicknames_claimed_at_once(db_target: str, first: str, second: str,
                                             refusal: type[Exception]) -> None:
    """Two players of two processes claim one nickname (or two look-alikes) at the same
    moment: one gets it, the other is refused as if they had come one after the other."""
    async with processes(db_target) as (one, two):
        for round_ in range(ROUNDS):
            a, b = 1000 + 2 * round_, 1001 + 2 * round_
            await add_players(one, a, b, nick=False)
            suffix = f"{round_}x"
            outcomes = await asyncio.gather(
                one.players.set_nickname(a, first + suffix),
                two.players.set_nickname(b, second + suffix), return_exceptions=True)
            won = [o for o in outcomes if not isinstance(o, BaseException)]
            lost = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(won) == 1 and len(lost) == 1, outcomes
            assert isinstance(lost[0], refusal), lost[0]


async def test_offline_accounts_created_at_once_get_ids_of_their_own(db_target: str) -> None:
    async with processes(db_target) as (one, two):
        made = await asyncio.gather(*(
            (one if i % 2 else two).players.create_offline(f"Guest{i}") for i in range(12)))
        assert len({p.tg_id for p in made}) == 12


async def test_an_immunity_is_used_once_by_two_processes_at_once(db_target: str) -> None:
    async with processes(db_target) as (one, two):
        await add_players(one, 1, 2)
        await one.clubs.ensure(CLUB, title="C", locale="ru")
        for _ in range(ROUNDS // 2):
            game = await one.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
            order = await one.immunity.order(game, 1, 2, announce_name=False)
            outcomes = await asyncio.gather(one.immunity.mark_used(order.id),
                                            two.immunity.mark_used(order.id),
                                            return_exceptions=True)
            assert sum(not isinstance(o, BaseException) for o in outcomes) == 1, outcomes


async def test_a_deadlock_is_retried_by_write_and_named_by_transaction(db: Database) -> None:
    """Two transactions locking two rows in opposite orders: the server rolls one back; a
    ``write()`` runs its body again and succeeds, a ``transaction()`` raises WriteConflict
    (a DatabaseUnavailable: nothing written, try again)."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE pair (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
        await conn.execute("INSERT INTO pair VALUES (1, 0), (2, 0)")
    both = asyncio.Barrier(2)
    runs = {"write": 0}

    async def crosswise(conn: Connection, first: int, second: int) -> None:
        await conn.execute("UPDATE pair SET n = n + 1 WHERE id = ?", (first,))
        await both.wait()
        await conn.execute("UPDATE pair SET n = n + 1 WHERE id = ?", (second,))

    async def by_write() -> None:
        async def body(conn: Connection) -> None:
            runs["write"] += 1
            if runs["write"] == 1:
                await crosswise(conn, 1, 2)
            else:
                await conn.execute("UPDATE pair SET n = n + 1 WHERE id IN (1, 2)")
        await db.write(body)

    async def by_transaction() -> None:
        async with db.transaction() as conn:
            await crosswise(conn, 2, 1)

    outcomes = await asyncio.gather(by_write(), by_transaction(), return_exceptions=True)
    rows = dict(await db.query("SELECT id, n FROM pair"))
    if isinstance(outcomes[1], WriteConflict):  # the transaction was the one rolled back
        assert runs["write"] == 1 and outcomes[0] is None
        assert rows == {1: 1, 2: 1}
    else:  # the write was: run again after the transaction committed
        assert outcomes == [None, None] and runs["write"] == 2
        assert rows == {1: 2, 2: 2}


async def test_background_work_leaves_connections_for_the_games(db_target: str) -> None:
    """The background lane (the delivery's marks, a sweep) holds at most half the pool: with
    all of it busy, a game's step still gets a connection."""
    async with processes(db_target, 1) as (db,):
        await db.clubs.ensure(CLUB, title="C", locale="ru")
        game = await db.games.create(CLUB, ADMIN, created_at=NOW)
        opened = 0
        all_open, finish = asyncio.Event(), asyncio.Event()

        async def busy() -> None:
            nonlocal opened
            async with db.transaction(background=True):
                opened += 1
                if opened == 2:
                    all_open.set()
                await finish.wait()

        background = [asyncio.create_task(busy()) for _ in range(4)]  # 2 get in, 2 wait
        try:
            await all_open.wait()
            assert await _meanwhile(db.games.set_status(game, "running"))
            assert opened == 2
        finally:
            finish.set()
            await asyncio.gather(*background)
        assert opened == 4


async def test_a_transaction_inside_the_same_tasks_transaction_is_refused(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(RuntimeError, match=r"inside db\.transaction"):
            await db.outbox.enqueue([Queued(1, SEND, {"text": "x"})], now=1.0)
    assert await db.outbox.enqueue([Queued(1, SEND, {"text": "x"})], now=1.0) == [1]


async def test_a_lone_write_cancelled_in_its_body_changes_nothing(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    inside = asyncio.Event()

    async def waits(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (1)")
        inside.set()
        await asyncio.Event().wait()

    task = asyncio.create_task(db.write(waits))
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    async def two(conn: Connection) -> None:
        await conn.execute("INSERT INTO t (x) VALUES (2)")

    await db.write(two)
    assert [r[0] for r in await db.query("SELECT x FROM t ORDER BY x")] == [2]

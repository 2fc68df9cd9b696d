"""PostgreSQL's pool: transactions side by side, and each kind of write that must be serialized
serialized by its own lock (docs/storage.md, "What a write locks"). Several ``Database``
objects on one database stand for several processes; each race is run many times."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from datetime import date, timedelta

import asyncpg
import pytest

from storage import Database
from storage.db import WriteConflict
from storage.errors import InsufficientBalance, LookalikeNickname, NicknameTaken
from storage.models import KIND_EXPIRY_BURN, Fine, GamePoints
from storage.repos.games import GameChange
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


async def _balance_at(db_target: str, tg_id: int, kind: str, reason: str) -> int:
    """The player's balance as of its ledger row of ``kind`` and ``reason`` (the sum of its
    rows up to that one's id): what a write holding the player's row saw and left."""
    conn = await asyncpg.connect(db_target)
    try:
        row_id = await conn.fetchval(
            "SELECT id FROM ledger WHERE tg_id = $1 AND kind = $2 AND reason = $3",
            tg_id, kind, reason)
        assert row_id is not None, (tg_id, kind, reason)
        return int(await conn.fetchval(
            "SELECT coalesce(sum(points), 0) FROM ledger WHERE tg_id = $1 AND id <= $2",
            tg_id, row_id))
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
            target, gifted = players[round_ % len(players)], players[-1 - round_ % 3]
            recorded, adjusted, taken = await asyncio.gather(
                game_side.ledger.record_game(game, points, day=date(2026, 3, 10)),
                admin_side.ledger.adjust(target, 5, reason=f"bonus {round_}", admin_id=ADMIN,
                                         now=NOW),
                admin_side.ledger.redeem(gifted, 1, reason=f"pin {round_}", admin_id=ADMIN,
                                         now=NOW),
                return_exceptions=True)
            assert recorded is True and isinstance(adjusted, int)
            for row in points:
                expected[row.tg_id] += row.points
            expected[target] += 5
            # the balance the admin was told is the one its row left: the game's points are
            # either all before it or all after it, never counted by one and missed by the other
            assert adjusted == await _balance_at(db_target, target, "adjust", f"bonus {round_}")
            if not isinstance(taken, InsufficientBalance):
                assert isinstance(taken, int)
                expected[gifted] -= 1
                assert taken == await _balance_at(db_target, gifted, "redeem", f"pin {round_}")
        sums = await _ledger_sums(db_target)
        for player in players:
            assert sums[player] == (expected[player], expected[player])
            assert await admin_side.ledger.balance(player) == expected[player]


async def test_two_takes_beyond_the_balance_at_once(db_target: str) -> None:
    """An admin's /redeem in one process and another's /adjust -6 in another, at the same
    moment, of a player holding 10: one is written, the other refused with the balance it
    would have broken (not the database's last-line CHECK), and the balance never goes below
    zero."""
    async with processes(db_target) as (one, two):
        await add_players(one, 7)
        for round_ in range(ROUNDS):
            have = await one.ledger.balance(7)
            await one.ledger.adjust(7, 10 - have, reason=f"to ten {round_}", admin_id=ADMIN,
                                    now=NOW)
            outcomes = await asyncio.gather(
                one.ledger.redeem(7, 6, reason=f"gift {round_}", admin_id=ADMIN, now=NOW),
                two.ledger.adjust(7, -6, reason=f"fine {round_}", admin_id=ADMIN, now=NOW),
                return_exceptions=True)
            written = [o for o in outcomes if isinstance(o, int)]
            refused = [o for o in outcomes if isinstance(o, InsufficientBalance)]
            assert written == [4] and len(refused) == 1, outcomes
            assert (refused[0].balance, refused[0].requested) == (4, 6)
        assert (await _ledger_sums(db_target))[7] == (4, 4)


async def test_a_games_fine_and_an_admins_redeem_beyond_the_balance_at_once(
        db_target: str) -> None:
    """A foul's step of a game in one process fines a player 6 while an admin redeems 6 of
    the same player in another, at the same moment, of a player holding 10: one is written,
    the other refused as if they had come one after the other (the step writes nothing, not
    even its event), and the balance equals the sum of its rows."""
    async with processes(db_target) as (game_side, admin_side):
        await add_players(game_side, 7, 8)
        await game_side.clubs.ensure(CLUB, title="C", locale="ru")
        for round_ in range(ROUNDS):
            game = await game_side.games.create(CLUB, ADMIN, seats=[(1, 7), (2, 8)],
                                                created_at=NOW)
            await game_side.games.set_status(game, "running")
            have = await game_side.ledger.balance(7)
            await game_side.ledger.adjust(7, 10 - have, reason=f"to ten {round_}",
                                          admin_id=ADMIN, now=NOW)
            fine = Fine(7, -6, "foul_other", "day 1", date(2026, 3, 10))
            outcomes = await asyncio.gather(
                game_side.games.append_events_with_messages(
                    game, [(1, "foul", {"seat": 1, "points": 6}, None)], [], now=0.0,
                    change=GameChange(fines=(fine,))),
                admin_side.ledger.redeem(7, 6, reason=f"gift {round_}", admin_id=ADMIN,
                                         now=NOW),
                return_exceptions=True)
            refused = [o for o in outcomes if isinstance(o, InsufficientBalance)]
            assert len(refused) == 1, outcomes
            assert (refused[0].balance, refused[0].requested) == (4, 6)
            fined = not isinstance(outcomes[0], BaseException)
            assert fined == isinstance(outcomes[1], InsufficientBalance)
            events = await game_side.games.events(game)
            assert [e.kind for e in events] == (["foul"] if fined else [])
            assert await admin_side.ledger.balance(7) == 4
        assert (await _ledger_sums(db_target))[7] == (4, 4)


async def test_the_expiry_burns_what_a_player_has_while_points_come_in(
        db_target: str) -> None:
    """The daily expiry in one process while another adds points to the players it burns: each
    burn takes exactly what its player held at that moment (the points that came in before it
    are burnt too, those after it stay), so no expired player keeps points it had before."""
    async with processes(db_target) as (expiry_side, admin_side):
        today = date(2026, 6, 1)
        for round_ in range(ROUNDS // 2):
            players = [2000 + 10 * round_ + i for i in range(6)]
            await add_players(expiry_side, *players)
            await expiry_side.players.record_game_played(players, today - timedelta(days=70))
            for player in players:
                await expiry_side.ledger.adjust(player, 10, reason="start", admin_id=ADMIN,
                                                now=NOW)
            swept, *_ = await asyncio.gather(
                expiry_side.expiry.sweep(today),
                *(admin_side.ledger.adjust(p, 5, reason=f"late {round_}", admin_id=ADMIN,
                                           now=NOW) for p in players))
            assert isinstance(swept, list)
            assert sorted(p.tg_id for p in swept) == players
            sums = await _ledger_sums(db_target)
            for player in players:
                assert await _balance_at(db_target, player, KIND_EXPIRY_BURN, "expired") == 0
                assert sums[player][0] == sums[player][1] in (0, 5)


async def test_a_game_finished_twice_at_once_keeps_one_end(db_target: str) -> None:
    """A game's end written by two processes at once (a holder that has not yet noticed it lost
    the club, and the new one), one "finished", the other "aborted": one is written whole,
    points and status together; the other writes nothing."""
    async with processes(db_target) as (one, two):
        await add_players(one, 1, 2)
        await one.clubs.ensure(CLUB, title="C", locale="ru")
        for _ in range(ROUNDS // 2):
            game = await one.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
            rows = [GamePoints(1, 3, "win", None)]
            outcomes = await asyncio.gather(
                one.games.finish(game, status="finished", points=rows, day=NOW.date()),
                two.games.finish(game, status="aborted", points=[], day=NOW.date()))
            assert sorted(outcomes) == [False, True]
            status = (await one.games.get(game)).status
            assert status == ("finished" if outcomes[0] else "aborted")
            game_rows = await one.query("SELECT count(*) FROM ledger WHERE game_id = ?",
                                        (game,))
            assert game_rows[0][0] == (1 if outcomes[0] else 0)


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


async def test_two_spouses_divorcing_each_other_at_once_both_get_an_answer(
        db_target: str) -> None:
    """Each spouse's /divorce in its own process at the same moment: both rows are locked in
    one order, so neither waits for the other in a circle (which the server breaks by
    rolling one back: "try again" for a divorce that happened); both end unmarried."""
    async with processes(db_target) as (one, two):
        for round_ in range(ROUNDS):
            a, b = 3000 + 2 * round_, 3001 + 2 * round_
            await add_players(one, a, b, nick=False)
            await one.players.propose_spouse(a, b)
            await two.players.confirm_spouse(b, a)
            outcomes = await asyncio.gather(one.players.divorce(a), two.players.divorce(b),
                                            return_exceptions=True)
            assert [o.spouse_id for o in outcomes if not isinstance(o, BaseException)] \
                == [None, None], outcomes
            other = await one.players.get(b)
            assert other is not None and other.spouse_id is None


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
    rows = {row[0]: row[1] for row in await db.query("SELECT id, n FROM pair")}
    if isinstance(outcomes[1], WriteConflict):  # the transaction was the one rolled back
        assert runs["write"] == 1 and outcomes[0] is None
        assert rows == {1: 1, 2: 1}
    else:  # the write was: run again after the transaction committed
        assert list(outcomes) == [None, None] and runs["write"] == 2
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


async def test_the_pools_connections_are_named_on_the_server(db_target: str) -> None:
    """On a server shared with other deployments and programs, pg_stat_activity says which
    connections are the bot's; a URL naming them keeps its own name."""
    async with processes(db_target, 1) as (db,):
        rows = await db.query("SELECT application_name FROM pg_stat_activity"
                              " WHERE pid = pg_backend_pid()")
        assert rows[0][0] == "mafia-bot"
    async with processes(db_target + "?application_name=staging", 1) as (db,):
        rows = await db.query("SELECT application_name FROM pg_stat_activity"
                              " WHERE pid = pg_backend_pid()")
        assert rows[0][0] == "staging"


async def test_a_busy_pool_makes_a_caller_wait_not_fail(
        db_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every connection of the pool busy for longer than a connection may take to open,
    the next caller waits for one and is served: a busy evening is slow, never "the database
    is unavailable" (which would fail a game's deadline)."""
    db = await Database.open(db_target, pool_size=1)
    try:
        monkeypatch.setattr("storage.backends.postgres.CONNECT_TIMEOUT_S", 0.05)
        holding = asyncio.Event()

        async def busy() -> None:
            async with db.transaction():
                holding.set()
                await asyncio.sleep(1.0)  # far longer than the bound on opening one

        held = asyncio.create_task(busy())
        await holding.wait()
        rows = await db.query("SELECT 1")
        assert rows[0][0] == 1
        await held
    finally:
        await db.close()

"""Transactions, crashes, concurrency, migrations, backup and the CLI, on real files."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Database, GamePoints, InsufficientBalance, StorageError
from storage.repos import _ops as ops
from storage.schema.sqlite import MIGRATIONS, SCHEMA_VERSION, migrate
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players, sqlite_writer

DAY = date(2026, 3, 10)
_EXAMPLES = itertools.count()
REPO = Path(__file__).resolve().parents[2]

CRASH_SCRIPT = """
import asyncio, sys, time
from storage import Database

async def main():
    db = await Database.open(sys.argv[1])
    async with db.transaction() as conn:
        await conn.execute("UPDATE players SET nickname = 'Crashed', nickname_key = 'crashed'"
                           " WHERE tg_id = 1")
        await conn.executemany(
            "INSERT INTO ledger (tg_id, points, kind, reason, day) VALUES (?, ?, 'adjust', 'x',"
            " '2026-01-01')", [(1, 5)] * 1000)
        print("in transaction", flush=True)
        time.sleep(60)  # killed here, before COMMIT

asyncio.run(main())
"""


FINISH_CRASH_SCRIPT = """
import asyncio, sys, time
from datetime import date
from storage import Database, GamePoints
from storage.repos import _ops

real = _ops.games_played

async def stalled(*args, **kwargs):
    await real(*args, **kwargs)
    print("inside finish", flush=True)
    time.sleep(60)  # killed here: marker, status and counters written, not committed

_ops.games_played = stalled

async def main():
    db = await Database.open(sys.argv[1])
    await db.games.finish(int(sys.argv[2]), status="finished", day=date(2026, 3, 10),
                          points=[GamePoints(1, 6, "team_win", "end")])

asyncio.run(main())
"""


def run_and_kill(script: str, *args: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, cwd=REPO, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() in ("in transaction", "inside finish")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def sql(path: Path, query: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    """Here a SQLite database is migrated from nothing in the test's file, as the product
    makes one (the backups copy it), not copied from the template as in tests/storage."""
    async with await Database.open(db_target) as database:
        yield database


def test_sigkill_before_commit_leaves_nothing(db_path: Path) -> None:
    async def prepare() -> None:
        async with await Database.open(db_path) as db:
            await add_players(db, 1)
            await db.ledger.adjust(1, 7, reason="before", admin_id=ADMIN, now=NOW)

    asyncio.run(prepare())
    run_and_kill(CRASH_SCRIPT, str(db_path))

    async def check() -> None:
        async with await Database.open(db_path) as db:
            assert await db.ledger.balance(1) == 7
            assert len(await db.ledger.recent(1, 100)) == 1
            player = await db.players.get(1)
            assert player is not None and player.nickname == "nick1"
            # and the file takes new writes
            assert await db.ledger.adjust(1, 1, reason="after", admin_id=ADMIN, now=NOW) == 8

    asyncio.run(check())
    assert sql(db_path, "PRAGMA integrity_check") == [("ok",)]


def test_sigkill_in_the_middle_of_finish_leaves_the_game_running(db_path: Path) -> None:
    async def prepare() -> int:
        async with await Database.open(db_path) as db:
            await add_players(db, 1, 2)
            await db.clubs.ensure(CLUB, title="C", locale="ru")
            game_id = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)],
                                            created_at=NOW)
            await db.games.set_status(game_id, "running")
            return game_id

    game_id = asyncio.run(prepare())
    run_and_kill(FINISH_CRASH_SCRIPT, str(db_path), str(game_id))

    async def check() -> None:
        async with await Database.open(db_path) as db:
            game = await db.games.get(game_id)
            assert (game.status, game.finished_on) == ("running", None)
            assert [g.id for g in await db.games.running()] == [game_id]
            assert await db.ledger.balance(1) == 0
            assert present(await db.players.get(1)).games_played == 0
            # after the restart the game can be finished, once
            points = [GamePoints(1, 6, "team_win", "end")]
            assert await db.games.finish(game_id, status="finished", points=points, day=DAY)
            assert not await db.games.finish(game_id, status="finished", points=points, day=DAY)
            assert await db.ledger.balance(1) == 6

    asyncio.run(check())


async def test_exception_inside_transaction_rolls_back(db: Database) -> None:
    await add_players(db, 1)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ledger (tg_id, points, kind, reason, day)"
                " VALUES (1, 5, 'adjust', 'x', '2026-01-01')"
            )
            raise RuntimeError("boom")
    assert await db.ledger.balance(1) == 0
    assert await db.ledger.recent(1) == []


async def test_failure_in_the_middle_of_finish_writes_nothing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await add_players(db, 1, 2)
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    game_id = await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 2)], created_at=NOW)
    real = ops.games_played

    async def games_played_then_crash(*args: Any, **kwargs: Any) -> None:
        await real(*args, **kwargs)
        raise RuntimeError("crash after the marker and the counters")

    monkeypatch.setattr(ops, "games_played", games_played_then_crash)
    points = [GamePoints(1, 6, "team_win", "end"), GamePoints(2, 6, "team_win", "end")]
    with pytest.raises(RuntimeError):
        await db.games.finish(game_id, status="finished", points=points, day=DAY)
    monkeypatch.setattr(ops, "games_played", real)
    assert (await db.games.get(game_id)).status == "lobby"
    assert present(await db.players.get(1)).games_played == 0
    assert await db.ledger.balance(1) == 0
    assert await db.games.finish(game_id, status="finished", points=points, day=DAY)
    assert await db.ledger.balance(1) == 6


async def test_cancelled_transaction_rolls_back(db: Database) -> None:
    await add_players(db, 1)
    inside = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ledger (tg_id, points, kind, reason, day)"
                " VALUES (1, 5, 'adjust', 'x', '2026-01-01')"
            )
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.ledger.balance(1) == 0
    assert await db.ledger.adjust(1, 2, reason="x", admin_id=ADMIN, now=NOW) == 2


async def test_readers_never_see_uncommitted_rows(db: Database) -> None:
    await add_players(db, 1)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ledger (tg_id, points, kind, reason, day)"
                " VALUES (1, 5, 'adjust', 'x', '2026-01-01')"
            )
            inside.set()
            await release.wait()
            raise RuntimeError("rolled back")

    task = asyncio.create_task(writer())
    await inside.wait()
    try:
        # the reading connection does not wait for the writer: it sees what was committed
        assert await asyncio.wait_for(db.ledger.balance(1), 5) == 0
    finally:
        release.set()
    with pytest.raises(RuntimeError):
        await task
    assert await db.ledger.balance(1) == 0
    await db.ledger.adjust(1, 7, reason="x", admin_id=ADMIN, now=NOW)
    assert await db.ledger.balance(1) == 7  # a read after a commit sees it


async def test_a_read_inside_a_transaction_of_the_same_task_is_refused(db: Database) -> None:
    await add_players(db, 1)
    with pytest.raises(RuntimeError, match="yielded connection"):
        async with db.transaction():
            await db.ledger.balance(1)
    with pytest.raises(RuntimeError, match="yielded connection"):
        async with db.read():
            await db.ledger.balance(1)
    assert await db.ledger.balance(1) == 0


async def test_a_single_query_sees_what_was_committed_and_nothing_else(db: Database) -> None:
    """``db.query``: one SELECT on the reading connection, no transaction of its own."""
    await add_players(db, 1)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE players SET nickname = 'Mid' WHERE tg_id = 1")
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    player = await asyncio.wait_for(db.players.get(1), 5)  # not waiting for the writer
    assert player is not None and player.nickname == "nick1"
    release.set()
    await task
    player = await db.players.get(1)
    assert player is not None and player.nickname == "Mid"
    with pytest.raises(RuntimeError, match="yielded connection"):
        async with db.transaction():
            await db.players.get(1)
    with pytest.raises(RuntimeError, match="yielded connection"):
        async with db.read():
            await db.query("SELECT 1")


async def test_undelivered_counts_the_sends_still_queued(db: Database) -> None:
    from storage.repos.outbox import SEND, Queued, enqueue_in

    queued = [Queued(10, SEND, {"text": "x"}, key="a"), Queued(10, SEND, {"text": "y"}, key="b"),
              Queued(11, SEND, {"text": "z"}, key="a")]
    async with db.transaction() as conn:
        assert await enqueue_in(conn, [*queued, queued[0]], now=1.0) == [10, 10, 11]  # once a key
    assert await db.outbox.undelivered([(10, "a"), (10, "b"), (11, "a"), (12, "a")]) == 3
    row = (await db.outbox.pending(10))[0]
    await db.outbox.mark_sent(row, 99, now=2.0)
    assert await db.outbox.undelivered([(10, "a"), (10, "b"), (11, "a")]) == 2
    assert await db.outbox.undelivered([]) == 0


async def test_concurrent_redemptions_never_overdraw(db: Database) -> None:
    await add_players(db, 1)
    await db.ledger.adjust(1, 100, reason="x", admin_id=ADMIN, now=NOW)

    async def redeem() -> int | None:
        try:
            return await db.ledger.redeem(1, 3, reason="gift", admin_id=ADMIN, now=NOW)
        except InsufficientBalance:
            return None

    results = await asyncio.gather(*(redeem() for _ in range(50)))
    assert sum(r is not None for r in results) == 33
    assert sorted(r for r in results if r is not None) == list(range(1, 100, 3))
    assert await db.ledger.balance(1) == 1


async def test_two_databases_on_one_file(db_path: Path) -> None:
    first = await Database.open(db_path)
    second = await Database.open(db_path)
    try:
        await add_players(first, 1, 2)
        await first.clubs.ensure(CLUB, title="C", locale="ru")
        game_id = await first.games.create(CLUB, ADMIN, seats=[(1, 1)], created_at=NOW)
        await first.ledger.adjust(1, 100, reason="x", admin_id=ADMIN, now=NOW)

        async def redeem(db: Database) -> bool:
            try:
                await db.ledger.redeem(1, 7, reason="gift", admin_id=ADMIN, now=NOW)
            except InsufficientBalance:
                return False
            return True

        async def adjust(db: Database) -> None:
            await db.ledger.adjust(2, 1, reason="x", admin_id=ADMIN, now=NOW)

        points = [GamePoints(1, 6, "team_win")]
        outcome = await asyncio.gather(
            *(redeem(first if i % 2 else second) for i in range(20)),
            *(adjust(first if i % 2 else second) for i in range(30)),
            first.ledger.record_game(game_id, points, day=DAY),
            second.ledger.record_game(game_id, points, day=DAY),
            second.games.finish(game_id, status="finished", points=points, day=DAY),
        )
        redeemed = sum(1 for r in outcome[:20] if r is True)
        applied = [r for r in outcome[-3:] if r is True]
        assert len(applied) == 1  # the game's points exactly once
        # 100 points, 6 more arrive at some point: 14 or 15 gifts of 7, never below zero
        assert redeemed in (14, 15)
        assert await first.ledger.balance(1) == 106 - 7 * redeemed >= 0
        assert await second.ledger.balance(2) == 30
        for db in (first, second):
            async with db.read() as conn, conn.execute(
                "SELECT count(*) FROM ledger WHERE tg_id = 2") as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == 30
    finally:
        await first.close()
        await second.close()


async def test_pragmas_and_migrations_idempotent(db_path: Path) -> None:
    db = await Database.open(db_path)
    await add_players(db, 1)
    await db.ledger.adjust(1, 4, reason="x", admin_id=ADMIN, now=NOW)
    assert await db.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    async with db.transaction() as conn:  # the writing connection
        for pragma, expected in (("journal_mode", "wal"), ("foreign_keys", 1),
                                 ("busy_timeout", 10_000), ("synchronous", 2)):
            async with conn.execute(f"PRAGMA {pragma}") as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == expected, pragma
    async with db.read() as conn:  # the reading one: it cannot write
        for pragma, expected in (("journal_mode", "wal"), ("busy_timeout", 10_000),
                                 ("query_only", 1)):
            async with conn.execute(f"PRAGMA {pragma}") as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == expected, pragma
        with pytest.raises(sqlite3.OperationalError):
            await conn.execute("DELETE FROM players")
    await db.close()
    for _ in range(2):
        again = await Database.open(db_path)
        assert await again.schema_version() == SCHEMA_VERSION
        assert await again.ledger.balance(1) == 4
        async with again.transaction() as conn:
            pass
        assert await migrate(sqlite_writer(again)) == SCHEMA_VERSION  # nothing left to apply
        await again.close()


async def test_upgrade_from_version_1_fills_the_rank_histogram(db_path: Path) -> None:
    from storage.backends.sqlite_thread import SqliteConnection

    conn = await SqliteConnection.connect(db_path, busy_wait=10)
    assert await migrate(conn, MIGRATIONS[:1]) == 1
    await conn.execute("INSERT INTO players (tg_id, nickname, nickname_key) VALUES (1, 'A1', 'a1')")
    await conn.execute("INSERT INTO players (tg_id, nickname, nickname_key) VALUES (2, 'B1', 'b1')")
    await conn.execute("INSERT INTO ledger (tg_id, points, kind, reason, day)"
                       " VALUES (1, 9, 'adjust', 'x', '2026-01-01'),"
                       " (2, 3, 'adjust', 'x', '2026-01-01')")
    await conn.close()
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        info = await db.ledger.balance_with_rank(2)
        assert (info.points, info.rank, info.players_ranked) == (3, 2, 2)


async def test_upgrade_marks_the_open_lobbies_posted(db_path: Path) -> None:
    """Lobbies open before 'lobby_posted' was logged had their post: the restore must not post
    them again (one without the event is a lobby whose process died before posting it)."""
    from storage.backends.sqlite_thread import SqliteConnection

    conn = await SqliteConnection.connect(db_path, busy_wait=10)
    before = next(i for i, (name, _) in enumerate(MIGRATIONS) if "'lobby_posted'" in name)
    await migrate(conn, MIGRATIONS[:before])
    await conn.execute("INSERT INTO clubs (chat_id, title, locale) VALUES (-1, 'C', 'ru')")
    for game, status in ((1, "lobby"), (2, "lobby"), (3, "running"), (4, "finished")):
        await conn.execute("INSERT INTO games (id, club_chat_id, host_id, created_at, status)"
                           " VALUES (?, -1, 9, '2026-01-01T20:00:00', ?)", (game, status))
    await conn.execute("INSERT INTO game_events (game_id, seq, kind, payload)"
                       " VALUES (2, 1, 'fate_mode', '{\"host\": true}')")
    await conn.close()
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        kinds = {g: [(e.seq, e.kind) for e in await db.games.events(g)] for g in (1, 2, 3, 4)}
    assert kinds == {1: [(1, "lobby_posted")], 2: [(1, "fate_mode"), (2, "lobby_posted")],
                     3: [], 4: []}


async def test_newer_schema_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Database.open(db_path)


async def test_open_creates_parent_directory(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "db.sqlite3"
    async with await Database.open(path) as db:
        assert db.path == path
    assert path.is_file()


@pytest.mark.sqlite_only
async def test_backup_and_cli(db: Database, tmp_path: Path) -> None:
    await add_players(db, 1, 2)
    await db.ledger.adjust(1, 12, reason="x", admin_id=ADMIN, now=NOW)
    out = await db.backup(tmp_path / "backups" / "copy.sqlite3")
    assert sql(out, "SELECT tg_id, points FROM balances ORDER BY tg_id") == [(1, 12), (2, 0)]
    assert sql(out, "PRAGMA integrity_check") == [("ok",)]

    cli_out = tmp_path / "cli" / "copy2.sqlite3"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", "backup", str(db.path), str(cli_out), cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    stdout, _ = await proc.communicate()
    assert proc.returncode == 0
    assert "passed PRAGMA integrity_check and was synced to disk" in stdout.decode()
    assert sql(cli_out, "SELECT count(*) FROM ledger") == [(1,)]

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", "export", str(cli_out), cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    stdout, _ = await proc.communicate()
    assert stdout.decode().splitlines() == [
        "nickname,points,games_played,last_game_date,telegram_id,username,no_shows,status",
        "nick1,12,0,,1,,0,", "nick2,0,0,,2,,0,"]

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", "backup", str(tmp_path / "missing.sqlite3"),
        str(tmp_path / "x.sqlite3"), cwd=REPO, stderr=asyncio.subprocess.PIPE,
    )
    await proc.communicate()
    assert proc.returncode == 2


@pytest.mark.sqlite_only
async def test_a_backup_is_checked_and_synced_before_it_takes_the_name(
        db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy passes PRAGMA integrity_check, then its bytes and its folder are synced
    before the rename, and the folder again after it."""
    from storage.backends import sqlite as backend

    await add_players(db, 1)
    out = tmp_path / "backups" / "copy.sqlite3"
    steps: list[tuple[str, str]] = []
    fsync, replace = os.fsync, os.replace

    def synced(fd: int) -> None:
        steps.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        fsync(fd)

    def renamed(src: str | Path, dst: str | Path) -> None:
        steps.append(("rename", str(dst)))
        replace(src, dst)

    monkeypatch.setattr(os, "fsync", synced)
    monkeypatch.setattr(os, "replace", renamed)
    await db.backup(out)
    folder, partial = str(out.parent), str(out) + ".partial"
    assert steps == [("fsync", partial), ("fsync", folder), ("rename", str(out)),
                     ("fsync", folder)]
    steps.clear()
    assert db.path is not None
    backend.backup_file(db.path, out)
    assert steps == [("fsync", partial), ("fsync", folder), ("rename", str(out)),
                     ("fsync", folder)]


@pytest.mark.sqlite_only
async def test_a_damaged_copy_never_takes_the_backup_s_name(
        db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from storage.backends import sqlite as backend
    from storage.errors import BackupRefused

    await add_players(db, *range(1, 400))
    out = tmp_path / "copy.sqlite3"
    await db.backup(out)
    good = out.read_bytes()
    check = backend._into_place

    def damaged(tmp: Path, target: Path) -> None:
        data = bytearray(tmp.read_bytes())
        page = 4096
        data[3 * page:5 * page] = bytes(range(256)) * (2 * page // 256)  # two pages of noise
        tmp.write_bytes(bytes(data))
        check(tmp, target)

    monkeypatch.setattr(backend, "_into_place", damaged)
    with pytest.raises(BackupRefused) as err:
        await db.backup(out)
    assert "integrity check" in str(err.value)
    assert out.read_bytes() == good  # the last good backup is still there
    assert db.path is not None
    assert not (tmp_path / "copy.sqlite3.partial").exists()
    with pytest.raises(BackupRefused):
        backend.backup_file(db.path, out)
    assert out.read_bytes() == good


async def test_every_error_is_a_storage_error_with_a_code() -> None:
    import storage.errors as errors

    classes = [getattr(errors, name) for name in errors.__all__]
    codes = {cls.code for cls in classes}
    assert len(codes) == len(classes)
    assert all(issubclass(cls, StorageError) for cls in classes)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["adjust", "redeem", "block", "sweep"]),
                          st.integers(1, 3), st.integers(-20, 20)), max_size=30))
def test_cache_always_equals_ledger_sum(tmp_path: Path, ops_list: list[tuple[str, int, int]]
                                        ) -> None:
    async def scenario() -> None:
        path = tmp_path / f"prop-{next(_EXAMPLES)}.sqlite3"
        async with await Database.open(path) as db:
            await add_players(db, 1, 2, 3)
            await db.players.record_game_played([1, 2], date(2026, 1, 1))
            for op, who, points in ops_list:
                try:
                    if op == "adjust":
                        await db.ledger.adjust(who, points, reason="r", admin_id=1, now=NOW)
                    elif op == "redeem":
                        await db.ledger.redeem(who, points, reason="r", admin_id=1, now=NOW)
                    elif op == "block":
                        await db.players.block(who, reason="r", admin_id=1, now=NOW)
                    else:
                        await db.expiry.sweep(date(2026, 3, 1))
                except StorageError:
                    pass
            async with db.read() as conn:
                async with conn.execute(
                    "SELECT b.tg_id, b.points, coalesce((SELECT sum(points) FROM ledger l"
                    " WHERE l.tg_id = b.tg_id), 0) FROM balances b") as cur:
                    rows = await cur.fetchall()
                assert all(r[1] == r[2] >= 0 for r in rows)
                async with conn.execute(
                    "SELECT points, count(*) FROM balances WHERE ranked = 1 AND points > 0"
                    " GROUP BY points ORDER BY points") as cur:
                    expected = [tuple(r) for r in await cur.fetchall()]
                async with conn.execute(
                    "SELECT points, players FROM rank_histogram ORDER BY points") as cur:
                    assert [tuple(r) for r in await cur.fetchall()] == expected

    asyncio.run(scenario())


async def test_nested_storage_call_is_refused_not_deadlocked(db: Database) -> None:
    await add_players(db, 1)
    with pytest.raises(RuntimeError, match="deadlock"):
        async with db.transaction():
            await db.players.get(1)
    assert await db.players.get(1) is not None  # the lock was released


async def test_cancellation_at_any_point_leaves_a_usable_database(db: Database) -> None:
    await add_players(db, 1)
    expected = 0
    for ticks in range(40):
        task = asyncio.create_task(
            db.ledger.adjust(1, 1, reason="x", admin_id=ADMIN, now=NOW))
        for _ in range(ticks):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            expected = await task
        # whatever happened, the connection is usable and the balance consistent
        reader_balance = await db.ledger.balance(1)
        assert reader_balance in (expected, expected + 1)
        expected = reader_balance
    assert await db.ledger.adjust(1, 1, reason="x", admin_id=ADMIN, now=NOW) == expected + 1
    async with db.read() as conn, conn.execute(
        "SELECT (SELECT sum(points) FROM ledger), (SELECT points FROM balances)") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == row[1] == expected + 1

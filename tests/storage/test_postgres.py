"""PostgreSQL's own promises: moving a SQLite club network onto it (``python -m storage copy``),
its backup through pg_dump, a bad DATABASE_URL, a database newer than the code."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
from datetime import date
from pathlib import Path

import asyncpg
import pytest

from storage import Database, DatabaseUnavailable, GamePoints
from storage.__main__ import main
from storage.repos.outbox import SEND, Queued
from storage.schema.postgres import SCHEMA_VERSION
from storage.tools.copy import DERIVED, NOT_COPIED, copied_tables
from tests.bot_spawn import BotProcess, start_bot
from tests.pg_cluster import Cluster
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players
from tests.storage.played import play_games

REPO = Path(__file__).resolve().parents[2]
DAY = date(2026, 3, 10)


async def _club_network(db: Database, status: str = "finished") -> int:
    """Players, points, an ended game with its log (``status``: a log written here, not by a
    game played: the copy, which replays finished games, takes it aborted), a game still
    running, queued posts."""
    await add_players(db, 1, 2, 3, 4)
    await db.players.propose_spouse(4, 1)  # a spouse proposal to an earlier row...
    await db.players.confirm_spouse(1, 4)  # ...and a marriage across rows
    await db.clubs.ensure(CLUB, title="Клуб", locale="ru")
    game = await db.games.create(CLUB, 1, seats=[(1, 1), (2, 2), (3, 3)], created_at=NOW)
    for kind in ("deal", "night", "day"):
        await db.games.append_event(game, kind, {"step": kind, "имя": "Анна"}, at=NOW)
    await db.games.finish(game, status=status, day=DAY,
                          points=[GamePoints(1, 6, "team_win", "end"),
                                  GamePoints(2, 3, "best_move", "end")])
    running = await db.games.create(CLUB, 1, seats=[(1, 3), (2, 4)], created_at=NOW)
    await db.games.append_event(running, "deal", {"n": 2}, at=NOW)
    await db.ledger.redeem(1, 2, reason="кофе", admin_id=ADMIN, now=NOW)
    await db.ledger.adjust(3, 7, reason="турнир", admin_id=ADMIN, now=NOW)
    await db.players.block(2, reason="x", admin_id=ADMIN, now=NOW)
    await db.outbox.enqueue([Queued(CLUB, "send", {"text": "утро"}, key="m1"),
                             Queued(CLUB, "edit", {"text": "итог"}, key="m0")], now=1.0)
    return game


async def test_copy_moves_everything_and_checks_it(pg: Cluster, db_path: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    await play_games(db_path, tmp_path)  # a finished game, replayed by the copy
    db = await Database.open(db_path)
    game = await _club_network(db, status="aborted")
    # the played game's players rank among them: the ranks the file gives
    rank_of = {tg: (await db.ledger.balance_with_rank(tg)).rank for tg in (1, 3)}
    await db.close()
    url = await pg.empty_database()
    monkeypatch.setenv("DATABASE_URL", url)  # the target, as the bot reads it
    assert await asyncio.to_thread(main, ["copy", str(db_path)]) == 0
    out = capsys.readouterr().out
    for checked in ("ok: every balance", "ok: ledger sums per player", "ok: rank histogram",
                    "ok: finished games' logs", "ok: the queued outbox", "(2 queued requests)",
                    "ok: finished games replayed from their logs: 1 games",
                    "every check passed"):
        assert checked in out
    # every table of the schema was copied (the played game's standing too)
    lite = sqlite3.connect(db_path)
    try:
        tables = copied_tables(lite)
        counts = {t: lite.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        lite.close()
    assert counts["rating_history"] > 0 and counts["achievements"] > 0
    conn = await asyncpg.connect(url)
    try:
        assert {t: await conn.fetchval(f"SELECT count(*) FROM {t}") for t in tables} == counts
    finally:
        await conn.close()
    copied = await Database.open(url)
    try:
        assert await copied.ledger.balance(1) == 4
        assert (await copied.ledger.balance_with_rank(3)).rank == rank_of[3]
        assert present(await copied.players.get(4)).spouse_id == 1
        assert [e.kind for e in await copied.games.events(game)] == ["deal", "night", "day"]
        assert len(await copied.outbox.pending(CLUB)) == 2
        # the cache triggers work again after the bulk load
        assert await copied.ledger.adjust(3, 1, reason="x", admin_id=ADMIN, now=NOW) == 8
        assert (await copied.ledger.balance_with_rank(1)).rank == rank_of[1]
        # new rows get new ids after the copied ones
        assert await copied.games.create(CLUB, 1, created_at=NOW) == game + 2
    finally:
        await copied.close()
    # a second copy into the now non-empty database is refused, and changes nothing
    assert await asyncio.to_thread(main, ["copy", str(db_path), url]) == 2
    assert "not empty" in capsys.readouterr().err


async def test_the_copy_takes_every_table_of_the_schema_parents_first(db_path: Path) -> None:
    await (await Database.open(db_path)).close()
    lite = sqlite3.connect(db_path)
    try:
        tables = copied_tables(lite)
        every = {r[0] for r in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        parents = {t: {r[2] for r in lite.execute(f"PRAGMA foreign_key_list({t})")}
                   for t in tables}
    finally:
        lite.close()
    assert sorted(tables) == sorted(every - set(DERIVED) - set(NOT_COPIED))
    assert {"players", "ledger", "rating_history", "night_kills"} <= set(tables)
    for i, table in enumerate(tables):
        assert parents[table] - {table} <= set(tables[:i]), table


async def test_copy_refuses_a_missing_file_and_a_bad_url(pg: Cluster, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert main(["copy", str(tmp_path / "none.sqlite3"), pg.url("x")]) == 2
    assert "no database" in capsys.readouterr().err
    (tmp_path / "a.sqlite3").touch()
    assert await asyncio.to_thread(
        main, ["copy", str(tmp_path / "a.sqlite3"), pg.url("no_such_db")]) == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
async def test_backup_is_pg_dump_and_restores(pg: Cluster, tmp_path: Path) -> None:
    url = await pg.new_database()
    db = await Database.open(url)
    await _club_network(db)
    await db.close()
    out = tmp_path / "backups" / "club.dump"
    assert await asyncio.to_thread(main, ["backup", url, str(out)]) == 0
    assert out.stat().st_size > 0 and not out.with_name("club.dump.partial").exists()
    restored = await pg.empty_database()
    await asyncio.to_thread(subprocess.run, ["pg_restore", "--dbname", restored, str(out)],
                            check=True, capture_output=True)
    again = await Database.open(restored)
    try:
        assert await again.ledger.balance(1) == 4
        assert await again.ledger.balance(3) == 7
        assert len(await again.outbox.pending(CLUB)) == 2
    finally:
        await again.close()


async def _bot(env: dict[str, str], cwd: Path) -> BotProcess:
    """``python -m bot``'s ``main`` in a process forked from the pre-imported fork server
    (tests/bot_spawn.py: aiogram's import not paid again), run to its exit."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "BOT_"))}
    clean.update(PYTHONPATH=str(REPO), BOT_TOKEN="123456:" + "A" * 30,
                 TELEGRAM_API_URL="http://127.0.0.1:9", **env)
    proc = await start_bot(clean, cwd, cwd / "stdout.log", errors=cwd / "stderr.log")
    await asyncio.wait_for(proc.wait(), 120)
    return proc


@pytest.mark.xdist_group("bot_forks")  # with the other forked bots: one fork server
@pytest.mark.parametrize("case", ["unreachable", "no_database", "malformed"])
async def test_a_bad_database_url_is_one_line_without_the_password(pg: Cluster, tmp_path: Path,
                                                                   case: str) -> None:
    port = pg.port if case == "no_database" else 9  # nothing listens on 9
    url = {"malformed": "postgresql://kim:s3cret-pw@/",
           }.get(case, f"postgresql://kim:s3cret-pw@127.0.0.1:{port}/club")
    done = await _bot({"DATABASE_URL": url}, tmp_path)
    assert done.returncode == 2
    lines = done.errors().strip().splitlines()
    assert len(lines) == 1, done.errors()
    assert "s3cret-pw" not in done.errors() + done.output()
    assert "DATABASE_URL" in lines[0] or "postgresql://kim@127.0.0.1" in lines[0]
    assert not (tmp_path / "data").exists()  # no SQLite file made instead


async def test_a_database_newer_than_the_code_is_refused(pg: Cluster) -> None:
    url = await pg.new_database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, 'future')",
                           SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        await Database.open(url)


async def test_upgrade_marks_the_open_lobbies_posted(pg: Cluster) -> None:
    """The same data migration as SQLite's (test_durability): lobbies open before the event
    existed had their post."""
    from storage.schema.postgres import MIGRATIONS, migrate

    url = await pg.empty_database()
    conn = await asyncpg.connect(url)
    try:
        before = next(i for i, (name, _) in enumerate(MIGRATIONS) if "'lobby_posted'" in name)
        await migrate(conn, MIGRATIONS[:before])
        await conn.execute("INSERT INTO clubs (chat_id, title, locale) VALUES (-1, 'C', 'ru')")
        for game, status in ((1, "lobby"), (2, "running")):
            await conn.execute("INSERT INTO games (id, club_chat_id, host_id, created_at, status)"
                               " VALUES ($1, -1, 9, '2026-01-01T20:00:00', $2)", game, status)
    finally:
        await conn.close()
    async with await Database.open(url) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        assert [e.kind for e in await db.games.events(1)] == ["lobby_posted"]
        assert await db.games.events(2) == []


async def test_migrations_run_once(pg: Cluster) -> None:
    url = await pg.empty_database()
    opened = await asyncio.gather(*(Database.open(url) for _ in range(3)))
    try:
        assert [await d.schema_version() for d in opened] == [SCHEMA_VERSION] * 3
    finally:
        for d in opened:
            await d.close()
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == SCHEMA_VERSION
    finally:
        await conn.close()


async def test_the_server_restarting_between_and_during_transactions(pg: Cluster) -> None:
    """Calls while the server is down raise DatabaseUnavailable and write nothing; once it is
    back the same Database reconnects by itself; a transaction cut off by the restart is
    rolled back whole (none of it is committed on the new connection)."""
    db = await Database.open(await pg.new_database())
    try:
        await add_players(db, 1)
        await asyncio.to_thread(pg.stop, "fast")
        try:
            with pytest.raises(DatabaseUnavailable):
                await db.ledger.adjust(1, 5, reason="x", admin_id=ADMIN, now=NOW)
            with pytest.raises(DatabaseUnavailable):
                await db.ledger.balance(1)
        finally:
            await asyncio.to_thread(pg.start)
        assert await db.ledger.adjust(1, 5, reason="x", admin_id=ADMIN, now=NOW) == 5
        assert await db.ledger.balance(1) == 5

        with pytest.raises(DatabaseUnavailable):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO ledger (tg_id, points, kind, reason, day)"
                    " VALUES (1, 7, 'adjust', 'cut off', '2026-03-10')")
                await asyncio.to_thread(pg.stop, "fast")
                try:
                    await conn.execute("SELECT 1")
                finally:
                    await asyncio.to_thread(pg.start)
        assert await db.ledger.balance(1) == 5
        assert [r.reason for r in await db.ledger.recent(1)] == ["x"]
    finally:
        await db.close()


async def test_the_delivery_s_marks_across_a_server_restart(pg: Cluster) -> None:
    """While the server is down a mark raises DatabaseUnavailable and marks nothing (the row
    is sent again later); once it is back the next mark goes through by itself."""
    db = await Database.open(await pg.new_database())
    try:
        await db.outbox.enqueue([Queued(1, SEND, {"text": "a"}), Queued(1, SEND, {"text": "b"})],
                                now=1.0)
        first, second = await db.outbox.pending(1)
        assert await db.outbox.mark_sent(first, 1, now=1.0)
        await asyncio.to_thread(pg.stop, "fast")
        try:
            with pytest.raises(DatabaseUnavailable):
                await db.outbox.mark_sent(second, 2, now=1.0)
        finally:
            await asyncio.to_thread(pg.start)
        assert [r.id for r in await db.outbox.pending(1)] == [second.id]
        assert await db.outbox.mark_sent(second, 2, now=1.0)
        assert await db.outbox.pending(1) == []
    finally:
        await db.close()

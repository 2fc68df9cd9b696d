from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from storage import Database
from storage.backends.sqlite_thread import SqliteConnection
from storage.txn.transactions import Transactions
from tests.pg_cluster import Cluster, pg, pg_cluster  # noqa: F401  (fixtures)
from tests.sqlite_template import migrated

NOW = datetime(2026, 3, 10, 21, 30, tzinfo=UTC)
CLUB = -100123
ADMIN = 999
DB_ERRORS = (sqlite3.DatabaseError, asyncpg.PostgresError)  # a refused statement, per backend


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    return tmp_path / "data" / "club.sqlite3"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test of SQLite's own machinery (not run on PostgreSQL)")
    config.addinivalue_line(
        "markers", "postgresql_only: a case only PostgreSQL has (not run on SQLite)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test using ``db`` runs on both backends, unless marked ``sqlite_only`` or
    ``postgresql_only``."""
    if "backend" in metafunc.fixturenames:
        backends = [name for name in ("sqlite", "postgresql")
                    if metafunc.definition.get_closest_marker(f"{_other(name)}_only") is None]
        metafunc.parametrize("backend", backends, indirect=True)


def _other(backend: str) -> str:
    return "postgresql" if backend == "sqlite" else "sqlite"


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_target(backend: str, db_path: Path,
                    request: pytest.FixtureRequest) -> str | Path:
    """Where this test's database lives: the SQLite file, or a fresh PostgreSQL database."""
    if backend == "sqlite":
        return db_path
    c: Cluster | None = request.getfixturevalue("pg_cluster")
    if c is None:
        pytest.skip("PostgreSQL's binaries are not installed (apt-get install postgresql)")
    return await c.new_database()


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    """The test's database, migrated: on SQLite a copy of the migrated template file
    (tests/sqlite_template.py); ``db_target`` alone is an empty file's path."""
    database = await Database.open(db_target if isinstance(db_target, str)
                                   else migrated(db_target))
    try:
        yield database
    finally:
        await database.close()


async def add_players(db: Database, *tg_ids: int, nick: bool = True) -> None:
    for tg_id in tg_ids:
        await db.players.register(tg_id, display_name=f"User {tg_id}", language="ru")
        if nick:
            await db.players.set_nickname(tg_id, f"nick{tg_id}")


def sqlite_transactions(db: Database) -> Transactions:
    """A SQLite database's transactions (the tests of SQLite's machinery tune and watch them)."""
    assert isinstance(db.transactions, Transactions), "a SQLite database"
    return db.transactions


def sqlite_writer(db: Database) -> SqliteConnection:
    """A SQLite database's writing connection (tests trace the statements it runs)."""
    conn = sqlite_transactions(db)._conn
    assert isinstance(conn, SqliteConnection)
    return conn

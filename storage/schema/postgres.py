"""PostgreSQL's schema migrations, applied in order at open (SQLite's: :mod:`.sqlite`).

The migrations are the files ``storage/schema/postgres/NNNN_slug.sql``
(:mod:`storage.schema.scripts`), numbered apart from SQLite's: PostgreSQL starts at SQLite's
schema 7 in one migration (the same tables, columns, checks and indexes, the same append-only
guards and caches kept by triggers). Dates stay ISO text (compared as text in C collation,
exactly as SQLite compares them), so a query means the same on both. ``schema_migrations``
holds the versions applied; each migration runs in its own transaction holding an advisory
lock (two processes opening at once apply it once); a database newer than the code is refused.
Add a file for a new migration to both folders.
"""

from __future__ import annotations

from typing import Any

from storage.schema.scripts import load

MIGRATE_LOCK = 0x6D616669_6D696772  # pg_advisory_xact_lock key of the migrations

MIGRATIONS: list[tuple[str, str]] = load("postgres")
SCHEMA_VERSION = len(MIGRATIONS)


async def user_version(conn: Any) -> int:
    """The number of applied migrations (0 on an empty database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(conn: Any, migrations: list[tuple[str, str]] | None = None) -> int:
    """Apply the missing migrations on an asyncpg connection, each atomically; returns the
    resulting version. Refuses a database newer than the code."""
    todo = MIGRATIONS if migrations is None else migrations
    while True:
        async with conn.transaction():
            await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATE_LOCK})")
            version = await user_version(conn)
            if version > len(todo):
                raise RuntimeError(
                    f"database schema version {version} is newer than this code ({len(todo)})"
                )
            if version == len(todo):
                return version
            _name, script = todo[version]
            await conn.execute(script)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                               version + 1, _name)

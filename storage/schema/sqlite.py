"""SQLite's versioned schema migrations, applied in order at open.

The migrations are the files ``storage/schema/sqlite/NNNN_slug.sql``
(:mod:`storage.schema.scripts`); ``PRAGMA user_version`` holds the number applied. Each
migration runs in its own ``BEGIN IMMEDIATE`` transaction that re-reads the version first, so
two processes opening the same file at once apply each migration exactly once. Add a file for
a new migration (and PostgreSQL's); never edit an applied one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Protocol

from storage.schema.scripts import load
from storage.sql import Connection


class MigratingConnection(Connection, Protocol):
    """What the migrations need of a connection (the backend's has it)."""

    @property
    def in_transaction(self) -> bool: ...


MIGRATIONS: list[tuple[str, str]] = load("sqlite")
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> Iterator[str]:
    """Split a script into complete statements (trigger bodies stay whole)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buffer[:80]!r}")


async def user_version(conn: MigratingConnection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(
    conn: MigratingConnection, migrations: list[tuple[str, str]] | None = None
) -> int:
    """Apply the missing migrations, each atomically; returns the resulting version."""
    todo = MIGRATIONS if migrations is None else migrations
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await user_version(conn)
            if version > len(todo):
                raise RuntimeError(
                    f"database schema version {version} is newer than this code ({len(todo)})"
                )
            if version == len(todo):
                await conn.execute("COMMIT")
                return version
            _name, script = todo[version]
            for statement in statements(script):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {version + 1}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise

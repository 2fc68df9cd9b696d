"""SQLite and PostgreSQL migrated from empty hold the same schema: the same tables, the same
columns (name, type by the mapping below, NOT NULL), the same primary keys, unique constraints
and indexes (name, columns, unique, partial or not). What differs on purpose is listed below,
each with its reason; anything else that differs fails.

Not compared: checks, defaults, foreign keys and triggers (written in each backend's own
dialect; the storage tests run every behaviour on both backends).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from storage.schema import postgres as pg_schema
from storage.schema import sqlite as sqlite_schema
from tests.pg_cluster import Cluster

# A column's SQLite type and the PostgreSQL types that mean the same. SQLite's INTEGER is a
# 64-bit integer: PostgreSQL's bigint (ids, points, Telegram's ids) or, where the values are
# small (flags, counts, seats, sequence numbers within a game), integer. Text is text, REAL a
# double.
TYPES = {
    "INTEGER": {"bigint", "integer"},
    "TEXT": {"text"},
    "REAL": {"double precision"},
}

# Tables only one backend has, and why.
ONLY_SQLITE = {
    "sqlite_sequence": "SQLite's own AUTOINCREMENT counters",
}
ONLY_POSTGRES = {
    "schema_migrations": "the versions applied (SQLite keeps its number in PRAGMA user_version)",
    "club_calls": "several processes calling a club's holder: only PostgreSQL is shared",
    "outbox_senders": "which process sends a chat's queue: only PostgreSQL is shared",
}

# Text columns PostgreSQL compares in the database's own collation rather than byte-wise
# (COLLATE "C", as SQLite compares every text), each with why the answers are still SQLite's.
_ISO = "ISO dates and times written by the code: digit by digit, any collation orders them as bytes"
_EQUAL = "only shown or compared for equality, never ordered nor compared by range"
NOT_C_COLLATED = {
    ("games", "finished_on"): _ISO,
    ("ledger", "at"): _ISO,
    ("imported_players", "claimed_on"): _ISO,
    ("achievements", "earned_on"): _ISO,
    ("appeals", "reason"): _EQUAL,
    ("clubs", "city"): _EQUAL,
    ("clubs", "name"): _EQUAL,
    ("games", "void_reason"): _EQUAL,
    ("inbox", "payload"): _EQUAL,
    ("ratings", "side"): _EQUAL,
    ("rating_history", "team"): _EQUAL,
    ("rating_history", "result"): _EQUAL,
    ("game_outcomes", "winner"): _EQUAL,
}

Schema = dict[str, dict[str, Any]]


def _sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        schema: Schema = {}
        for table in tables:
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()
            pk = tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
            columns = {r[1]: (r[2].upper(), bool(r[3]) or r[1] in pk) for r in info}
            unique: set[tuple[str, ...]] = set()
            indexes: dict[str, tuple[tuple[str, ...], bool, bool]] = {}
            for _seq, name, is_unique, origin, partial in conn.execute(
                    f"PRAGMA index_list({table})").fetchall():
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({name})"))
                if origin == "u":
                    unique.add(cols)
                elif origin == "c":
                    indexes[name] = (cols, bool(is_unique), bool(partial))
            schema[table] = {"columns": columns, "pk": pk, "unique": unique,
                             "indexes": indexes}
        return schema
    finally:
        conn.close()


async def _postgres_schema(conn: asyncpg.Connection) -> tuple[Schema, set[tuple[str, str]]]:
    """The schema, and the text columns not in the "C" collation."""
    schema: Schema = {}
    not_c: set[tuple[str, str]] = set()
    for r in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, collation_name"
            " FROM information_schema.columns WHERE table_schema = 'public'"
            " ORDER BY table_name, ordinal_position"):
        table = schema.setdefault(r["table_name"], {"columns": {}, "pk": (), "unique": set(),
                                                    "indexes": {}})
        table["columns"][r["column_name"]] = (r["data_type"], r["is_nullable"] == "NO")
        if r["data_type"] == "text" and r["collation_name"] != "C":
            not_c.add((r["table_name"], r["column_name"]))
    for r in await conn.fetch(
            "SELECT c.conrelid::regclass::text AS tab, c.contype::text AS contype,"
            " array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)"
            "       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n"
            "       ORDER BY k.i) AS cols"
            " FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace"
            " WHERE n.nspname = 'public' AND c.contype IN ('p', 'u')"):
        if r["contype"] == "p":
            schema[r["tab"]]["pk"] = tuple(r["cols"])
        else:
            schema[r["tab"]]["unique"].add(tuple(r["cols"]))
    for r in await conn.fetch(
            "SELECT t.relname AS tab, i.relname AS name, x.indisunique,"
            " x.indpred IS NOT NULL AS partial,"
            " array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o)"
            "       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n"
            "       ORDER BY k.o) AS cols"
            " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
            " JOIN pg_class t ON t.oid = x.indrelid"
            " JOIN pg_namespace n ON n.oid = t.relnamespace"
            " WHERE n.nspname = 'public'"
            " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)"):
        schema[r["tab"]]["indexes"][r["name"]] = (tuple(r["cols"]), r["indisunique"],
                                                  r["partial"])
    return schema, not_c


async def _migrated(tmp_path: Path, pg: Cluster) -> tuple[Schema, Schema, set[tuple[str, str]]]:
    from storage.backends.sqlite_thread import SqliteConnection

    path = tmp_path / "empty.sqlite3"
    lite = await SqliteConnection.connect(path, busy_wait=10)
    try:
        assert await sqlite_schema.migrate(lite) == sqlite_schema.SCHEMA_VERSION
    finally:
        await lite.close()
    conn = await asyncpg.connect(await pg.empty_database())
    try:
        assert await pg_schema.migrate(conn) == pg_schema.SCHEMA_VERSION
        theirs, not_c = await _postgres_schema(conn)
    finally:
        await conn.close()
    return _sqlite_schema(path), theirs, not_c


async def test_both_backends_migrate_to_the_same_schema(tmp_path: Path, pg: Cluster) -> None:
    mine, theirs, not_c = await _migrated(tmp_path, pg)
    # what is read of each (a partial unique index; a key of two columns; a UNIQUE constraint)
    for schema in (mine, theirs):
        assert schema["evenings"]["indexes"]["evenings_club_start"] == (
            ("club_chat_id", "starts_at"), True, True)
        assert schema["ratings"]["pk"] == ("tg_id", "side")
        assert ("game_id", "orderer_id") in schema["immunity_orders"]["unique"]

    assert sorted(set(mine) - set(theirs)) == sorted(ONLY_SQLITE)
    assert sorted(set(theirs) - set(mine)) == sorted(ONLY_POSTGRES)
    differences = []
    for table in sorted(set(mine) & set(theirs)):
        lite, post = mine[table], theirs[table]
        if list(lite["columns"]) != list(post["columns"]):
            differences.append(f"{table}: columns {list(lite['columns'])}"
                               f" != {list(post['columns'])}")
            continue
        for column, (kind, not_null) in lite["columns"].items():
            pg_kind, pg_not_null = post["columns"][column]
            if pg_kind not in TYPES[kind]:
                differences.append(f"{table}.{column}: {kind} but {pg_kind}")
            if not_null != pg_not_null:
                differences.append(f"{table}.{column}: NOT NULL {not_null} != {pg_not_null}")
        for key in ("pk", "unique", "indexes"):
            if lite[key] != post[key]:
                differences.append(f"{table}: {key} {lite[key]} != {post[key]}")
    assert differences == []
    assert {c for c in not_c if c[0] in mine} == set(NOT_C_COLLATED)


# PostgreSQL's first migration is SQLite's schema 7; from PostgreSQL's 9 (SQLite's 11) on, each
# migration is one of SQLite's, two numbers later there.
PAIRED_FROM = (11, 9)


def test_from_the_gift_shop_on_each_migration_is_written_for_both() -> None:
    lite, post = (m[n - 1:] for m, n in zip(
        (sqlite_schema.MIGRATIONS, pg_schema.MIGRATIONS), PAIRED_FROM, strict=True))
    assert [name for name, _ in lite] == [name for name, _ in post]
    assert lite[0][0].startswith("the gift shop")


def test_every_migration_file_is_shipped_with_the_package() -> None:
    """pyproject's package data names the folders the migrations are read from."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["storage.schema"]
    folder = root / "storage" / "schema"
    shipped = {p for pattern in patterns for p in folder.glob(pattern)}
    assert shipped == set(folder.glob("*/*.sql"))
    assert len(shipped) == sqlite_schema.SCHEMA_VERSION + pg_schema.SCHEMA_VERSION

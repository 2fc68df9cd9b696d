"""Where a benchmark's database lives: a SQLite file, or a PostgreSQL database on a server.

Both give the benchmark the same few things: the target to open, a pristine snapshot once
filled, fresh copies of it (the catch-up sweep runs on a copy each time), the size on disk.
:func:`throwaway_cluster` starts a server of its own for a run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage import Database


class SqlitePlace:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.target: str | Path = path
        self._pristine: Path | None = None

    async def snapshot(self, db: Database) -> None:
        self._pristine = await db.backup(self.path.with_name("pristine.sqlite3"))

    async def copy(self, n: int) -> str | Path:
        assert self._pristine is not None
        copy = self.path.with_name(f"catch-up-{n}.sqlite3")
        await asyncio.to_thread(shutil.copyfile, self._pristine, copy)
        return copy

    async def remove(self, target: str | Path) -> None:
        await asyncio.to_thread(_remove_db, Path(target))

    async def size(self) -> int:
        return await asyncio.to_thread(os.path.getsize, self.path)

    async def close(self) -> None:
        if self._pristine is not None:
            await self.remove(self._pristine)


def _remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


class PgPlace:
    """Databases ``bench``, ``bench_pristine``, ``bench_copy_N`` on the server of ``url``
    (a role allowed to create databases); dropped at the end."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._server = parts
        self.target: str | Path = self._url("bench")

    def _url(self, name: str) -> str:
        return urlunsplit(self._server._replace(path=f"/{name}"))

    async def _admin(self, *statements: str) -> None:
        conn = await asyncpg.connect(self._url("postgres"))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    async def create(self) -> None:
        await self._admin("DROP DATABASE IF EXISTS bench", "CREATE DATABASE bench")

    async def snapshot(self, db: Database) -> None:
        # a template may have no other session: the benchmark's own is closed meanwhile
        await db.close()
        await self._admin("DROP DATABASE IF EXISTS bench_pristine",
                          "CREATE DATABASE bench_pristine TEMPLATE bench")

    async def copy(self, n: int) -> str | Path:
        name = f"bench_copy_{n}"
        await self._admin(f"DROP DATABASE IF EXISTS {name}",
                          f"CREATE DATABASE {name} TEMPLATE bench_pristine")
        return self._url(name)

    async def remove(self, target: str | Path) -> None:
        name = urlsplit(str(target)).path.strip("/")
        await self._admin(f"DROP DATABASE IF EXISTS {name}")

    async def size(self) -> int:
        conn = await asyncpg.connect(str(self.target))
        try:
            return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
        finally:
            await conn.close()

    async def close(self) -> None:
        await self._admin("DROP DATABASE IF EXISTS bench_pristine",
                          "DROP DATABASE IF EXISTS bench")


def on_database(server: str, database: str) -> str:
    """The URL of ``database`` on the server of ``server``'s URL."""
    return urlunsplit(urlsplit(server)._replace(path=f"/{database}"))


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[str]:
    """A durable PostgreSQL cluster in a temporary directory (Debian's binaries, as
    tests/pg_cluster.py starts them, with PostgreSQL's defaults: every commit flushed); yields
    its server's URL."""
    from tests.pg_cluster import Cluster, pg_bin

    bin_dir = pg_bin()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        raise SystemExit("PostgreSQL's binaries are missing (apt-get install postgresql)")
    cluster = Cluster(bin_dir, Path(tempfile.mkdtemp(prefix="mafia-pg-")))
    try:
        cluster.init()
        cluster.start(durable=True)
        try:
            yield cluster.url("postgres")
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(cluster.root, ignore_errors=True)

"""A throwaway PostgreSQL cluster for the tests: Debian's ``postgresql`` binaries, ``initdb``
into a temporary directory, ``pg_ctl`` on a free port of 127.0.0.1 — no Docker, no server of the
machine's. One cluster per test process (pytest-xdist workers each start their own); one
database per test, created from a migrated template (``CREATE DATABASE ... TEMPLATE``: fast).

Without the binaries the PostgreSQL tests skip, except on CI (``CI=true``), where they fail:
``.ci/run`` installs ``postgresql`` when it is missing.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

TEMPLATE = "mafia_template"
_NAMES = itertools.count(1)


def pg_bin() -> Path | None:
    """The directory of initdb/pg_ctl: $PG_BIN, Debian's newest, or the PATH's."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    if found:
        return found[-1].parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner() -> list[str]:
    """initdb refuses root: as root, run the server as the ``postgres`` user."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


class Cluster:
    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin = bin_dir
        self.root = root
        self.data = root / "data"
        self.port = _free_port()
        self.base = f"postgresql://postgres@127.0.0.1:{self.port}"

    def _run(self, *args: str) -> None:
        subprocess.run([*_as_owner(), *args], check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--locale=C.UTF-8", "--encoding=UTF8")

    def start(self, *, durable: bool = False) -> None:
        """``durable``: PostgreSQL's defaults (every commit flushed), as the benchmarks run;
        else fsync off: the tests stop the server, never the machine (faster, same results)."""
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1"
                   f" -c unix_socket_directories={self.root} -c max_connections=200")
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.root / "server.log"), "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str) -> str:
        return f"{self.base}/{database}"

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url("postgres"))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    def make_template(self) -> None:
        from storage.db import Database

        async def build() -> None:
            await self._admin(f"CREATE DATABASE {TEMPLATE}")
            db = await Database.open(self.url(TEMPLATE))
            await db.close()

        # in a thread of its own: the session fixture may be first asked for inside a loop
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, build()).result()

    async def new_database(self, template: str = TEMPLATE) -> str:
        """A fresh migrated database of its own (name unique in this process)."""
        name = f"t{os.getpid()}_{next(_NAMES)}"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    async def empty_database(self) -> str:
        return await self.new_database("template0")


_shared: list[Cluster | None] = []


def shared() -> Cluster | None:
    """This process's cluster (started at the first call, stopped at exit), or None without
    the binaries (a failure on CI)."""
    if not _shared:
        _shared.append(_start())
    return _shared[0]


def _start() -> Cluster | None:
    bin_dir = pg_bin()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL's binaries are missing on CI (.ci/run installs them)")
        return None
    sweep_stale(Path(tempfile.gettempdir()), time.time())
    root = Path(tempfile.mkdtemp(prefix="mafia-pg-"))
    c = Cluster(bin_dir, root)
    try:
        c.init()
        c.start()
        atexit.register(_remove, c)
        c.make_template()
    except BaseException:
        _remove(c)
        raise
    return c


# a run killed (SIGKILL, a terminal closed) leaves its cluster's folder, up to a gigabyte with its
# tests' databases; the next run removes those an hour old whose server is gone
STALE_AFTER_S = 3600


def sweep_stale(tmp: Path, now: float) -> list[Path]:
    """Remove the folders of clusters left by killed runs in ``tmp``: untouched for
    ``STALE_AFTER_S`` and no live server. Returns what was removed."""
    removed = []
    for root in sorted(tmp.glob("mafia-pg-*")):
        try:
            if now - root.stat().st_mtime < STALE_AFTER_S or _server_alive(root / "data"):
                continue
        except OSError:
            continue
        shutil.rmtree(root, ignore_errors=True)
        removed.append(root)
    return removed


def _server_alive(data: Path) -> bool:
    """Whether the server of ``data`` runs (its postmaster.pid names a live process)."""
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _remove(c: Cluster) -> None:
    with contextlib.suppress(Exception):
        c.stop("immediate")
    shutil.rmtree(c.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Cluster | None:
    return shared()


@pytest.fixture
def pg(pg_cluster: Cluster | None) -> Cluster:
    """The cluster; the test skips without PostgreSQL's binaries (never on CI)."""
    if pg_cluster is None:
        pytest.skip("PostgreSQL's binaries are not installed (apt-get install postgresql)")
    return pg_cluster

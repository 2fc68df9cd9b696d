"""A migrated SQLite database for the tests, as PostgreSQL's template database is
(tests/pg_cluster.py).

Opening a new file runs every migration: about 45 ms of CPU, in a few thousand tests. So each
test process (pytest-xdist workers each make their own) migrates one template file once, at
its first use, with the product's own ``Database.open``, closes it (no ``-wal`` or ``-shm``
left: checked) and keeps its bytes; a test's database file starts as a copy of them (about
3 ms to copy and open). The template's folder is gone as soon as its bytes are read: nothing
is left behind however a worker ends.

The fixtures and the app starters (tests/game/flow.py, tests/bot/conftest.py's ``app``) use
it. A test whose subject is migrating (from nothing or from an old file), copying or backing
up a database, or a ``python -m bot`` process on a new file, opens its file itself and
migrates from scratch.
"""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_made: list[bytes] = []


def migrated(path: Path) -> Path:
    """``path`` holding a migrated database: the template copied there, with its parent
    directory, unless a file is there already (a test's app started again on its path keeps
    what it wrote)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(template())
    return path


def template() -> bytes:
    """This process's migrated template file's bytes (made at the first call)."""
    if not _made:
        _made.append(_make())
    return _made[0]


def _make() -> bytes:
    from storage.db import Database

    with tempfile.TemporaryDirectory(prefix="mafia-sqlite-") as folder:
        path = Path(folder) / "template.sqlite3"

        async def build() -> None:
            db = await Database.open(path)
            await db.close()

        # in a thread of its own: the first call may come from inside a running event loop
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, build()).result()
        left = sorted(p.name for p in Path(folder).iterdir() if p != path)
        assert left == [], f"the template was not closed cleanly: {left}"
        return path.read_bytes()

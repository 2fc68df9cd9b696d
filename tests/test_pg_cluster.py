"""The PostgreSQL clusters of the tests (tests/pg_cluster.py): a folder left by a killed run is
removed by the next one, never a cluster still running or being made."""

from __future__ import annotations

import os
from pathlib import Path

from tests.pg_cluster import STALE_AFTER_S, sweep_stale

NOW = 2_000_000_000.0


def _cluster(tmp: Path, name: str, *, age: float, pid: int | None) -> Path:
    root = tmp / f"mafia-pg-{name}"
    (root / "data").mkdir(parents=True)
    if pid is not None:
        (root / "data" / "postmaster.pid").write_text(f"{pid}\n/data\n")
    os.utime(root, (NOW - age, NOW - age))
    return root


def test_only_the_folders_of_killed_runs_an_hour_old_are_removed(tmp_path: Path) -> None:
    dead = _cluster(tmp_path, "dead", age=STALE_AFTER_S + 1, pid=None)
    dead_server = _cluster(tmp_path, "gone", age=2 * STALE_AFTER_S, pid=2**22 + 7)
    running = _cluster(tmp_path, "running", age=2 * STALE_AFTER_S, pid=os.getpid())
    fresh = _cluster(tmp_path, "fresh", age=60, pid=None)  # initdb under way
    other = tmp_path / "someone-else"
    other.mkdir()
    os.utime(other, (NOW - 2 * STALE_AFTER_S, NOW - 2 * STALE_AFTER_S))
    assert sweep_stale(tmp_path, NOW) == [dead, dead_server]
    assert not dead.exists() and not dead_server.exists()
    assert running.exists() and fresh.exists() and other.exists()

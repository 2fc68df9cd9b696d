"""The host's Mini App: ``python -m benchmarks.bench_miniapp [--requests N]``.

A 12-player game, dealt and in its first night, in the real game service over a real SQLite
file (the tests' in-process harness: fake clock and scheduler, messages recorded, not sent);
its web app with the Mini App's routes on a local port; an HTTP client on the same loop. For
each figure, N requests one after another (after a warm-up); the median, p90 and p99 of the
time from sending the request to reading the whole answer:

* ``GET /state`` by the host (initData checked, the host's view built, JSON written): what
  the page asks every 1.5 s;
* ``GET /state`` refused (a forged signature, 401): what a stranger costs;
* ``POST /act`` "+30 s" by the host: a step of the game (its log event and club post written
  durably in one transaction before the answer), as a press on the page;
* checking initData alone (no HTTP).

``--postgres``: the same game on PostgreSQL (a throwaway durable cluster, Debian's binaries,
as tests/pg_cluster.py starts them), and the requests served by a web app whose process does
NOT hold the game's club: each is a club call (``bot/cluster/club_calls.py``) — written with NOTIFY,
claimed by the holder (a second share connection, with the game), answered with NOTIFY, read
back — beside the same requests served where the game lives. Both sides share one event loop
(in production they are two processes).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.miniapp.auth import check_init_data
from bot.miniapp.server import install_host_app, install_host_calls
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST
from tests.web.initdata import forge, sign_init_data
from views.i18n import Translator
from web.app import create_web_app

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678"


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    q = statistics.quantiles(ms, n=100)
    return (f"| {name} | {statistics.median(ms):.2f} ms | {q[89]:.2f} ms | {q[98]:.2f} ms"
            f" | {len(ms)} |")


async def timed(n: int, call: Callable[[], Awaitable[None]]) -> list[float]:
    for _ in range(min(20, n)):
        await call()
    out = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        out.append(time.perf_counter() - start)
    return out


async def run(n: int, folder: Path) -> list[str]:
    db = await Database.open(folder / "bench.sqlite3")
    return await _requests(n, folder, db)


async def _requests(n: int, folder: Path, db: Database,
                    forwarded: Any = None) -> list[str]:
    """``forwarded``: (the holder's claiming set-up, the non-holder's sharing) on PostgreSQL."""
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    translator = Translator.load()
    clock = FakeClock(datetime.now(UTC))
    h = make_harness(db, clock, translator, folder)
    await h.dealt(12)
    await h.service.start_night(CHAT, HOST)
    app = create_web_app(db, translator=translator)
    install_host_app(app, h.service, TOKEN)
    apps = [("", app)]
    if forwarded is not None:  # a second web app: a process without the game
        elsewhere = make_harness(db, clock, translator, folder)
        install_host_calls(forwarded.calls, h.service)
        other = create_web_app(db, translator=translator)
        install_host_app(other, elsewhere.service, TOKEN, sharing=forwarded.other)
        apps = [("where the game lives: ", app), ("forwarded to the holder: ", other)]
    signed = sign_init_data(TOKEN, HOST, clock() - timedelta(seconds=30))
    host = {"Authorization": f"tma {signed}"}
    forged = {"Authorization": f"tma {forge(signed, HOST + 1)}"}
    path = f"/host/{h.game_id}"
    rows = []
    for label, served in apps:
        async with TestClient(TestServer(served)) as client:
            async def state(client: TestClient[Any, Any] = client) -> None:
                async with client.get(f"{path}/state?lang=en", headers=host) as r:
                    assert r.status == 200
                    await r.read()

            async def refused(client: TestClient[Any, Any] = client) -> None:
                async with client.get(f"{path}/state?lang=en", headers=forged) as r:
                    assert r.status == 401
                    await r.read()

            async def extend(client: TestClient[Any, Any] = client) -> None:
                body = {"action": "extend", "arg": None, "step": h.table.moment}  # the wire key
                async with client.post(f"{path}/act?lang=en", headers=host, json=body) as r:
                    assert r.status == 200, await r.text()
                    await r.read()

            rows.append(summary(f"{label}`GET /state` (the host, 12 seats, a night)",
                                await timed(n, state)))
            rows.append(summary(f"{label}`GET /state` refused (forged, 401)",
                                await timed(n, refused)))
            rows.append(summary(f"{label}`POST /act` +30 s (a durable game step)",
                                await timed(n, extend)))

    async def check() -> None:
        check_init_data(TOKEN, signed, clock())

    rows.append(summary("initData checked alone", await timed(n, check)))
    await db.close()
    return rows


class _Other:
    """What the Mini App needs of a process's sharing: it holds no club; its calls."""

    def __init__(self, calls: Any) -> None:
        self.calls = calls

    def holds(self, club: int) -> bool:
        return False


@dataclass
class _Forwarded:
    calls: Any  # the holder's (bot.cluster.club_calls.ClubCalls)
    other: _Other  # the sharing of the process serving the requests


async def run_postgres(n: int, folder: Path) -> list[str]:
    import contextlib

    from bot.cluster.club_calls import CallsHeard, ClubCalls
    from bot.cluster.share import ShareConnection
    from tests.pg_cluster import Cluster, pg_bin

    bin_dir = pg_bin()
    assert bin_dir is not None, "PostgreSQL's binaries are missing"
    cluster = Cluster(bin_dir, Path(tempfile.mkdtemp(prefix="mafia-pg-")))
    cluster.init()
    cluster.start(durable=True)
    try:
        url = cluster.url("postgres")
        db = await Database.open(url)
        heard, other_heard = CallsHeard(), CallsHeard()
        holder = ShareConnection(url, lambda: None, on_call=heard.mark_due,
                                 on_answer=heard.answered)
        other = ShareConnection(url, lambda: None, on_call=other_heard.mark_due,
                                on_answer=other_heard.answered)
        await holder.join()
        await other.join()
        assert await holder.try_club(CHAT)
        calls = ClubCalls(holder, heard)
        tasks: set[asyncio.Task[None]] = set()

        def spawn(coro: Any, name: str) -> None:
            task = asyncio.create_task(coro, name=name)
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        async def claiming() -> None:  # the holder's sharing loop, its calls' part
            while True:
                await calls.claim({CHAT}, spawn)
                await holder.wait_woken(1.0)
                calls.recheck()

        loop = asyncio.create_task(claiming())

        forwarded = _Forwarded(calls, _Other(ClubCalls(other, other_heard)))
        try:
            return await _requests(n, folder, db, forwarded)
        finally:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
            await holder.close()
            await other.close()
    finally:
        cluster.stop()
        shutil.rmtree(cluster.root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_miniapp")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--postgres", action="store_true",
                        help="PostgreSQL, the requests forwarded to the club's holder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run((run_postgres if args.postgres else run)(args.requests, Path(folder)))
    print("| what | median | p90 | p99 | requests |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

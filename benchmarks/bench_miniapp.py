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
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import Translator
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST
from tests.web.initdata import forge, sign_init_data
from web.app import create_web_app
from web.host_app import install_host_app
from web.host_auth import check_init_data

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
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    translator = Translator.load()
    clock = FakeClock(datetime.now(UTC))
    h = make_harness(db, clock, translator, folder)
    await h.dealt(12)
    await h.service.start_night(CHAT, HOST)
    app = create_web_app(db, translator=translator)
    install_host_app(app, h.service, TOKEN)
    signed = sign_init_data(TOKEN, HOST, clock() - timedelta(seconds=30))
    host = {"Authorization": f"tma {signed}"}
    forged = {"Authorization": f"tma {forge(signed, HOST + 1)}"}
    path = f"/host/{h.game_id}"
    rows = []
    async with TestClient(TestServer(app)) as client:
        async def state() -> None:
            async with client.get(f"{path}/state?lang=en", headers=host) as r:
                assert r.status == 200
                await r.read()

        async def refused() -> None:
            async with client.get(f"{path}/state?lang=en", headers=forged) as r:
                assert r.status == 401
                await r.read()

        async def extend() -> None:
            body = {"action": "extend", "arg": None, "step": h.table.step}
            async with client.post(f"{path}/act?lang=en", headers=host, json=body) as r:
                assert r.status == 200, await r.text()
                await r.read()

        async def check() -> None:
            check_init_data(TOKEN, signed, clock())

        rows.append(summary("`GET /state` (the host, 12 seats, a night)", await timed(n, state)))
        rows.append(summary("`GET /state` refused (forged, 401)", await timed(n, refused)))
        rows.append(summary("`POST /act` +30 s (a durable game step)",
                            await timed(n, extend)))
        rows.append(summary("initData checked alone", await timed(n, check)))
    await db.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_miniapp")
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run(run(args.requests, Path(folder)))
    print("| what | median | p90 | p99 | requests |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

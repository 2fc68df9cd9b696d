"""One user floods the bot: ``python -m benchmarks.bench_flood [--flood N] [--others K]``.

The real application (long polling, a SQLite file) against the fake Bot API of the tests, with
Telegram's limits on (30 messages a second, 1 a second per private chat). One user sends
``--flood`` messages (1,000) as fast as the fake takes them; meanwhile ``--others`` users (20)
each send ``/help`` every half second. The figure is the others' time from the send to the
bot's answer (p50, p99, max), with the per-user bound on (the default: a burst of 30, then 1 a
second) and off (``FLOOD_BURST=0``). Figures: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import tempfile
import time
from pathlib import Path

from bot.app import App, create_app
from bot.config import Settings
from bot.delivery.rate_limit import Limits
from tests.fakes.telegram_server import FakeTelegram, TelegramLimits


async def _one(bound: bool, flood: int, others: int, rounds: int) -> tuple[list[float], int]:
    async with FakeTelegram(limits=TelegramLimits()) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(_env_file=None, bot_token=fake.token,
                                telegram_api_url=fake.base_url,
                                database_path=Path(tmp) / "mafia.sqlite3", default_locale="en",
                                flood_burst=30 if bound else 0)
            app: App = await create_app(settings, limits=Limits())
            task = asyncio.create_task(app.run(handle_signals=False, polling_timeout=1))
            started = asyncio.create_task(app.started.wait())
            await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()
            flooder = fake.user(9000, "Flood", language_code="en")
            users = [fake.user(9100 + i, f"U{i}", language_code="en") for i in range(others)]
            for _ in range(flood):
                await fake.send(flooder, "/help")
            waits: list[float] = []

            async def asks(user_id: int) -> None:
                for _ in range(rounds):
                    sent = time.perf_counter()
                    await fake.send(fake.users[user_id], "/help")
                    await fake.next_message(user_id, timeout=300)
                    waits.append(time.perf_counter() - sent)
                    await asyncio.sleep(0.5)

            await asyncio.gather(*(asks(u.id) for u in users))
            dropped = app.flood.dropped
            await app.stop()
            await asyncio.wait_for(task, 60)
            return waits, dropped


def _row(name: str, waits: list[float], dropped: int) -> str:
    ms = sorted(w * 1000 for w in waits)
    p99 = statistics.quantiles(ms, n=100)[98]
    return (f"| {name} | {statistics.median(ms):,.0f} | {p99:,.0f} | {ms[-1]:,.0f}"
            f" | {len(ms)} | {dropped:,} |")


async def main(flood: int, others: int, rounds: int) -> None:
    print(f"machine: {platform.machine()}, Python {platform.python_version()};"
          f" {flood:,} messages from one user, {others} others asking /help {rounds} times")
    print("| per-user bound | others' answer p50 ms | p99 ms | max ms | answers | dropped |")
    print("|---|---|---|---|---|---|")
    for bound in (True, False):
        waits, dropped = await _one(bound, flood, others, rounds)
        print(_row("on (30, then 1/s)" if bound else "off", waits, dropped), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--others", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main(args.flood, args.others, args.rounds))

"""One user floods the bot: ``python -m benchmarks.bench_flood [--flood N] [--players K]``.

The real application (long polling, a SQLite file) against the fake Bot API of the tests, with
Telegram's limits on both sides (30 messages a second, 1 a second per private chat, 20 a
minute per group). A club's lobby holds ``--players`` (10) players; one registered user sends
``--flood`` messages (1,000: ``/help``, ``/start``, plain text) as fast as the fake takes
them, and at once the players press their lobby buttons (Leave, Join, ... every half second,
``--rounds`` each, whether or not the last press was answered) while another user asks
``/balance`` as often. The figures are the players'
press -> answer times and the ``/balance`` -> answer times (p50, p99, max), in three
configurations:

- ``direct``: each answer sent from its handler, in its update slot (how aiogram's examples
  answer; here for comparison: the bench makes ``Replies`` send at once), no per-user bound;
- ``outbox``: answers queued in the outbox (the bot's way), no per-user bound (``FLOOD_BURST=0``);
- ``bound``: the outbox and the per-user bound (the defaults).

A press or an answer not back within ``--give-up`` seconds (120) counts as that long (the
table says how many). Figures: docs/benchmarks.md, "One user flooding".
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import App, create_app
from bot.config import Settings
from bot.delivery.rate_limit import Limits
from bot.delivery.replies import Replies
from tests.fakes.telegram_server import FakeTelegram, SentMessage, TelegramLimits

CLUB = -100_900
HOST = 800
FLOODER = 9000
READER = 9001
MODES = ("direct", "outbox", "bound")


def _send_directly(replies: Replies) -> None:
    """``direct``: every answer sent from its handler, waiting there for its chat's turn."""

    async def send_text(chat_id: int, text: str, **kwargs: Any) -> None:
        kwargs.pop("protect_content", None)
        await replies.sender.send_text(chat_id, text, **kwargs)

    replies.send_text = send_text  # type: ignore[method-assign]


async def _start(fake: FakeTelegram, tmp: Path, mode: str) -> tuple[App, asyncio.Task[None]]:
    settings = Settings(_env_file=None, bot_token=fake.token,
                        telegram_api_url=fake.base_url, database_path=tmp / "mafia.sqlite3",
                        default_locale="en", host_ids=frozenset({HOST}),
                        flood_burst=10 if mode == "bound" else 0)
    app = await create_app(settings, limits=Limits(), polling_timeout=1)
    if mode == "direct":
        _send_directly(app.services.replies)
    task = asyncio.create_task(app.run(handle_signals=False))
    started = asyncio.create_task(app.started.wait())
    await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()
    return app, task


async def _lobby(fake: FakeTelegram, app: App, players: list[int]) -> SentMessage:
    db = app.services.db
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for uid in [*players, FLOODER, READER]:
        fake.user(uid, f"U{uid}", language_code="en")
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        await db.players.set_nickname(uid, f"Player{uid}")
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")
    await fake.send(HOST, "/newgame", chat_id=CLUB)
    await fake.wait_for(lambda: any(m.buttons() for m in fake.messages(CLUB)), 60, "the lobby")
    lobby = next(m for m in fake.messages(CLUB) if m.buttons())
    game = int(lobby.buttons()[0][1].split(":")[1])
    for uid in players:
        await fake.callback_answer(await fake.press(uid, lobby, f"gl:{game}:join"), 60)
    return lobby


async def _one(mode: str, flood: int, players: int, rounds: int,
               give_up: float) -> tuple[list[float], list[float], int]:
    async with FakeTelegram(limits=TelegramLimits()) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            app, task = await _start(fake, Path(tmp), mode)
            try:
                ids = [9100 + i for i in range(players)]
                lobby = await _lobby(fake, app, ids)
                game = int(lobby.buttons()[0][1].split(":")[1])
                texts = ("/help", "/start", "hello")
                for i in range(flood):
                    await fake.send(FLOODER, texts[i % len(texts)])
                presses: list[float] = []
                balances: list[float] = []
                late = [0]

                async def timed(started: float, waiting: Any, into: list[float]) -> None:
                    """``waiting``'s time since ``started``; ``give_up`` after ``started``."""
                    left = max(0.0, started + give_up - time.perf_counter())
                    try:
                        await asyncio.wait_for(waiting, left)
                        into.append(time.perf_counter() - started)
                    except (TimeoutError, AssertionError):
                        into.append(give_up)
                        late[0] += 1

                async def presses_of(uid: int) -> None:
                    """A press every half second, each answer awaited on its own (a late
                    answer does not hold the next press back)."""
                    waiting = []
                    for n in range(rounds):
                        action = "leave" if n % 2 == 0 else "join"
                        started = time.perf_counter()
                        query = await fake.press(uid, lobby, f"gl:{game}:{action}")
                        waiting.append(asyncio.create_task(timed(
                            started, fake.callback_answer(query, give_up), presses)))
                        await asyncio.sleep(0.5)
                    await asyncio.gather(*waiting)

                async def balances_of() -> None:
                    """A /balance every half second; its answers come back in order."""
                    sent: asyncio.Queue[float] = asyncio.Queue()

                    async def answers() -> None:
                        for _ in range(rounds):
                            started = await sent.get()
                            await timed(started, fake.next_message(READER, timeout=give_up),
                                        balances)

                    reading = asyncio.create_task(answers())
                    for _ in range(rounds):
                        sent.put_nowait(time.perf_counter())
                        await fake.send(READER, "/balance")
                        await asyncio.sleep(0.5)
                    await reading

                await asyncio.gather(*(presses_of(uid) for uid in ids), balances_of())
                return presses, balances, late[0]
            finally:
                await app.stop()
                await asyncio.wait_for(task, 120)


def _cells(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
    return f"{statistics.median(ms):,.0f} | {p99:,.0f} | {ms[-1]:,.0f}"


async def main(flood: int, players: int, rounds: int, give_up: float,
               modes: list[str]) -> None:
    print(f"machine: {platform.machine()}, Python {platform.python_version()}; {flood:,}"
          f" messages from one user; {players} players pressing {rounds} times each, and"
          f" one /balance as often; gave up after {give_up:.0f} s")
    print("| answers | players' press p50 ms | p99 ms | max ms | /balance p50 ms | p99 ms"
          " | max ms | not back in time |")
    print("|---|---|---|---|---|---|---|---|")
    for mode in modes:
        presses, balances, late = await _one(mode, flood, players, rounds, give_up)
        print(f"| {mode} | {_cells(presses)} | {_cells(balances)} | {late} |", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--give-up", type=float, default=120.0)
    parser.add_argument("--modes", default=",".join(MODES),
                        help="which configurations, comma-separated (direct,outbox,bound)")
    args = parser.parse_args()
    asyncio.run(main(args.flood, args.players, args.rounds, args.give_up,
                     [m for m in args.modes.split(",") if m]))

"""The load benchmark's simulated tables: the host and players of each, driven through the
fake Bot API server's updates only (see ``benchmarks/bench_load.py`` and docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.telegram_server import FakeTelegram, SentMessage

# club texts (DEFAULT_LOCALE=en) that close a phase
DAY_BEGINS, EVENING, GAME_OVER, BUSY = "☀️ <b>Day", "The vote is over", "Game over", "Finish the"
CHOICE_PREFIXES = ("gn:", "gv:", "gc:")


@dataclass
class SimTable:
    """One simulated table: its club chat, host and players, and what happened to it."""

    index: int
    club: int
    host: int
    players: list[int]
    game_id: int = 0
    phases: list[tuple[float, str]] = field(default_factory=list)  # (start, phase kind)
    over: bool = False
    error: str = ""
    finished_at: float = 0.0
    joins: list[str] = field(default_factory=list)



async def wait_until(cond: Any, timeout: float, what: str) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.1)


def buttons_with(message: SentMessage, prefixes: tuple[str, ...]) -> list[str]:
    return [data for _, data in message.buttons() if data.startswith(prefixes)]


class Bench:
    def __init__(self, fake: FakeTelegram, rng: random.Random, deadline: float, *,
                 panel: bool = False) -> None:
        self.panel = panel  # the hosts press their panel's buttons instead of typing commands
        self.fake = fake
        self.rng = rng
        self.deadline = deadline
        self.slow: set[int] = set()  # players who answer late (often after their turn)
        self.queries: list[str] = []
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ players
    async def answer_prompts(self, table: SimTable) -> None:
        """Each player answers every new choice prompt in private (a random button)."""
        seen: dict[int, int] = defaultdict(int)
        while not table.over:
            for uid in table.players:
                messages = self.fake.messages(uid)
                for message in messages[seen[uid]:]:
                    choices = buttons_with(message, CHOICE_PREFIXES)
                    if choices:
                        task = asyncio.create_task(self.choose(uid, message, choices))
                        self.tasks.add(task)
                        task.add_done_callback(self.tasks.discard)
                seen[uid] = len(messages)
            await asyncio.sleep(0.2)

    async def choose(self, uid: int, message: SentMessage, choices: list[str]) -> None:
        roll = self.rng.random()
        if roll < 0.08:
            return  # misses the turn: the timer acts
        slow = uid in self.slow
        delay = self.rng.uniform(1.0, 3.0) if slow else self.rng.uniform(0.2, 1.0)
        await asyncio.sleep(delay)
        data = self.rng.choice(choices)
        self.queries.append(await self.fake.press(uid, message, data))

    # ------------------------------------------------------------------ the host
    async def host_says(self, table: SimTable, text: str) -> int:
        before = len(self.fake.messages(table.club))
        if self.panel and text in ("/deal", "/night", "/vote"):
            await self.host_presses(table, text[1:])
            return before
        await self.fake.send(table.host, text, chat_id=table.club)
        return before

    def panel_button(self, table: SimTable, action: str) -> tuple[SentMessage, str] | None:
        for message in reversed(self.fake.messages(table.host)):
            for data in buttons_with(message, (f"gh:{table.game_id}:",)):
                if data.split(":")[3] == action:
                    return message, data
        return None

    async def host_presses(self, table: SimTable, action: str) -> None:
        """The host's panel button (once the panel shows it: only what may be done now)."""
        await wait_until(lambda: self.panel_button(table, action) is not None,
                         self.remaining(), f"the panel's {action}")
        found = self.panel_button(table, action)
        assert found is not None
        self.queries.append(await self.fake.press(table.host, *found))

    def club_since(self, table: SimTable, before: int) -> list[str]:
        return [m.body for m in self.fake.messages(table.club)[before:]]

    async def lobby(self, table: SimTable) -> None:
        table.phases.append((time.monotonic(), "lobby"))
        if self.panel:
            await self.fake.send(table.host, "/start")  # the panel comes to the host in private
        await self.host_says(table, "/newgame")
        await wait_until(lambda: any(buttons_with(m, ("gl:",))
                                     for m in self.fake.messages(table.club)),
                         self.remaining(), "the lobby post")
        lobby = next(m for m in self.fake.messages(table.club) if buttons_with(m, ("gl:",)))
        table.game_id = int(buttons_with(lobby, ("gl:",))[0].split(":")[1])
        for uid in table.players:
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))
            query = await self.fake.press(uid, lobby, f"gl:{table.game_id}:join")
            self.queries.append(query)
            table.joins.append(query)

    async def deal(self, table: SimTable) -> float:
        """/deal once every player is seated; returns when the command was sent."""
        await wait_until(lambda: self.all_joined(table), self.remaining(), "everyone seated")
        table.phases.append((time.monotonic(), "deal"))
        while True:
            before = await self.host_says(table, "/deal")
            sent = time.monotonic()
            await wait_until(lambda b=before: self.club_since(table, b),
                             self.remaining(), "an answer to /deal")
            if not any(BUSY in t for t in self.club_since(table, before)):
                return sent
            await asyncio.sleep(1)

    def all_joined(self, table: SimTable) -> bool:
        answers = self.fake.callback_answers
        return all("at the table" in str(answers.get(q, {}).get("text", ""))
                   for q in table.joins) and len(table.joins) == len(table.players)

    def has_card(self, uid: int) -> bool:
        return any(m.protect_content for m in self.fake.messages(uid))

    async def play(self, table: SimTable, start_after: float = 0.0) -> None:
        await asyncio.sleep(start_after)
        players = asyncio.create_task(self.answer_prompts(table))
        try:
            await self.lobby(table)
            await self.deal(table)
            await wait_until(lambda: all(self.has_card(u) for u in table.players),
                             self.remaining(), "the cards")
            night = True
            while not table.over:
                command = "/night" if night else "/vote"
                table.phases.append((time.monotonic(), command[1:]))
                before = await self.host_says(table, command)
                marker = DAY_BEGINS if night else EVENING

                def done(before: int = before, marker: str = marker) -> bool:
                    texts = self.club_since(table, before)
                    return any(marker in t or GAME_OVER in t or BUSY in t for t in texts)

                await wait_until(done, self.remaining(), f"the end of {command}")
                texts = self.club_since(table, before)
                if any(GAME_OVER in t for t in texts):
                    table.over = True
                    table.finished_at = time.monotonic()
                    table.phases.append((time.monotonic(), "end"))
                elif any(BUSY in t for t in texts) and not any(marker in t for t in texts):
                    table.phases.pop()  # not begun: the previous part is still being announced
                    await asyncio.sleep(1)
                    continue
                night = not night
                await asyncio.sleep(self.rng.uniform(0.2, 1.0))  # the host talks
        except TimeoutError as e:
            table.error = f"stuck waiting for {e}"
        finally:
            table.over = True
            players.cancel()

    def remaining(self) -> float:
        return max(0.1, self.deadline - time.monotonic())

"""Simulated time for the real bot in a test's process (``sim.bot(tmp_path, ...)``).

The game's clock and deadlines, the durable delivery's waits and the rate limiter's all read one
:class:`~tests.fakes.virtual_clock.ManualClock` (and the fake Bot API's log its time). That
clock moves only when nothing is left to do at the time it shows — no update waiting or being
handled, no game step or deadline job running, no request at the fake, every chat's sender
waiting on the clock — and then straight to the next thing due, one at a time. A test of
timers racing Telegram's budgets sees the same timeline however busy the machine is (a slow
step only takes longer in real time), and sleeps none of it.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.app import App
from bot.game.service import GameService
from bot.game.timers import Job
from bot.wiring import DeliveryInputs, GameInputs, SendingInputs
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import ManualClock
from tests.game.flow import running

Condition = Callable[[], object | Awaitable[object]]
SETTLE_S = 60.0  # real seconds: a step that never ends is a hang, not a slow machine


class SimulatedTime:
    """The game layer's ``Deadlines`` too: a job runs when the clock reaches its time."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.clock = ManualClock(start=time.time())  # dates in the log stay today's
        fake.clock = self.clock.monotonic
        self.jobs: dict[str, tuple[float, Job]] = {}
        self.running: set[asyncio.Task[None]] = set()
        self.app: App | None = None

    # ------------------------------------------------------------------ the game's Deadlines
    def arm(self, key: str, at: datetime, job: Job) -> None:
        self.jobs[key] = (at.timestamp(), job)

    def disarm(self, key: str) -> None:
        self.jobs.pop(key, None)

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now, UTC)

    # ------------------------------------------------------------------ wiring
    def game(self) -> GameInputs:
        """``game`` of ``create_app``: the game layer built on this clock and these deadlines."""
        return GameInputs(clock=self.now, deadlines=self)

    def delivery(self) -> DeliveryInputs:
        """``delivery_time`` of ``create_app``: the durable delivery on this clock."""
        return DeliveryInputs(wall=self.clock.wall, sleep=self.clock.sleep, wait=self.clock.wait)

    def sending(self) -> SendingInputs:
        """``sending_time`` of ``create_app``: the sender and its rate limiter on this clock."""
        return SendingInputs(sleep=self.clock.sleep, clock=self.clock.monotonic,
                             pace=self.clock.sleep)

    @asynccontextmanager
    async def bot(self, tmp_path: Path, **overrides: Any) -> AsyncIterator[App]:
        """The real bot (tests/game/flow.py's ``running``) built on this time: its game layer,
        delivery and sender; the app this time then watches."""
        async with running(self.fake, tmp_path, game=self.game(), delivery_time=self.delivery(),
                           sending_time=self.sending(), **overrides) as app:
            self.app = app
            try:
                yield app
            finally:
                self.app = None

    @property
    def games(self) -> GameService:
        assert self.app is not None
        games = self.app.container.games
        assert isinstance(games, GameService)
        return games

    # ------------------------------------------------------------------ running
    def busy(self) -> str | None:
        """What still runs at the time the clock shows (None: only the clock can move it)."""
        if self.fake.pending_updates():
            return "updates not fetched"
        if self.fake.in_flight:
            return "a request at the fake Bot API"
        if self.running:
            return "a deadline's job"
        steps = self.games.steps
        if not steps.writes.idle or steps.stepping:
            return "a game step"
        parked = self.clock.parked()
        for task in asyncio.all_tasks():
            name = task.get_name()
            if name.startswith("update:"):
                return f"{name} being handled"
            if name.startswith("delivery:") and task not in parked:
                return f"{name} sending"
        return None

    async def settle(self) -> None:
        """Until nothing runs at this time (and still nothing a moment later)."""
        deadline = time.monotonic() + SETTLE_S
        quiet = 0
        while quiet < 2:
            what = self.busy()
            if what is None:
                quiet += 1
                changes = self.fake.changes
                await asyncio.sleep(0.01)
                if self.fake.changes != changes:
                    quiet = 0
                continue
            quiet = 0
            if time.monotonic() > deadline:
                raise AssertionError(f"no end to {what} at {self.clock.now:.2f}")
            await asyncio.sleep(0.005)

    def advance(self) -> bool:
        """The clock to the next thing due, and that alone begun: a job (the first by key at
        its time) before a wait; False when nothing is due."""
        due_job = min(((at, key) for key, (at, _) in self.jobs.items()), default=None)
        due_wait = self.clock.next_due()
        if due_job is None and due_wait is None:
            return False
        if due_job is not None and (due_wait is None or due_job[0] <= due_wait):
            at, key = due_job
            _, job = self.jobs.pop(key)
            self.clock.now = max(self.clock.now, at)
            task = asyncio.create_task(_run(job), name=f"job:{key}")
            self.running.add(task)
            task.add_done_callback(self.running.discard)
        else:
            self.clock.wake_next()
        return True

    async def until(self, cond: Condition, what: str, *, within: float = 600) -> None:
        """Time runs until ``cond`` holds at a settled moment; at most ``within`` seconds of
        it (a hang otherwise)."""
        limit = self.clock.now + within
        while True:
            await self.settle()
            done = cond()
            if inspect.isawaitable(done):
                done = await done
            if done:
                return
            if self.clock.now > limit or not self.advance():
                raise AssertionError(f"{what}: not within {within} s of simulated time")

    async def wait(self, seconds: float) -> None:
        """``seconds`` pass, and whatever falls due meanwhile runs."""
        target = self.clock.now + seconds
        while True:
            await self.settle()
            due = [t for t in (self.clock.next_due(),
                               min((at for at, _ in self.jobs.values()), default=None))
                   if t is not None]
            if not due or min(due) > target:
                self.clock.now = target
                return
            self.advance()

    async def delivered(self) -> None:
        """Time runs until the outbox has sent everything."""
        assert self.app is not None
        db = self.app.services.db

        async def empty() -> bool:
            return not await db.outbox.pending_chats()

        await self.until(empty, "the outbox sent")


async def _run(job: Job) -> None:
    await job()

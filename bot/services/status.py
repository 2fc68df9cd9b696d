"""``/status`` for admins: how the bot is now, from the process an admin asks.

What it reads is given by the application (``bot/wiring.py``): its start, the metrics' totals, the
outbox's backlog, the open games, and on several processes each process's roles and clubs (from
``pg_locks``, bot/cluster/share.py)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version

from storage.db import Database

WINDOW_S = 60.0  # "a minute" of updates and messages


@dataclass(frozen=True)
class ProcessLine:
    """One bot process sharing the database: its session, roles and clubs held."""

    session: int
    roles: tuple[str, ...]
    clubs: int
    this: bool


@dataclass(frozen=True)
class StatusReport:
    uptime_s: float
    version: str
    processes: tuple[ProcessLine, ...]  # empty: one process on SQLite
    games_open: int  # every process's
    updates_per_minute: int
    messages_per_minute: int
    outbox_pending: int
    outbox_oldest_s: float | None


@dataclass
class Rates:
    """Totals sampled over time (the metrics' counters), as counts a minute."""

    clock: Callable[[], float] = time.monotonic
    samples: deque[tuple[float, float, float]] = field(default_factory=lambda: deque(maxlen=64))

    def add(self, updates: float, messages: float) -> None:
        self.samples.append((self.clock(), updates, messages))

    def per_minute(self, updates: float, messages: float) -> tuple[int, int]:
        now = self.clock()
        self.add(updates, messages)
        old = [s for s in self.samples if now - s[0] >= WINDOW_S]
        # a minute ago, or the first sample of a younger process (never extrapolated)
        base = old[-1] if old else self.samples[0]
        return round(updates - base[1]), round(messages - base[2])


def package_version() -> str:
    try:
        return version("mafia-club-bot")
    except PackageNotFoundError:
        return "unknown"


class Status:
    def __init__(self, db: Database, *, started: float, totals: Callable[[], tuple[float, float]],
                 processes: Callable[[], Awaitable[Sequence[ProcessLine]]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.started = started
        self.totals = totals
        self.processes = processes
        self.clock = clock
        self.rates = Rates()

    async def report(self) -> StatusReport:
        updates, messages = self.totals()
        per_update, per_message = self.rates.per_minute(updates, messages)
        pending, oldest = await self.db.outbox.backlog()
        now = self.clock()
        lines = tuple(await self.processes()) if self.processes is not None else ()
        return StatusReport(
            uptime_s=max(0.0, now - self.started), version=package_version(), processes=lines,
            games_open=await self.db.games.open_count(), updates_per_minute=per_update,
            messages_per_minute=per_message, outbox_pending=pending,
            outbox_oldest_s=None if oldest is None else max(0.0, now - oldest))

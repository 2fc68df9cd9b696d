"""Alerts in the operators' chat (``OPS_CHAT_ID``): one post when an incident begins and one
"resolved" line when it ends, never a post per tick.

An incident is a key that a check reports as active (``outbox``, ``telegram_429``,
``database``, ``stuck:GAME``, ``malformed``); the checks are given by the application
(``bot/observability.py``) and read what the metrics' sampler and the games already know, so a
tick costs no query. A few events are told once as they happen (a process's clubs taken over).
On several processes the network-wide checks run in the sender's process only; a table's own
check runs where the table is (each table lives in one process), so nothing is told twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

from storage.numbers import ID_DIGITS, read_number
from views.i18n import Translator

log = logging.getLogger("bot.alerts")

TICK_S = 10.0  # the checks run this often
# what counts as an incident (docs/operations.md)
OUTBOX_LATE_S = 180.0  # the oldest queued message has waited this long
RETRY_AFTERS_PER_MINUTE = 5  # 429s within RETRY_WINDOW_S
RETRY_WINDOW_S = 60.0
DATABASE_DOWN_S = 30.0  # the database has not answered for this long
TABLE_LATE_S = 120.0  # a table's deadline passed this long ago with nothing happening
MALFORMED_QUIET_S = 600.0  # a malformed-update incident ends after this long without one

IncidentCheck = Callable[[], Mapping[str, Mapping[str, Any]]]  # active incidents: key -> text args
PostText = Callable[[str], Awaitable[None]]


def kind_of(key: str) -> str:
    return key.split(":", 1)[0]


class OpsAlerts:
    def __init__(self, post: PostText, translator: Translator, locale: str,
                 checks: list[IncidentCheck], clock: Callable[[], float] = time.monotonic) -> None:
        self.post = post
        self.translator = translator
        self.locale = locale
        self.checks = checks
        self.clock = clock
        self.open: dict[str, float] = {}  # incident key -> when it began

    async def tick(self) -> None:
        active: dict[str, Mapping[str, Any]] = {}
        for check in self.checks:
            active.update(check())
        now = self.clock()
        for key, args in active.items():
            if key not in self.open:
                self.open[key] = now
                await self._say(f"ops.alert.{kind_of(key)}", **args)
        for key in [k for k in self.open if k not in active]:
            began = self.open.pop(key)
            await self._say(f"ops.resolved.{kind_of(key)}", lasted=lasted(now - began),
                            **_id_of(key))

    async def tell(self, kind: str, **args: Any) -> None:
        """An event told once as it happens (no incident to resolve)."""
        await self._say(f"ops.event.{kind}", **args)

    async def _say(self, key: str, **args: Any) -> None:
        try:
            await self.post(self.translator.t(self.locale, key, **args))
        except Exception:  # the operators' chat unreachable: the log still has it
            log.exception("ops alert not posted", extra={"key": key})

    async def run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("ops alerts tick failed")
            await asyncio.sleep(TICK_S)


def _id_of(key: str) -> dict[str, Any]:
    """``stuck:12`` -> ``{"game": 12}`` for the resolved line."""
    kind, _, rest = key.partition(":")
    game = read_number(rest, digits=ID_DIGITS) if kind == "stuck" else None
    return {} if game is None else {"game": game}


class RunOf:
    """Counts of a growing total within a window: whether a run of 429s is on."""

    def __init__(self, total: Callable[[], float], window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.window_s = window_s
        self.clock = clock
        self.samples: list[tuple[float, float]] = []

    def within(self) -> float:
        now, value = self.clock(), self.total()
        self.samples = [s for s in self.samples if now - s[0] <= self.window_s]
        self.samples.append((now, value))
        return value - self.samples[0][1]


class Quiet:
    """Whether a total grew within the last ``quiet_s`` (malformed updates)."""

    def __init__(self, total: Callable[[], float], quiet_s: float = MALFORMED_QUIET_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.quiet_s = quiet_s
        self.clock = clock
        self.seen = total()
        self.grew_at: float | None = None

    def grew_lately(self) -> bool:
        value, now = self.total(), self.clock()
        if value > self.seen:
            self.grew_at = now
        self.seen = value
        return self.grew_at is not None and now - self.grew_at < self.quiet_s


def lasted(seconds: float) -> str:
    """``H:MM:SS`` (a duration in a text, with no word to agree with it)."""
    whole = max(0, round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class Backlog(Protocol):
    """What the metrics' sampler last read (bot/metrics.py's ``Sampler``)."""

    pending: int
    oldest: float | None  # wall time the oldest waiting row was queued
    down_since: float | None  # wall time the database stopped answering


def _utc(wall: float) -> str:
    return datetime.fromtimestamp(wall, UTC).strftime("%H:%M")


def network_checks(backlog: Backlog, retry_afters: Callable[[], float],
                   wall: Callable[[], float] = time.time) -> IncidentCheck:
    """The outbox behind, a run of 429s, the database down: the network's (one process)."""
    run = RunOf(retry_afters, RETRY_WINDOW_S)

    def check() -> dict[str, dict[str, Any]]:
        now, found = wall(), {}
        if backlog.oldest is not None and now - backlog.oldest >= OUTBOX_LATE_S:
            found["outbox"] = {"since": _utc(backlog.oldest), "pending": backlog.pending}
        count = run.within()
        if count >= RETRY_AFTERS_PER_MINUTE:
            found["telegram_429"] = {"count": int(count)}
        if backlog.down_since is not None and now - backlog.down_since >= DATABASE_DOWN_S:
            found["database"] = {"since": _utc(backlog.down_since)}
        return found

    return check


def overdue(deadlines: Iterable[tuple[int, datetime]],
            at: datetime) -> list[tuple[int, datetime]]:
    """The tables (game id, earliest deadline) whose deadline passed :data:`TABLE_LATE_S` ago:
    a deadline's job moves the table on at once, so nothing happened since."""
    return [(game_id, due) for game_id, due in deadlines
            if (at - due).total_seconds() >= TABLE_LATE_S]


def table_checks(late: Callable[[], Iterable[tuple[int, datetime]]],
                 skipped: Callable[[], float], now: Callable[[], datetime]) -> IncidentCheck:
    """This process's own: a table past its deadline with nothing happening (``late`` gives
    each open, unpaused table's game id and its earliest deadline), updates skipped."""
    quiet = Quiet(skipped, MALFORMED_QUIET_S)

    def check() -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for game_id, due in overdue(late(), now()):
            found[f"stuck:{game_id}"] = {"game": game_id, "since": due.strftime("%H:%M")}
        if quiet.grew_lately():
            found["malformed"] = {}
        return found

    return check

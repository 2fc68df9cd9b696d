"""The shared core of the game layer: what every phase of the evening stands on.

Every step (docs/game-flow.md): the game's lock (:meth:`GameCore.lock`), the checks
(:meth:`GameCore.expect`, :func:`rule`), the log and the in-memory :class:`Table`
(:meth:`GameCore.record`), the :class:`Notifier`; its events and messages are written in ONE
transaction when the lock is released. Deadlines (:meth:`GameCore.arm`) call the same steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields, replace
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.errors import UserError
from bot.game.messages.notifier import Notifier
from bot.game.tables import Tables
from bot.game.timers import Deadlines
from bot.game.writes import StepWriter
from bot.locks import KeyedLocks
from bot.logs import bind, unbind
from engine import CompositionError, Phase, RuleViolation
from record.log_events import LogEvent, encode
from record.table import (
    CANCEL_DL,
    FATE_DL,
    MAFIA_DL,
    NIGHT_DL,
    TURN_DL,
    GameTimers,
    Result,
    SeatInfo,
    Stage,
    Table,
)
from storage.backends import DatabaseUnavailable
from storage.dates import local_day, zone_of
from storage.db import Database
from storage.models import Club
from storage.repos.games import GameChange
from views.i18n import Translator

log = logging.getLogger("bot.game")

PROMPT_CHECK_SECONDS = 1.0  # a deadline whose prompts are still queued looks again after this
UNAVAILABLE_RETRY_SECONDS = 2.0  # a deadline the database could not serve looks again after this
ACTIVE_STAGES = (Stage.NIGHT, Stage.VOTE, Stage.FATE, Stage.CANCEL)

TimeUp = Callable[[Table], Awaitable[None]]  # what a phase does when its deadline is up
# may_host(user_id, chat_id): whether the account may open a table in the club chat (the
# application asks bot/services/permissions.py; the game layer never decides it alone)
MayHost = Callable[[int, int], Awaitable[bool]]


async def nobody_hosts(user_id: int, chat_id: int) -> bool:
    """The default: only a caller that checked already (``is_admin``) opens a table."""
    return False
"""What a phase does when one of its deadlines fires (called under the game's lock)."""


def rule(error: RuleViolation | CompositionError) -> UserError:
    """An engine refusal, as the answer the user sees (``game.rule.<code>``)."""
    return UserError(f"game.rule.{error.code}")


@dataclass(frozen=True)
class Reply:
    """What the service answers (a callback answer or a message): a locale key."""

    key: str
    kwargs: dict[str, Any]


def reply(key: str, **kwargs: Any) -> Reply:
    return Reply(key, kwargs)


def secs(seconds: float) -> int | float:
    """A duration for the texts: whole seconds (a number, so the texts pick its plural form)."""
    if seconds >= 10 or seconds == int(seconds):
        return round(seconds)
    return float(f"{seconds:g}")


class GameCore:
    """The games' steps (their locks, log first then apply, the checks) and deadlines, over
    the running games (:class:`Tables`). The rooms hold one and never touch each other's
    state."""

    def __init__(
        self,
        db: Database,
        tables: Tables,
        notifier: Notifier,
        deadlines: Deadlines,
        translator: Translator,
        *,
        timers: GameTimers,
        may_host: MayHost,
        clock: Clock,
        bot_username: str,
        rng: random.Random,
        new_seed: Callable[[], bytes],
        zone: str = "UTC",
    ) -> None:
        self.db = db
        self.zone = zone  # the network's TIMEZONE: a club without its own dates its games so
        self.notifier = notifier
        self.deadlines = deadlines
        self.tr = translator
        self.timers = timers
        self.may_host = may_host
        self.clock = clock
        self.bot_username = bot_username
        self.rng = rng
        self.new_seed = new_seed  # the deal's secret seed; tests inject a reproducible one
        self.tables = tables  # the running games
        self.locks: KeyedLocks[int] = KeyedLocks()  # a game's steps, one at a time
        self._time_up: dict[str, TimeUp] = {}
        self._postponed: set[tuple[int, str, int]] = set()  # (game, deadline, moment)
        # a step's log events, written with its messages when the step ends
        self._events: dict[int, list[tuple[int, str, dict[str, Any], datetime | None]]] = {}
        # a step that changed the lobby's seats: its table and the seats before it
        self._seats: dict[int, tuple[Table, dict[int, SeatInfo]]] = {}
        self._changes: dict[int, GameChange] = {}  # game -> its row's change in this step
        # the games whose step under way the host took (:meth:`step_by_host`)
        self._by_host: set[int] = set()
        self.writes = StepWriter(db, lambda: self.notifier.sender)
        # what every step that went through ends with (the host's panel follows the table),
        # told whether the step was the host's own (:meth:`step_by_host`)
        self.after_step: Callable[[Table, bool], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ steps
    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """One step of a game under its lock, written in one transaction after it and returning
        once durable (:mod:`bot.game.writes`); nothing is sent."""
        written: asyncio.Future[None] | None = None
        try:
            async with self.locks.hold(game_id):
                token = self.notifier.begin()
                self._events[game_id] = []
                table = self.tables.by_id.get(game_id)
                # every line the step logs names its game and club (a timer's too)
                logged = bind(game_id=game_id, **({"club": table.chat_id} if table else {}))
                try:
                    yield
                    if table is not None and self.after_step is not None:
                        try:
                            await self.after_step(table, game_id in self._by_host)
                        except Exception:  # the panel never undoes the step it follows
                            log.exception("after the step of game %s", table.game_id)
                    if table is not None and not table.open:
                        await self.notifier.close_topic(table)  # the step's last request
                finally:
                    try:
                        written = self._hand_over(game_id, table)
                    finally:
                        self._events.pop(game_id, None)
                        self._seats.pop(game_id, None)
                        self._changes.pop(game_id, None)
                        self._by_host.discard(game_id)
                        self.notifier.end(token)
                        unbind(logged)
        except BaseException:
            if written is not None:  # the step's own error is what its caller hears
                with contextlib.suppress(Exception):
                    await asyncio.shield(written)
            raise
        if written is not None:
            await asyncio.shield(written)

    @property
    def stepping(self) -> bool:
        """Whether a step of some game holds its lock now."""
        return self.locks.locked()

    async def flush(self, table: Table) -> None:
        """Write this step so far and wait until it is durable (before the game's points)."""
        if table.game_id in self._events:
            written = self._hand_over(table.game_id, table)
            if written is not None:
                await asyncio.shield(written)
        await self.writes.settled(table.game_id)

    def seats_changed(self, table: Table, before: dict[int, SeatInfo]) -> None:
        """``table.seats`` changed in this step (from ``before``): written with its commit."""
        self._seats.setdefault(table.game_id, (table, before))

    def change_row(self, table: Table, change: GameChange) -> None:
        """The game's row (roles, status...) changes with this step: written with its commit."""
        kept = self._changes.get(table.game_id)
        self._changes[table.game_id] = change if kept is None else kept.then(change)

    def _hand_over(self, game_id: int, table: Table | None) -> asyncio.Future[None] | None:
        recorded = self._events.get(game_id)
        events = list(recorded or [])
        if recorded is not None:
            recorded.clear()
        messages = self.notifier.take()
        if table is not None:
            messages = self.notifier.placed(table, messages)
        return self.writes.queue(game_id, events, messages,
                                 self._seats.pop(game_id, None),
                                 self._changes.pop(game_id, None))

    @staticmethod
    def require_host(table: Table, user_id: int) -> None:
        """Only the table's host may do this (a check, nothing more)."""
        if user_id != table.host_id:
            raise UserError("game.not_host")

    def step_by_host(self, table: Table, user_id: int) -> None:
        """Inside a step of ``table`` (under its lock): only its host may take it, and the step
        is the host's own (a press, a command, the Mini App), which :attr:`after_step` is told:
        the host's panel is redrawn at once after it, not a throttle's gap later."""
        self.require_host(table, user_id)
        self._by_host.add(table.game_id)

    def require_seat(self, table: Table, tg_id: int) -> int:
        seat = table.seat_of(tg_id)
        if seat is None:
            raise UserError("game.rule.not_at_table")
        if table.is_offline(seat):
            raise UserError("seats.played_by_host", seat=seat)  # the host presses for it
        return seat

    def acting_seat(self, table: Table, user_id: int, seat: int | None) -> int:
        """Whose press this is: the presser's own seat (``seat`` None), or the offline seat
        named by the button, which only the host may press for (in a step then the host's own)."""
        if seat is None:
            return self.require_seat(table, user_id)
        if user_id != table.host_id or not table.is_offline(seat):
            raise UserError("seats.not_yours")
        self.step_by_host(table, user_id)  # the host's own press, for an offline seat
        return seat

    async def record(self, table: Table, event: LogEvent) -> Result | None:
        """Apply the event and keep it for the log (written with the step's messages when the
        step ends; a step that fails to apply is never logged): the log is the truth."""
        kind, body = encode(event)
        events = self._events.get(table.game_id)
        if events is None:  # outside a step: on its own, after the steps' writes
            await self.writes.settled(table.game_id)
            seq = await self.db.games.append_event(table.game_id, kind, body, at=self.clock())
            return table.apply(event, seq)
        seq = table.seq + 1
        result = table.apply(event, seq)
        events.append((seq, kind, body, self.clock()))
        return result

    async def record_now(self, table: Table, event: LogEvent,
                         change: GameChange | None = None) -> Result | None:
        """Log one event at once with ``change`` and what the step has said so far, in one
        transaction, then apply it: for an event whose write is checked against what only
        the transaction reads (a fine against the balance, ``InsufficientBalance``). A refusal
        writes nothing, forgets what the step said and leaves the table as it was; the caller
        checks the event with the engine first, so its apply cannot fail once it is logged."""
        if self._events.get(table.game_id):
            raise RuntimeError("record_now must come before the step records anything else")
        seq = table.seq + 1
        kind, body = encode(event)
        await self.writes.write_now(table.game_id, [(seq, kind, body, self.clock())],
                                    self.notifier.take(), change)
        return table.apply(event, seq)

    def at(self, seconds: float) -> datetime:
        return self.clock() + timedelta(seconds=seconds)

    def can_start_phase(self, table: Table, phase: Phase) -> None:
        if table.stage is Stage.LOBBY:
            raise UserError("game.deal.first")
        if table.paused:
            raise UserError("game.paused")
        if table.stage in ACTIVE_STAGES:
            raise UserError("game.busy")
        if table.game.phase is not None and table.game.next_phase() is not phase:
            raise UserError("game.rule.phase_order")

    @staticmethod
    def expect(table: Table, stage: Stage, moment: int) -> None:
        """A button belongs to one moment of a phase: any other is stale; nothing moves while
        paused."""
        if table.stage is not stage or moment != table.moment:
            raise UserError("game.stale")
        if table.paused:
            raise UserError("game.paused")

    def day_of(self, club: Club | None, at: datetime) -> date:
        """The game's date: the day ``at`` falls on in the club's time zone (else the
        network's), so a game played at 01:00 is dated that day, not the UTC day before."""
        return local_day(at, zone_of(club.time_zone if club is not None else None, self.zone))

    def club_timers(self, club: Club | None) -> GameTimers:
        """The bot's timers with the club's own settings (``/settings``) over them."""
        if club is None or not club.timers:
            return self.timers
        known = {f.name for f in fields(GameTimers)}
        return replace(self.timers, **{name: float(seconds)
                                       for name, seconds in club.timers.items()
                                       if name in known and seconds > 0})

    def key(self, table: Table, name: str) -> str:
        return f"game{table.game_id}:{name}"

    @staticmethod
    def ref(table: Table, *parts: object) -> str:
        """The stable outbox key of a message that is edited later, e.g. ``g12:s3:prompt:5``."""
        return ":".join([f"g{table.game_id}", *(str(p) for p in parts)])

    def arm(self, table: Table) -> None:
        if table.paused or not table.open:
            return
        now = self.clock()
        for name, at in table.deadlines.items():
            self.deadlines.arm(self.key(table, name), max(at, now),
                               partial(self.on_deadline, table.game_id, name, table.moment))

    def disarm(self, table: Table) -> None:
        for name in (NIGHT_DL, MAFIA_DL, TURN_DL, FATE_DL, CANCEL_DL):
            self.deadlines.disarm(self.key(table, name))

    # ------------------------------------------------------------------ deadlines
    async def _prompts_queued(self, table: Table) -> bool:
        """Whether one of the moment's prompts is still queued (not confirmed by Telegram)."""
        if not (self.notifier.sender.durable and table.memory.prompts):
            return False
        await self.writes.settled(table.game_id)  # the prompts' rows are in the outbox
        sends = [(table.host_id if seat == 0 else table.chat_of(seat), ref)
                 for seat, ref in table.memory.prompts.items()]
        return bool(await self.db.outbox.undelivered(sends))

    def _waiting_for_prompts(self, table: Table, name: str, queued: bool) -> bool:
        """The time to choose counts from the moment the prompt arrives: while one of the
        moment's prompts is still ``queued`` (a busy evening, Telegram's limits), the
        deadline is looked at again every :data:`PROMPT_CHECK_SECONDS`; once every prompt has
        arrived the moment gets its whole length again. Not logged: after a restart the
        deadline in the log stands."""
        key = (table.game_id, name, table.moment)
        if queued:
            self._postponed.add(key)
            self.deadlines.arm(self.key(table, name), self.at(PROMPT_CHECK_SECONDS),
                               partial(self.on_deadline, table.game_id, name, table.moment))
            return True
        if key in self._postponed:
            self._postponed.discard(key)
            table.deadlines[name] = self.at(self._length(table, name))
            self.arm(table)
            return True
        return False

    def _length(self, table: Table, name: str) -> float:
        timers = table.timers or self.timers
        return {NIGHT_DL: timers.night, MAFIA_DL: timers.mafia_agree, TURN_DL: timers.vote_turn,
                CANCEL_DL: timers.cancel, FATE_DL: timers.fate}[name]

    def on_time_up(self, name: str, then: TimeUp) -> None:
        """A phase claims the deadline ``name`` (one of ``record.table``'s ``*_DL``)."""
        self._time_up[name] = then

    def _due(self, table: Table, name: str, moment: int) -> bool | None:
        """None: a stale job (another moment, over, paused); False: moved (/extend); True: up."""
        if not table.open or table.paused or moment != table.moment \
                or name not in table.deadlines:
            return None
        return table.deadlines[name] <= self.clock() + timedelta(seconds=0.001)

    async def on_deadline(self, game_id: int, name: str, moment: int) -> None:
        """A scheduler job: the same steps a host or a player would take."""
        table = self.tables.by_id.get(game_id)
        if table is None:
            return
        try:
            # The queue is read before the game's lock, so that the game's presses do not
            # wait for the read; if the prompts changed meanwhile it is read again under it.
            seen = dict(table.memory.prompts)
            looked = bool(self._due(table, name, moment))
            queued = looked and await self._prompts_queued(table)
            async with self.lock(game_id):
                if (due := self._due(table, name, moment)) is None:
                    return
                if not due:
                    self.arm(table)  # moved by /extend: wait for the new time
                    return
                if not looked or table.memory.prompts != seen:
                    queued = await self._prompts_queued(table)
                if self._waiting_for_prompts(table, name, queued):
                    return
                then = self._time_up.get(name)
                if then is not None:
                    await then(table)
        except DatabaseUnavailable as exc:
            # the server restarting: nothing of the moment's step was written, and a deadline
            # dropped here would leave the table waiting for nobody: look again shortly
            log.warning("deadline %s of game %s: the database is unavailable (%s), looking"
                        " again in %s s", name, game_id, exc, UNAVAILABLE_RETRY_SECONDS)
            if self.tables.by_id.get(game_id) is table and table.open:
                self.deadlines.arm(self.key(table, name), self.at(UNAVAILABLE_RETRY_SECONDS),
                                   partial(self.on_deadline, game_id, name, moment))
        except Exception:
            log.exception("deadline %s of game %s failed", name, game_id)


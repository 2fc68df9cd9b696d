"""Virtual time for the bot's waits on Telegram (a 429's ``retry_after``, a backoff, a throttled
edit's slot), so that a test of many faults does not sleep them out.

Every wait moves the clock forward by its length at once, instead of sleeping: the clock reads
the real time plus every wait so far. It never goes backwards, and whatever waited ``d`` seconds
resumes at least ``d`` seconds later on it: a retry is never early in this time. Give the fake
Bot API the same time (``FakeTelegram(clock=clock.monotonic)``) and its log shows it.

Only the outbox's and the delivery's waits are moved (the app built with
:meth:`VirtualClock.delivery` and :meth:`VirtualClock.sending`), and, with
:meth:`VirtualClock.drive_hangs`, the fake's hangs and the HTTP client's timeouts they outlast
(:class:`ClientTimeouts`); the game's timers and the rate limiter stay on the real clock.
Not for a fault the fake holds for a while (``fail_next(10_000, ...)``, its real-time rate
limits): the retries' backoffs pass at once, and they would use it up or meet it again at once.

:class:`ManualClock` is the other way round: its time stands still until the test moves it, for
a test whose subject is what happens before a wait ends (a throttled edit's slot) and after.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import TelegramMethod

from bot.wiring import DeliveryInputs, SendingInputs
from tests.fakes.telegram_server import FakeTelegram

Key = tuple[object, ...]


class VirtualClock:
    def __init__(self) -> None:
        self.skipped = 0.0  # seconds of waiting skipped so far
        self.waits = 0

    def wall(self) -> float:
        return time.time() + self.skipped

    def monotonic(self) -> float:
        return time.monotonic() + self.skipped

    async def sleep(self, seconds: float) -> None:
        self.waits += 1
        self.skipped += max(0.0, seconds)
        await asyncio.sleep(0)  # still a point where other tasks run, as a real sleep is

    async def wait(self, event: asyncio.Event, seconds: float | None) -> None:
        """Until ``event`` is set or ``seconds`` have passed (at once, on this clock)."""
        if event.is_set():
            return
        if seconds is None:
            await event.wait()
            return
        await self.sleep(seconds)

    def delivery(self) -> DeliveryInputs:
        """``delivery_time`` of ``create_app``: the durable delivery on this clock."""
        return DeliveryInputs(wall=self.wall, sleep=self.sleep, wait=self.wait)

    def sending(self) -> SendingInputs:
        """``sending_time`` of ``create_app``: the sender's retries on this clock (a button's
        answer's too), its rate limiter on the real one."""
        return SendingInputs(sleep=self.sleep)

    def drive_hangs(self, fake: FakeTelegram, bot: Bot) -> ClientTimeouts:
        """The fake's hangs on this clock, and ``bot``'s requests given up at once when one
        outlasts their timeout (:class:`ClientTimeouts`)."""
        timeouts = ClientTimeouts(bot)
        fake.sleep = self.sleep
        fake.on_hang = timeouts.hang
        return timeouts


class ManualClock:
    """Time that moves only when the test moves it (:meth:`advance`, :meth:`wake_next`): a
    throttled edit's slot, a backoff, a budget's wait ends when the test says its time has come
    — never early because the machine was slow to get there, nor late because it is slow now.
    Give a :class:`~bot.delivery.worker.Delivery` its ``wall``, ``sleep`` and ``wait`` (and a
    rate limiter its ``clock`` and ``sleep``)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start
        self._waits: list[_Wait] = []
        self._order = itertools.count()

    def wall(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def _parked(self) -> list[_Wait]:
        return [w for w in self._waits if not w.woken.done()
                and (w.event is None or not w.event.is_set())]

    @property
    def waiting(self) -> int:
        """The waits on this clock that nothing has ended yet."""
        return len(self._parked())

    def parked(self) -> set[asyncio.Task[Any]]:
        """The tasks waiting on this clock (for its time, or for an event with a time limit)
        that nothing has woken yet."""
        return {w.task for w in self._parked() if w.task is not None}

    def next_due(self) -> float | None:
        """When the first of the waits ends if nothing else ends it; None: no wait has a time."""
        return min((w.at for w in self._parked() if w.at != math.inf), default=None)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await self._until(self.now + seconds, None)

    async def wait(self, event: asyncio.Event, seconds: float | None) -> None:
        """Until ``event`` is set or ``seconds`` have passed on this clock."""
        if not event.is_set():
            await self._until(math.inf if seconds is None else self.now + seconds, event)

    async def _until(self, at: float, event: asyncio.Event | None) -> None:
        loop = asyncio.get_running_loop()
        entry = _Wait(at, next(self._order), loop.create_future(), event, asyncio.current_task())
        self._waits.append(entry)
        watching = None
        if event is not None:
            watching = loop.create_task(event.wait())
            watching.add_done_callback(lambda _: _end(entry.woken))
        try:
            await entry.woken
        finally:
            self._waits.remove(entry)
            if watching is not None:
                watching.cancel()

    def advance(self, seconds: float) -> None:
        """``seconds`` pass: every wait they end wakes."""
        self.now += seconds
        for entry in self._parked():
            if entry.at <= self.now:
                entry.woken.set_result(None)

    def wake_next(self) -> None:
        """The time of the first wait to end, and that wait alone ended (another one due at
        the same time is the next one's)."""
        parked = [w for w in self._parked() if w.at != math.inf]
        if parked:
            first = min(parked, key=lambda w: (w.at, w.order))
            self.now = max(self.now, first.at)
            first.woken.set_result(None)


def _end(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


@dataclass
class _Wait:
    at: float  # math.inf: only its event ends it
    order: int
    woken: asyncio.Future[None]
    event: asyncio.Event | None
    task: asyncio.Task[Any] | None


def request_key(method: str, params: dict[str, Any]) -> Key:
    """What a request is about, the same from the bot's method and from the fake's params."""
    return (method, params.get("chat_id"), params.get("message_id"),
            params.get("callback_query_id"), params.get("text"))


class ClientTimeouts:
    """The HTTP client's request timeout on the virtual clock: a request the fake Bot API hangs
    for longer than the client's timeout (``request_timeout``, else the session's) is given up
    at once, with the error aiogram raises when aiohttp's timeout runs out; a request whose
    timeout outlasts the hang gets the fake's answer after it. Only requests the fake hangs are
    given up: a slow answer still meets the real timeout."""

    def __init__(self, bot: Bot) -> None:
        self.session = bot.session
        self._make = bot.session.make_request
        self._waiting: dict[Key, list[tuple[float, asyncio.Future[None]]]] = defaultdict(list)
        self.given_up = 0
        self.unknown = 0  # hangs of a request not seen here (would get the fake's late 504)
        bot.session.make_request = self.make_request  # type: ignore[method-assign]

    async def make_request(self, bot: Bot, method: TelegramMethod[Any],
                           timeout: int | None = None) -> Any:  # noqa: ASYNC109 (aiogram's)
        limit = float(self.session.timeout if timeout is None else timeout)
        params = {name: getattr(method, name, None)
                  for name in ("chat_id", "message_id", "callback_query_id", "text")}
        key = request_key(method.__api_method__, params)
        entry = (limit, asyncio.get_running_loop().create_future())
        self._waiting[key].append(entry)
        request = asyncio.ensure_future(self._make(bot, method, timeout))
        try:
            await asyncio.wait({request, entry[1]}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            request.cancel()
            raise
        finally:
            self._waiting[key].remove(entry)
            if not self._waiting[key]:
                del self._waiting[key]
        if entry[1].done():
            request.cancel()
            with contextlib.suppress(BaseException):
                await request
            raise TelegramNetworkError(method=method, message="Request timeout error")
        return request.result()

    def hang(self, method: str, params: dict[str, Any], seconds: float) -> None:
        """The fake began to hang a request for ``seconds``: its client gives up now if its
        timeout is shorter."""
        for limit, gave_up in self._waiting.get(request_key(method, params), []):
            if not gave_up.done():
                if limit < seconds:
                    self.given_up += 1
                    gave_up.set_result(None)
                return
        self.unknown += 1

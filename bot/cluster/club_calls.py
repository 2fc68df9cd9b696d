"""A request that only a club's holder can answer, made from any process (PostgreSQL, several
processes: docs/scaling.md, "Club calls").

A club's games live in the memory of the one process holding the club. What reaches another
process about them — the host's Mini App served by a process behind a load balancer, the
sender's 403 for a player seated in a club held elsewhere — is written as a row of
``club_calls`` (``bot/cluster/share.py``) with its club, and ``NOTIFY mafia_calls``
wakes the processes: the club's holder claims it (only a row nobody took), runs the handler
registered for its kind, writes the answer and ``NOTIFY mafia_answers, '<id>'`` wakes the one
waiting. A call that waits longer than its timeout is withdrawn if no holder took it yet (so it
never runs: "try again", nothing changed); one a holder took and did not answer in time (a
holder killed while running it) is never run again by the next holder: at most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.cluster.share import ShareConnection

log = logging.getLogger("bot.calls")

Answerer = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]  # a kind's: payload -> answer
CALL_TIMEOUT_S = 10.0  # a takeover is within seconds (docs/scaling.md): a waiting call outlasts it
RECHECK_S = 1.0  # a lost notification (the share connection restored) delays an answer this much
CALLS_IN_FLIGHT = 50
EARLY_KEPT = 256  # answers heard before their caller was waiting (any process's: all listen)


class CallTimeout(Exception):
    """No answer in time. ``withdrawn``: no holder took it and it never runs (nothing changed);
    otherwise a holder took it and did not answer (it may have been done, once)."""

    def __init__(self, withdrawn: bool) -> None:
        super().__init__("withdrawn" if withdrawn else "taken, not answered")
        self.withdrawn = withdrawn


class CallsHeard:
    """What this process's share connection hears of the club calls (its ``on_call`` and
    ``on_answer``), kept for :class:`ClubCalls`: made before both, as the connection tells it
    and the calls are written through the connection."""

    def __init__(self) -> None:
        self._due = True  # a club call may be waiting for this process (claim_calls)
        self._waiting: dict[int, asyncio.Event] = {}
        # the answers heard with nobody waiting: the holder may answer before this process has
        # read back the id its own insert returned (its loop busy), and it would wait a recheck
        self._early: dict[int, None] = {}

    def mark_due(self) -> None:
        """A call was written (``NOTIFY mafia_calls``), or the clubs held changed: look for
        calls at the next claim."""
        self._due = True

    def take_due(self) -> bool:
        """Whether a call may be waiting (marked since the last time asked)."""
        due, self._due = self._due, False
        return due

    def answered(self, call_id: int) -> None:
        """``NOTIFY mafia_answers`` (any process's call: all listen)."""
        event = self._waiting.get(call_id)
        if event is not None:
            event.set()
            return
        self._early[call_id] = None
        while len(self._early) > EARLY_KEPT:
            del self._early[next(iter(self._early))]

    def waiting(self, call_id: int) -> asyncio.Event:
        """Set when ``call_id``'s answer is heard (already, if it was heard before)."""
        event = self._waiting[call_id] = asyncio.Event()
        if call_id in self._early:
            del self._early[call_id]
            event.set()
        return event

    def done(self, call_id: int) -> None:
        self._waiting.pop(call_id, None)


class ClubCalls:
    """The calls written through ``conn``, their answers heard in ``heard`` (the one given the
    connection's ``on_call`` and ``on_answer``)."""

    def __init__(self, conn: ShareConnection, heard: CallsHeard,
                 wall: Callable[[], float] = time.time) -> None:
        self.conn = conn
        self.heard = heard
        self.wall = wall
        self.handlers: dict[str, Answerer] = {}
        self.running: set[int] = set()  # ids being run here

    def on(self, kind: str, handler: Answerer) -> None:
        """What the club's holder runs for a call of ``kind`` (its answer: JSON-able)."""
        self.handlers[kind] = handler

    # ------------------------------------------------------------------ the caller's side
    async def call(self, club: int, kind: str, request: dict[str, Any], *,
                   within: float = CALL_TIMEOUT_S) -> dict[str, Any]:
        """The holder's answer; :class:`CallTimeout` after ``within`` seconds;
        ``DatabaseUnavailable`` if the call could not be written (then it never runs)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        call_id = await self.conn.add_call(club, kind, json.dumps(request), self.wall())
        event = self.heard.waiting(call_id)
        try:
            while True:
                left = deadline - loop.time()
                if left > 0:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(min(left, RECHECK_S)):
                            await event.wait()
                event.clear()
                answered, answer = await self.conn.take_answer(call_id)
                if answered:
                    return dict(json.loads(answer or "{}"))
                if loop.time() >= deadline:
                    break
            withdrawn = await self.conn.withdraw_call(call_id)
            if not withdrawn:  # taken: answered in the last instant?
                answered, answer = await self.conn.take_answer(call_id)
                if answered:
                    return dict(json.loads(answer or "{}"))
            log.warning("club call not answered in time",
                        extra={"call": call_id, "club": club, "kind": kind,
                               "withdrawn": withdrawn})
            raise CallTimeout(withdrawn)
        finally:
            self.heard.done(call_id)

    async def tell(self, club: int, kind: str, request: dict[str, Any]) -> None:
        """A call whose answer nobody waits for (run once by the club's holder)."""
        await self.conn.add_call(club, kind, json.dumps(request), self.wall())

    # ------------------------------------------------------------------ the holder's side
    def recheck(self) -> None:
        """The clubs held here changed: their calls may be waiting (looked for at the next
        :meth:`claim`)."""
        self.heard.mark_due()

    async def claim(self, clubs: set[int], spawn: Callable[[Any, str], object]) -> None:
        """Take the calls to ``clubs`` (held here, their games restored) and run each as a
        task (``spawn(coroutine, name)``); only when one may be waiting (a NOTIFY, or a look)."""
        if not self.heard.take_due():
            return
        room = CALLS_IN_FLIGHT - len(self.running)
        for call_id, kind, request in await self.conn.claim_calls(clubs, room):
            self.running.add(call_id)
            spawn(self._run(call_id, kind, request), f"call:{call_id}")

    async def _run(self, call_id: int, kind: str, request: str) -> None:
        try:
            handler = self.handlers.get(kind)
            if handler is None:
                log.error("club call of an unknown kind", extra={"call": call_id, "kind": kind})
                answer: dict[str, Any] = {"error": "unknown kind"}
            else:
                try:
                    answer = await handler(json.loads(request))
                except Exception:
                    log.exception("club call failed", extra={"call": call_id, "kind": kind})
                    answer = {"error": "failed"}
            await self.conn.answer_call(call_id, json.dumps(answer, ensure_ascii=False),
                                        self.wall())
        finally:
            self.running.discard(call_id)

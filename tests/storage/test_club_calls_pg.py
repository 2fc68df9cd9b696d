"""Club calls (bot/cluster/club_calls.py on bot/cluster/share.py) on a real server: a call
reaches only its club's holder, runs once and its answer comes back to the process waiting; a
call nobody takes in time is withdrawn and never runs; one taken by a holder that then dies is
not run again by the next holder (at most once); a call waiting through a takeover is answered
by the new holder. PostgreSQL only: with SQLite there is one process, and no calls."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.cluster.club_calls import CallsHeard, CallTimeout, ClubCalls
from bot.cluster.share import ShareConnection
from tests.pg_cluster import Cluster

X, Y = -100_710_001, -100_710_002


class Member:
    """One process's share connection and calls, claiming for the clubs it holds."""

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        heard = CallsHeard()
        self.conn = ShareConnection(url, lambda: None, on_call=heard.mark_due,
                                    on_answer=heard.answered)
        self.calls = ClubCalls(self.conn, heard)
        self.ran: list[dict[str, Any]] = []
        self.gate: asyncio.Event | None = None  # held: a call taken and not answered
        self.calls.on("echo", self._echo)
        self.tasks: set[asyncio.Task[None]] = set()
        self.loop: asyncio.Task[None] | None = None

    async def _echo(self, request: dict[str, Any]) -> dict[str, Any]:
        self.ran.append(request)
        if self.gate is not None:
            await self.gate.wait()
        return {"by": self.name, "n": request["n"]}

    async def start(self) -> None:
        await self.conn.join()
        self.loop = asyncio.create_task(self._claiming())

    async def _claiming(self) -> None:
        while True:  # the sharing loop's part: claim when woken (or every 0.2 s)
            self.calls.recheck()
            await self.calls.claim(self.conn.clubs, self._spawn)
            await self.conn.wait_woken(0.2)

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def stop(self) -> None:
        for task in [*self.tasks, *([self.loop] if self.loop else [])]:
            task.cancel()
        await asyncio.gather(*self.tasks, *([self.loop] if self.loop else []),
                             return_exceptions=True)
        await self.conn.close()


@pytest.fixture
async def url(pg: Cluster) -> AsyncIterator[str]:
    yield await pg.new_database()


async def _rows(m: Member) -> list[tuple[Any, ...]]:
    # through the share connection's lock: its claiming loop uses the connection meanwhile
    return [tuple(r) for r in await m.conn._run(
        "fetch",
        "SELECT club, kind, taken IS NOT NULL, answered IS NOT NULL FROM club_calls ORDER BY id")]


async def test_a_call_runs_once_at_its_clubs_holder_and_answers_the_caller(url: str) -> None:
    a, b = Member(url, "a"), Member(url, "b")
    await a.start()
    await b.start()
    try:
        assert await a.conn.try_club(X) and await b.conn.try_club(Y)
        began = time.monotonic()
        assert await b.calls.call(X, "echo", {"n": 1}, within=5) == {"by": "a", "n": 1}
        assert time.monotonic() - began < 2  # woken by NOTIFY, not found by a 1 s look
        assert await a.calls.call(Y, "echo", {"n": 2}, within=5) == {"by": "b", "n": 2}
        assert await a.calls.call(X, "echo", {"n": 3}, within=5) == {"by": "a", "n": 3}
        assert [r["n"] for r in a.ran] == [1, 3] and [r["n"] for r in b.ran] == [2]
        await b.calls.tell(X, "echo", {"n": 4})  # nobody waits: run once all the same
        for _ in range(50):
            if len(a.ran) == 3:
                break
            await asyncio.sleep(0.05)
        assert [r["n"] for r in a.ran] == [1, 3, 4] and len(b.ran) == 1
        # an answer read is deleted; a told call's row stays (pruned after a day)
        assert await _rows(a) == [(X, "echo", True, True)]
        await a.conn.prune_calls(time.time() + 24 * 3600 + 1)
        assert await _rows(a) == []
    finally:
        await a.stop()
        await b.stop()


async def test_a_call_nobody_takes_is_withdrawn_and_never_runs(url: str) -> None:
    a, b = Member(url, "a"), Member(url, "b")
    await a.start()
    await b.start()
    try:
        with pytest.raises(CallTimeout) as e:  # nobody holds X
            await b.calls.call(X, "echo", {"n": 1}, within=0.5)
        assert e.value.withdrawn
        assert await a.conn.try_club(X)  # a holder now: the withdrawn call stays undone
        await asyncio.sleep(0.5)
        assert a.ran == [] and b.ran == []
        assert await _rows(a) == []
    finally:
        await a.stop()
        await b.stop()


async def test_a_call_waits_through_a_takeover_and_runs_at_most_once(url: str) -> None:
    a, b, c = Member(url, "a"), Member(url, "b"), Member(url, "c")
    for m in (a, b, c):
        await m.start()
    try:
        assert await a.conn.try_club(X)
        a.gate = asyncio.Event()  # a takes the first call and dies before answering
        first = asyncio.create_task(c.calls.call(X, "echo", {"n": 1}, within=3))
        for _ in range(100):
            if a.ran:
                break
            await asyncio.sleep(0.02)
        assert [r["n"] for r in a.ran] == [1]
        await a.stop()  # its session ends: X is free
        # a call made while nobody holds X waits for the next holder
        second = asyncio.create_task(c.calls.call(X, "echo", {"n": 2}, within=5))
        await asyncio.sleep(0.3)
        for _ in range(50):
            if await b.conn.try_club(X):
                break
            await asyncio.sleep(0.1)
        assert await second == {"by": "b", "n": 2}
        with pytest.raises(CallTimeout) as e:
            await first
        assert not e.value.withdrawn  # taken by a, never answered: not run again
        assert [r["n"] for r in b.ran] == [2]
    finally:
        for m in (b, c):
            await m.stop()

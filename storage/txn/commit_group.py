"""A commit group: the write transactions one ``COMMIT`` makes durable, each waiting for it."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any


class GroupRolledBack(sqlite3.OperationalError):
    """A transaction lost because the database rolled back the whole group it was committed
    with (an ``sqlite3.OperationalError`` for the callers written against SQLite)."""


class Group:
    """Transactions committed by one COMMIT; each waits for its outcome."""

    def __init__(self) -> None:
        self.size = 0
        loop = asyncio.get_running_loop()
        self._clock = loop.time
        self.started = loop.time()
        self._done: asyncio.Future[None] = loop.create_future()
        self._done.add_done_callback(retrieve)

    def age(self) -> float:
        return self._clock() - self.started

    def succeed(self) -> None:
        if not self._done.done():
            self._done.set_result(None)

    def fail(self, exc: BaseException) -> None:
        if not self._done.done():
            self._done.set_exception(exc)

    async def durable(self) -> None:
        # shielded: one waiter cancelled does not cancel the outcome the others wait for
        await asyncio.shield(self._done)


def retrieve(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()  # each waiter re-raises it; this only marks it seen

"""The writer held by a transaction while a test queues writes behind it; a read held after
it read, while a test commits a write."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from storage import Database
from storage.sql import Connection


async def hold_writer(db: Database, then: Callable[[Connection], Awaitable[object]] | None = None
                      ) -> tuple[asyncio.Task[None], asyncio.Event]:
    """A task whose ``db.transaction()`` holds the writer until the event is set (running
    ``then(conn)`` in it after), returned once it holds it: whatever is started meanwhile
    queues for the writer (and shares the holder's group)."""
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with db.transaction() as conn:
            holding.set()
            await release.wait()
            if then is not None:
                await then(conn)

    head = asyncio.create_task(hold())
    await holding.wait()
    return head, release


async def insert_zero(conn: Connection) -> None:
    await conn.execute("INSERT INTO t (x) VALUES (0)")


def stall_after_read(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> asyncio.Event:
    """``owner.name`` (a read) returns what it read only once the returned event is set: a
    read under way while a write commits (a cache must not keep what it returns)."""
    read = getattr(owner, name)
    gate = asyncio.Event()

    async def stalled(*args: Any, **kwargs: Any) -> Any:
        found = await read(*args, **kwargs)  # the snapshot before the write
        await gate.wait()
        return found

    monkeypatch.setattr(owner, name, stalled)
    return gate

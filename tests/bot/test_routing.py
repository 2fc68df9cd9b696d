"""Which club an update belongs to (bot/cluster/routing.py): the process holding that club
handles it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cluster.routing import club_of, clubs_of
from bot.telegram.updates import RawUpdate
from storage.db import Database
from tests.game.harness import approve_club
from tests.sqlite_template import migrated

CLUB, OTHER = -100_123, -100_456
HOST, SEATED, STRANGER = 10, 11, 12


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(migrated(tmp_path / "route.sqlite3"))
    await database.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(database, CLUB)  # its games count
    await database.clubs.ensure(OTHER, title="Other", locale="en")
    await approve_club(database, OTHER)  # its games count
    for uid in (HOST, SEATED, STRANGER):
        await database.players.register(uid, display_name=f"U{uid}", language="en")
    yield database
    await database.close()


def user(uid: int) -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": f"U{uid}"}


def message(uid: int, text: str, chat: int | None = None) -> RawUpdate:
    """As Telegram sends it: the poller routes updates it has not parsed."""
    chat_obj = ({"id": chat, "type": "supergroup", "title": "Club"} if chat is not None
                else {"id": uid, "type": "private", "first_name": "U"})
    return {"update_id": 1, "message": {
        "message_id": 1, "date": 0, "chat": chat_obj, "from": user(uid), "text": text}}


def press(uid: int, data: str) -> RawUpdate:
    return {"update_id": 2, "callback_query": {
        "id": "q", "from": user(uid), "chat_instance": "c", "data": data,
        "message": {"message_id": 5, "date": 0,
                    "chat": {"id": uid, "type": "private", "first_name": "U"}}}}


async def test_each_update_goes_to_its_club_or_to_any_process(db: Database) -> None:
    now = datetime.now(UTC)
    game = await db.games.create(CLUB, HOST, seats=[(1, SEATED)], created_at=now)
    finished = await db.games.create(OTHER, HOST, created_at=now)
    await db.games.set_status(finished, "aborted")
    inbox = db.inbox
    assert await club_of(message(STRANGER, "/newgame", chat=OTHER), inbox) == OTHER
    assert await club_of(press(SEATED, f"gn:{game}:3:2"), inbox) == CLUB
    assert await club_of(press(HOST, f"gh:{game}:3:night:"), inbox) == CLUB
    assert await club_of(message(STRANGER, f"/start join_{game}"), inbox) == CLUB
    assert await club_of(message(SEATED, "/myrole"), inbox) == CLUB  # seated in a running game
    assert await club_of(message(HOST, "/status"), inbox) == CLUB  # hosting one
    assert await club_of(message(STRANGER, "/start"), inbox) is None
    assert await club_of(press(STRANGER, "lang:en"), inbox) is None
    assert await club_of(press(STRANGER, "gn:999999:1:1"), inbox) is None  # no such game


async def test_a_batch_is_routed_with_two_reads_as_each_update_alone(db: Database) -> None:
    """The poller routes a batch at once (bot/cluster/routing.py ``clubs_of``): one read for the
    games pressed, one for the players, whatever the batch's size; each update's club as alone."""
    now = datetime.now(UTC)
    game = await db.games.create(CLUB, HOST, seats=[(1, SEATED)], created_at=now)
    aborted = await db.games.create(OTHER, HOST, created_at=now)
    await db.games.set_status(aborted, "aborted")
    batch = [message(STRANGER, "/newgame", chat=OTHER), press(SEATED, f"gn:{game}:3:2"),
             press(HOST, f"gh:{game}:3:night:"), message(STRANGER, f"/start join_{game}"),
             message(SEATED, "/myrole"), message(HOST, "/status"), message(STRANGER, "/start"),
             press(STRANGER, "lang:en"), press(STRANGER, "gn:999999:1:1")] * 20
    alone = [await club_of(u, db.inbox) for u in batch]
    assert alone[:9] == [OTHER, CLUB, CLUB, CLUB, CLUB, CLUB, None, None, None]
    reads = 0
    store = db.inbox._db
    query = store.query

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal reads
        reads += 1
        return await query(*args, **kwargs)

    store.query = counted  # type: ignore[method-assign]
    assert await clubs_of(batch, db.inbox) == alone
    assert reads == 2
    # a player seated at a newer table not over goes to that one's club
    newer = await db.games.create(OTHER, STRANGER, seats=[(1, SEATED)], created_at=now)
    assert await clubs_of([message(SEATED, "/myrole"), message(STRANGER, "/status")],
                          db.inbox) == [OTHER, OTHER]
    await db.games.set_status(newer, "aborted")
    assert await clubs_of([message(SEATED, "/myrole")], db.inbox) == [CLUB]

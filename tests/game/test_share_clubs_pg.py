"""How clubs are shared out (bot/cluster/sharing.py ``Sharing.share_clubs``) on a real server, the
games stubbed: a process holding the poller and the sender takes fewer clubs; the clubs taken
are restored side by side; a club whose restore fails stays held, its updates waiting, and is
restored at the next look; the clubs of a process
killed with ``kill -9`` are taken by the next look of a survivor, which counts one member less
at once (the server ends the killed one's session as its socket closes)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest

from bot.cluster.club_calls import CallsHeard, ClubCalls
from bot.cluster.handled_marks import HandledMarks
from bot.cluster.outbox_notices import OutboxNotices
from bot.cluster.share import ProcessRole
from bot.cluster.sharing import Sharing, fair_share
from bot.wiring import share_connection
from storage.db import Database
from tests.pg_cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
CLUBS = [-100_900_000 - i for i in range(8)]


@dataclass
class Games:
    """What share_clubs needs of GameService: ``restore`` (here: recorded, or held until
    ``gate`` opens, or failing for ``failing``) and ``tables`` (none)."""

    started: list[int] = field(default_factory=list)
    gate: asyncio.Event | None = None
    failing: set[int] = field(default_factory=set)
    tables: dict[int, Any] = field(default_factory=dict)
    all_started: asyncio.Event = field(default_factory=asyncio.Event)  # every club's begun

    async def restore(self, clubs: Collection[int] | None = None) -> list[int]:
        assert clubs is not None
        self.started.extend(clubs)
        if set(self.started) >= set(CLUBS):
            self.all_started.set()
        if set(clubs) & self.failing:
            raise RuntimeError("the log cannot be read")
        if self.gate is not None:
            await asyncio.wait_for(self.gate.wait(), 30)
        return []


@dataclass
class Dispatcher:
    """Records the updates Sharing.claim hands out, and marks them handled."""

    db: Database
    handled: list[int] = field(default_factory=list)
    updates: list[Any] = field(default_factory=list)

    async def handle_claimed(self, bot: Any, update_id: int, update: Any) -> None:
        self.handled.append(update_id)
        self.updates.append(update)
        await self.db.inbox.handled(update_id, 0.0)


class Fleet:
    def __init__(self, url: str, db: Database) -> None:
        self.url, self.db = url, db
        self.sharings: list[Sharing] = []

    async def join(self, games: Games | None = None) -> Sharing:
        heard = CallsHeard()
        conn = share_connection(self.url, self.db, lambda: None, heard)  # as bot/wiring.py's
        sharing = Sharing(conn, cast(Any, None),
                          cast(Any, Dispatcher(self.db)), cast(Any, games or Games()),
                          cast(Any, None), self.db, marks=HandledMarks(conn.mark_handled),
                          calls=ClubCalls(conn, heard), notices=OutboxNotices(conn),
                          arm_expiry=lambda: None, webhook=True, in_flight=10)
        await sharing.conn.join()  # the locks only: no poller, no sender started
        self.sharings.append(sharing)
        return sharing

    async def close(self) -> None:
        for sharing in self.sharings:
            await sharing.conn.close()


@pytest.fixture
async def fleet(pg: Cluster) -> AsyncIterator[Fleet]:
    url = await pg.new_database()
    db = await Database.open(url)
    for club in CLUBS:
        await db.clubs.ensure(club, title="Club", locale="en")
    fleet = Fleet(url, db)
    try:
        yield fleet
    finally:
        await fleet.close()
        await db.close()


async def test_the_holder_of_the_poller_and_the_sender_takes_fewer_clubs(fleet: Fleet) -> None:
    busy = await fleet.join()
    other = await fleet.join()
    assert await busy.conn.try_role(ProcessRole.POLLER)
    assert await busy.conn.try_role(ProcessRole.SENDER)
    # 8 clubs, each role 2 of them: (8 + 4) / 2 = 6 each, the roles' 4 taken off the busy one
    both = [ProcessRole.POLLER, ProcessRole.SENDER]
    assert fair_share(8, 2, both, both) == 2
    await busy.share_clubs()
    await other.share_clubs()
    assert len(busy.held) == 2
    assert len(other.held) == 6
    assert busy.held.isdisjoint(other.held)


async def test_the_clubs_taken_are_restored_side_by_side(fleet: Fleet) -> None:
    games = Games(gate=asyncio.Event())
    sharing = await fleet.join(games)
    taking = asyncio.create_task(sharing.share_clubs())
    # one after another, the first restore would wait for the gate and fail: all start first
    await asyncio.wait_for(games.all_started.wait(), 20)
    assert sorted(games.started) == sorted(CLUBS)
    assert not taking.done()
    assert games.gate is not None
    games.gate.set()
    await taking
    assert sharing.held == set(CLUBS)


async def test_a_club_whose_restore_fails_is_kept_its_updates_waiting_until_restored(
    fleet: Fleet
) -> None:
    first = sorted(CLUBS)[:4]  # its share of 8 over 2, taken in order
    games = Games(failing={first[0]})
    sharing = await fleet.join(games)
    other = await fleet.join()
    await sharing.share_clubs()
    assert first[0] in games.started
    assert sharing.held == set(first)
    assert sharing.unrestored == {first[0]}
    assert not await other.conn.try_club(first[0])  # given back, its games would run twice
    await fleet.db.inbox.add(1, "{}", 0.0, club=first[0])
    await fleet.db.inbox.add(2, "{}", 0.0, club=first[1])
    handled = cast(Dispatcher, sharing.dispatcher).handled
    await sharing.claim()
    await asyncio.sleep(0.1)
    assert handled == [2]  # the restored club's; the other's waits
    games.failing.clear()  # the database back: the next look restores it
    games.started.clear()
    await sharing.share_clubs()
    assert games.started == [first[0]]
    assert sharing.unrestored == set()
    await sharing.claim()
    await asyncio.sleep(0.1)
    assert handled == [2, 1]


async def test_a_claimed_batch_s_senders_are_read_in_one_query(
        fleet: Fleet, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each handler reads its sender's account first: the batch's are read before, at once."""
    sharing = await fleet.join()
    await sharing.share_clubs()
    db = fleet.db
    for tg_id in (71, 72, 73):
        await db.players.register(tg_id, display_name=f"P{tg_id}", language="en")
    club = sorted(sharing.held)[0]
    sent: list[dict[str, Any]] = [{"update_id": 10 + i, "message": {
        "message_id": i, "date": 0, "text": "/status",
        "chat": {"id": club, "type": "supergroup", "title": "Club"},
        "from": {"id": tg_id, "is_bot": False, "first_name": "P"}}}
        for i, tg_id in enumerate((71, 72, 73, 71))]
    for update in sent:
        await db.inbox.add(update["update_id"], json.dumps(update), 0.0, club=club)
    reads: list[list[int]] = []
    get_many = db.players.get_many

    async def counted(tg_ids: Any) -> Any:
        reads.append(sorted(tg_ids))
        return await get_many(tg_ids)

    monkeypatch.setattr(db.players, "get_many", counted)
    await sharing.claim()
    dispatcher = cast(Dispatcher, sharing.dispatcher)
    for _ in range(100):
        if len(dispatcher.handled) == len(sent):
            break
        await asyncio.sleep(0.05)
    assert dispatcher.updates == sent  # as stored, decoded once
    assert reads == [[71, 72, 73]]
    assert [p.tg_id for p in [await db.players.cached(i) for i in (71, 72, 73)]
            if p is not None] == [71, 72, 73]


HOLDER = """
import asyncio, sys
from bot.cluster.share import ShareConnection

async def main() -> None:
    conn = ShareConnection(sys.argv[1], lambda: None)
    await conn.join()
    for club in sys.argv[2:]:
        assert await conn.try_club(int(club))
    print("holding", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_the_clubs_of_a_process_killed_are_taken_at_the_next_look(fleet: Fleet) -> None:
    mine = CLUBS[:4]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, fleet.url, *map(str, mine),
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert await asyncio.wait_for(proc.stdout.readline(), 30) == b"holding\n"
        survivor = await fleet.join()
        await survivor.share_clubs()
        assert survivor.held == set(CLUBS[4:])  # its half; the other half is the holder's
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        looks = 0
        while survivor.held != set(CLUBS) and looks < 50:  # a look a tenth of a second
            looks += 1
            await asyncio.sleep(0.1)
            await survivor.share_clubs()
        assert survivor.held == set(CLUBS)
        assert await survivor.conn.members() == 1
        # the server saw the socket close at once: no keepalive or timeout was waited for
        assert looks <= 10
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

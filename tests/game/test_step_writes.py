"""A step's write after its lock (bot/game/writes.py): steps of one game queued behind its
write go in one transaction; a step returns only once its write is durable; a failed write
takes the writes queued behind it along (no gap in the log); shutdown drains them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from bot.game.writes import StepLost
from tests.game.harness import CHAT, HOST, Harness


def _stored_seats(h: Harness, game_id: int) -> list[int]:
    """What another connection sees: only committed rows."""
    assert h.db.path is not None
    conn = sqlite3.connect(h.db.path)
    try:
        return [r[0] for r in conn.execute(
            "SELECT tg_id FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,))]
    finally:
        conn.close()


async def _turns_until(done: Callable[[], bool]) -> None:
    """Let the other tasks run until ``done()`` (a bounded number of loop turns)."""
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


class _Writes:
    """Counts the steps' writes and can hold the next one until released."""

    def __init__(self, h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[int] = []
        self.hold = asyncio.Event()
        self.hold.set()
        self.holding = asyncio.Event()
        self.fail_next = False
        real = h.db.games.append_events_with_messages

        async def write(game_id: int, events: Any, messages: Any, **kw: Any) -> list[int]:
            seating = kw.get("seats")
            self.calls.append(0 if seating is None else len(seating.seats))
            if not self.hold.is_set():
                self.holding.set()
                await self.hold.wait()
            if self.fail_next:
                self.fail_next = False
                raise sqlite3.OperationalError("disk I/O error")
            return await real(game_id, events, messages, **kw)

        monkeypatch.setattr(h.db.games, "append_events_with_messages", write)


async def test_joins_queued_behind_a_write_go_in_one(h: Harness,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    players = await h.players(6)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    writes = _Writes(h, monkeypatch)
    writes.hold.clear()
    first = asyncio.create_task(h.service.join(table.game_id, players[0]))
    await writes.holding.wait()  # the first join's write is under way; its lock is free
    rest = [asyncio.create_task(h.service.join(table.game_id, tg)) for tg in players[1:]]
    await _turns_until(lambda: len(table.seats) == len(players))  # in memory only
    assert not any(t.done() for t in [first, *rest])  # none answered before it is durable
    assert _stored_seats(h, table.game_id) == []
    edited = len([s for s in h.club() if s.edit])
    writes.hold.set()
    await asyncio.gather(first, *rest)
    assert writes.calls == [1, 6]  # the first join alone, then the five others together
    assert _stored_seats(h, table.game_id) == players
    # the lobby's post edited by the first write, then once by the five joins' write
    edits = [s.text for s in h.club() if s.edit][edited:]
    assert len(edits) == 2
    assert "Player1" in edits[0] and "Player2" not in edits[0]
    assert all(f"Player{n}" in edits[1] for n in range(1, len(players) + 1))


async def test_a_step_returns_once_its_write_is_durable(h: Harness) -> None:
    players = await h.players(3)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    seen = {}

    async def join_then_look(tg: int) -> None:
        await h.service.join(table.game_id, tg)
        seen[tg] = _stored_seats(h, table.game_id)

    await asyncio.gather(*(join_then_look(tg) for tg in players))
    assert all(tg in stored for tg, stored in seen.items())


async def test_a_failed_write_fails_the_ones_queued_behind_it(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    players = await h.players(4)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    await h.service.join(table.game_id, players[0])
    writes = _Writes(h, monkeypatch)
    writes.hold.clear()
    writes.fail_next = True
    failing = asyncio.create_task(h.service.join(table.game_id, players[1]))
    await writes.holding.wait()
    behind = asyncio.create_task(h.service.join(table.game_id, players[2]))
    await _turns_until(lambda: len(table.seats) == 3)
    writes.hold.set()
    with pytest.raises(sqlite3.OperationalError):
        await failing
    with pytest.raises(StepLost):
        await behind
    assert _stored_seats(h, table.game_id) == [players[0]]
    # a later step starts a new chain
    await h.service.join(table.game_id, players[3])
    assert _stored_seats(h, table.game_id)[-1] == players[3]


async def test_drain_waits_for_the_queued_writes(h: Harness,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    players = await h.players(2)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    writes = _Writes(h, monkeypatch)
    writes.hold.clear()
    join = asyncio.create_task(h.service.join(table.game_id, players[0]))
    await writes.holding.wait()
    join.cancel()  # the press's handler gone (shutdown): its write goes on
    drained = asyncio.create_task(h.service.steps.writes.drain())
    await asyncio.sleep(0)
    assert not drained.done()
    writes.hold.set()
    await drained
    assert _stored_seats(h, table.game_id) == [players[0]]


class _Commits:
    """Counts the write transactions (each one a commit the step waits for): ``transaction()``
    and ``write()`` (a step's, in one trip)."""

    def __init__(self, h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = h.db.transaction
        real_write = h.db.write

        def transaction(**kw: Any) -> Any:
            self.count += 1
            return real(**kw)

        async def write(body: Any, **kw: Any) -> Any:
            self.count += 1
            return await real_write(body, **kw)

        monkeypatch.setattr(h.db, "transaction", transaction)
        monkeypatch.setattr(h.db, "write", write)


async def test_a_deal_pause_and_resume_are_one_transaction_each(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's presses wait for one commit: the deal's log, storage's copy of the roles,
    the commitment and the status, the cards and the posts go in one transaction (they were
    four, one after the other, under the game's lock); a pause or a resume and its status too."""
    await h.lobby(10)
    commits = _Commits(h, monkeypatch)
    await h.service.deal(CHAT, HOST)
    assert commits.count == 1
    game = await h.db.games.get(h.game_id)
    assert game.status == "running" and game.commitment == h.table.commitment
    assert {s.seat: s.role for s in game.seats} == {p.seat: str(p.role) for p in h.table.game}
    await h.service.start_night(CHAT, HOST)
    commits.count = 0
    await h.service.pause(CHAT, HOST)
    assert commits.count == 1
    assert (await h.db.games.get(h.game_id)).status == "paused"
    await h.service.resume(CHAT, HOST)
    assert commits.count == 2
    assert (await h.db.games.get(h.game_id)).status == "running"
    await h.service.end_game(CHAT, HOST)
    assert commits.count == 3
    assert (await h.db.games.get(h.game_id)).status == "aborted"


async def test_a_panel_press_is_answered_only_once_its_step_is_durable(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's panel, as every press: its answer waits for the step's commit (a crash before
    it must not leave the host told "the night began" of a night that never began), and what
    the step says leaves only after it."""
    await h.dealt(10)
    table = h.table
    writes = _Writes(h, monkeypatch)
    writes.hold.clear()
    sent_before = len(h.sender.sent)
    press = asyncio.create_task(
        h.service.panel.press(h.game_id, HOST, table.moment, "night", ""))
    await writes.holding.wait()
    for _ in range(100):
        await asyncio.sleep(0)
    assert table.stage.value == "night"  # decided in memory
    assert not press.done()  # not answered before its write
    assert "night_start" not in [e.kind for e in await h.db.games.events(h.game_id)]
    assert len(h.sender.sent) == sent_before
    writes.hold.set()
    answer = await asyncio.wait_for(press, 5)
    assert answer is not None
    assert "night_start" in [e.kind for e in await h.db.games.events(h.game_id)]
    await h.service.steps.writes.settled(h.game_id)
    assert len(h.sender.sent) > sent_before  # the prompts leave after the commit


async def test_the_deals_reads_are_one_snapshot(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal reads the club's preset, the seated accounts, the day's first-day kills and
    the friend orders under the game's lock: one snapshot (they were five reads, each queued
    on the reading connection behind the other tables'; one trip to SQLite's reading thread:
    tests/storage/test_snapshot_read.py), and what it read is what it deals."""
    table = await h.lobby(10)
    roles = ["mafia_chief", "mafia", "mafia", "doctor", "policeman", "marilyn", "judge",
             "sportsman", "lucky", "maniac"]  # not the default composition (a lawyer)
    await h.db.clubs.save_preset(CHAT, 10, roles)
    killed = table.tg_of(2)
    await h.db.first_day_killed.mark(CHAT, table.day, killed)
    reads = {"read": 0, "query": 0, "snapshot": 0}
    for name in reads:
        real = getattr(h.db, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            reads[_name] += 1
            return _real(*args, **kw)

        monkeypatch.setattr(h.db, name, counted)
    await h.service.deal(CHAT, HOST)
    assert reads == {"read": 0, "query": 0, "snapshot": 1}
    assert sorted(str(c) for c in table.cards) == sorted(roles)
    assert {str(i) for i in table.game.player(2).open_immunities} == {"first_day_killed"}


async def test_the_stored_seats_follow_joins_leaves_and_reseats(h: Harness) -> None:
    """Each write stores the seats from the first one changed since the last write (a join:
    its own seat only); what is stored is the table's seating after every kind of step."""
    players = await h.players(4)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)

    def in_memory() -> list[int]:
        return [s.tg_id for s in sorted(table.seats.values(), key=lambda s: s.seat)]

    for tg in players:
        await h.service.join(table.game_id, tg)
        assert _stored_seats(h, table.game_id) == in_memory()
    await h.service.leave(table.game_id, players[1])
    assert _stored_seats(h, table.game_id) == in_memory() == [players[0], *players[2:]]
    await h.service.join(table.game_id, players[1])
    await h.service.reseat(CHAT, HOST, "Player4", 1)
    assert _stored_seats(h, table.game_id) == in_memory() == [
        players[3], players[0], players[2], players[1]]
    await h.service.leave(table.game_id, players[1])  # the last seat
    assert _stored_seats(h, table.game_id) == in_memory()

"""A restart rebuilds the whole table: the rebuilt ``Table`` equals the live one field for field
(``Table`` equality leaves out only the process's memory), at moments when the fields a
hand-picked comparison would miss hold something: the offline seats, the host's draw, an open
ask, the fouls' notes and offers, the last words under way, the Lawyers' window."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from engine import FoulReason, Role
from record.table import Stage, Table
from storage.db import Database
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_restart import restart, snapshot
from tests.game.test_service_seats import offline_lobby


def test_a_table_compares_every_field_but_the_process_memory() -> None:
    assert [f.name for f in fields(Table) if not f.compare] == ["memory"]


async def _same_after_restart(h: Harness, db: Database, tmp_path: Path) -> Harness:
    before = snapshot(h.table)
    assert await h.service.restorer.rebuild(h.game_id) == h.table  # the log, at once
    again = await restart(h, db, tmp_path)  # a new process on the same file
    assert snapshot(again.table) == before
    return again


async def test_the_lobby_and_the_fouls_are_rebuilt(h: Harness, db: Database,
                                                   tmp_path: Path) -> None:
    await offline_lobby(h, 8, ("Ghost", "Шмель"))
    await h.service.set_fate_mode(CHAT, HOST, True)
    await h.players(1, first=1200)
    asked = await h.db.players.get(1200)
    assert asked is not None and asked.nickname is not None
    assert (await h.service.add_offline(CHAT, HOST, asked.nickname, None)).key == \
        "seats.ask.sent"
    t = h.table
    assert t.offline and t.fate_by_host and t.asked and t.lobby_posted
    h = await _same_after_restart(h, db, tmp_path)

    await h.service.deal(CHAT, HOST)
    await h.db.clubs.set_fouls(CHAT, limit=2)
    await h.service.foul(CHAT, HOST, 1, FoulReason.GESTURE, "waved")
    await h.service.foul(CHAT, HOST, 1)
    t = h.table
    assert t.foul_notes == {1: "waved"} and t.foul_offers == {2: 2} and t.offline
    h = await _same_after_restart(h, db, tmp_path)
    await h.service.foul_offer(h.game_id, HOST, 2, False)
    assert h.table.foul_offers_closed == {2: "kept"}
    h = await _same_after_restart(h, db, tmp_path)
    await h.db.close()


async def test_the_lawyers_window_and_the_last_words_are_rebuilt(
        h: Harness, db: Database, tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.set_fate_mode(CHAT, HOST, True)
    await h.service.start_vote(CHAT, HOST)  # the game opens with a day
    t = h.table
    lawyer = h.seats_with(Role.LAWYER)[0]
    target = next(s for s in h.civilians() if s != lawyer)
    for voter in list(t.order):
        await h.vote(voter, target if voter != target else lawyer)
    assert t.stage is Stage.CANCEL and t.lawyers == [lawyer] and t.votes and t.fate_by_host
    h = await _same_after_restart(h, db, tmp_path)

    await h.deadlines.advance(21)  # the Lawyers' window closes: the verdict, its last word
    t = h.table
    assert t.stage is Stage.EVENING and t.last_words is not None and t.deadlines == {}
    h = await _same_after_restart(h, db, tmp_path)
    await h.db.close()

"""Whole games over HTTP on PostgreSQL (DATABASE_URL), and the server restarting mid-game."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import Flow, start_app, stop_app, wait_until
from tests.pg_cluster import Cluster

TRY_AGAIN = "перезапускается"  # misc-database_unavailable (ru)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def _finished_and_counted(flow: Flow) -> None:
    db = flow.app.services.db
    table = flow.table if not flow.over else None
    assert table is None
    game = await db.games.get(flow.game_id)
    assert game.status == "finished"
    events = await db.games.events(flow.game_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))  # no gap, no double
    points = await db.stats.game_points(flow.game_id)
    assert len({(r.tg_id, r.reason, r.phase) for r in points}) == len(points)  # once each
    assert sum([await db.ledger.balance(uid) for uid in flow.players]) == \
        sum(r.points for r in points)


async def test_full_game_over_http_on_postgresql(fake: FakeTelegram, tmp_path: Path,
                                                 pg: Cluster) -> None:
    url = await pg.new_database()
    app, task = await start_app(fake, tmp_path, database_url=url)
    try:
        assert app.services.db.backend == "postgresql"
        flow = Flow(fake, app)
        await flow.lobby(10)
        await flow.deal()
        table = flow.table
        await flow.play_to_end()
        await flow.delivered()
        assert engine.verify(table.seed or b"", table.cards, sorted(table.seats),
                             table.commitment or "")
        await _finished_and_counted(flow)
    finally:
        await stop_app(app, task)
    assert not (tmp_path / "mafia.sqlite3").exists()  # nothing went to a SQLite file


async def test_postgresql_restarting_during_a_night(fake: FakeTelegram, tmp_path: Path,
                                                    pg: Cluster) -> None:
    """The server stops during a night: a press meanwhile is answered "try again in a
    moment" and changes nothing; the server comes back; the bot reconnects by itself, the
    same press counts once and the game goes on to its end, nothing lost or counted twice."""
    url = await pg.new_database()
    app, task = await start_app(fake, tmp_path, database_url=url, night_seconds=120)
    try:
        flow = Flow(fake, app)
        await flow.lobby(10)
        await flow.deal()
        await flow.host("/night")
        await wait_until(lambda: flow.table.stage is Stage.NIGHT, 10, "the night")
        await flow.delivered()
        table = flow.table
        seat = next(s for s in engine.night_actors(table.game) if not table.is_picker(s)
                    and engine.legal_targets(table.game, s))
        target = engine.legal_targets(table.game, seat)[0]
        uid, prefix = flow.presser(seat, "n")
        prompt = await flow.prompt(uid, prefix)
        events_before = len(await flow.log_kinds())

        await asyncio.to_thread(pg.stop, "fast")
        try:
            answer = await flow.press(uid, prompt, prefix + str(target))
            assert TRY_AGAIN in answer
            assert seat not in table.choices  # the press changed nothing
        finally:
            await asyncio.to_thread(pg.start)

        answer = await flow.press(uid, prompt, prefix + str(target))
        assert TRY_AGAIN not in answer
        assert table.choices.get(seat) == target
        again = await flow.press(uid, prompt, prefix + str(target))  # a double press
        assert TRY_AGAIN not in again
        assert len(await flow.log_kinds()) > events_before
        await flow.night_rest()
        await flow.play_to_end(night_first=False)
        await flow.delivered()
        await _finished_and_counted(flow)
    finally:
        await stop_app(app, task)

"""A database written by older code opens with today's: the committed file
``tests/fixtures/old-database/mafia.sqlite3`` (made by ``tests/game/old_database.py``, never
re-made by a test) is migrated, its running game restored and played to its end, and every
finished game replayed from its log to exactly the points its ledger holds."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from record.outcome import replay_outcome
from record.table import Stage
from storage.db import Database
from storage.repos.records import VOID_REASON
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import Harness
from views.i18n import Translator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "old-database" / "mafia.sqlite3"


def _balances(path: Path) -> dict[int, int]:
    con = sqlite3.connect(path)
    try:
        return {int(tg): int(points) for tg, points in
                con.execute("SELECT tg_id, sum(points) FROM ledger GROUP BY tg_id")}
    finally:
        con.close()


async def _played_points(db: Database, game_id: int) -> list[tuple[int, int, str, str | None]]:
    """The game's ledger rows of play (a void's reversing rows left out)."""
    return sorted((r.tg_id, r.points, r.reason, r.phase)
                  for r in await db.stats.game_points(game_id) if r.reason != VOID_REASON)


@pytest.fixture
async def old(tmp_path: Path) -> AsyncIterator[Database]:
    """A copy of the file opened by today's code (its migrations run)."""
    copy = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, copy)
    db = await Database.open(copy)
    yield db
    await db.close()


async def _restored(db: Database, translator: Translator, tmp_path: Path) -> Harness:
    [game] = await db.games.running()
    last = (await db.games.events(game.id))[-1].at
    assert last is not None
    h = make_harness(db, FakeClock(last), translator, tmp_path)
    assert await h.service.restore() == [game.id]
    h.game_id = game.id
    return h


async def test_the_old_database_opens_with_its_players_points(old: Database) -> None:
    before = _balances(FIXTURE)
    assert before and any(before.values())
    for tg, points in before.items():
        assert await old.ledger.balance(tg) == points
    games = [await old.games.get(i) for i in range(1, 6)]
    assert [g.status for g in games] == ["finished"] * 4 + ["running"]
    assert [g.friendly for g in games] == [True, False, False, False, False]
    assert [g.voided for g in games] == [False, False, True, False, False]
    [evening] = await old.evenings.live()
    assert len((await old.evenings.get(evening.id) or pytest.fail()).signups) == 3
    assert len(await old.gift_requests.open_all()) == 1


async def test_its_running_game_is_restored_and_played_to_its_end(
        old: Database, translator: Translator, tmp_path: Path) -> None:
    h = await _restored(old, translator, tmp_path)
    t = h.table
    assert t.stage is Stage.NIGHT and t.pending_night()
    # the seats still to choose press their buttons; the Mafia agree on one civilian
    for seat in t.pending_night():
        if t.is_picker(seat):
            if t.mafia_locked:
                continue
            target = h.civilians()[0]
        else:
            target = next(s for s in t.game.alive if s != seat)
        await h.choose(seat, target)
    await h.deadlines.advance(61)
    assert h.over or t.stage is not Stage.NIGHT
    await h.play_to_end(start_with_day=True)
    game = await old.games.get(h.game_id)
    assert game.status == "finished"
    outcome = replay_outcome(game, await old.games.events(game.id))
    assert outcome.winner is not None
    assert list(outcome.points) == await _played_points(old, game.id) != []


async def test_its_finished_games_replay_to_the_points_of_its_ledger(old: Database) -> None:
    replayed = 0
    for game_id in range(1, 5):
        game = await old.games.get(game_id)
        outcome = replay_outcome(game, await old.games.events(game_id))
        assert outcome.winner is not None, game_id
        stored = await _played_points(old, game_id)
        if game.friendly:  # played, and nothing of it was ever counted
            assert stored == [] and outcome.points
            continue
        assert list(outcome.points) == stored != [], game_id
        replayed += 1
    assert replayed == 3
    # the void took game 3's points back: its reversing rows cancel what it paid
    assert sum(r.points for r in await old.stats.game_points(3)) == 0

"""The table rebuilt from the log equals the live one after every step of whole games."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

import engine
from bot.errors import UserError
from record.table import Stage
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_restart import snapshot
from tests.sqlite_template import migrated
from views.i18n import Translator


async def check(h: Harness) -> None:
    if h.over:
        return
    rebuilt = await h.service.restorer.rebuild(h.game_id)
    assert snapshot(rebuilt) == snapshot(h.table)


async def random_night(h: Harness, rng: random.Random) -> None:
    await h.service.start_night(CHAT, HOST)
    await check(h)
    t = h.table
    moment = t.moment
    for _ in range(3 * len(t.seats)):
        if h.over or t.stage is not Stage.NIGHT or t.moment != moment:
            return
        actor = rng.choice(sorted(t.seats))
        target = rng.choice([*sorted(t.seats), 99])
        with contextlib.suppress(UserError):  # legal or not: the service decides
            await h.choose(actor, target)
        await check(h)
        if rng.random() < 0.1:
            await h.deadlines.advance(rng.choice([5, 31, 61]))
            await check(h)
    if not h.over and t.stage is Stage.NIGHT:
        await h.deadlines.advance(61)
        await check(h)


async def random_day(h: Harness, rng: random.Random) -> None:
    await h.service.start_vote(CHAT, HOST)
    await check(h)
    t = h.table
    while not h.over and t.stage in (Stage.VOTE, Stage.FATE, Stage.CANCEL):
        if t.stage is Stage.VOTE and t.current_voter() is not None and rng.random() < 0.8:
            voter = t.current_voter()
            assert voter is not None
            candidates = engine.vote_candidates(t.game, voter) or [voter]
            try:
                await h.vote(voter, rng.choice(candidates))
            except UserError:
                await h.deadlines.advance(61)
        elif t.stage is Stage.CANCEL and t.lawyers and rng.random() < 0.5:
            try:
                await h.service.cancel(h.game_id, h.tg(t.lawyers[0]), t.moment)
            except UserError:
                await h.deadlines.advance(21)
        else:
            await h.deadlines.advance(61)
        await check(h)
        if not h.over and rng.random() < 0.05:
            seat = rng.choice(t.game.alive)
            await h.service.technical_death(CHAT, HOST, seat)
            await check(h)


@pytest.mark.parametrize("seed", range(4))
async def test_replay_equals_live(seed: int, tmp_path: Path, translator: Translator,
                                  fake_clock: FakeClock) -> None:
    rng = random.Random(seed)
    db = await Database.open(migrated(tmp_path / "replay.sqlite3"))
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    h = make_harness(db, fake_clock, translator, tmp_path, seed=seed)
    await h.lobby(rng.choice([6, 9, 12, 16, 20]))
    if seed % 2:
        await h.service.set_fate_mode(CHAT, HOST, True)
    await h.service.deal(CHAT, HOST)
    await check(h)
    night = seed % 3 != 0
    for _ in range(30):
        if h.over:
            break
        await (random_night(h, rng) if night else random_day(h, rng))
        night = not night
    assert h.over
    assert (await db.games.get(h.game_id)).status == "finished"
    await db.close()

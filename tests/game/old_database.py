"""The builder of ``tests/fixtures/old-database/``: a club network's database as the code of
its day wrote it, played by the real game service (the harness the game tests use).

The committed file is what tests read (``tests/game/test_old_database.py``); this module only
re-makes it, on purpose, from the code checked out::

    .venv/bin/python -m tests.game.old_database tests/fixtures/old-database/mafia.sqlite3

See ``tests/fixtures/old-database/README.md`` for what the file holds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engine
from record.table import Stage
from storage.db import Database
from storage.models import EveningChange
from storage.repos.outbox import Queued
from tests.game.conftest import FakeClock, make_harness, packaged_translator
from tests.game.harness import CHAT, HOST, Harness

START = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
ADMIN = 900  # the network's admin of the file (voids the bad game, keeps the gift shop)
SEED = 11


def _nothing(change: EveningChange) -> Sequence[Queued]:
    return ()


async def _vote_day(h: Harness, *, against_mafia: bool) -> None:
    await h.service.start_vote(CHAT, HOST)
    await h.play_vote_rest(against_mafia=against_mafia)


async def _play(h: Harness, *, against_mafia: bool, tech_on_day: int | None = None,
                foul_on_day: int | None = None) -> None:
    """Nights and days to the end; on day ``tech_on_day`` the host removes the first living
    civilian (a technical death); on day ``foul_on_day`` a foul on the first living seat."""
    for day in range(1, 41):
        if h.over:
            return
        await h.play_night(random.Random(day - 1))
        if h.over:
            return
        if day == tech_on_day and h.table.stage is not Stage.OVER:
            await h.service.technical_death(CHAT, HOST, h.civilians()[0])
            if h.over:
                return
        if day == foul_on_day:
            await h.service.foul(CHAT, HOST, h.table.game.alive[0])
        await _vote_day(h, against_mafia=against_mafia)
    raise AssertionError("the game did not end")


async def build(target: Path) -> None:
    db = await Database.open(target)
    try:
        await db.clubs.ensure(CHAT, title="Club", locale="ru")
        clock = FakeClock(START)
        h = make_harness(db, clock, packaged_translator(), target.parent, seed=SEED)

        # 1. a friendly game: the club not approved yet (no ledger rows)
        await h.dealt(6, approved=False)
        await _play(h, against_mafia=True)
        # 2. the club approved; ten players, the town votes the Mafia out, a technical death
        clock.now += timedelta(days=1)
        await h.dealt(10)
        await _play(h, against_mafia=True, tech_on_day=1, foul_on_day=2)
        # 3. eight players, the town votes against itself: the Mafia win
        clock.now += timedelta(days=1)
        await h.dealt(8, first=1011)
        await _play(h, against_mafia=False)
        voided = h.game_id
        # 4. twelve players with a fate mode (the host draws shoot-outs)
        clock.now += timedelta(days=1)
        await h.lobby(12, first=1001)
        await h.service.set_fate_mode(CHAT, HOST, True)
        await h.service.deal(CHAT, HOST)
        await _play(h, against_mafia=True, foul_on_day=1)

        # game 3 voided by the network's admin (its points taken back)
        await db.staff.grant_network_admin(ADMIN, by=0, now=clock())
        await db.voids.void(voided, by=ADMIN, reason="a wrong deal", now=clock())

        # an evening announced for next week, three signed up
        await db.evenings.announce(CHAT, HOST, clock() + timedelta(days=7), "Europe/Moscow",
                                   1, 12, now=clock(), wall=0.0, compose=_nothing)
        [evening] = await db.evenings.live()
        for tg in (1001, 1002, 1003):
            await db.evenings.sign_up(evening.id, tg, now=clock(), wall=0.0, compose=_nothing)

        # the gift shop: a gift and one open request for it
        gift = await db.gifts.add("Mug", 1, 5, admin_id=ADMIN, now=clock())
        balances = {tg: await db.ledger.balance(tg) for tg in range(1001, 1019)}
        rich = max(balances, key=lambda tg: balances[tg])
        await db.gift_requests.ask(rich, gift.id, price=1, card=1, now=clock(),
                                   club_chat_id=CHAT)

        # 5. a game running: one night and one vote played, the second night half chosen
        clock.now += timedelta(days=1)
        await h.dealt(10, first=1001)
        await h.play_night(random.Random(5))
        await _vote_day(h, against_mafia=True)
        assert not h.over
        await h.service.start_night(CHAT, HOST)
        t = h.table
        actors = sorted(engine.night_actors(t.game))
        chosen = [s for s in actors if not t.is_picker(s)][:1]
        for seat in chosen:
            await h.choose(seat, engine.legal_targets(t.game, seat)[0])
        assert t.stage is Stage.NIGHT and t.pending_night()
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path)
    target: Path = parser.parse_args().target
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    asyncio.run(build(target))
    con = sqlite3.connect(target)  # the file as small as it can be: it is committed
    try:
        con.execute("VACUUM")
    finally:
        con.close()


if __name__ == "__main__":
    main()

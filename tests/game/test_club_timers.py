"""A club's own timers (``/settings``) are the ones its games run on, also after a restart."""

from __future__ import annotations

from datetime import timedelta

from record.table import NIGHT_DL, Stage
from tests.game.conftest import TIMERS
from tests.game.harness import CHAT, HOST, Harness


async def test_a_new_game_runs_on_its_clubs_timers(h: Harness) -> None:
    await h.db.clubs.ensure(CHAT, title="Club", locale="ru")
    await h.db.clubs.set_timers(CHAT, night=90, vote_turn=45)
    await h.dealt(10)
    table = h.table
    assert table.timers is not None
    assert (table.timers.night, table.timers.vote_turn) == (90, 45)
    assert table.timers.last_word == TIMERS.last_word  # not set by the club: the bot's own
    now = h.clock()
    await h.service.start_night(CHAT, HOST)
    assert table.stage is Stage.NIGHT
    assert table.deadlines[NIGHT_DL] == now + timedelta(seconds=90)


async def test_a_restored_game_keeps_its_clubs_timers(h: Harness) -> None:
    await h.db.clubs.ensure(CHAT, title="Club", locale="ru")
    await h.db.clubs.set_timers(CHAT, night=75)
    await h.dealt(10)
    rebuilt = await h.service.restorer.rebuild(h.game_id)
    assert rebuilt.timers is not None and rebuilt.timers.night == 75


async def test_without_club_settings_the_bots_timers_hold(h: Harness) -> None:
    await h.dealt(10)
    assert h.table.timers == TIMERS

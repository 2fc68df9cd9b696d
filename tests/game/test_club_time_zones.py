"""The club's own clock: a game is dated on its club's calendar (the club's time zone, else the
network's TIMEZONE), at the day's edges of clubs far from Moscow, so a game played at 01:00 is
dated that day; its points, fines and the players' last game carry that date; and its season
is the one of the day it ended on there."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from storage import Database
from storage.models import Game
from tests.game.conftest import FakeClock, make_harness, packaged_translator
from tests.game.harness import CHAT


async def _played_at(db: Database, tmp_path: Path, at: datetime, *, zone: str | None,
                     network: str) -> Game:
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    await db.clubs.set_status(CHAT, "approved", by=1, now=at, expect=("pending",),
                              time_zone=zone)
    h = make_harness(db, FakeClock(at), packaged_translator(), tmp_path, zone=network)
    await h.dealt(8, newbies=True)
    await h.play_to_end()
    return await db.games.get(h.game_id)


@pytest.mark.parametrize(("at", "zone", "network", "day"), [
    # 00:10 on 1 December in Vladivostok (UTC+10) is still 30 November in UTC and Moscow
    (datetime(2026, 11, 30, 14, 10, tzinfo=UTC), "Asia/Vladivostok", "Europe/Moscow",
     date(2026, 12, 1)),
    # 23:50 on 30 November in Vladivostok: that day, not UTC's
    (datetime(2026, 11, 30, 13, 50, tzinfo=UTC), "Asia/Vladivostok", "Europe/Moscow",
     date(2026, 11, 30)),
    # 21:00 on 30 November in Los Angeles (UTC-8) is 1 December in UTC
    (datetime(2026, 12, 1, 5, 0, tzinfo=UTC), "America/Los_Angeles", "Europe/Moscow",
     date(2026, 11, 30)),
    # a club without a zone of its own: the network's; 01:30 in Moscow is that day
    (datetime(2026, 11, 30, 22, 30, tzinfo=UTC), None, "Europe/Moscow", date(2026, 12, 1)),
    # an unknown zone name falls back to the network's
    (datetime(2026, 11, 30, 22, 30, tzinfo=UTC), "Mars/Olympus", "Europe/Moscow",
     date(2026, 12, 1)),
])
async def test_a_game_is_dated_on_its_clubs_calendar(db: Database, tmp_path: Path,
                                                     at: datetime, zone: str | None,
                                                     network: str, day: date) -> None:
    game = await _played_at(db, tmp_path, at, zone=zone, network=network)
    assert game.status == "finished" and game.finished_on == day
    days = {r[0] for r in await db.query(
        "SELECT DISTINCT day FROM ledger WHERE game_id = ?", (game.id,))}
    assert days == {day.isoformat()}
    for seat in game.seats:
        player = await db.players.get(seat.tg_id)
        assert player is not None and player.last_game_date == day


@pytest.mark.parametrize(("end", "season"), [
    # 23:59 on 31 March in Vladivostok (UTC+10): the first quarter's last day there
    (datetime(2026, 3, 31, 13, 59, tzinfo=UTC), "2026-01-01"),
    # 00:00 on 1 April in Vladivostok, though still 31 March (17:00) in Moscow: the next season
    (datetime(2026, 3, 31, 14, 0, tzinfo=UTC), "2026-04-01"),
])
async def test_a_game_belongs_to_the_season_of_its_end_on_its_clubs_calendar(
        db: Database, tmp_path: Path, end: datetime, season: str) -> None:
    start = datetime(2026, 3, 31, 12, 0, tzinfo=UTC)  # 22:00 on 31 March in Vladivostok
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    await db.clubs.set_status(CHAT, "approved", by=1, now=start, expect=("pending",),
                              time_zone="Asia/Vladivostok")
    clock = FakeClock(start)
    h = make_harness(db, clock, packaged_translator(), tmp_path, zone="Europe/Moscow")
    await h.dealt(8, newbies=True)
    clock.now = end
    await h.play_to_end()
    game = await db.games.get(h.game_id)
    assert game.status == "finished" and game.finished_on == date(2026, 3, 31)  # its start's
    rows = await db.query("SELECT ended_on, season FROM game_outcomes WHERE game_id = ?",
                          (game.id,))
    assert [(str(r[0]), str(r[1])) for r in rows] == [(end.astimezone(
        ZoneInfo("Asia/Vladivostok")).date().isoformat(), season)]
    seated = {s.tg_id for s in game.seats}
    rated = {int(r[0]) for r in await db.query(
        "SELECT tg_id FROM season_ratings WHERE season = ?", (season,))}
    assert rated == seated
    other = "2026-04-01" if season == "2026-01-01" else "2026-01-01"
    assert await db.seasons.by_points(season) and await db.seasons.by_points(other) == []

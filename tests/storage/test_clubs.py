from __future__ import annotations

from datetime import date

import pytest

from storage import Database, InvalidValue, UnknownClub
from tests.present import present
from tests.storage.conftest import CLUB, NOW


async def test_ensure_get_and_locale(db: Database) -> None:
    assert await db.clubs.get(CLUB) is None
    club = await db.clubs.ensure(CLUB, title="Мафия", locale="ru")
    assert (club.chat_id, club.title, club.locale, club.timers) == (CLUB, "Мафия", "ru", {})
    again = await db.clubs.ensure(CLUB, title="Мафия 2", locale="en")
    assert (again.title, again.locale) == ("Мафия 2", "ru")  # locale kept
    assert (await db.clubs.set_locale(CLUB, "en")).locale == "en"
    assert await db.clubs.get(CLUB) == await db.clubs.ensure(CLUB, title="Мафия 2", locale="ru")
    with pytest.raises(InvalidValue):
        await db.clubs.set_locale(CLUB, "")


async def test_timers(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    assert (await db.clubs.set_timers(CLUB, night=90, vote_turn=45)).timers == {
        "night": 90, "vote_turn": 45}
    assert (await db.clubs.set_timers(CLUB, night=60)).timers == {"night": 60, "vote_turn": 45}
    for bad in (0, -5, True):
        with pytest.raises(InvalidValue):
            await db.clubs.set_timers(CLUB, night=bad)
    assert present(await db.clubs.get(CLUB)).timers["night"] == 60


async def test_presets(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    assert await db.clubs.preset(CLUB, 3) is None
    await db.clubs.save_preset(CLUB, 3, ["mafia", "doctor", "civilian"])
    await db.clubs.save_preset(CLUB, 3, ["mafia", "civilian", "civilian"])
    assert await db.clubs.preset(CLUB, 3) == ["mafia", "civilian", "civilian"]
    with pytest.raises(InvalidValue):
        await db.clubs.save_preset(CLUB, 4, ["mafia"])
    with pytest.raises(InvalidValue):
        await db.clubs.save_preset(CLUB, 1, [""])


async def test_unknown_club(db: Database) -> None:
    for call in (
        db.clubs.set_locale(1, "ru"),
        db.clubs.set_timers(1, night=5),
        db.staff.grant_host(1, 2, by=3, now=NOW),
        db.staff.hosts(1),
        db.clubs.save_preset(1, 1, ["mafia"]),
        db.clubs.preset(1, 1),
        db.first_day_killed.mark(1, date(2026, 1, 1), 2),
    ):
        with pytest.raises(UnknownClub) as err:
            await call
        assert err.value.chat_id == 1
    assert not await db.staff.revoke_host(1, 2, by=3, now=NOW)  # nobody to revoke: no line
    assert await db.admin_log.recent() == []


async def test_fate_preference(db: Database) -> None:
    club = await db.clubs.ensure(CLUB, title="C", locale="ru")
    assert club.fate_by_host is False
    assert (await db.clubs.set_fate_by_host(CLUB, True)).fate_by_host is True
    stored = await db.clubs.get(CLUB)
    assert stored is not None and stored.fate_by_host is True
    assert (await db.clubs.set_fate_by_host(CLUB, False)).fate_by_host is False
    with pytest.raises(UnknownClub):
        await db.clubs.set_fate_by_host(CLUB + 1, True)


async def test_move_chat_carries_everything_in_one_step(db: Database) -> None:
    new = -1009999
    await db.clubs.ensure(CLUB, title="Group", locale="en")
    await db.clubs.set_timers(CLUB, night=90)
    await db.clubs.set_fate_by_host(CLUB, True)
    await db.clubs.set_fouls(CLUB, points=2, limit=3, public=True)
    await db.staff.grant_host(CLUB, 5, by=1, now=NOW)
    await db.clubs.save_preset(CLUB, 2, ["civilian", "mafia"])
    game_id = await db.games.create(CLUB, host_id=5, created_at=NOW)
    await db.first_day_killed.mark(CLUB, date(2026, 3, 10), 7)
    # the first update from the supergroup already created a club with defaults
    await db.clubs.ensure(new, title="Supergroup", locale="ru")

    moved = await db.clubs.move_chat(CLUB, new)
    assert moved is not None
    assert (moved.chat_id, moved.title, moved.locale, moved.timers, moved.fate_by_host) == (
        new, "Supergroup", "en", {"night": 90}, True)
    assert (moved.foul_points, moved.foul_limit, moved.foul_public) == (2, 3, True)
    assert await db.clubs.get(CLUB) is None
    assert await db.staff.hosts(new) == [5]
    assert await db.clubs.preset(new, 2) == ["civilian", "mafia"]
    assert (await db.games.get(game_id)).club_chat_id == new
    assert await db.first_day_killed.has(new, date(2026, 3, 10), 7)
    assert not await db.first_day_killed.has(CLUB, date(2026, 3, 10), 7)
    # a second notice of the same migration changes nothing
    assert await db.clubs.move_chat(CLUB, new) is None
    assert (await db.games.get(game_id)).club_chat_id == new


async def test_foul_settings(db: Database) -> None:
    """What a foul costs, from which foul the host is offered the technical death, whether the
    club hears of each foul: a new club fines nothing, offers at the 4th foul, says nothing."""
    club = await db.clubs.ensure(CLUB, title="C", locale="ru")
    assert (club.foul_points, club.foul_limit, club.foul_public) == (0, 4, False)
    club = await db.clubs.set_fouls(CLUB, points=3)
    assert (club.foul_points, club.foul_limit, club.foul_public) == (3, 4, False)
    club = await db.clubs.set_fouls(CLUB, limit=0, public=True)
    assert (club.foul_points, club.foul_limit, club.foul_public) == (3, 0, True)
    for bad in ({"points": -1}, {"points": 1001}, {"limit": 21}, {"limit": True},
                {"points": 1.5}):
        with pytest.raises(InvalidValue):
            await db.clubs.set_fouls(CLUB, **bad)
    assert await db.clubs.get(CLUB) == club
    assert await db.clubs.cached(CLUB) == club
    with pytest.raises(UnknownClub):
        await db.clubs.set_fouls(-1, points=1)


async def test_a_fine_changed_by_someone_is_in_the_admin_log(db: Database) -> None:
    await db.clubs.ensure(CLUB, title="C", locale="ru")
    await db.clubs.set_fouls(CLUB, points=3, by=7, now=NOW)
    await db.clubs.set_fouls(CLUB, points=3, by=7, now=NOW)  # the same fine: nothing to log
    await db.clubs.set_fouls(CLUB, limit=2, by=7, now=NOW)  # not the fine
    await db.clubs.set_fouls(CLUB, points=5, by=8, now=NOW)
    log = [(e.admin_id, e.action, e.details) for e in reversed(await db.admin_log.recent())]
    assert log == [(7, "club_fine", f"club={CLUB} 0 -> 3"), (8, "club_fine", f"club={CLUB} 3 -> 5")]
    with pytest.raises(ValueError):
        await db.clubs.set_fouls(CLUB, points=1, by=7)  # who, but not when
    assert present(await db.clubs.get(CLUB)).foul_points == 5

"""Several processes on one PostgreSQL (bot/cluster/): every table of a club lives on the one
process that holds the club. Both tables' commands, lobby presses and deep links reach that
holder, the other process has none of them, and when the holder stops the other takes the club
over with both tables restored from their logs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App
from bot.game.service import GameService
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import HOST, start_app, stop_app, wait_until
from tests.pg_cluster import Cluster

CLUBS = (-100_910, -100_920)
HOST2 = 801  # administrator of the clubs: hosts the second table
PLAYERS = (5_101, 5_102)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def games_of(app: App) -> GameService:
    games = app.container.games
    assert isinstance(games, GameService)
    return games


def tables_in(app: App, club: int) -> dict[int, int]:
    """The club's tables this process runs: number -> game."""
    return {t.number: g for g, t in games_of(app).tables.items() if t.chat_id == club}


def held(app: App) -> set[int]:
    assert app.sharing is not None
    return app.sharing.held


async def test_a_clubs_tables_all_live_on_its_holder(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    url = await pg.new_database()
    for uid, name in ((HOST, "Host"), (HOST2, "Hostess"), *((p, f"P{p}") for p in PLAYERS)):
        fake.user(uid, name, language_code="en")
    for club in CLUBS:
        fake.group(club, "Club")
        fake.set_admins(club, [HOST2])
    first, first_task = await start_app(fake, tmp_path / "a", database_url=url)
    second = None
    try:
        db = first.services.db
        for club in CLUBS:
            await db.clubs.ensure(club, title="Club", locale="en")
        for uid in PLAYERS:
            await db.players.register(uid, display_name=f"P{uid}", language="en")
            await db.players.set_nickname(uid, f"P{uid}")
        await wait_until(lambda: held(first) == set(CLUBS), 10, "the lone one holds both")
        second, second_task = await start_app(fake, tmp_path / "b", database_url=url)
        await wait_until(lambda: len(held(first)) == 1 and len(held(second)) == 1, 15,
                         "one club each")
        club = CLUBS[0]
        holder, other = (first, second) if club in held(first) else (second, first)
        # two hosts open two tables in the one club chat
        await fake.send(HOST, "/newgame", chat_id=club)
        await wait_until(lambda: len(tables_in(holder, club)) == 1, 15, "table 1")
        await fake.send(HOST2, "/newgame", chat_id=club)
        await wait_until(lambda: len(tables_in(holder, club)) == 2, 15, "table 2")
        one, two = tables_in(holder, club)[1], tables_in(holder, club)[2]
        assert tables_in(other, club) == {}
        # a lobby press and a private deep link: both reach the club's holder
        await fake.wait_for(lambda: sum(1 for m in fake.messages(club) if m.buttons()) == 2,
                            15, "both lobbies (sent by the outbox's sender)")
        lobby = next(m for m in fake.messages(club)
                     if any(d == f"gl:{one}:join" for _, d in m.buttons()))
        await fake.press(PLAYERS[0], lobby, f"gl:{one}:join")
        await fake.send(PLAYERS[1], f"/start join_{two}")
        tables = games_of(holder).tables
        await wait_until(lambda: tables[one].seat_of(PLAYERS[0]) == 1
                         and tables[two].seat_of(PLAYERS[1]) == 1, 15, "both seats taken")
        # table 2's host's typed command in the club chat reaches table 2, on the holder
        await fake.send(HOST2, "/unseat P5102", chat_id=club)
        await wait_until(lambda: tables[two].seat_of(PLAYERS[1]) is None, 15, "the unseat")
        assert tables[one].seat_of(PLAYERS[0]) == 1
        assert tables_in(other, club) == {}
        # the holder stops: the other one takes the club over with both its tables
        await stop_app(holder, first_task if holder is first else second_task)
        await wait_until(lambda: len(tables_in(other, club)) == 2, 15, "the club taken over")
        restored = games_of(other).tables
        assert tables_in(other, club) == {1: one, 2: two}
        assert restored[one].host_id == HOST and restored[two].host_id == HOST2
        assert restored[one].named and restored[two].named
        assert restored[one].seat_of(PLAYERS[0]) == 1
    finally:
        for app, task in ((second, second_task if second is not None else None),
                          (first, first_task)):
            if app is not None and task is not None and not app.stopping.is_set():
                await stop_app(app, task)

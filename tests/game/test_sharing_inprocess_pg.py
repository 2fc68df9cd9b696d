"""Two applications on one PostgreSQL in one test process (bot/cluster/sharing.py): the clubs are
shared out, each club's game lives in the one that holds the club, a press reaches it, and when
that one stops the other takes the club over with its game restored from the log."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App
from bot.game.service import GameService
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import HOST, start_app, stop_app, wait_until
from tests.pg_cluster import Cluster

CLUBS = (-100_810, -100_820)
PLAYER = 5_001


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def games_of(app: App) -> GameService:
    games = app.container.games
    assert isinstance(games, GameService)
    return games


def tables_in(app: App, club: int) -> list[int]:
    return [g for g, t in games_of(app).tables.items() if t.chat_id == club]


def held(app: App) -> set[int]:
    assert app.sharing is not None
    return app.sharing.held


async def test_clubs_shared_out_and_taken_over_with_their_games(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    url = await pg.new_database()
    fake.user(HOST, "Host", language_code="en")
    fake.user(PLAYER, "Pat", language_code="en")
    for club in CLUBS:
        fake.group(club, "Club")
    first, first_task = await start_app(fake, tmp_path / "a", database_url=url)
    second = None
    try:
        db = first.services.db
        for club in CLUBS:
            await db.clubs.ensure(club, title="Club", locale="en")
        await db.players.register(PLAYER, display_name="Pat", language="en")
        await db.players.set_nickname(PLAYER, "Pat")
        await wait_until(lambda: held(first) == set(CLUBS), 10, "the lone one holds both")
        second, second_task = await start_app(fake, tmp_path / "b", database_url=url)
        await wait_until(lambda: len(held(first)) == 1 and len(held(second)) == 1, 15,
                         "one club each")
        apps = {club: first if club in held(first) else second for club in CLUBS}
        for club in CLUBS:
            await fake.send(HOST, "/newgame", chat_id=club)
        await wait_until(lambda: all(tables_in(apps[c], c) for c in CLUBS), 15, "two lobbies")
        for club in CLUBS:  # each game lives only where its club is held
            other = second if apps[club] is first else first
            assert tables_in(other, club) == []
        club = CLUBS[0]
        game_id = tables_in(apps[club], club)[0]
        await fake.wait_for(lambda: any(m.buttons() for m in fake.messages(club)), 15,
                            "the lobby's post (sent by the outbox's sender)")
        lobby = next(m for m in reversed(fake.messages(club)) if m.buttons())
        await fake.press(PLAYER, lobby, f"gl:{game_id}:join")  # handled by the holder
        await wait_until(lambda: games_of(apps[club]).tables[game_id].seat_of(PLAYER)
                         is not None, 10, "the seat taken")

        holder, heir = apps[club], (second if apps[club] is first else first)
        await stop_app(holder, first_task if holder is first else second_task)
        await wait_until(lambda: game_id in games_of(heir).tables, 10, "the club taken over")
        assert club in held(heir)
        table = games_of(heir).tables[game_id]  # restored from its log
        assert table.seat_of(PLAYER) is not None
        assert set(CLUBS) <= held(heir)
    finally:
        if second is not None and not second.stopping.is_set():
            await stop_app(second, second_task)
        if not first.stopping.is_set():
            await stop_app(first, first_task)


async def test_two_deployments_on_one_server_each_run_their_club_of_one_chat_id(
    tmp_path: Path, pg: Cluster
) -> None:
    """Two deployments (two bots, two databases of one server: a staging beside a production)
    whose clubs have the same chat id: each takes its own club, and a /newgame in each opens
    its lobby there. Advisory locks are per database; a deployment reading the server's
    pg_locks whole would count the other's club as held and never claim its update."""
    club = CLUBS[0]
    async with FakeTelegram() as staging_tg, FakeTelegram() as production_tg:
        for fake in (staging_tg, production_tg):
            fake.user(HOST, "Host", language_code="en")
            fake.group(club, "Club")
        deployments = []
        try:
            for name, fake in (("staging", staging_tg), ("production", production_tg)):
                url = await pg.new_database()
                app, task = await start_app(fake, tmp_path / name, database_url=url)
                deployments.append((app, task))
                await app.services.db.clubs.ensure(club, title="Club", locale="en")
            for app, _ in deployments:
                await wait_until(lambda app=app: held(app) == {club}, 10,
                                 "each deployment holds its own club")
                assert app.sharing is not None
                assert await app.sharing.conn.members() == 1
            for fake in (staging_tg, production_tg):
                await fake.send(HOST, "/newgame", chat_id=club)
            for (app, _), fake in zip(deployments, (staging_tg, production_tg), strict=True):
                await wait_until(lambda app=app: bool(tables_in(app, club)), 15,
                                 "a lobby in each deployment")
                await fake.wait_for(lambda fake=fake: any(m.buttons()
                                                          for m in fake.messages(club)),
                                    15, "the lobby's post in each deployment's chat")
        finally:
            for app, task in reversed(deployments):
                if not app.stopping.is_set():
                    await stop_app(app, task)

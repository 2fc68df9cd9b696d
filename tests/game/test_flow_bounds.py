"""What a long-running process keeps per game and per club chat is dropped once the game is
over and the chat is quiet: the games' step locks, the clubs' lobby-opening locks, the club
chat's table turns in the sender (bot/locks.py, bot/delivery/worker.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, running, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_a_game_s_and_a_chat_s_locks_go_with_the_game(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.delivery.worker

    monkeypatch.setattr(bot.delivery.worker, "LANES_KEPT", 1)  # (32: more than ever play)
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        delivery = app.services.delivery
        steps = flow.games.steps
        for game in range(3):  # three games in a row in one club chat, each ended by the host
            if game == 0:
                await flow.lobby(4)
            else:
                await flow.host("/newgame")
                await wait_until(lambda: bool(flow.games.tables), 10, "a new lobby")
            await flow.host("/endgame")
            await wait_until(lambda: not flow.games.tables, 10, "the game ended")
            await flow.delivered()
        assert len(steps.locks) == 0  # no step lock kept for the three games
        assert len(flow.games.lobby.opening) == 0  # nor the club's opening lock
        # the club chat's tables' turns: the latest game's only, not one for every game
        assert len(delivery._turns[CLUB]) == 1


def test_a_club_chat_keeps_the_turns_of_its_latest_tables_only() -> None:
    """Each table of a club chat is a lane of its queue; the turn each last had is kept for
    the newest LANES_KEPT lanes: an ended game's lane, its turn longest ago, goes."""
    from bot.delivery.worker import LANES_KEPT, Delivery

    delivery = Delivery(None, None)  # type: ignore[arg-type]  # (only the turns are used)
    for game in range(1, 3 * LANES_KEPT + 1):
        delivery._take_turn(CLUB, game)
        delivery._take_turn(CLUB, None)  # the chat's own rows (the club's notices)
    turns = delivery._turns[CLUB]
    assert len(turns) == LANES_KEPT
    assert set(turns) == {None, *range(2 * LANES_KEPT + 2, 3 * LANES_KEPT + 1)}

"""Which locks a lobby's steps take (bot/game/rooms/lobby.py): one club's /newgame, which writes its
game's row, holds up no other club; two /newgame in one club at once open one game; a player
pressing "I play" at two tables at once is seated at one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.game.harness import CHAT, HOST, Harness

OTHER_CHAT = CHAT - 1
STUCK_S = 10  # only against a deadlock: the join needs no more than its own write


async def test_a_join_does_not_wait_for_another_clubs_opening(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    players = await h.players(2)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    release, creating = asyncio.Event(), asyncio.Event()
    real = h.db.games.create

    async def held_create(*args: Any, **kwargs: Any) -> int:
        creating.set()
        await release.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(h.db.games, "create", held_create)
    opening = asyncio.create_task(h.service.open_lobby(OTHER_CHAT, "Other", HOST,
                                                       is_admin=False))
    await creating.wait()  # the other club's opening is writing its game's row
    answer = await asyncio.wait_for(h.service.join(table.game_id, players[0]), STUCK_S)
    assert answer.key == "game.join.ok"
    assert not opening.done()
    release.set()
    other = await opening
    assert (await h.service.join(other.game_id, players[1])).key == "game.join.ok"


async def test_two_openings_in_one_club_at_once_open_one_game(h: Harness) -> None:
    outcomes = await asyncio.gather(
        *(h.service.open_lobby(CHAT, "Club", HOST, is_admin=False) for _ in range(2)),
        return_exceptions=True)
    opened = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [getattr(o, "key", o) for o in outcomes if isinstance(o, BaseException)]
    assert len(opened) == 1
    assert refused == ["game.already_open"]
    assert [t.game_id for t in h.service.registry.by_id.values() if t.chat_id == CHAT] == [
        opened[0].game_id]


async def test_one_player_at_two_tables_at_once_is_seated_at_one(h: Harness) -> None:
    (player,) = await h.players(1)
    first = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    second = await h.service.open_lobby(OTHER_CHAT, "Other", HOST + 1, is_admin=True)
    outcomes = await asyncio.gather(h.service.join(first.game_id, player),
                                    h.service.join(second.game_id, player),
                                    return_exceptions=True)
    refused = [getattr(o, "key", o) for o in outcomes if isinstance(o, BaseException)]
    assert refused == ["game.join.other_game"]
    seated = [t.game_id for t in (first, second) if t.seat_of(player) is not None]
    assert len(seated) == 1

"""Lobbies that end: a lobby nobody dealt closes after the network's time (``LOBBY_TTL_MINUTES``,
re-armed from the game's row after a restart) and when its host leaves the chat; its seats are
free again. A dealt game is never touched by either."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from storage.db import Database
from storage.models import STATUS_ABORTED, STATUS_LOBBY
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness, approve_club
from views.i18n import Translator

TTL = 3 * 3600.0
OTHER_CHAT = CHAT - 50


@pytest.fixture
async def h(db: Database, fake_clock: FakeClock, translator: Translator,
            tmp_path: Path) -> AsyncIterator[Harness]:
    """The game layer whose lobbies nobody dealt close after ``TTL``."""
    harness = make_harness(db, fake_clock, translator, tmp_path, lobby_ttl=TTL)
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    yield harness


async def other_lobby(h: Harness) -> int:
    await approve_club(h.db, OTHER_CHAT)
    table = await h.service.open_lobby(OTHER_CHAT, "Other", HOST + 1, is_admin=True)
    return table.game_id


async def test_a_lobby_nobody_dealt_closes_after_its_time(h: Harness) -> None:
    await h.lobby(7)
    game_id = h.game_id
    await h.deadlines.advance(TTL - 60)
    assert game_id in h.service.tables  # not yet
    await h.deadlines.advance(60)
    assert game_id not in h.service.tables
    game = await h.db.games.get(game_id)
    assert game.status == STATUS_ABORTED
    closed = [s for s in h.club() if s.edit][-1]
    assert "набор закрыт" in closed.text and "3 часа" in closed.text
    assert not h.buttons(closed)
    assert "набор закрыт" in h.private(HOST)[-1].text
    # its seats are free: a player joins another table at once, the host opens a new one
    other = await other_lobby(h)
    assert (await h.service.join(other, 1001)).key == "game.join.ok"
    assert (await h.service.open_lobby(CHAT, "Club", HOST, is_admin=True)).game_id != game_id


async def test_a_dealt_game_is_not_closed_by_the_lobbys_time(h: Harness) -> None:
    await h.dealt(10)
    await h.deadlines.advance(TTL + 60)
    assert h.game_id in h.service.tables and h.table.started
    assert (await h.db.games.get(h.game_id)).status != STATUS_ABORTED


async def test_the_lobbys_time_survives_a_restart(h: Harness, db: Database,
                                                  fake_clock: FakeClock, translator: Translator,
                                                  tmp_path: Path) -> None:
    await h.lobby(7)
    await h.deadlines.advance(TTL / 2)
    assert db.path is not None
    again = await Database.open(db.path)
    h2 = make_harness(again, fake_clock, translator, tmp_path, lobby_ttl=TTL)
    h2.game_id = h.game_id
    # down for the rest of its time and more: it closes as soon as the bot is back
    fake_clock.now = (await db.games.get(h.game_id)).created_at + timedelta(seconds=TTL + 600)
    await h2.service.restore()
    assert h.game_id in h2.service.tables
    await h2.deadlines.advance(0)
    assert h.game_id not in h2.service.tables
    assert (await again.games.get(h.game_id)).status == STATUS_ABORTED


async def test_the_lobby_closes_when_its_host_leaves_the_chat(h: Harness) -> None:
    await h.lobby(7)
    asked = (await h.players(1, first=1050))[0]
    await h.service.add_offline(CHAT, HOST, "Player50", None)
    # somebody else leaving, or the host leaving another chat: nothing happens
    await h.service.host_left(CHAT, 1001)
    await h.service.host_left(OTHER_CHAT, HOST)
    assert (await h.db.games.get(h.game_id)).status == STATUS_LOBBY
    await h.service.host_left(CHAT, HOST)
    assert h.game_id not in h.service.tables
    assert (await h.db.games.get(h.game_id)).status == STATUS_ABORTED
    assert "ведущий вышел из чата" in [s for s in h.club() if s.edit][-1].text
    # the open question ends with it
    assert "закрыт" in [s for s in h.private(asked) if s.edit][-1].text
    assert await h.refused(h.service.consent(h.game_id, asked, True)) == "seats.ask.closed"
    other = await other_lobby(h)
    assert (await h.service.join(other, 1001)).key == "game.join.ok"


async def test_a_dealt_game_goes_on_when_its_host_leaves(h: Harness) -> None:
    await h.dealt(10)
    await h.service.host_left(CHAT, HOST)
    assert h.game_id in h.service.tables and h.table.started

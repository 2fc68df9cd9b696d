"""/status from a member does not write to the host; /tech with a seat that does not exist;
lobby popups in the presser's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, running, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_member_status_and_bad_seat(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        await flow.start("/night", Stage.NIGHT)
        host_before = len(fake.messages(HOST))
        member = flow.players[0]
        status = await flow.host_says_as(member, "/status", "Game #")
        assert "night" in status
        assert len(fake.messages(HOST)) == host_before  # nothing was sent to the host
        await flow.host("/tech 99")  # a discipline command's refusal: to the host in private
        await wait_until(lambda: any(m.body == "There is no seat 99: the table has 10 players."
                                     for m in fake.messages(HOST)[host_before:]), 10, "seat 99")
        host_before = len(fake.messages(HOST))
        assert all(flow.table.game.player(s).alive for s in flow.table.seats)
        await flow.host_says("/status", "Game #")
        # the host's own /status still tells who is to choose
        await wait_until(lambda: any("Still to choose" in m.body
                                     for m in fake.messages(HOST)[host_before:]), 5, "the note")


async def test_lobby_popup_in_the_pressers_language(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path) as app:
        flow = Flow(fake, app, "ru")  # the club chat stays Russian
        await flow.lobby(4)
        english = 4999
        fake.user(english, "Eve", language_code="en")
        await fake.send(english, "/start")
        await fake.next_message(english)
        await fake.send(english, "/nick Evening")
        await fake.next_message(english)
        lobby = await flow.prompt(CLUB, "gl:")
        data = f"gl:{flow.game_id}:join"
        assert (await flow.press(english, lobby, data)).startswith("You are at the table")
        assert (await flow.press(english, lobby, data)).startswith(
            "You are already at the table")
        russian = flow.players[0]
        assert (await flow.press(russian, lobby, data)).startswith("Вы уже за столом")

"""``/addseat`` of a Telegram player over HTTP: the player is asked in private, "Yes, seat me"
seats them (the host plays the seat), "No" leaves the seat empty, and the deal goes on
without a player who did not answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import HOST, Flow, start_app, stop_app, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_a_telegram_player_is_seated_only_after_saying_yes(fake: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        await flow.lobby(7)
        yes, no, silent = await flow.register(3, first=4001, nick="Guest")
        answer = await flow.host_says("/addseat Guest1", "вопрос игроку Guest1")
        assert "место №8 ждёт подтверждения" in answer
        ask = await flow.prompt(yes, "gy:")
        assert "хочет посадить вас за стол" in ask.body
        assert flow.table.seat_of(yes) is None  # asked, not seated
        # somebody else pressing the asked player's button: refused, nothing changes
        assert "закрыт" in await flow.press(no, ask, f"gy:{flow.game_id}:1")
        assert flow.table.seat_of(no) is None
        assert "за вас нажимает ведущий" in await flow.press(yes, ask, f"gy:{flow.game_id}:1")
        assert flow.table.seat_of(yes) == 8 and flow.table.is_offline(8)

        await flow.host_says("/addseat Guest2", "вопрос игроку Guest2")
        ask = await flow.prompt(no, "gy:")
        assert "не посадят" in await flow.press(no, ask, f"gy:{flow.game_id}:0")
        await fake.wait_for(lambda: any("ответ «нет»" in m.body for m in fake.messages(HOST)),
                            10, "the host told of the refusal")
        assert flow.table.seat_of(no) is None

        await flow.host_says("/addseat Guest3", "вопрос игроку Guest3")
        await flow.prompt(silent, "gy:")
        await flow.host("/deal")
        await wait_until(lambda: flow.table.started, 10, "the deal")
        assert sorted(s.tg_id for s in flow.table.seats.values()) == sorted(
            [*flow.players[:7], yes])
        await fake.wait_for(lambda: any("ответа до раздачи не было" in m.body
                                        for m in fake.messages(HOST)), 10, "the host told")
        stored = await app.services.db.games.get(flow.game_id)
        assert silent not in [s.tg_id for s in stored.seats]
        assert no not in [s.tg_id for s in stored.seats]
    finally:
        await stop_app(app, task)

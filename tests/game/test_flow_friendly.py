"""A pending group plays a whole game over HTTP: a friendly game. The lobby and the end say
that no points are counted, the ledger gets no row, nobody's games played or last game moves,
and a Telegram player the host names is asked before being seated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from storage.models import CLUB_PENDING
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, free_port, start_app, stop_app


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_a_pending_group_plays_a_friendly_game(fake: FakeTelegram,
                                                    tmp_path: Path) -> None:
    port = free_port()
    app, task = await start_app(fake, tmp_path, web_port=port, web_host="127.0.0.1")
    try:
        flow = Flow(fake, app, "ru", approved=False)
        db = app.services.db
        await flow.lobby(9)
        club = await db.clubs.get(CLUB)
        assert club is not None and club.status == CLUB_PENDING
        await fake.wait_for(lambda: any("Товарищеская игра" in t for t in flow.club_texts()),
                            10, "the lobby saying friendly")
        # a real player named by the host is asked, not seated
        (asked,) = await flow.register(1, first=4001, nick="Guest")
        flow.players.remove(asked)  # not at the table
        await flow.host_says("/addseat Guest1", "вопрос игроку Guest1")
        ask = await flow.prompt(asked, "gy:")
        assert "товарищеская игра" in ask.body
        assert flow.table.seat_of(asked) is None
        before = {uid: await db.players.get(uid) for uid in flow.players}
        await flow.deal()  # nobody answered: dealt without that seat
        assert len(flow.table.seats) == 9 and flow.table.seat_of(asked) is None
        await flow.play_to_end()
        await flow.delivered()
        game = await db.games.get(flow.game_id)
        assert game.status == "finished" and game.friendly
        assert (await db.query("SELECT count(*) FROM ledger"))[0][0] == 0
        for uid, player in before.items():
            after = await db.players.get(uid)
            assert player is not None and after is not None
            assert (after.games_played, after.last_game_date) == (
                player.games_played, player.last_game_date)
        texts = flow.club_texts()
        end = next(i for i, t in enumerate(texts) if "🏁" in t)
        assert any("Товарищеская игра" in t and "баллы не начислены" in t
                   for t in texts[end:])
        assert not any("Баллы за игру" in t for t in texts[end:])
        # its page says so, and no list of games holds it
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            async with http.get(f"{base}/game/{flow.game_id}?lang=ru") as response:
                assert response.status == 200
                page = await response.text()
        assert 'id="friendly"' in page and "Товарищеская игра" in page
        assert await db.stats.finished_games(CLUB) == []
    finally:
        await stop_app(app, task)

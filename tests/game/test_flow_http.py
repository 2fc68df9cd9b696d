"""Whole games over HTTP: the real bot polling the fake Bot API server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from tests.fakes.telegram_server import FakeTelegram
from tests.game.conftest import packaged_translator
from tests.game.flow import CLUB, WEBHOOK_SECRET, Flow, start_app, stop_app
from tests.game.harness import role_names


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.mark.soak
@pytest.mark.parametrize(("size", "lang", "mode"), [
    (10, "ru", "polling"), (16, "ru", "polling"), (10, "en", "polling"), (16, "en", "polling"),
    (10, "ru", "webhook"), (16, "en", "webhook"),
])
async def test_full_game_over_http(fake: FakeTelegram, tmp_path: Path, size: int,
                                   lang: str, mode: str) -> None:
    """Soak test (16 players: about 20 s): a whole game of up to 16 players, each of its
    hundreds of sends and presses a round trip through the fake Bot API and the bot's polling
    (or webhook)."""
    app, task = await start_app(fake, tmp_path, mode=mode, default_locale=lang)
    try:
        flow = Flow(fake, app, lang)
        await flow.lobby(size)
        await flow.deal()
        table = flow.table
        # every card is private and protected from forwarding
        for uid in flow.players:
            cards = [m for m in fake.messages(uid) if m.protect_content]
            assert len(cards) == 1
        await flow.play_to_end()
        await flow.delivered()
        texts = flow.club_texts()
        end = next(i for i, t in enumerate(texts) if "🏁" in t)
        names = role_names(packaged_translator())
        for text in texts[:end]:
            assert not any(n.casefold() in text.casefold() for n in names), text
        assert table.seed is not None and any(table.seed.hex() in t for t in texts[end:])
        assert engine.verify(table.seed, table.cards, sorted(table.seats),
                             table.commitment or "")
        assert table.commitment and any(table.commitment in t for t in texts[:end])
        db = app.services.db
        game = await db.games.get(table.game_id)
        assert game.status == "finished"
        total = sum(e.points for e in table.game.ledger)
        assert sum([await db.ledger.balance(uid) for uid in flow.players]) == total
        if mode == "webhook":  # every update came by POST, none by getUpdates
            assert fake.webhook is not None and fake.webhook["secret"] == WEBHOOK_SECRET
            assert fake.polled_updates == 0 and fake.webhook_statuses.count(200) > size
    finally:
        await stop_app(app, task)
    assert fake.messages(CLUB)

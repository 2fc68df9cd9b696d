"""Accounts without Telegram outside the game: nothing is ever sent to them."""

from __future__ import annotations

from datetime import date

from bot.app import App
from bot.services.expiry import run_expiry
from tests.bot.conftest import Ask
from tests.bot.helpers import give_game_points
from tests.fakes.telegram_server import FakeTelegram


async def test_expiry_burns_an_offline_account_without_a_message(
    app: App, fake: FakeTelegram
) -> None:
    s = app.services
    ghost = await s.db.players.create_offline("Ghost")
    await give_game_points(s.db, ghost.tg_id, 7, date(2026, 1, 5))
    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 26), "ru")
    assert report.warned == [ghost.tg_id]
    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 3, 6), "ru")
    assert report.burned == [ghost.tg_id]
    assert await s.db.ledger.balance(ghost.tg_id) == 0
    assert not [p for m, p in fake.calls if m == "sendMessage"
                and int(p.get("chat_id", 0)) == ghost.tg_id]


async def test_no_spouse_proposal_to_an_offline_account(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    ghost = await app.services.db.players.create_offline("Ghost", sex="f")
    fake.user(40, "Romeo", language_code="en")
    await ask(40, "/start")
    await ask(40, "/nick Romeo")
    answer = await ask(40, "/spouse ghost")
    assert answer.text == (
        "Ghost has no Telegram (an account without Telegram): nobody could answer.")
    me = await app.services.db.players.get(40)
    assert me is not None and me.spouse_proposed_to is None
    assert not [p for m, p in fake.calls if m == "sendMessage"
                and int(p.get("chat_id", 0)) == ghost.tg_id]

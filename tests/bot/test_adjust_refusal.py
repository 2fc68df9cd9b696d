"""``/adjust NICK -POINTS`` beyond the balance: the refusal names the adjustment (who, how much,
the balance now), not a redemption; the name in the nominative ("у игрока Борис")."""

from __future__ import annotations

from datetime import date

import pytest

from bot.app import App
from tests.bot.conftest import ADMIN_ID, Ask
from tests.bot.helpers import give_game_points
from tests.fakes.telegram_server import FakeTelegram
from views.i18n import Translator

BORIS = 72


async def _boris_with(points: int, nick: str, app: App, fake: FakeTelegram, ask: Ask,
                      admin_language: str) -> None:
    fake.user(ADMIN_ID, "Admin", language_code=admin_language)
    fake.user(BORIS, "Boris", language_code="en")
    await ask(ADMIN_ID, "/start")
    await ask(BORIS, "/start")
    await ask(BORIS, f"/nick {nick}")
    await give_game_points(app.services.db, BORIS, points, date(2026, 3, 1))


@pytest.mark.parametrize(("points", "balance", "expected"), [
    (5, 3, "Cannot take 5 points from <b>Boris</b>: the balance is 3 points."),
    (2, 1, "Cannot take 2 points from <b>Boris</b>: the balance is 1 point."),
])
async def test_the_refusal_names_who_how_much_and_the_balance(
        app: App, fake: FakeTelegram, ask: Ask, points: int, balance: int,
        expected: str) -> None:
    await _boris_with(balance, "Boris", app, fake, ask, "en")
    assert (await ask(ADMIN_ID, f"/adjust Boris -{points} typo")).text == expected
    assert await app.services.db.ledger.balance(BORIS) == balance  # nothing changed
    assert fake.unread(BORIS) == []  # and Boris is told nothing


@pytest.mark.parametrize(("points", "balance", "expected"), [
    (5, 3, "Нельзя списать 5 баллов: у игрока <b>Борис</b> 3 балла."),
    (21, 1, "Нельзя списать 21 балл: у игрока <b>Борис</b> 1 балл."),
    (2, 0, "Нельзя списать 2 балла: у игрока <b>Борис</b> 0 баллов."),
])
async def test_the_refusal_in_russian(app: App, fake: FakeTelegram, ask: Ask, points: int,
                                      balance: int, expected: str) -> None:
    await _boris_with(balance, "Борис", app, fake, ask, "ru")
    assert (await ask(ADMIN_ID, f"/adjust Борис -{points} опечатка")).text == expected
    assert await app.services.db.ledger.balance(BORIS) == balance


def test_the_name_is_escaped() -> None:
    text = Translator.load().t("en", "admin.adjust_insufficient", nick="<i>A&B</i>", points=5,
                               balance=3)
    assert text == ("Cannot take 5 points from <b>&lt;i&gt;A&amp;B&lt;/i&gt;</b>: the balance "
                    "is 3 points.")

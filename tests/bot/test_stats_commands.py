"""/stats and /top through the real application over HTTP (the fake Bot API server)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.app import App
from storage import GamePoints
from tests.bot.conftest import Ask
from tests.bot.helpers import CLUB_ID, give_game_points
from tests.fakes.telegram_server import FakeTelegram


async def finished_game(app: App, tg_id: int, points: int) -> None:
    db = app.services.db
    if await db.clubs.get(CLUB_ID) is None:
        await db.clubs.ensure(CLUB_ID, title="Club <1>", locale="en")
    game = await db.games.create(CLUB_ID, 1, seats=[(1, tg_id)],
                                 created_at=datetime(2026, 3, 1, 18, tzinfo=UTC))
    await db.games.finish(game, status="finished", day=date(2026, 3, 1),
                          points=[GamePoints(tg_id, points, "team_win", "end")])


async def test_stats_own_and_by_nickname(app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.user(70, "A", language_code="en")
    fake.user(71, "B", language_code="en")
    await ask(70, "/start")
    await ask(71, "/start")
    text = (await ask(70, "/stats")).said
    assert text.startswith("You have no nickname yet")
    assert "No finished games yet." in text and "Points: 0 (earned 0, spent 0)" in text
    await ask(70, "/nick Ace")
    await give_game_points(app.services.db, 70, 5, date(2026, 3, 1))
    await app.services.db.ledger.redeem(70, 2, reason="mug", admin_id=900,
                                        now=datetime(2026, 3, 5, tzinfo=UTC))
    text = (await ask(71, "/stats ace")).said
    assert text.startswith("<b>Ace</b> — record")
    assert "Points: 3 (earned 5, spent 2)" in text and "Rank: 1" in text
    # the rows under the words /balance uses, one date form
    assert "Recent points:\n2026-03-05  -2  gift: mug\n2026-03-01  +5  game #1: survived a night" \
        in text
    assert "expire on 2026-05-01" in text
    assert "/player/" not in text  # WEB_URL unset: no link
    assert (await ask(71, "/stats Ghost<b>")).text == "No player has the nickname Ghost&lt;b&gt;."


async def test_balance_and_stats_read_a_game_one_line_per_reason(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """Ten rows of survived days and nights are one line, in the words of the end's post."""
    fake.user(73, "Вера", language_code="ru")
    await ask(73, "/start")
    await ask(73, "/nick Vera")
    db = app.services.db
    await db.clubs.ensure(CLUB_ID, title="Клуб", locale="ru")
    game = await db.games.create(CLUB_ID, 1, seats=[(1, 73)],
                                 created_at=datetime(2026, 3, 1, 18, tzinfo=UTC))
    rows = [GamePoints(73, 1, f"survived_{p}", f"{p} {n}") for n in range(1, 6)
            for p in ("night", "day")]
    rows.insert(3, GamePoints(73, 5, "vote_for_mafia", "day 1"))
    rows.append(GamePoints(73, 6, "team_win", "end"))
    await db.games.finish(game, status="finished", day=date(2026, 3, 1), points=rows)
    for command in ("/balance", "/stats"):
        text = (await ask(73, command)).said
        assert "+10  игра №1: пережитые дни и ночи" in text, text
        assert "+5  игра №1: голос против Мафии" in text and "+6  игра №1: победа команды" in text
        assert "пережитый день" not in text and "пережитая ночь" not in text


async def test_top_shows_the_home_club_and_the_network(app: App, fake: FakeTelegram,
                                                       ask: Ask) -> None:
    fake.user(72, "A", language_code="en")
    await ask(72, "/start")
    await ask(72, "/nick Bee")
    await finished_game(app, 72, 4)
    text = (await ask(72, "/top")).said
    assert text == (
        "<b>Club &lt;1&gt;</b> — points from this club's games, 2026-01-09–2026-03-10\n"
        "1. Bee — 4\n\n"
        "<b>Network</b> — current balances (2026-03-10)\n1. Bee — 4")
    fake.group(CLUB_ID, "Club <1>")
    in_club = (await ask(72, "/top", chat_id=CLUB_ID)).said
    assert in_club == text

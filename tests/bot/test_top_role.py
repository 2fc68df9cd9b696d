"""``/top role CARD`` through the real application over HTTP: the card typed as a Russian host
says it (or in English), the players with enough counted games with it by their share of wins,
the card's share for everyone; an unknown card, no card, and ``/top rating`` kept."""

from __future__ import annotations

from bot.app import App
from engine import Winner
from standing.rating import PROVISIONAL_GAMES
from tests.bot.conftest import Ask
from tests.fakes.telegram_server import FakeTelegram
from tests.storage.conftest import ADMIN, CLUB
from tests.storage.test_ratings import a_game

ANN, BEE, CAT, DAN, EVE, FOX = 71, 72, 73, 74, 75, 76


async def test_the_best_with_a_card_from_the_minimum_of_games(fake: FakeTelegram,
                                                             ask: Ask, app: App) -> None:
    db = app.services.db
    for uid, nick, lang in ((ANN, "Ann", "ru"), (BEE, "Bee", "ru"), (CAT, "Cat", "en"),
                            (DAN, "Dan", "ru"), (EVE, "Eve", "ru"), (FOX, "Fox", "ru")):
        fake.user(uid, nick, language_code=lang)
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    await db.players.register(ADMIN, display_name="Host", language="ru")
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    # a_game: the first seat the Mafia, the second the Doctor, the rest the Lucky
    for winner in (Winner.CIVILIANS, Winner.CIVILIANS, Winner.MAFIA, Winner.CIVILIANS,
                   Winner.MAFIA, Winner.CIVILIANS):
        await a_game(db, [ANN, BEE, CAT, DAN], 1, winner=winner)
    for _ in range(4):  # Eve: the Doctor four times, every game won: too few to rank
        await a_game(db, [FOX, EVE, CAT, DAN], 1, winner=Winner.CIVILIANS)

    doctor = (await ask(BEE, "/top role Врач")).text
    assert doctor == (
        "<b>Доктор</b> — лучшие по проценту побед (от 5 засчитанных игр с картой)\n"
        "1. Bee — 67% (6 игр, побед 4)\n"
        "У всех карта «Доктор» побеждает в 80% игр (всего 10).")
    assert (await ask(BEE, "/top role доктор")).text == doctor
    assert (await ask(BEE, "/top роль Доктор")).text == doctor
    mafia = (await ask(ANN, "/top role Мафия")).said
    assert "1. Ann — 33% (6 игр, побед 2)" in mafia
    lucky = (await ask(ANN, "/top role счастливчик")).said
    # Cat and Dan: the Lucky in all ten games, the same record, the same rank
    assert "1. Cat — 80% (10 игр, побед 8)\n1. Dan — 80% (10 игр, побед 8)" in lucky
    for typed in ("Комиссар", "шериф", "Полицейский", "policeman"):
        assert (await ask(ANN, f"/top role {typed}")).text == (
            "<b>Полицейский</b> — лучшие по проценту побед (от 5 засчитанных игр с картой)\n"
            "Пока ни у кого нет 5 засчитанных игр с картой «Полицейский».")
    assert (await ask(CAT, "/top role doctor")).text == (
        "<b>Doctor</b> — the best by share of wins (from 5 counted games with the card)\n"
        "1. Bee — 67% (6 games, 4 won)\n"
        "For everyone the card “Doctor” wins 80% of its games (10 in all).")
    unknown = (await ask(ANN, "/top role Волшебник <b>")).said
    assert unknown.startswith("Не знаю такой карты: Волшебник &lt;b&gt;. Карты: Мафия, ")
    assert "Полицейский" in unknown
    assert (await ask(ANN, "/top role")).said.startswith("Напишите карту: <code>/top role")
    assert "/top role" in (await ask(ANN, "/top rating more")).said  # the usage line
    assert "рейтинг мастерства" in (await ask(ANN, "/top rating")).said


async def test_a_player_without_a_nickname_is_on_the_boards_by_no_telegram_name(
        fake: FakeTelegram, ask: Ask, app: App) -> None:
    """``/top rating`` (the club's and the network's) and ``/top role`` name a player without
    a nickname «—», never by the Telegram name: Cat's is Bee's nickname, Dan's is markup."""
    db = app.services.db
    for uid, name in ((ANN, "Ann"), (BEE, "Bee"), (CAT, "Bee"), (DAN, "<b>Dan</b> & Co")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    for uid, nick in ((ANN, "Ann"), (BEE, "Bee")):
        await ask(uid, f"/nick {nick}")
    await db.players.register(ADMIN, display_name="Host", language="ru")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    for _ in range(PROVISIONAL_GAMES):  # Cat and Dan the Mafia, winning every game
        await a_game(db, [CAT, DAN, ANN, BEE], 2, winner=Winner.MAFIA)
    rating = (await ask(ANN, "/top rating")).said
    lines = ("1. — — 11.6 (10 games)\n1. — — 11.6 (10 games)\n"
             "3. Ann — -5.9 (10 games)\n3. Bee — -5.9 (10 games)")
    assert rating == (f"<b>Club</b> — skill rating\n{lines}\n\n"
                      f"<b>Network</b> — skill rating\n{lines}")
    assert (await ask(ANN, "/top role Mafia")).said == (
        "<b>Mafia</b> — the best by share of wins (from 5 counted games with the card)\n"
        "1. — — 100% (10 games, 10 won)\n1. — — 100% (10 games, 10 won)\n"
        "For everyone the card “Mafia” wins 100% of its games (20 in all).")

async def test_profile_sends_the_cards_and_rivals_and_the_charts_in_order(
        fake: FakeTelegram, ask: Ask, app: App) -> None:
    db = app.services.db
    for uid, nick in ((ANN, "Ann"), (BEE, "Bee"), (CAT, "Cat"), (DAN, "Dan"), (EVE, "Eve")):
        fake.user(uid, nick, language_code="ru")
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    await db.players.register(ADMIN, display_name="Host", language="ru")
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    await a_game(db, [ANN, BEE, CAT, DAN], 1, winner=Winner.MAFIA)
    # one counted game: the text, the cards and rivals, the bars (no line of one point)
    assert "Профиль" in (await ask(ANN, "/profile")).said
    cards = (await fake.next_message(ANN)).said
    assert cards.startswith("<b>По картам</b> (засчитанные игры)\nМафия: 1 игра, побед 1 (100%)")
    assert "Bee — в одной команде: 0 (побед 0), против: 1 (ваших побед 1)" in cards
    bars = await fake.next_message(ANN)
    assert bars.photo_bytes is not None and bars.caption == (
        "Доля побед по картам: у игрока и у всех")
    await a_game(db, [ANN, BEE, CAT, DAN], 1, winner=Winner.CIVILIANS)
    await ask(ANN, "/profile")
    assert "Мафия: 2 игры, побед 1 (50%)" in (await fake.next_message(ANN)).said
    line, bars = await fake.next_message(ANN), await fake.next_message(ANN)
    assert line.photo_bytes is not None and line.caption == (
        "Рейтинг мастерства после каждой засчитанной игры")
    assert bars.photo_bytes is not None and bars.caption is not None
    # a player without a counted game: one sentence inside the profile, nothing after it
    profile = (await ask(EVE, "/profile")).said
    assert "Засчитанных игр пока нет" in profile and "По картам" not in profile
    # the next answer is the next command's own: nothing came after the profile
    assert (await ask(EVE, "/lang")).said == "Выберите язык:"

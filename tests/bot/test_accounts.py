"""Flow tests over HTTP: registration, settings, spouse, points, complaints (ru and en)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from bot.app import App
from tests.bot.conftest import Ask
from tests.bot.helpers import give_game_points
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import Flow, running, wait_until


async def test_start_ru_and_back(app: App, fake: FakeTelegram, ask: Ask) -> None:
    anna = fake.user(1, "Анна", language_code="ru")
    first = await ask(anna, "/start")
    assert "Добро пожаловать" in first.said and "Анна" in first.said
    again = await ask(anna, "/start")
    assert "С возвращением" in again.said


async def test_start_en_from_language_code(app: App, fake: FakeTelegram, ask: Ask) -> None:
    bob = fake.user(2, "Bob", language_code="en-GB")
    reply = await ask(bob, "/start")
    assert "Welcome to the Mafia club, Bob" in reply.said


async def test_unknown_language_falls_back_to_default(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    hans = fake.user(3, "Hans", language_code="de")
    reply = await ask(hans, "/start")
    assert "Добро пожаловать" in reply.said


async def test_display_name_is_escaped(app: App, fake: FakeTelegram, ask: Ask) -> None:
    evil = fake.user(4, "<b>x</b> & co", language_code="en")
    reply = await ask(evil, "/start")
    assert "&lt;b&gt;x&lt;/b&gt; &amp; co" in reply.said


async def test_start_join_payload_without_lobby(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(5, "Eve", language_code="en")
    await fake.send(user, "/start join_42")
    greeting = await fake.next_message(5)
    assert "Welcome" in greeting.said
    missing = await fake.next_message(5)
    assert missing.text == "This game lobby is not found or is already closed."


async def test_start_join_payload_seats_the_player_in_that_lobby(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    """``/start join_<game>`` goes to the game layer's lobby (``Services.join_lobby``): the
    player is seated there, and nothing says the lobby is not found."""
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(1)
        [ann] = await flow.register(1, first=6, nick="Ann")  # Ann1
        await fake.send(ann, f"/start join_{flow.game_id}")
        await wait_until(lambda: flow.table.seat_of(ann) == 2, 10, "the deep-link join")
        await fake.send(ann, "/help")
        await fake.wait_for(lambda: any("Mafia club bot" in m.said for m in fake.messages(ann)),
                            10, "the help")
        assert not any("not found" in m.said for m in fake.messages(ann))


async def test_start_bad_payload(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(7, "Ann", language_code="en")
    await fake.send(user, "/start hello")
    await fake.next_message(7)
    assert "not valid" in (await fake.next_message(7)).said


async def test_help_both_languages(app: App, fake: FakeTelegram, ask: Ask) -> None:
    ru = fake.user(8, "Ру", language_code="ru")
    en = fake.user(9, "En", language_code="en")
    assert "/balance" in (await ask(ru, "/help")).said
    assert "Бот клуба" in fake.messages(8)[0].said
    assert "Mafia club bot" in (await ask(en, "/help")).said
    assert "/redeem" not in fake.messages(9)[0].said


async def test_commands_need_start_first(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(10, "New", language_code="en")
    assert (await ask(user, "/profile")).text == "Please press /start first."
    assert (await ask(user, "/nick Neo")).text == "Please press /start first."


async def test_unknown_command_and_plain_text(app: App, fake: FakeTelegram, ask: Ask) -> None:
    en = fake.user(11, "En", language_code="en")
    ru = fake.user(12, "Ру", language_code="ru")
    assert (await ask(en, "/frobnicate")).text == "Unknown command. All commands: /help"
    assert (await ask(ru, "/frobnicate")).said.startswith("Неизвестная команда")
    assert (await ask(en, "hello")).said.startswith("I understand commands only")


async def test_nick_set_same_and_usage(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(13, "Neo", language_code="en")
    await ask(user, "/start")
    assert (await ask(user, "/nick")).said.startswith("Usage: <code>/nick NAME</code>")
    assert (await ask(user, "/nick  Big  Tom ")).text == "Your nickname is now <b>Big Tom</b>."
    assert (await ask(user, "/nick big tom")).text == "Your nickname is now <b>big tom</b>."
    assert (await ask(user, "/nick big tom")).text == "Your nickname is already <b>big tom</b>."


async def test_nick_duplicate_is_case_insensitive(app: App, fake: FakeTelegram, ask: Ask) -> None:
    a = fake.user(14, "A", language_code="ru")
    b = fake.user(15, "B", language_code="en")
    await ask(a, "/start")
    await ask(b, "/start")
    await ask(a, "/nick Ёжик")
    taken = await ask(b, "/nick ёЖИК")
    assert taken.text == "The nickname <b>ёЖИК</b> is taken. Choose another one."
    assert (await ask(a, "/nick Ёжик")).said.startswith("Ваш ник уже")


async def test_nick_invalid(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(16, "A", language_code="en")
    ru = fake.user(17, "Б", language_code="ru")
    await ask(user, "/start")
    await ask(ru, "/start")
    assert "too short: at least 3" in (await ask(user, "/nick ab")).said
    assert "too long: at most 24" in (await ask(user, "/nick " + "a" * 30)).said
    assert "only letters, digits" in (await ask(user, "/nick <script>")).said
    assert "at least one letter or digit" in (await ask(user, "/nick ___")).said
    assert "Слишком короткий" in (await ask(ru, "/nick ab")).said
    player = await app.services.db.players.get(16)
    assert player is not None and player.nickname is None


async def test_profile(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(18, "Zoe", language_code="en")
    await ask(user, "/start")
    text = (await ask(user, "/profile")).said
    assert "Nickname: not set" in text and "Account: active" in text
    await ask(user, "/nick Zed")
    text = (await ask(user, "/profile")).said
    assert "Nickname: Zed" in text and "Games played: 0" in text


async def test_lang_buttons_switch_language(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(19, "Ира", language_code="ru")
    await ask(user, "/start")
    prompt = await ask(user, "/lang")
    assert prompt.text == "Выберите язык:"
    assert [text for text, _ in prompt.buttons()] == ["Русский", "English"]
    query = await fake.press(user, prompt, button="English")
    edited = await fake.next_edit(19)
    await fake.callback_answer(query)
    assert edited.message_id == prompt.message_id and edited.text == "Language: English."
    assert (await ask(user, "/frobnicate")).said.startswith("Unknown command")
    prompt = await ask(user, "/lang")
    await fake.press(user, prompt, button="Русский")
    assert (await fake.next_edit(19)).text == "Язык: русский."
    player = await app.services.db.players.get(19)
    assert player is not None and player.language == "ru"


async def test_help_lists_every_player_command_without_a_limits_paragraph(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.user(22, "Лиза", language_code="ru")
    await ask(22, "/start")
    text = (await ask(22, "/help")).said
    for command in ("/nick", "/profile", "/lang", "/sex", "/spouse", "/divorce", "/balance",
                    "/stats", "/top", "/complain", "/myrole", "/friend"):
        assert command in text, command
    assert "до 3 жалоб в день" in text
    assert "Лимиты" not in text and "/status" not in text


async def test_sex_buttons(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(20, "Kim", language_code="en")
    await ask(user, "/start")
    prompt = await ask(user, "/sex")
    await fake.press(user, prompt, button="Female")
    assert (await fake.next_edit(20)).text == "Sex: female."
    assert "Sex: female" in (await ask(user, "/profile")).said
    ru = fake.user(21, "Ким", language_code="ru")
    await ask(ru, "/start")
    prompt = await ask(ru, "/sex")
    await fake.press(ru, prompt, button="Мужской")
    assert (await fake.next_edit(21)).text == "Пол: мужской."


async def _two_players(fake: FakeTelegram, ask: Ask) -> None:
    fake.user(30, "Romeo", language_code="en")
    fake.user(31, "Джульетта", language_code="ru")
    for uid, nick in ((30, "Romeo"), (31, "Juliet")):
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")


async def test_spouse_accept_and_divorce(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _two_players(fake, ask)
    sent = await ask(30, "/spouse juliet")
    assert sent.text == "Proposal sent to <b>Juliet</b>. They have to confirm it."
    proposal = await fake.next_message(31)
    assert proposal.text == ("Игрок <b>Romeo</b> хочет отметить в боте, что вы супруги. "
                             "Подтверждаете?")
    await fake.press(31, proposal, button="Да")
    assert (await fake.next_edit(31)).said.startswith("Готово: в боте вы и <b>Romeo</b>")
    assert (await fake.next_message(30)).said.startswith("You and <b>Juliet</b>")
    # the spouse's line says husband or wife once their sex is known, a neutral word before
    assert "Spouse: Juliet" in (await ask(30, "/profile")).said
    assert "\nБрак: Romeo\n" in (await ask(31, "/profile")).said
    await app.services.db.players.set_sex(31, "f")
    await app.services.db.players.set_sex(30, "m")
    assert "Wife: Juliet" in (await ask(30, "/profile")).said
    assert "\nСупруг: Romeo\n" in (await ask(31, "/profile")).said
    again = await ask(30, "/spouse Juliet")
    assert again.text == "One of you is already married (/divorce first)."
    assert (await ask(30, "/divorce")).text == "You are divorced from <b>Juliet</b>."
    assert (await fake.next_message(31)).text == "<b>Romeo</b> расторг брак с вами."
    assert (await ask(31, "/divorce")).text == "Вы не в браке."


async def test_spouse_decline_and_stale_button(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _two_players(fake, ask)
    await ask(30, "/spouse Juliet")
    proposal = await fake.next_message(31)
    yes = proposal.button_data("Да")
    await fake.press(31, proposal, button="Нет")
    assert (await fake.next_edit(31)).text == "Вы отклонили предложение игрока <b>Romeo</b>."
    assert (await fake.next_message(30)).text == "<b>Juliet</b> declined your proposal."
    query = await fake.press(31, proposal, yes)  # the buttons are gone; a stale client
    answer = await fake.callback_answer(query)
    assert answer["text"] == "Это предложение уже недействительно."
    assert answer["show_alert"] is True
    romeo = await app.services.db.players.get(30)
    assert romeo is not None and romeo.spouse_id is None and romeo.spouse_proposed_to is None
    # a Russian proposer reads the refusal with the verb agreeing with her, or without a verb
    fake.user(32, "Тибальт", language_code="ru")
    await ask(32, "/start")
    await ask(32, "/nick Tybalt")
    for sex, notice in ((None, "<b>Juliet</b>: ваше предложение отклонено."),
                        ("f", "<b>Juliet</b> отклонила ваше предложение.")):
        if sex is not None:
            await app.services.db.players.set_sex(31, sex)
        await ask(32, "/spouse Juliet")
        await fake.press(31, await fake.next_message(31), button="Нет")
        await fake.next_edit(31)
        assert (await fake.next_message(32)).text == notice


async def test_spouse_bad_inputs(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _two_players(fake, ask)
    assert (await ask(30, "/spouse")).text == "Usage: <code>/spouse NICK</code>"
    assert (await ask(30, "/spouse Romeo")).text == "You cannot marry yourself."
    assert (await ask(30, "/spouse Nobody")).text == "No player with the nickname <b>Nobody</b>."
    fake.user(32, "NoNick", language_code="en")
    await ask(32, "/start")
    assert (await ask(32, "/spouse Romeo")).said.startswith("Set your nickname first")


async def test_balance_rank_rows_and_expiry(app: App, fake: FakeTelegram, ask: Ask) -> None:
    db = app.services.db
    fake.user(40, "Max", language_code="en")
    fake.user(41, "Макс", language_code="ru")
    await ask(40, "/start")
    await ask(41, "/start")
    text = (await ask(40, "/balance")).said
    assert "<b>Balance:</b> 0 points" in text and "No points yet." in text
    assert "do not expire" in text
    await ask(40, "/nick Max")
    await ask(41, "/nick Макс")
    await give_game_points(db, 40, 7, date(2026, 3, 1), reason="vote_for_mafia")
    await give_game_points(db, 41, 9, date(2026, 3, 2))
    text = (await ask(40, "/balance")).said
    assert "<b>Balance:</b> 7 points" in text
    assert "Rank: 2 of 2" in text
    assert "<b>Recent points:</b>\n2026-03-01  +7  game #1: vote against the Mafia" in text
    assert "expire on 2026-05-01" in text
    text = (await ask(41, "/balance")).said
    assert "<b>Баланс:</b> 9 баллов" in text and "Место в рейтинге: 1 из 2" in text
    assert "игра №2: пережитая ночь" in text and "сгорят 02.05.2026" in text


async def test_top(app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.user(50, "A", language_code="en")
    await ask(50, "/start")
    empty = "<b>Network</b> — current balances (2026-03-10)\nNobody has points here yet."
    assert (await ask(50, "/top")).text == empty
    await ask(50, "/nick Ace")
    await give_game_points(app.services.db, 50, 3, date(2026, 3, 1))
    assert (await ask(50, "/top")).text == (
        "<b>Network</b> — current balances (2026-03-10)\n1. Ace — 3")


async def test_complain(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _two_players(fake, ask)
    assert (await ask(30, "/complain")).text == "Usage: <code>/complain NICK TEXT</code>"
    assert (await ask(30, "/complain Juliet")).text == "Usage: <code>/complain NICK TEXT</code>"
    assert (await ask(30, "/complain Romeo rude")).text == "You cannot complain about yourself."
    assert "No player" in (await ask(30, "/complain Ghost rude")).said
    reply = await ask(30, "/complain Juliet shouts <all> the time")
    assert reply.text == "Your complaint about <b>Juliet</b> is recorded. Thank you."
    counts = await app.services.db.complaints.counts()
    assert [(p.nickname, n) for p, n in counts] == [("Juliet", 1)]


async def test_myrole_outside_a_game(app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.user(60, "P", language_code="en")
    assert (await ask(60, "/myrole")).text == "You are not in a game now."


async def test_unknown_button_is_answered(app: App, fake: FakeTelegram, ask: Ask) -> None:
    user = fake.user(61, "P", language_code="en")
    prompt = await ask(user, "/lang")
    query = await fake.press(user, prompt, "old:button:from:last:year")
    assert (await fake.callback_answer(query))["text"] == "This button is no longer active."


async def test_profile_top_complain_in_russian(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _two_players(fake, ask)
    text = (await ask(31, "/profile")).said
    assert text.startswith("<b>Профиль</b>") and "Ник: Juliet" in text
    assert "Аккаунт: активен" in text and "Язык: Русский" in text
    assert (await ask(31, "/top")).text == (
        "<b>Сеть клубов</b> — текущие балансы (10.03.2026)\nЗдесь пока ни у кого нет баллов.")
    await give_game_points(app.services.db, 31, 2, date(2026, 3, 1))
    assert (await ask(31, "/top")).text == (
        "<b>Сеть клубов</b> — текущие балансы (10.03.2026)\n1. Juliet — 2")
    assert (await ask(31, "/complain")).said.startswith("Использование")
    assert (await ask(31, "/complain Juliet x")).text == "Нельзя пожаловаться на себя."
    reply = await ask(31, "/complain Romeo опоздал")
    assert reply.text == "Жалоба на игрока <b>Romeo</b> записана. Спасибо."
    assert (await ask(31, "/myrole")).text == "Вы сейчас не играете."

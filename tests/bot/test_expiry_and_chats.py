"""The daily expiry job (called with ``today``), command menus, and the club chat."""

from __future__ import annotations

from datetime import date
from typing import Any

from bot.app import App
from bot.delivery.sender import TelegramSender
from bot.services.expiry import run_expiry
from tests.bot.conftest import FAST_LIMITS, Ask, LaterWall
from tests.bot.helpers import give_game_points
from tests.fakes.telegram_server import FakeTelegram


async def _player(app: App, fake: FakeTelegram, ask: Ask, uid: int, nick: str, lang: str,
                  points: int, last_game: date) -> None:
    fake.user(uid, nick, language_code=lang)
    await ask(uid, "/start")
    await ask(uid, f"/nick {nick}")
    await give_game_points(app.services.db, uid, points, last_game)


async def test_expiry_warns_a_week_ahead_then_burns(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    await _player(app, fake, ask, 90, "Oldie", "en", 12, date(2026, 1, 5))
    await _player(app, fake, ask, 91, "Старик", "ru", 4, date(2026, 1, 6))
    await _player(app, fake, ask, 92, "Fresh", "en", 3, date(2026, 3, 1))
    s = app.services

    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 25), "ru")
    assert report.warned == [] and report.burned == []

    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 26), "ru")
    assert report.warned == [90]
    warning = await fake.next_message(90)
    assert warning.text == (
        "⏳ Your nickname <b>Oldie</b> and 12 points expire on 2026-03-05. "
        "Come to a game before then to keep them!"
    )
    # the same day again: nobody is warned twice
    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 26), "ru")
    assert report.warned == [] and fake.unread(90) == []

    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 27), "ru")
    assert report.warned == [91]
    assert (await fake.next_message(91)).said.startswith("⏳ Ваш ник <b>Старик</b> и 4 балла")

    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 3, 5), "ru")
    assert report.burned == [90] and report.warned == []
    assert "expired after two months" in (await fake.next_message(90)).said
    assert await s.db.ledger.balance(90) == 0
    player = await s.db.players.get(90)
    assert player is not None and player.nickname is None

    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 3, 6), "ru")
    assert report.burned == [91]
    assert (await fake.next_message(91)).said.startswith("Ваш ник и баллы сгорели")
    assert await s.db.ledger.balance(92) == 3
    text = (await ask(91, "/balance")).said
    assert "сгорели (2 месяца без игр)" in text


async def test_expiry_skips_messages_to_players_who_blocked_the_bot(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    await _player(app, fake, ask, 93, "Silent", "en", 5, date(2026, 1, 5))
    await app.services.db.players.set_bot_blocked(93, True)
    s = app.services
    report = await run_expiry(s.db, s.sender, s.translator, date(2026, 3, 5), "ru")
    assert report.burned == [93]
    assert fake.unread(93) == []


async def test_daily_job_is_scheduled(app: App) -> None:
    job = app.container.scheduler.get_job("expiry")
    assert job is not None
    assert "cron" in str(job.trigger)


async def test_the_daily_prune_drops_the_words_of_messages_sent_days_ago(
        app: App, fake: FakeTelegram, ask: Ask, wall: LaterWall) -> None:
    job = app.container.scheduler.get_job("outbox_prune")
    assert job is not None and "hour='7'" in str(job.trigger)
    assert app.settings.outbox_keep_days == 7
    fake.user(96, "Kept", language_code="en")
    answer = await ask(96, "/start")
    assert "Kept" in answer.said
    db = app.services.db
    assert any("Kept" in r["payload"] for r in await db.outbox.rows(96))
    assert await app.container.jobs.prune_outbox() == 0  # sent just now: kept whole
    wall.skipped = 7 * 86_400 + 60  # a week and a minute later
    assert await app.container.jobs.prune_outbox() >= 1
    assert not any("Kept" in r["payload"] for r in await db.outbox.rows(96))


async def test_command_menus_per_scope_and_language(app: App, fake: FakeTelegram) -> None:
    for lang in ("ru", "en"):
        private = [c["command"] for c in fake.commands[("all_private_chats", lang)]]
        group = [c["command"] for c in fake.commands[("all_chat_administrators", lang)]]
        assert {"start", "nick", "balance", "top", "complain"} <= set(private)
        assert {"newgame", "deal", "status"} <= set(group)  # hosts: the chat's administrators
    ru = {c["command"]: c["description"] for c in fake.commands[("all_private_chats", "ru")]}
    en = {c["command"]: c["description"] for c in fake.commands[("all_private_chats", "en")]}
    assert ru["top"] == "Рейтинг" and en["top"] == "Leaderboard"
    assert ("all_private_chats", "") in fake.commands  # fallback for other languages


async def test_club_chat_uses_the_club_locale(app: App, fake: FakeTelegram, ask: Ask) -> None:
    club = fake.group(-500, "Клуб")
    fake.user(95, "Host", language_code="en")
    reply = await ask(95, "/help", chat_id=club.id)
    assert reply.said.startswith("<b>Бот клуба «Мафия»</b>")  # DEFAULT_LOCALE=ru, not the user's
    # Russian Telegram's button says «Запустить»; /top and /stats are named for the players
    assert "нажмите «Запустить»" in reply.said and "/stats НИК" in reply.said
    assert "/top" in reply.said and "«Старт»" not in reply.said
    stored = await app.services.db.clubs.get(-500)
    assert stored is not None and stored.title == "Клуб"
    await app.services.db.clubs.set_locale(-500, "en")
    assert (await ask(95, "/help@mafia_test_bot", chat_id=-500)).said.startswith(
        "<b>Mafia club bot</b>"
    )
    assert (await ask(95, "/newgame", chat_id=-500)).text == (
        "A game is opened by a chat administrator or a host listed in the bot's settings."
    )


async def test_group_ignores_plain_text_and_points_private_commands_to_private(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    fake.group(-501, "Club")
    fake.user(96, "P", language_code="en")
    await fake.send(96, "hello all", chat_id=-501)
    reply = await ask(96, "/balance", chat_id=-501)  # answered after the text was handled
    assert reply.said.startswith("Эта команда работает в личном чате")  # the club: ru
    reply = await ask(96, "/help", chat_id=-501)
    assert reply.said.startswith("<b>")
    assert len(fake.messages(-501)) == 2  # the plain text got no answer


async def test_expiry_goes_on_after_an_unexpected_api_error(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    """The first warning fails in a way nothing expects (the outbox retries every API error,
    so the failure here is an exception from inside the send): that player is warned on the
    next run; the others are warned, and the burns run, this time."""
    await _player(app, fake, ask, 95, "First", "en", 5, date(2026, 1, 5))
    await _player(app, fake, ask, 96, "Second", "en", 6, date(2026, 1, 5))
    await _player(app, fake, ask, 97, "Gone", "en", 7, date(2025, 12, 1))
    s = app.services
    failures = [RuntimeError("unexpected")]

    class FirstFails(TelegramSender):
        async def send_text(self, chat_id: int, text: str, **kwargs: Any) -> Any:
            if failures:
                raise failures.pop()
            return await super().send_text(chat_id, text, **kwargs)

    sender = FirstFails(app.bot, limits=FAST_LIMITS)
    report = await run_expiry(s.db, sender, s.translator, date(2026, 2, 26), "ru")
    assert len(report.failed) == 1 and len(report.warned) == 1
    assert sorted(report.failed + report.warned) == [95, 96]
    assert report.burned == [97]
    assert await s.db.ledger.balance(97) == 0
    warned = report.warned[0]
    assert "expire on" in (await fake.next_message(warned)).said
    assert "expired after two months" in (await fake.next_message(97)).said

    again = await run_expiry(s.db, s.sender, s.translator, date(2026, 2, 26), "ru")
    assert again.warned == report.failed and again.failed == []  # retried, once
    assert "expire on" in (await fake.next_message(report.failed[0])).said

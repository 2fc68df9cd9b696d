"""A whole game in Russian over HTTP (the real bot, the fake Bot API): what the club chat, the
players and the host read, from the lobby to /balance, in the club's words, every name in the
nominative and no gender guessed (docs/bot.md, "How a Russian text is written")."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import Role
from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import HOST, Flow, running, wait_until

CARD_ID = re.compile(r"\b(?:" + "|".join(sorted((r.value for r in Role), key=len, reverse=True))
                     + r")\b")
BRACKETED = re.compile(r"[А-Яа-яЁё]\((?:а|на|ла|лась|ась|ы|у|ей|ая)\)")
# words the club does not say (docs/bot.md, "The glossary"): «нарушение», «ходы», «итог
# голосования», «Жребий вытянут», «Город просыпается» instead
NOT_THE_CLUBS = re.compile(r"(?i)\bфол|\bвыборы\b|приговор|брош|поедин|утро после|\bпанел")
# the names a Russian host says: «Врач» is the Doctor, «Комиссар» the Policeman
COMPOSITION = ("Шеф, Киллер, Мафия, Врач, Комиссар, Судья, Счастливчик, Адвокат, Мэрэлин,"
               " Спортсмен")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def read(texts: list[str]) -> str:
    return "\n\n".join(texts)


async def test_a_whole_game_reads_in_russian(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path, delivery_clock=VirtualClock()) as app:
        flow = Flow(fake, app, "ru")
        db = app.services.db
        await flow.lobby(10)
        await flow.delivered()
        lobby = read(flow.club_texts())
        assert f"<b>Игра №{flow.game_id}: набор игроков</b> (10 игроков)" in lobby
        # the sex a player set: the texts that agree with a player follow it
        for i, uid in enumerate(flow.players):
            await db.players.set_sex(uid, "f" if i % 2 else "m")
        # the cards a Russian host types, named back in Russian
        shown = await flow.host_says(f"/roles {COMPOSITION}", "Состав")
        assert shown.startswith("<b>Состав (10 карт)</b>: Шеф Мафии, Киллер Мафии, Мафия,")
        assert "Доктор" in shown and "Полицейский" in shown and not CARD_ID.search(shown)
        refused = await flow.host_says("/roles Шеф, Волшебник", "Не знаю такой карты")
        assert "Карты: Мафия, Шеф Мафии, Киллер Мафии" in refused and not CARD_ID.search(refused)
        await flow.deal()
        table = flow.table
        assert "<b>Карты розданы</b> (10 игроков)" in read(flow.club_texts())
        chief = next(s for s in table.seats if table.role(s) is Role.MAFIA_CHIEF)
        card = next(m.body for m in fake.messages(flow.tg(chief)) if m.protect_content)
        assert "<b>Ваша карта</b>" in card and "<b>Шеф Мафии</b>" in card
        marilyn = next(s for s in table.seats if table.role(s) is Role.MARILYN)
        card = next(m.body for m in fake.messages(flow.tg(marilyn)) if m.protect_content)
        assert "Ночью лишаете одного игрока ночного действия." in card

        # the first night: the Mafia read how long they have and who decides
        await flow.start("/night", Stage.NIGHT)
        prompt = await flow.prompt(flow.tg(chief), f"gn:{flow.game_id}:{table.moment}:")
        assert "🌙 Ночь 1." in prompt.body and "Выбор вашей команды сейчас:" in prompt.body
        assert "На договорённость — 3 секунды с начала ночи" in prompt.body
        assert "решаете вы: вы — Шеф Мафии" in prompt.body
        assert "— выбора пока нет" in prompt.body and "никто" not in prompt.body
        await flow.night_rest()
        await flow.delivered()
        club = read(flow.club_texts())
        # the night's length as the vote's is told: «На голос — …», «На выбор — …»
        assert ("🌙 <b>Ночь 1.</b> Город засыпает. Все, кто может действовать, получили кнопки "
                "в личном чате. На выбор — 6 секунд.") in club
        assert "🌅 Ночь 1 окончена. Город просыпается." in club and "☀️ <b>День 1.</b>" in club

        host = read([m.body for m in fake.messages(HOST)])
        assert "<b>Итоги ночи (только для ведущего)</b>" in host
        summary = host[host.index("<b>Итоги ночи"):].split("\n\n")[0]
        assert ": никто" not in summary and ") (" not in summary

        # the day and the rest of the game
        if not flow.over:
            await flow.vote()
            club = read(flow.club_texts())
            assert "🗳 <b>Голосование, день 1.</b>" in club
            assert "кто не успел — голос уходит в себя" in club
            assert "<b>Итоги голосования, день 1</b>" in club
            assert re.search(r"№\d+ Player\d+ → №\d+ Player\d+", club)
        await flow.play_to_end(night_first=True)
        await flow.delivered()
        await wait_until(lambda: any("🏁" in t for t in flow.club_texts()), 10, "the end")

    texts = flow.club_texts()
    end = next(t for t in texts if "🏁 <b>Игра окончена:" in t)
    assert "<b>Баллы за игру</b>" in end and "<b>Ключ раздачи</b>" in end
    assert "Ключ и карты по местам дают этот отпечаток" in end
    assert "пережитые дни и ночи +" in end
    assert "Шеф Мафии" in end  # every card named, in Russian, once the game is over
    # what everyone read, in the club and in private: no card id, no «(а)», no «→ никто»
    private = [m.body for uid in [*flow.players, HOST] for m in fake.messages(uid)]
    for text in [*texts, *private]:
        shown = re.sub(r"<code>.*?</code>|https?://\S+|/[a-z_]+", " ", text, flags=re.S)
        assert not CARD_ID.search(shown), text
        assert not BRACKETED.search(text), text
        assert not NOT_THE_CLUBS.search(text), text
        assert "→ никто" not in text and "Время вышло; кнопки закрыты" not in text, text

    # /balance reads the game's points in the end's own words, one line per reason
    survivor = next(uid for uid in flow.players
                    if "пережитые дни и ночи" in _line_of(end, uid, flow))
    reasons = re.findall(r"(пережитые дни и ночи|голос против Мафии|голос против мирного|"
                         r"победа команды|выстрел Мафии в мирного|выстрел Киллера Мафии в мирного"
                         r") \+(\d+)", _line_of(end, survivor, flow))
    assert reasons
    async with running(fake, tmp_path):
        before = len(fake.messages(survivor))
        await fake.send(survivor, "/balance")
        await fake.wait_for(lambda: len(fake.messages(survivor)) > before, 10, "/balance")
        balance = fake.messages(survivor)[-1].body
        before = len(fake.messages(survivor))
        await fake.send(survivor, "/stats")
        await fake.wait_for(lambda: len(fake.messages(survivor)) > before, 10, "/stats")
        stats = fake.messages(survivor)[-1].body
    # a team opens its line with a capital, as every other line does
    assert re.search(r"^(?:Мирные жители|Мафия): сыграно 1, побед [01]$", stats, re.M), stats
    for reason, points in reasons:
        assert f"+{points}  игра №{flow.game_id}: {reason}" in balance, balance


def _line_of(end: str, uid: int, flow: Flow) -> str:
    """The end's points line of the player ``uid`` («№3 Player3: 9 (…)»)."""
    nick = f"Player{flow.players.index(uid) + 1}"
    return next((line for line in end.splitlines() if re.match(rf"№\d+ {nick}: ", line)), "")

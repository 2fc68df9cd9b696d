"""The club's words in every Russian text (docs/bot.md, "The glossary").

Every message of every ``locales/ru/*.ftl`` file is read in its source form, so every branch of
every selector counts, and a file a teammate adds is read too. A word the glossary forbids fails
here with the message's id; so does a card name a Russian host types that ``/roles`` does not
know.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, FluentSerializer
from fluent.syntax import ast as ftl

from bot.game.rooms.deal import card_names, fold_card_name
from engine import Role
from views.i18n import Translator

RU = Path(__file__).resolve().parents[2] / "locales" / "ru"
TRANSLATOR = Translator.load()


def _messages() -> dict[str, str]:
    """Every Russian message's id -> its source text, all selector branches, no comments."""
    found: dict[str, str] = {}
    serializer = FluentSerializer()
    for path in sorted(RU.glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, ftl.Message):
                entry.comment = None
                found[entry.id.name] = serializer.serialize_entry(entry)
    return found


MESSAGES = _messages()
MARILYN = ("game-action-block", "game-about-marilyn", "game-about-marilyn_sister",
           "game-summary-blocked")

# (what the glossary forbids, the club's word instead, the messages it applies to: None = all)
FORBIDDEN: list[tuple[str, str, tuple[str, ...] | None]] = [
    (r"(?i)\bфол", "нарушение (the command /foul stays)", None),
    (r"(?i)\bвыборы\b", "ходы / выбор (of a night)", None),
    (r"(?i)блокир", "лишает ночного действия (Marilyn)", MARILYN),
    (r"(?i)гибель в первые сутки", "«Убит в первые сутки»", None),
    (r"\bновичок\b", "«Новичок», capitalized: the immunity's name", None),
    (r"(?i)поедин", "what happens: both die if it is a Mafia player", None),
    (r"(?i)брош|брос[аи]", "тянет жребий / Жребий вытянут", None),
    (r"(?i)\bпанел", "пульт (the host's panel)", None),
    (r"(?i)не сошл|не сойд", "Мафия не договорилась", None),
    (r"(?i)приговор", "итог голосования (what the Lawyer cancels)", None),
    (r"(?i)голос(?:ует)? за себя", "кто не успел — голос уходит в себя", None),
    (r"(?i)утро после ночи", "Город просыпается", None),
    (r"/(?:tech|speak|foul) НОМЕР|/seat НИК НОМЕР", "a seat is МЕСТО: /tech МЕСТО", None),
    (r"/nick ИМЯ", "/nick НИК", None),
    (r"\bмафи", "«Мафия» capitalized: the team's name", None),
]

# the card names a Russian host says at the table and types after /roles
HOST_TYPES: dict[str, Role] = {
    "Мафия": Role.MAFIA, "Шеф": Role.MAFIA_CHIEF, "Шеф Мафии": Role.MAFIA_CHIEF,
    "Киллер": Role.MAFIA_KILLER, "Киллер Мафии": Role.MAFIA_KILLER,
    "Мэрэлин": Role.MARILYN, "Мэрилин": Role.MARILYN, "Мерилин": Role.MARILYN,
    "Сестра Мэрэлин": Role.MARILYN_SISTER, "Сестра Мэрилин": Role.MARILYN_SISTER,
    "Доктор": Role.DOCTOR, "Врач": Role.DOCTOR, "Маньяк": Role.MANIAC,
    "Спортсмен": Role.SPORTSMAN, "Судья": Role.JUDGE,
    "Полицейский": Role.POLICEMAN, "Комиссар": Role.POLICEMAN, "Шериф": Role.POLICEMAN,
    "Счастливчик": Role.LUCKY, "Адвокат": Role.LAWYER, "Брат адвоката": Role.LAWYER_BROTHER,
    "Олигарх": Role.OLIGARCH, "Брат олигарха": Role.OLIGARCH_BROTHER,
}


def test_every_russian_file_is_read() -> None:
    assert len(MESSAGES) > 1000 and "game-immunity-newbie" in MESSAGES


@pytest.mark.parametrize(("pattern", "instead", "scope"), FORBIDDEN,
                         ids=[f[0] for f in FORBIDDEN])
def test_no_russian_text_says_a_word_the_glossary_forbids(
        pattern: str, instead: str, scope: tuple[str, ...] | None) -> None:
    keys = scope if scope is not None else tuple(MESSAGES)
    found = {k: MESSAGES[k] for k in keys if re.search(pattern, MESSAGES[k])}
    assert not found, f"say {instead}: {found}"


def test_the_club_terms_read_as_its_rules_name_them() -> None:
    t = TRANSLATOR.t
    assert t("ru", "game.immunity.newbie") == "Новичок"
    assert t("ru", "game.immunity.first_day_killed") == "Убит в первые сутки"
    for key in MARILYN:
        assert "ночного действия" in MESSAGES[key], key
    assert t("ru", "game.fate.drawn", who="№2 Борис") == "Жребий вытянут: выбывает №2 Борис."
    assert t("ru", "game.night.target_none").startswith("Мафия не договорилась")
    assert "решает Шеф Мафии" in t("ru", "game.night.agree_chief", seconds=30)
    assert "кто не успел — голос уходит в себя" in t(
        "ru", "game.vote.board", day=1, seconds=30, lines="", done="")
    for key in ("game.ev.night_deaths", "game.ev.night_deaths_none", "game.ev.night_death"):
        assert "Город просыпается" in t("ru", key, night=1, seats="№1 Аня", who="№1 Аня",
                                        sex="f"), key
    assert "итог голосования" in t("ru", "game.about.lawyer")
    sportsman = t("ru", "game.action.challenge")
    assert "Мафии" in sportsman and "Доктор" in sportsman  # the heal does not save a Mafia


def test_a_russian_host_types_the_cards_by_the_names_the_club_says() -> None:
    names = card_names(TRANSLATOR)
    unknown = {n: r for n, r in HOST_TYPES.items() if names.get(fold_card_name(n)) is not r}
    assert not unknown, f"/roles does not know: {unknown}"
    # case and «ё» do not matter
    assert names[fold_card_name("КОМИССАР")] is Role.POLICEMAN
    assert names[fold_card_name("шеф мафии")] is Role.MAFIA_CHIEF

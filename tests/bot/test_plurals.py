"""Every text with a count picks the right word form in Russian and English.

The expected forms come from the rules written out here (not from the library that renders them):
Russian ``one`` = ends in 1 but not 11, ``few`` = ends in 2-4 but not 12-14, else ``many``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from views.i18n import Translator

TRANSLATOR = Translator.load()
COUNTS = (0, 1, 2, 5, 11, 12, 14, 21, 22, 25, 111, 112, 1001)
SEX_VARIABLES = {"sex", "spouse_sex"}  # selectors on a player's sex, not on a count
# a selector whose [0] only leaves a clause out: not a count
PRESENCE_SELECTORS = {("void.done", "short"), ("miniapp.player.evening", "waiting")}
# a heading that says "one" or "several" without the number: [1] exactly, never CLDR's [one]
# (21 achievements are not "a new achievement")
ONE_OR_MORE = {"achievement.club": ("count", {"game": 7, "lines": "x"}),
               "achievement.told": ("count", {"game": 7, "lines": "x"})}

# key -> (counted variable, ru forms one/few/many, en forms one/other, other arguments)
POINTS_RU = ("балл", "балла", "баллов")
POINTS_EN = ("point", "points")
SECONDS_RU = ("секунда", "секунды", "секунд")
SECONDS_ACC_RU = ("секунду", "секунды", "секунд")
SECONDS_EN = ("second", "seconds")
PLAYERS_RU = ("игрок", "игрока", "игроков")
PLAYERS_EN = ("player", "players")
CARDS_RU = ("карта", "карты", "карт")
CARDS_EN = ("card", "cards")
CHARS_RU = ("символа", "символов", "символов")
CHARS_EN = ("character", "characters")
WHO: dict[str, Any] = {"who": "Ann", "by": "Bob"}
COMPLAINTS_ACC_RU = ("жалобу", "жалобы", "жалоб")
COMPLAINTS_EN = ("complaint", "complaints")
ROWS_RU = ("строка", "строки", "строк")
ROWS_EN = ("more row", "more rows")
SECONDS_GEN_RU = ("секунды", "секунд", "секунд")
IMPORT: dict[str, Any] = {"linked": 1, "unchanged": 2, "refused": 3}
DAYS_RU = ("день", "дня", "дней")
DAYS_EN = ("day", "days")
GAMES_RU = ("игра", "игры", "игр")
GAMES_EN = ("game", "games")
GAMES_GEN_RU = ("игры", "игр", "игр")  # «от 1 игры», «от 2 игр», «из 21 игры»
COUNTED_GEN_RU = ("засчитанной игры", "засчитанных игр", "засчитанных игр")
COUNTED_EN = ("counted game", "counted games")
ROLES_LINE: dict[str, Any] = {"name": "Доктор", "wins": 1, "rate": "50%", "everyone": "40%",
                              "games": 3, "everyone_games": 30}
GIFT: dict[str, Any] = {"name": "Кружка", "left": 3}
REQUEST: dict[str, Any] = {"id": 12, "gift": "Кружка", "date": date(2026, 3, 10)}

CASES: dict[str, tuple[str, tuple[str, str, str], tuple[str, str], dict[str, Any]]] = {
    "balance.text": ("points", POINTS_RU, POINTS_EN, {}),
    "admin.insufficient": ("balance", POINTS_RU, POINTS_EN, {"nick": "Neo", "points": 3}),
    "admin.adjust_insufficient": ("points", POINTS_RU, POINTS_EN, {"nick": "Neo", "balance": 7}),
    "admin.adjust_insufficient#balance": ("balance", POINTS_RU, POINTS_EN,
                                          {"nick": "Neo", "points": 7}),
    "admin.status_process": ("clubs", ("клуб", "клуба", "клубов"), ("club", "clubs"),
                             {"session": "77", "roles": "x"}),
    "admin.status_process_this": ("clubs", ("клуб", "клуба", "клубов"), ("club", "clubs"),
                                  {"session": "77", "roles": "x"}),
    "admin.status_outbox": ("seconds", SECONDS_ACC_RU, SECONDS_EN, {"pending": 3}),
    "admin.redeemed": ("points", POINTS_RU, POINTS_EN,
                       {"nick": "Neo", "reason": "mug", "balance": 4}),
    "admin.redeemed_notice": ("points", POINTS_RU, POINTS_EN, {"reason": "mug", "balance": 4}),
    "expiry.warning": ("points", POINTS_RU, POINTS_EN, {"nick": "Neo", "date": date(2026, 3, 4)}),
    "nick.too_short": ("min", CHARS_RU, CHARS_EN, {}),
    "nick.too_long": ("max", CHARS_RU, CHARS_EN, {}),
    "game.lobby.text": ("count", PLAYERS_RU, PLAYERS_EN, {"game": 7, "seats": "—", "friendly": ""}),
    "game.lobby.closed_expired": ("hours", ("час", "часа", "часов"), ("hour", "hours"),
                                  {"game": 7}),
    "game.roles.show": ("count", CARDS_RU, CARDS_EN, {"roles": "mafia"}),
    "miniapp.action.preset_club": ("count", CARDS_RU, CARDS_EN, {}),
    "panel.preset.club": ("count", CARDS_RU, CARDS_EN, {}),
    "panel.preset.default": ("count", CARDS_RU, CARDS_EN, {}),
    "miniapp.action.preset_default": ("count", CARDS_RU, CARDS_EN, {}),
    "miniapp.player.gift": ("price", POINTS_RU, POINTS_EN, {"left": 2}),
    "miniapp.player.roles_note": ("games", ("игры", "игр", "игр"), GAMES_EN, {}),
    "miniapp.player.fouls": ("fouls", ("нарушение", "нарушения", "нарушений"),
                             ("foul", "fouls"), {}),
    "miniapp.player.evening": ("tables", ("стол", "стола", "столов"), ("table", "tables"),
                               {"seats": 10, "count": 3, "capacity": 10, "waiting": 0}),
    "game.deal.size": ("cards", CARDS_RU, CARDS_EN, {"seats": 3}),
    "game.deal.size#seats": ("seats", PLAYERS_RU, PLAYERS_EN, {"cards": 3}),
    "game.deal.done": ("count", PLAYERS_RU, PLAYERS_EN, {"commitment": "ab"}),
    "game.night.start": ("seconds", SECONDS_RU, SECONDS_EN, {"night": 1}),
    "game.night.agree_chief": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "game.night.agree_you": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "game.night.agree_none": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "game.vote.prompt": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "panel.left": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "game.vote.board": ("seconds", SECONDS_RU, SECONDS_EN, {"day": 1, "lines": "—", "done": ""}),
    "game.vote.board_now": ("seconds", SECONDS_RU, SECONDS_EN, WHO),
    "game.cancel.window": ("seconds", SECONDS_ACC_RU, SECONDS_EN, WHO),
    "game.cancel.ask": ("seconds", SECONDS_RU, SECONDS_EN, WHO),
    "game.last_word.start": ("seconds", SECONDS_RU, SECONDS_EN, WHO),
    "game.speak.start": ("seconds", SECONDS_RU, SECONDS_EN, WHO),
    "game.speak.given": ("seconds", SECONDS_RU, SECONDS_EN, WHO),
    "game.status.deadline": ("seconds", SECONDS_RU, SECONDS_EN, {}),
    "game.extend.bad": ("max", SECONDS_ACC_RU, SECONDS_EN, {}),
    "game.extend.done": ("seconds", SECONDS_ACC_RU, SECONDS_EN, {}),
    "help.private": ("complaints", ("жалобы", "жалоб", "жалоб"), COMPLAINTS_EN, {}),
    "club.complain.limit": ("limit", COMPLAINTS_ACC_RU, COMPLAINTS_EN, {}),
    "club.import.dry": ("added", PLAYERS_RU, PLAYERS_EN, IMPORT),
    "club.import.done": ("added", PLAYERS_RU, PLAYERS_EN, IMPORT),
    "club.import.more": ("count", ROWS_RU, ROWS_EN, {}),
    "club.link.done": ("points", POINTS_RU, POINTS_EN, {"nick": "Neo", "name": "Neo", "id": 5}),
    "club.link.notice": ("points", POINTS_RU, POINTS_EN, {"nick": "Neo", "games": 3}),
    "club.settings.timer": ("seconds", SECONDS_RU, SECONDS_EN, {"name": "Night"}),
    "club.settings.timer_range": ("min", SECONDS_GEN_RU, SECONDS_EN, {"max": 600}),
    "club.settings.timer_range#max": ("max", SECONDS_GEN_RU, SECONDS_EN, {"min": 15}),
    "club.bad_seat": ("count", PLAYERS_RU, PLAYERS_EN, {"seat": 99}),
    "foul.fine.taken": ("points", POINTS_RU, POINTS_EN, {}),
    "foul.fine.short": ("points", POINTS_RU, POINTS_EN, {"price": 3}),
    "foul.fine.short#price": ("price", POINTS_RU, POINTS_EN, {"points": 1}),
    "foul.fine.empty": ("price", POINTS_RU, POINTS_EN, {}),
    "foul.back": ("points", POINTS_RU, POINTS_EN, {}),
    "club.settings.foul_fine": ("points", POINTS_RU, POINTS_EN, {}),
    "foul.fine.capped": ("points", POINTS_RU, POINTS_EN, {"price": 50, "cap": 20}),
    "foul.fine.capped#price": ("price", POINTS_RU, POINTS_EN, {"points": 1, "cap": 20}),
    "foul.fine.capped#cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN,
                             {"points": 1, "price": 50}),
    "foul.fine.capped_out": ("cap", POINTS_RU, POINTS_EN, {"price": 50}),
    "foul.fine.capped_out#price": ("price", POINTS_RU, POINTS_EN, {"cap": 20}),
    "foul.fine.reserved": ("points", POINTS_RU, POINTS_EN, {"price": 50}),
    "foul.fine.reserved#price": ("price", POINTS_RU, POINTS_EN, {"points": 1}),
    "foul.fine.reserved_out": ("price", POINTS_RU, POINTS_EN, {}),
    "void.notice_short": ("points", POINTS_RU, POINTS_EN, {}),
    "void.too_late": ("days", ("дня", "дней", "дней"), DAYS_EN, {"game": 3}),
    "club.settings.fine_cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN, {}),
    "club.settings.fine_set": ("points", POINTS_RU, POINTS_EN, {}),
    "network.fine_cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN, {}),
    "network.game_fine_cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN, {}),
    "network.set.fine_cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN, {"old": 3}),
    "network.set.game_fine_cap": ("cap", ("балла", "баллов", "баллов"), POINTS_EN,
                                  {"old": 3}),
    "network.lowered": ("count", ("клубе", "клубах", "клубах"), ("club", "clubs"),
                        {"cap": 5, "clubs": "A"}),
    "network.club_lowered": ("cap", ("балла", "баллов", "баллов"), POINTS_EN, {"before": 8}),
    "network.range": ("top", ("балла", "баллов", "баллов"), POINTS_EN, {}),
    "clubs.too_long": ("most", ("символа", "символов", "символов"), CHARS_EN, {}),
    "appeal.usage": ("hours", ("часа", "часов", "часов"), ("hour", "hours"), {}),
    "appeal.too_late": ("hours", ("часа", "часов", "часов"), ("hour", "hours"), {"game": 3}),
    "shop.balance_reserved": ("reserved", POINTS_RU, POINTS_EN, {"available": 3}),
    "shop.balance_reserved#available": ("available", POINTS_RU, POINTS_EN, {"reserved": 3}),
    "shop.line_yes": ("price", POINTS_RU, POINTS_EN, GIFT),
    "shop.line_no": ("price", POINTS_RU, POINTS_EN, {**GIFT, "why": "x"}),
    "shop.why.insufficient": ("missing", POINTS_RU, POINTS_EN, {}),
    "shop.mine_line": ("points", POINTS_RU, POINTS_EN, REQUEST),
    "shop.card": ("price", POINTS_RU, POINTS_EN, GIFT),
    "shop.asked": ("points", POINTS_RU, POINTS_EN, {**REQUEST, "days": 14}),
    "shop.asked#days": ("days", DAYS_RU, DAYS_EN, {**REQUEST, "points": 30}),
    "shop.withdrawn": ("points", POINTS_RU, POINTS_EN, REQUEST),
    "shop.button.exchange": ("price", POINTS_RU, POINTS_EN, {}),
    "shop.button.confirm": ("price", POINTS_RU, POINTS_EN, {"name": "Mug"}),
    "shop.notice": ("points", POINTS_RU, POINTS_EN, {**REQUEST, "player": "Neo", "balance": 9}),
    "shop.closed_notice": ("points", POINTS_RU, POINTS_EN,
                           {**REQUEST, "player": "Neo", "outcome": "x"}),
    "shop.told.handed_over": ("points", POINTS_RU, POINTS_EN, REQUEST),
    "shop.told.cancelled": ("points", POINTS_RU, POINTS_EN, REQUEST),
    "shop.told.expired": ("points", POINTS_RU, POINTS_EN, {**REQUEST, "days": 14}),
    "shop.told.expired#days": ("days", DAYS_RU, DAYS_EN, {**REQUEST, "points": 30}),
    "shop.request_line": ("points", POINTS_RU, POINTS_EN, {**REQUEST, "player": "Neo"}),
    "shop.take_reserved": ("balance", POINTS_RU, POINTS_EN,
                           {"nick": "Neo", "reserved": 3, "available": 1, "points": 2}),
    "shop.take_reserved#reserved": ("reserved", POINTS_RU, POINTS_EN,
                                    {"nick": "Neo", "balance": 3, "available": 1, "points": 2}),
    "shop.refused.price_changed": ("price", POINTS_RU, POINTS_EN, {"gift": "Mug"}),
    "shop.refused.insufficient": ("price", POINTS_RU, POINTS_EN,
                                  {"gift": "Mug", "available": 3}),
    "shop.refused.insufficient#available": ("available", POINTS_RU, POINTS_EN,
                                            {"gift": "Mug", "price": 3}),
    "shop.refused.handover_insufficient": ("points", POINTS_RU, POINTS_EN,
                                           {"id": 3, "balance": 1}),
    "shop.admin.head": ("count", ("подарок", "подарка", "подарков"), ("gift", "gifts"),
                        {"requests": 2}),
    "shop.admin.bad_name": ("max", CHARS_RU, CHARS_EN, {}),
    "shop.expiry_warning": ("reserved", POINTS_RU, POINTS_EN, {}),
    "shop.admin.line": ("price", POINTS_RU, POINTS_EN,
                        {"id": 1, "name": "Mug", "stock": 5, "reserved": 1}),
    "standing.rating": ("games", GAMES_RU, GAMES_EN, {"ordinal": 3.5, "wins": 1}),
    "standing.roles.line": ("games", GAMES_RU, GAMES_EN, ROLES_LINE),
    "standing.roles.line#everyone": ("everyone_games", GAMES_GEN_RU, GAMES_EN, ROLES_LINE),
    "standing.roles.note": ("games", GAMES_GEN_RU, GAMES_EN, {}),
    "web.roles.note": ("games", GAMES_GEN_RU, GAMES_EN, {}),
    "standing.top.role": ("games", COUNTED_GEN_RU, COUNTED_EN, {"card": "Доктор"}),
    "standing.top.role_empty": ("games", COUNTED_GEN_RU, COUNTED_EN, {"card": "Доктор"}),
    "standing.top.role_row": ("games", GAMES_RU, GAMES_EN,
                              {"rank": 1, "nick": "Neo", "rate": "50%", "wins": 1}),
    "season.mine": ("games", GAMES_RU, GAMES_EN, {"ordinal": 3.5, "points": 4}),
    "season.mine#points": ("points", POINTS_RU, POINTS_EN, {"ordinal": 3.5, "games": 4}),
    "season.row.rating": ("games", GAMES_RU, GAMES_EN, {"rank": 1, "nick": "Neo", "ordinal": 3.5}),
    "season.empty.rating": ("games", GAMES_GEN_RU, GAMES_EN, {}),
    "season.fame.head": ("places", ("место", "места", "мест"), ("place", "places"),
                         {"name": "Q1"}),
    "network.season.refused.name": ("most", CHARS_RU, CHARS_EN, {}),
    "achievement.season_top.told": ("count", ("сезон", "сезона", "сезонов"), ("season", "seasons"),
                                    {"season": "2026 Q4", "rank": 3, "title": "🌟"}),
    "standing.side": ("games", GAMES_RU, GAMES_EN, {"side": "Mafia", "ordinal": 3.5, "wins": 1}),
    "standing.top.row": ("games", GAMES_RU, GAMES_EN, {"rank": 1, "nick": "Neo", "ordinal": 2.0}),
    "standing.provisional.note": ("games", ("игры", "игр", "игр"), GAMES_EN, {}),
    "standing.top.empty": ("games", ("завершённой игры", "завершённых игр", "завершённых игр"),
                           ("finished game", "finished games"), {}),
    "web.standing.about.4": ("games", ("игры", "игр", "игр"), GAMES_EN, {}),
}


def ru_form(n: int, forms: tuple[str, str, str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def en_form(n: int, forms: tuple[str, str]) -> str:
    return forms[0] if n == 1 else forms[1]


def plural_selectors(message: ftl.Message) -> set[str]:
    """The variables a message selects variants on."""
    found: set[str] = set()

    class Selectors(Visitor):
        def visit_SelectExpression(self, node: ftl.SelectExpression) -> None:
            if isinstance(node.selector, ftl.VariableReference):
                found.add(node.selector.id.name)
            self.generic_visit(node)

    Selectors().visit(message)
    return found


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("n", COUNTS)
def test_counts_pick_the_right_form(case: str, n: int) -> None:
    key = case.split("#")[0]
    var, ru_forms, en_forms, extra = CASES[case]
    ru = TRANSLATOR.t("ru", key, **{**extra, var: n})
    en = TRANSLATOR.t("en", key, **{**extra, var: n})
    assert f"{n} {ru_form(n, ru_forms)}" in ru, ru
    assert f"{n} {en_form(n, en_forms)}" in en, en
    wrong_ru = {f"{n} {form}" for form in ru_forms} - {f"{n} {ru_form(n, ru_forms)}"}
    assert not [w for w in wrong_ru if f"{w} " in f"{ru} " or f"{w}." in ru or f"{w})" in ru]


# a verb before a count of points agrees with it: «списан 1 балл», «списано 2 балла»
# (key -> counted variable, other arguments, the verb for one, the verb for the rest)
AGREEING: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "admin.redeemed": ("points", {"nick": "Neo", "reason": "mug", "balance": 4}, "списан",
                       "списано"),
    "admin.redeemed_notice": ("points", {"reason": "mug", "balance": 4}, "Списан", "Списано"),
    "club.link.done": ("points", {"nick": "Neo", "name": "Neo", "id": 5}, "начислен",
                       "начислено"),
    "foul.fine.short": ("points", {"price": 30}, "списан", "списано"),
    "foul.fine.reserved": ("points", {"price": 30}, "списан", "списано"),
    "foul.fine.capped": ("points", {"price": 50, "cap": 20}, "списан", "списано"),
    "shop.refused.insufficient": ("available", {"gift": "Mug", "price": 30}, "доступен",
                                  "доступно"),
    "shop.refused.handover_insufficient": ("points", {"id": 3, "balance": 1}, "нужен", "нужно"),
}


@pytest.mark.parametrize("key", sorted(AGREEING))
@pytest.mark.parametrize("n", COUNTS)
def test_a_verb_before_a_count_agrees_with_it(key: str, n: int) -> None:
    var, extra, one, rest = AGREEING[key]
    ru = TRANSLATOR.t("ru", key, **{**extra, var: n})
    verb = one if ru_form(n, ("one", "few", "many")) == "one" else rest
    assert f"{verb} {n} {ru_form(n, POINTS_RU)}" in ru, ru

def test_the_examples_from_the_bug_report() -> None:
    assert TRANSLATOR.t("ru", "balance.text", points=1) == "<b>Баланс:</b> 1 балл"
    assert TRANSLATOR.t("en", "balance.text", points=1) == "<b>Balance:</b> 1 point"
    assert TRANSLATOR.t("ru", "admin.redeemed_notice", points=22, reason="кружка",
                        balance=3) == "Подарок: кружка. Списано 22 балла, баланс: 3."
    assert "(22 игрока)" in TRANSLATOR.t("ru", "game.deal.done", count=22, commitment="x")
    forms = [TRANSLATOR.t("ru", "balance.text", points=n).split("</b> ")[1]
             for n in (1, 2, 5, 11, 21, 22, 111)]
    assert forms == ["1 балл", "2 балла", "5 баллов", "11 баллов", "21 балл", "22 балла",
                     "111 баллов"]


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_text_with_a_plural_is_covered(locale: str) -> None:
    """A new text that selects on a count must be added to CASES (and so get checked)."""
    catalog = TRANSLATOR.catalogs[locale]
    selecting = {(key, var) for key, message in catalog.messages.items()
                 for var in plural_selectors(message) if var not in SEX_VARIABLES}
    selecting -= PRESENCE_SELECTORS
    selecting -= {(key, spec[0]) for key, spec in ONE_OR_MORE.items()}
    covered = {(case.split("#")[0], spec[0]) for case, spec in CASES.items()}
    assert selecting == covered


NUMBER_NAMES = {"points", "balance", "count", "seconds", "cards", "min", "max", "top", "most",
                "hours"}


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_counted_words_never_follow_a_bare_number(locale: str) -> None:
    """A count variable right before a noun must go through a selector (no "1 баллов")."""
    nouns = ("балл", "point", "секунд", "second", "игрок", "player", "карт", "card", "символ",
             "character", "час", "hour", " с)", " s)", " с.", " s.")
    for key, message in TRANSLATOR.catalogs[locale].messages.items():
        assert message.value is not None
        for i, element in enumerate(message.value.elements[:-1]):
            if not isinstance(element, ftl.Placeable):
                continue
            expr = element.expression
            if not (isinstance(expr, ftl.VariableReference) and expr.id.name in NUMBER_NAMES):
                continue
            following = message.value.elements[i + 1]
            if isinstance(following, ftl.TextElement):
                text = following.value[:12]
                assert not any(text.startswith((f" {n}", n)) for n in nouns), (key, text)


@pytest.mark.parametrize("key", sorted(ONE_OR_MORE))
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_heading_says_one_only_for_exactly_one(key: str, locale: str) -> None:
    var, extra = ONE_OR_MORE[key]
    one = TRANSLATOR.t(locale, key, **{**extra, var: 1})
    for n in (2, 5, 21, 101):
        assert TRANSLATOR.t(locale, key, **{**extra, var: n}) == TRANSLATOR.t(
            locale, key, **{**extra, var: 2}) != one

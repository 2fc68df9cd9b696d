"""Locales are complete in both languages, variables agree, files parse, arguments are escaped."""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from views.i18n import (
    LOCALES_DIR,
    CatalogError,
    Safe,
    TranslationError,
    Translator,
    key_to_id,
    pick_locale,
    printed_only,
    variables,
)

TRANSLATOR = Translator.load()


def test_both_locales_exist() -> None:
    assert set(TRANSLATOR.catalogs) == {"ru", "en"}
    assert len(TRANSLATOR.catalogs["ru"]) > 300


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_files_parse_without_junk(locale: str) -> None:
    assert TRANSLATOR.catalogs[locale].errors == []


@pytest.mark.parametrize(("a", "b"), [("ru", "en"), ("en", "ru")])
def test_every_key_in_both(a: str, b: str) -> None:
    missing = set(TRANSLATOR.catalogs[a]) - set(TRANSLATOR.catalogs[b])
    assert not missing, f"keys of {a} missing in {b}: {sorted(missing)}"


# a player's sex: a language uses it where its grammar agrees with the player (Russian verbs,
# English pronouns); the code passes it to the message in every language
SEX_VARIABLES = {"sex", "spouse_sex"}


def test_english_quotes_with_its_own_marks() -> None:
    """English quotes “so”: guillemets are Russian (a lone « is the catalogue's back arrow)."""
    for path in sorted((LOCALES_DIR / "en").glob("*.ftl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"«[^»\s][^»]*»", line), f"{path.name}:{number}: {line}"


@pytest.mark.parametrize(("locale", "form"), [("en", "%Y-%m-%d"), ("ru", "%d.%m.%Y")])
def test_a_language_writes_a_date_one_way(locale: str, form: str) -> None:
    """A whole date reads one way in each language everywhere (/balance, /stats, /top, the
    pages): 2026-03-04 in English, 04.03.2026 in Russian, never both in one language."""
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        text = path.read_text(encoding="utf-8")
        formats = set(re.findall(r'DATE\([^)]*format: "([^"]*%Y[^"]*)"', text))
        assert formats <= {form}, (path.name, formats)


def test_english_numbers_a_game_one_way() -> None:
    """An English reader meets "game #12" in the chat, /balance and the pages alike (a seat
    keeps its "№3": the table's own mark); Russian says «игра №12» everywhere."""
    for path in sorted((LOCALES_DIR / "en").glob("*.ftl")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"№\{ \$game \}", text), path.name
    assert TRANSLATOR.t("en", "game.join.ok", seat=3, game=12) == (
        "You are at the table: seat №3 (game #12).")


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_no_text_sends_a_reader_to_a_file_of_the_repository(locale: str) -> None:
    """A club admin in Telegram cannot open docs/*.md: /help says what they need itself."""
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith("#"):
                assert not re.search(r"docs/|\.md\b", line), f"{path.name}:{number}: {line}"
    club_admin = TRANSLATOR.t(locale, "help.club_admin", clubs="Club")
    assert "/club set" in club_admin and "/staff chatadmins" in club_admin


def test_a_reason_names_a_card_by_its_name() -> None:
    """The end's points name the card as the deal did (Russian: «выстрел Киллера Мафии»)."""
    card = TRANSLATOR.t("en", "game.role.mafia_killer")
    assert TRANSLATOR.t("en", "game.reason.killer_shot") == f"{card}'s shot at a civilian"
    assert card == "Mafia Killer"


def test_the_night_says_how_long_it_lasts_in_words() -> None:
    """Not "(60 seconds)" after the buttons, which read as the buttons' own time."""
    assert TRANSLATOR.t("en", "game.night.start", night=2, seconds=60) == (
        "🌙 <b>Night 2.</b> The town falls asleep. Everyone who can act got buttons in private; "
        "the night lasts 60 seconds.")


def test_variables_agree() -> None:
    ru, en = TRANSLATOR.catalogs["ru"].messages, TRANSLATOR.catalogs["en"].messages
    differ = {k for k in ru if k in en
              and variables(ru[k]) - SEX_VARIABLES != variables(en[k]) - SEX_VARIABLES}
    assert not differ, f"variables differ: {sorted(differ)}"


def test_completeness_check_catches_a_gap_and_junk(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "en").mkdir()
    (tmp_path / "ru" / "main.ftl").write_text("a = x { $n }\nb = y\n", encoding="utf-8")
    (tmp_path / "ru" / "extra.ftl").write_text("c = z\n", encoding="utf-8")
    (tmp_path / "en" / "main.ftl").write_text("a = x { $m }\nbroken = { $\n", encoding="utf-8")
    tr = Translator.load(tmp_path)
    assert set(tr.catalogs["ru"]) - set(tr.catalogs["en"]) == {"b", "c"}  # every *.ftl is loaded
    ru_a, en_a = tr.catalogs["ru"].messages["a"], tr.catalogs["en"].messages["a"]
    assert variables(ru_a) == {"n"} and variables(en_a) == {"m"}
    assert tr.catalogs["ru"].errors == []
    assert len(tr.catalogs["en"].errors) == 1


def test_duplicate_ids_are_reported(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "ru" / "a.ftl").write_text("k = 1\n", encoding="utf-8")
    (tmp_path / "ru" / "b.ftl").write_text("k = 2\n", encoding="utf-8")
    assert Translator.load(tmp_path).catalogs["ru"].errors == ["ru/b.ftl: duplicate id k"]


def test_no_catalogs_refuse_to_load(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="no translations"):
        Translator.load(tmp_path)


def test_every_key_used_in_code_exists() -> None:
    """Literal keys passed to t(...) / UserError(...) in bot/, views/ and web/ exist in the
    catalog."""
    keys: set[str] = set()
    root = LOCALES_DIR.parent
    paths = [*(root / "bot").rglob("*.py"), *(root / "views").rglob("*.py"),
             *(root / "web").rglob("*.py")]
    for path in paths:
        if "game" in path.parts:  # the game layer checks its own keys
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            index = 1 if name == "t" else 0 if name == "UserError" else None
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value)
    assert keys, "no keys found: the scan is broken"
    for locale in ("ru", "en"):
        assert not keys - set(TRANSLATOR.catalogs[locale]), locale


def test_keys_map_to_fluent_ids() -> None:
    assert key_to_id("game.lobby.text") == "game-lobby-text"
    assert key_to_id("start.lobby_not_found") == "start-lobby_not_found"
    assert TRANSLATOR.t("en", "start.back", name="Ann").startswith("Welcome back, Ann")


def test_string_arguments_are_escaped() -> None:
    tr = Translator.from_sources({"en": "k = <b>{ $nick }</b> { $n } { $raw }"}, "en")
    assert tr.t("en", "k", nick="<i>&", n=3, raw=Safe("<u>x</u>")) == (
        "<b>&lt;i&gt;&amp;</b> 3 <u>x</u>"
    )


def test_numbers_have_no_grouping_and_dates_and_signs_format() -> None:
    tr = Translator.from_sources({
        "ru": 'k = { $n } { SIGNED($d) } { DATE($day, format: "%d.%m.%Y") }',
        "en": 'k = { $n } { SIGNED($d) } { DATE($day, format: "%Y-%m-%d") }',
    })
    assert tr.t("ru", "k", n=1500000, d=5, day=date(2026, 3, 4)) == "1500000 +5 04.03.2026"
    assert tr.t("en", "k", n=1500000, d=-5, day=date(2026, 3, 4)) == "1500000 -5 2026-03-04"


def test_whole_numbers_print_as_digits_and_still_select_plurals() -> None:
    """An ``int`` prints as its digits without babel's pattern; plural selection and
    NUMBER()'s own options work as before; a negative one keeps the locale's minus."""
    tr = Translator.from_sources({
        "ru": ("k = { $n } { $n ->\n  [one] игрок\n  [few] игрока\n *[many] игроков\n}\n"
               "pad = { NUMBER($n, minimumIntegerDigits: 3) }\n"),
        "en": ("k = { $n } { $n ->\n  [one] player\n *[other] players\n}\n"
               "pad = { NUMBER($n, minimumIntegerDigits: 3) }\n"),
    })
    assert [tr.t("ru", "k", n=n) for n in (1, 3, 5, 21, 0)] == [
        "1 игрок", "3 игрока", "5 игроков", "21 игрок", "0 игроков"]
    assert [tr.t("en", "k", n=n) for n in (1, 2, 1234567)] == [
        "1 player", "2 players", "1234567 players"]
    assert tr.t("en", "pad", n=7) == "007"
    assert tr.t("en", "k", n=-1500) == "-1500 players"


def test_a_number_a_message_only_prints_is_its_digits() -> None:
    """Printed only (no selector, no function): passed as its digits, without babel."""
    tr = Translator.from_sources({"en": ("p = №{ $n }, game { $g }\n"
                                         "s = { $n } { $n ->\n  [one] x\n *[other] y\n}\n"
                                         "f = { NUMBER($n) } { $g }\n")}, "en")
    catalog = tr.catalogs["en"]
    assert printed_only(catalog.messages["p"]) == {"n", "g"}
    assert printed_only(catalog.messages["s"]) == set()
    assert printed_only(catalog.messages["f"]) == {"g"}
    assert tr.t("en", "p", n=1234567, g=0) == "№1234567, game 0"
    assert tr.t("en", "p", n=-3, g=1.5) == "№-3, game 1.5"
    assert tr.t("en", "s", n=1) == "1 x"
    assert tr.t("en", "f", n=2, g=3) == "2 3"


def test_a_message_without_arguments_is_rendered_once() -> None:
    tr = Translator.from_sources({"en": "k = plain\nv = { $n }"}, "en")
    catalog = tr.catalogs["en"]
    calls = []
    real = catalog.bundle.format_pattern

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    catalog.bundle.format_pattern = counted  # type: ignore[method-assign,assignment]
    assert [tr.t("en", "k") for _ in range(3)] == ["plain"] * 3
    assert len(calls) == 1
    assert [tr.t("en", "v", n=n) for n in (1, 2)] == ["1", "2"]  # with arguments: each time
    assert len(calls) == 3
    with pytest.raises(TranslationError):  # an error is not kept as a text
        tr.t("en", "v")
    with pytest.raises(TranslationError):
        tr.t("en", "v")


def test_a_missing_argument_is_an_error() -> None:
    tr = Translator.from_sources({"ru": "k = { $n }"})
    with pytest.raises(TranslationError, match="n"):
        tr.t("ru", "k")


def test_missing_key_falls_back() -> None:
    tr = Translator.from_sources({"ru": "k = ру", "en": ""}, "ru")
    assert tr.t("en", "k") == "ру"
    assert tr.t("en", "nope") == "nope"
    assert tr.t("de", "k") == "ру"


@pytest.mark.parametrize(
    ("setting", "code", "expected"),
    [("en", "ru", "en"), (None, "en-US", "en"), (None, "ru", "ru"), (None, "de", "ru"),
     (None, None, "ru"), ("xx", "en", "en")],
)
def test_pick_locale(setting: str | None, code: str | None, expected: str) -> None:
    assert pick_locale(setting, code, "ru") == expected

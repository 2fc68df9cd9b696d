"""Locales are complete in both languages, placeholders agree, and arguments are escaped."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import LOCALES_DIR, Safe, Translator, pick_locale, placeholders

TRANSLATOR = Translator.load()


def test_both_locales_exist() -> None:
    assert set(TRANSLATOR.catalogs) == {"ru", "en"}


@pytest.mark.parametrize(("a", "b"), [("ru", "en"), ("en", "ru")])
def test_every_key_in_both(a: str, b: str) -> None:
    missing = set(TRANSLATOR.catalogs[a]) - set(TRANSLATOR.catalogs[b])
    assert not missing, f"keys of {a} missing in {b}: {sorted(missing)}"


def test_placeholders_agree() -> None:
    ru, en = TRANSLATOR.catalogs["ru"], TRANSLATOR.catalogs["en"]
    differ = {k for k in ru if k in en and placeholders(ru[k]) != placeholders(en[k])}
    assert not differ, f"placeholders differ: {sorted(differ)}"


def test_completeness_check_catches_a_gap(tmp_path: Path) -> None:
    (tmp_path / "ru.toml").write_text('a = "x {n}"\nb = "y"\n', encoding="utf-8")
    (tmp_path / "en.toml").write_text('a = "x {m}"\n', encoding="utf-8")
    tr = Translator.load(tmp_path)
    assert set(tr.catalogs["ru"]) - set(tr.catalogs["en"]) == {"b"}
    assert placeholders(tr.catalogs["ru"]["a"]) != placeholders(tr.catalogs["en"]["a"])


def test_every_key_used_in_code_exists() -> None:
    """Literal keys passed to t(...) / UserError(...) in bot/ exist in the catalog."""
    keys: set[str] = set()
    for path in (LOCALES_DIR.parent / "bot").rglob("*.py"):
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


def test_string_arguments_are_escaped() -> None:
    tr = Translator({"en": {"k": "<b>{nick}</b> {n} {raw}"}}, "en")
    assert tr.t("en", "k", nick="<i>&", n=3, raw=Safe("<u>x</u>")) == (
        "<b>&lt;i&gt;&amp;</b> 3 <u>x</u>"
    )


def test_missing_key_falls_back() -> None:
    tr = Translator({"ru": {"k": "ру"}, "en": {}}, "ru")
    assert tr.t("en", "k") == "ру"
    assert tr.t("en", "nope") == "nope"


@pytest.mark.parametrize(
    ("setting", "code", "expected"),
    [("en", "ru", "en"), (None, "en-US", "en"), (None, "ru", "ru"), (None, "de", "ru"),
     (None, None, "ru"), ("xx", "en", "en")],
)
def test_pick_locale(setting: str | None, code: str | None, expected: str) -> None:
    assert pick_locale(setting, code, "ru") == expected

"""Texts from ``locales/*.toml`` with ``{placeholder}`` formatting for HTML parse mode.

Every ``str`` keyword argument is HTML-escaped (user-provided names must always be); wrap
already-safe markup in :class:`Safe` to pass it through unchanged.
"""

from __future__ import annotations

import html
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
SUPPORTED = ("ru", "en")


class Safe(str):
    """A string that is already valid HTML and must not be escaped again."""

    __slots__ = ()


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{name}."))
        else:
            out[name] = str(value)
    return out


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Translator:
    def __init__(self, catalogs: Mapping[str, Mapping[str, str]], default: str = "ru") -> None:
        self.catalogs = {k: dict(v) for k, v in catalogs.items()}
        self.default = default

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR, default: str = "ru") -> Translator:
        catalogs: dict[str, dict[str, str]] = {}
        for path in sorted(directory.glob("*.toml")):
            with path.open("rb") as fh:
                # ``<lang>.<part>.toml`` (e.g. ru.game.toml) merges into the ``<lang>`` catalog.
                lang = path.name.split(".", 1)[0]
                catalogs.setdefault(lang, {}).update(_flatten(tomllib.load(fh)))
        return cls(catalogs, default)

    def has(self, locale: str, key: str) -> bool:
        return key in self.catalogs.get(locale, {})

    def t(self, locale: str, key: str, /, **kwargs: Any) -> str:
        template = self.catalogs.get(locale, {}).get(key)
        if template is None:
            template = self.catalogs.get(self.default, {}).get(key)
        if template is None:
            return html.escape(key)
        safe = {
            name: value if isinstance(value, Safe) or not isinstance(value, str)
            else html.escape(value, quote=False)
            for name, value in kwargs.items()
        }
        return template.format(**safe)


@cache
def default_translator() -> Translator:
    return Translator.load()


def t(locale: str, key: str, /, **kwargs: Any) -> str:
    """Translate ``key`` into ``locale``; string kwargs are HTML-escaped."""
    return default_translator().t(locale, key, **kwargs)


def pick_locale(setting: str | None, language_code: str | None, default: str) -> str:
    """The player's setting, then Telegram's language code (ru/en), else ``default``."""
    if setting in SUPPORTED:
        return setting
    if language_code:
        code = language_code.split("-")[0].lower()
        if code in SUPPORTED:
            return code
    return default

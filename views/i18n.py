"""Texts from ``locales/<lang>/*.ftl`` (Project Fluent), rendered for HTML parse mode.

Call sites use dotted keys, ``t(locale, "start.new", name=...)``; a key maps to the Fluent
message id with every ``.`` replaced by ``-`` (``start.new`` -> ``start-new``,
``game.lobby.text`` -> ``game-lobby-text``), so keys never contain ``-``. Each language folder may
hold any number of ``*.ftl`` files (one per area: ``main.ftl``, ``game.ftl``, ...); all of them are
loaded. Grammar lives in the files: counts select their word forms with CLDR plural categories
(``{ $count -> [one] ... [few] ... *[many] ... }``), so the code passes plain numbers; a text
that agrees with a player selects on ``$sex`` (:func:`sex_of`: ``m``, ``f`` or ``unknown``, whose
default variant needs no gender).

Every ``str`` keyword argument is HTML-escaped (user-provided names must always be); wrap
already-safe markup in :class:`Safe` to pass it through unchanged. ``int``/``float`` arguments stay
numbers (for plural selection) and are printed without grouping separators (``1500``, not
``1,500``). Two functions are available to the files: ``DATE($d, format: "%d.%m.%Y")`` (strftime)
and ``SIGNED($n)`` (``+5`` / ``-3``).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle
from fluent.runtime.types import FluentNumber, FluentType, fluent_number
from fluent.syntax import FluentParser
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

import locales

LOCALES_DIR = Path(locales.__file__).resolve().parent
SUPPORTED = ("ru", "en")

log = logging.getLogger("views.i18n")


class Safe(str):
    """A string that is already valid HTML and must not be escaped again."""

    __slots__ = ()


class TranslationError(ValueError):
    """A message could not be rendered (e.g. an argument it uses was not passed)."""


class CatalogError(RuntimeError):
    """The translation files are missing or broken."""


def key_to_id(key: str) -> str:
    """``start.new`` -> ``start-new`` (the one mapping from call-site keys to Fluent ids)."""
    return key.replace(".", "-")


def id_to_key(message_id: str) -> str:
    return message_id.replace("-", ".")


def variables(message: ftl.Message) -> set[str]:
    """Names of the ``$variables`` a message uses (in its value and its attributes)."""
    found: set[str] = set()

    class Names(Visitor):
        def visit_VariableReference(self, node: ftl.VariableReference) -> None:
            found.add(node.id.name)

    Names().visit(message)
    return found


def printed_only(message: ftl.Message) -> frozenset[str]:
    """The ``$variables`` a message's value only prints (``{ $n }``): never a selector nor a
    function's argument, so a whole number there needs no number formatting."""
    printed: set[str] = set()
    other: set[str] = set()

    def walk(node: object, placed: bool) -> None:
        if isinstance(node, ftl.VariableReference):
            (printed if placed else other).add(node.id.name)
        elif isinstance(node, ftl.Placeable):
            walk(node.expression, True)
        elif isinstance(node, ftl.BaseNode):
            for child in vars(node).values():
                for item in child if isinstance(child, list) else (child,):
                    walk(item, False)

    walk(message.value, False)
    return frozenset(printed - other)


def _date(value: Any, format: str = "%Y-%m-%d") -> str:
    if not isinstance(value, date):
        raise TypeError(f"DATE() needs a date, got {type(value).__name__}")
    return value.strftime(format)


def _signed(value: Any) -> str:
    if not isinstance(value, int | float | Decimal):
        raise TypeError(f"SIGNED() needs a number, got {type(value).__name__}")
    return f"{value:+}" if not isinstance(value, int) else f"{int(value):+d}"


FUNCTIONS: dict[str, Any] = {"DATE": _date, "SIGNED": _signed}


def _argument(value: Any) -> Any:
    if isinstance(value, Safe):
        return str(value)
    if isinstance(value, str):
        return html.escape(value, quote=False)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, FluentNumber):
        return value
    if isinstance(value, int | float | Decimal):
        return fluent_number(value, useGrouping=False)
    if isinstance(value, date | FluentType):
        return value
    return str(value)


class Catalog:
    """One language: its Fluent bundle plus the parsed messages (for checks and tests)."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.bundle = FluentBundle([locale], functions=FUNCTIONS, use_isolating=False)
        self.messages: dict[str, ftl.Message] = {}  # dotted key -> message
        # a message rendered without arguments, kept: the same text every time (card names,
        # teams, buttons: a deal renders dozens of them); the bundle, too, keeps a message compiled
        # from its first use
        self._plain: dict[str, str] = {}
        self._printed: dict[str, frozenset[str]] = {}  # key -> printed_only(its message)
        self.errors: list[str] = []  # syntax errors (junk) and duplicate ids

    def add(self, source: str, name: str = "<string>") -> None:
        resource = FluentParser(with_spans=False).parse(source)
        for entry in resource.body:
            if isinstance(entry, ftl.Junk):
                annotations = "; ".join(a.message or a.code for a in entry.annotations)
                content = (entry.content or "").strip()[:60]
                self.errors.append(f"{name}: {annotations}: {content!r}")
            elif isinstance(entry, ftl.Message):
                key = id_to_key(entry.id.name)
                if key in self.messages:
                    self.errors.append(f"{name}: duplicate id {entry.id.name}")
                self.messages[key] = entry
        self.bundle.add_resource(resource, allow_overrides=True)

    def __contains__(self, key: str) -> bool:
        message = self.messages.get(key)
        return message is not None and message.value is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)

    def render(self, key: str, args: Mapping[str, Any]) -> str:
        """``key`` with the call's ``args`` (as given to :meth:`Translator.t`)."""
        if not args:
            kept = self._plain.get(key)
            if kept is not None:
                return kept
        message = self.bundle.get_message(key_to_id(key))
        assert message.value is not None
        values: dict[str, Any] = {}
        if args:
            printed = self._printed.get(key)
            if printed is None:
                printed = self._printed[key] = printed_only(self.messages[key])
            for name, value in args.items():
                # a whole number only printed is its digits: babel's number pattern costs as
                # much as the rest of a short message (a deal's twelve cards print two numbers
                # each); a negative one keeps it (the locale's minus sign)
                values[name] = (int.__repr__(value) if name in printed and type(value) is int
                                and value >= 0 else _argument(value))
        text, errors = self.bundle.format_pattern(message.value, values)
        if errors:
            raise TranslationError(f"{self.locale}:{key}: {'; '.join(map(str, errors))}")
        if not args:
            self._plain[key] = str(text)
        return str(text)


class Translator:
    def __init__(self, catalogs: Mapping[str, Catalog], default: str = "ru") -> None:
        self.catalogs = dict(catalogs)
        self.default = default

    @classmethod
    def from_sources(cls, sources: Mapping[str, str], default: str = "ru") -> Translator:
        """From Fluent source text per locale (tests, tools)."""
        catalogs: dict[str, Catalog] = {}
        for locale, source in sources.items():
            catalogs[locale] = Catalog(locale)
            catalogs[locale].add(source)
        return cls(catalogs, default)

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR, default: str = "ru") -> Translator:
        """Every ``<directory>/<lang>/*.ftl``; raises :class:`CatalogError` if there is none."""
        catalogs: dict[str, Catalog] = {}
        for folder in sorted(p for p in directory.glob("*") if p.is_dir()):
            files = sorted(folder.glob("*.ftl"))
            if not files:
                continue
            catalog = catalogs[folder.name] = Catalog(folder.name)
            for path in files:
                catalog.add(path.read_text(encoding="utf-8"), f"{folder.name}/{path.name}")
            for error in catalog.errors:
                log.error("translation file error: %s", error)
        if default not in catalogs:
            raise CatalogError(f"no translations for {default!r} in {directory} "
                               f"(expected {directory}/{default}/*.ftl)")
        return cls(catalogs, default)

    def has(self, locale: str, key: str) -> bool:
        catalog = self.catalogs.get(locale)
        return catalog is not None and key in catalog

    def t(self, locale: str, key: str, /, **kwargs: Any) -> str:
        catalog = self.catalogs.get(locale)
        if catalog is None or key not in catalog:
            catalog = self.catalogs.get(self.default)
            if catalog is None or key not in catalog:
                return html.escape(key)
        return catalog.render(key, kwargs)


@cache
def default_translator() -> Translator:
    """The packaged texts (``LOCALES_DIR``), loaded once; raises :class:`CatalogError`."""
    return Translator.load(LOCALES_DIR)


def t(locale: str, key: str, /, **kwargs: Any) -> str:
    """Translate ``key`` into ``locale``; string kwargs are HTML-escaped."""
    return default_translator().t(locale, key, **kwargs)


def sex_of(value: str | None) -> str:
    """A player's sex as the texts select on it (``{ $sex -> [f] ... [m] ... *[other] ... }``):
    ``m``, ``f``, or ``unknown``, whose variant is the wording that needs no gender."""
    return value if value in ("m", "f") else "unknown"


def pick_locale(setting: str | None, language_code: str | None, default: str) -> str:
    """The player's setting, then Telegram's language code (ru/en), else ``default``."""
    if setting in SUPPORTED:
        return setting
    if language_code:
        code = language_code.split("-")[0].lower()
        if code in SUPPORTED:
            return code
    return default

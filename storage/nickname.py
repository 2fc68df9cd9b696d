"""Nickname rules: 3..24 characters; letters of any script, digits, space, ``_`` and ``-``."""

from __future__ import annotations

import unicodedata

from storage.errors import InvalidNickname

MIN_LENGTH = 3
MAX_LENGTH = 24
_EXTRA = frozenset(" _-")


def normalize_nickname(raw: str) -> str:
    """The stored form: NFC, outer spaces stripped, inner runs of spaces collapsed to one.

    Raises :class:`InvalidNickname` with reason "too_short", "too_long", "bad_chars" or
    "no_letter_or_digit".
    """
    text = unicodedata.normalize("NFC", raw).strip(" ")
    while "  " in text:
        text = text.replace("  ", " ")
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if ch in _EXTRA or category.startswith("L") or category == "Nd":
            continue
        # Combining marks are part of a letter in many scripts (e.g. Devanagari).
        if category in ("Mn", "Mc") and index > 0 and text[index - 1] not in _EXTRA:
            continue
        raise InvalidNickname(raw, "bad_chars")
    if len(text) < MIN_LENGTH:
        raise InvalidNickname(raw, "too_short")
    if len(text) > MAX_LENGTH:
        raise InvalidNickname(raw, "too_long")
    if not any(ch.isalnum() for ch in text):
        raise InvalidNickname(raw, "no_letter_or_digit")
    return text


def nickname_key(nickname: str) -> str:
    """The case-insensitive uniqueness key (Unicode case folding: "Ёж" == "ёЖ", "ß" == "ss")."""
    return unicodedata.normalize("NFC", nickname.casefold())

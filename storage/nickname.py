"""Nickname rules: 3..24 characters; letters of any script, digits, space, ``_`` and ``-``.

The stored form is NFKC (fullwidth "Ｂｏｂｂｙ" is stored as "Bobby"), and a letter carries at
most ``MAX_MARKS`` combining marks, never the same mark twice ("Bobbý́́" is refused). Look-alikes
of an existing nickname are refused by the storage (``storage.lookalike``)."""

from __future__ import annotations

import unicodedata

from storage.errors import InvalidNickname

MIN_LENGTH = 3
MAX_LENGTH = 24
MAX_MARKS = 2  # Vietnamese needs two (e + circumflex + dot below); nobody needs three
_EXTRA = frozenset(" _-")


def normalize_nickname(raw: str) -> str:
    """The stored form: NFKC, outer spaces stripped, inner runs of spaces collapsed to one.

    Raises :class:`InvalidNickname` with reason "too_short", "too_long", "bad_chars",
    "stacked_marks" or "no_letter_or_digit".
    """
    text = unicodedata.normalize("NFKC", raw).strip(" ")
    if _stacked_marks(text):
        raise InvalidNickname(raw, "stacked_marks")
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


def _stacked_marks(text: str) -> bool:
    """More than ``MAX_MARKS`` combining marks on one letter, or one mark twice."""
    marks: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) in ("Mn", "Mc", "Me"):
            if ch in marks or len(marks) >= MAX_MARKS:
                return True
            marks.append(ch)
        else:
            marks = []
    return False


def nickname_key(nickname: str) -> str:
    """The case-insensitive uniqueness key (Unicode case folding: "Ёж" == "ёЖ", "ß" == "ss")."""
    return unicodedata.normalize("NFC", nickname.casefold())

"""Look-alike nicknames: a skeleton in the spirit of Unicode UTS #39 ("confusable detection").

Two nicknames look alike when their skeletons are equal. The skeleton is: NFKC (fullwidth
"Ｂｏｂｂｙ" -> "Bobby", ligatures, superscripts), case folding, NFD, then every character mapped
through a table of letters that are drawn the same as a Latin letter (Cyrillic "о", Greek "ο",
digits "0"/"1", ...), and finally "rn" -> "m". Combining marks stay (so "Bobbý" and "Bobby"
differ, like "Андрей" and "Андреи"); stacked marks are refused by ``normalize_nickname``.

The table is the part of UTS #39's ``confusables.txt`` that matters for nicknames typed on
Latin, Cyrillic and Greek keyboards (no dependency, no data file to ship). Whole-script
look-alikes are included on purpose: Cyrillic "Васа" and Latin "Baca" print the same.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# source (already case-folded) -> Latin prototype
_TABLE: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e\u0308", "з": "3", "і": "i", "ї": "i\u0308",
    "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w",
    "ӏ": "l", "ү": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j", "ω": "w",
    # Latin and digits that are drawn like other letters
    "0": "o", "1": "l", "ı": "i", "ȷ": "j", "ſ": "f", "ß": "ss",
    # "I" and "l": after case folding an upper-case I is "i"; both become "l"
    "i": "l",
}


def skeleton(nickname: str) -> str:
    """The look-alike key of a nickname (see the module docstring)."""
    text = unicodedata.normalize("NFKC", nickname).casefold()
    text = unicodedata.normalize("NFD", text)
    out = "".join(_TABLE.get(ch, ch) for ch in text)
    out = out.replace("rn", "m").replace(" ", "").replace("_", "").replace("-", "")
    return unicodedata.normalize("NFC", out)


def lookalike_groups(nicknames: Iterable[str]) -> list[list[str]]:
    """Groups of two or more nicknames that look alike, each sorted; groups sorted."""
    groups: dict[str, list[str]] = {}
    for nick in nicknames:
        groups.setdefault(skeleton(nick), []).append(nick)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)

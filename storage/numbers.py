"""A number people typed (a command's word, a button's or the Mini App's argument, a URL's id,
a spreadsheet's cell): ASCII digits only, and not too many of them.

``str.isdigit`` takes "²" (which ``int`` then refuses with a traceback) and ``int`` takes "٣",
"3_0" and " 3"; a 5,000-digit word costs ``int`` a moment and overflows the database's 64-bit
integers. Every place that reads a number from outside reads it here.
"""

from __future__ import annotations

MAX_DIGITS = 9  # below 2**31: seats, points, prices, counts, a foul's number
ID_DIGITS = 19  # a 64-bit id (a chat's, a game's): SQLite's INTEGER, PostgreSQL's BIGINT


def read_number(text: str, *, digits: int = MAX_DIGITS, signed: bool = False) -> int | None:
    """``text`` as an int when it is 1..``digits`` ASCII digits (after one ``+`` or ``-``
    when ``signed``), else None. No spaces around, no underscores, no other scripts' digits."""
    body = text[1:] if signed and text[:1] in ("+", "-") else text
    if not 0 < len(body) <= digits or not (body.isascii() and body.isdigit()):
        return None
    return int(text)

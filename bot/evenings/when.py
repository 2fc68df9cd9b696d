"""Reading what a host types for an evening: ``05.12 19:30 2 12`` (the day, the time, the
tables, the seats at each). Each part refused on its own, with what was typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.errors import UserError
from engine.composition import MAX_PLAYERS
from storage.numbers import read_number

MAX_TABLES = 10
# ASCII digits ("\d" takes every script's: "٠٥.١٢")
_DAY = re.compile(r"^([0-9]{1,2})\.([0-9]{1,2})(?:\.([0-9]{2}|[0-9]{4}))?$")
_TIME = re.compile(r"^([0-9]{1,2})[:.]([0-9]{2})$")
# a day typed without its year is this year's, unless that was more than half a year ago
# (then next year's: "05.01" typed in December)
_HALF_YEAR = timedelta(days=183)


@dataclass(frozen=True)
class Typed:
    starts_at: datetime  # in the club's zone
    tables: int
    seats: int


def read_day(text: str, today: date) -> date:
    found = _DAY.match(text)
    if found is None:
        raise UserError("evening.bad_day", text=text)
    day, month, year = int(found[1]), int(found[2]), found[3]
    try:
        if year is not None:
            return date(int(year) + (2000 if len(year) == 2 else 0), month, day)
        guess = date(today.year, month, day)
        return guess if guess >= today - _HALF_YEAR else date(today.year + 1, month, day)
    except ValueError:
        raise UserError("evening.bad_day", text=text) from None


def read_time(text: str) -> time:
    found = _TIME.match(text)
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        raise UserError("evening.bad_time", text=text)
    return time(int(found[1]), int(found[2]))


def read_count(text: str, what: str, most: int) -> int:
    """The tables or the seats at each: a whole number from 1 to ``most``."""
    value = read_number(text)
    if value is None:
        raise UserError("evening.bad_number", text=text)
    if value == 0:
        raise UserError("evening.zero")
    if value > most:
        raise UserError(f"evening.too_many_{what}", most=most)
    return value


def read(words: list[str], now: datetime, zone: ZoneInfo) -> Typed:
    """``DD.MM HH:MM TABLES SEATS`` (the year may follow the day: ``05.12.2026``)."""
    if len(words) != 4:
        raise UserError("evening.usage")
    today = now.astimezone(zone).date()
    day, at = read_day(words[0], today), read_time(words[1])
    tables = read_count(words[2], "tables", MAX_TABLES)
    seats = read_count(words[3], "seats", MAX_PLAYERS)
    return Typed(datetime.combine(day, at, tzinfo=zone), tables, seats)

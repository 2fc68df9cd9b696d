"""The network's seasons: spans of calendar days over which the standing starts afresh.

By default a season is a calendar quarter (1 January – 31 March, 1 April – 30 June, ...). The
network's admins may set seasons of their own dates (``Custom``); a custom season takes its
days out of the quarters it overlaps, so seasons never overlap and every day belongs to exactly
one: a custom season's, else what is left of its quarter (a custom season in the middle of a
quarter leaves two pieces of it, two seasons).

A season is known by its first day (``Season.key``, ISO ``YYYY-MM-DD``): unique, since seasons
never overlap, and stable, since custom seasons may only be set for days no game has ended on
yet. A game belongs to the season of the day it ended on in its club's time zone, so a season
is over for the network (``closed``) only once the last of the world's clocks has left it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple

LONGEST_DAYS = 366  # a custom season's most days
NAME_MOST = 40  # a custom season's name's most characters
LAST_CLOCK = timezone(timedelta(hours=-12))  # the world's last time zone (Etc/GMT+12)
CLOSE_AFTER = time(0, 15)  # on that clock, the day after the last: a game at 23:59 is in


class Custom(NamedTuple):
    """A season the network's admins set: its first and last day (both in it), its name."""

    start: date
    end: date
    name: str


class Season(NamedTuple):
    """A season: its first and last day (both in it) and its name ("": a quarter's)."""

    start: date
    end: date
    name: str = ""

    @property
    def key(self) -> str:
        return self.start.isoformat()

    @property
    def quarter(self) -> tuple[int, int]:
        """(year, quarter 1–4) of the quarter a default season is (a piece of)."""
        return self.start.year, (self.start.month - 1) // 3 + 1

    def holds(self, day: date) -> bool:
        return self.start <= day <= self.end


def closes_at(season: Season) -> datetime:
    """When ``season`` is over on every clock: no club's game can enter it any more."""
    return datetime.combine(season.end + timedelta(days=1), CLOSE_AFTER, tzinfo=LAST_CLOCK)


def closed(season: Season, now: datetime) -> bool:
    return now >= closes_at(season)


def quarter_of(day: date) -> tuple[date, date]:
    """The calendar quarter ``day`` falls in: its first and last day."""
    first_month = (day.month - 1) // 3 * 3 + 1
    start = date(day.year, first_month, 1)
    after = date(day.year + 1, 1, 1) if first_month == 10 else date(day.year, first_month + 3, 1)
    return start, after - timedelta(days=1)


def season_of(day: date, customs: Iterable[Custom]) -> Season:
    """The season ``day`` belongs to: the custom season holding it, else the piece of its
    quarter between the custom seasons around it."""
    start, end = quarter_of(day)
    for custom in customs:
        if custom.start <= day <= custom.end:
            return Season(custom.start, custom.end, custom.name)
        if custom.end < day:
            start = max(start, custom.end + timedelta(days=1))
        elif custom.start > day:
            end = min(end, custom.start - timedelta(days=1))
    return Season(start, end)


def previous(season: Season, customs: Iterable[Custom]) -> Season:
    """The season before ``season``."""
    return season_of(season.start - timedelta(days=1), customs)


def seasons_between(first: date, last: date, customs: Sequence[Custom]) -> list[Season]:
    """The seasons holding a day from ``first`` to ``last``, oldest first."""
    out: list[Season] = []
    day = first
    while day <= last:
        season = season_of(day, customs)
        out.append(season)
        day = season.end + timedelta(days=1)
    return out


def check_custom(custom: Custom, customs: Iterable[Custom], *, earliest: date) -> str | None:
    """Why ``custom`` may not be set (None: it may): the key of the refusal. It may not start
    before ``earliest`` (a day no game may have ended on yet, so no game changes season),
    end before it starts, last over ``LONGEST_DAYS`` days, or overlap another custom season."""
    if custom.end < custom.start:
        return "order"
    if custom.start < earliest:
        return "past"
    if (custom.end - custom.start).days + 1 > LONGEST_DAYS:
        return "long"
    if len(custom.name) > NAME_MOST:
        return "name"
    for other in customs:
        if other.start <= custom.end and custom.start <= other.end:
            return "overlap"
    return None


def check_delete(custom: Custom, *, earliest: date) -> str | None:
    """Why ``custom`` may not be deleted (None: it may): ``started`` when it starts before
    ``earliest`` (a game may have ended in it already, and a game keeps its season)."""
    return "started" if custom.start < earliest else None

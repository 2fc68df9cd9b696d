"""Calendar arithmetic: the expiry's two calendar months (clamped to the month's last day), and
a club's own calendar (the day a moment falls on in the club's time zone)."""

from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

EXPIRY_MONTHS = 2
WARNING_DAYS = 7


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months; 31 Dec + 2 months = 28/29 Feb."""
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(day.day, last))


def expiry_of(last_game: date) -> date:
    """The day a player whose last game was ``last_game`` loses nickname and points."""
    return add_months(last_game, EXPIRY_MONTHS)


def expiry_cutoff(today: date) -> date:
    """The latest last-game date that has expired by ``today`` (``expiry_of(d) <= today``).

    ``expiry_of`` is monotone, so every ``d <= cutoff`` has expired and every later one not.
    """
    candidate = add_months(today, -EXPIRY_MONTHS)
    while expiry_of(candidate) > today:  # pragma: no cover - cannot happen with clamping
        candidate -= timedelta(days=1)
    while expiry_of(candidate + timedelta(days=1)) <= today:
        candidate += timedelta(days=1)
    return candidate


def zone_of(name: str | None, default: str) -> ZoneInfo:
    """A club's time zone: its IANA ``name``, else (None, or a name this machine's tz database
    does not know) the network's ``default``."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo(default)


def local_day(at: datetime, zone: ZoneInfo) -> date:
    """The calendar day ``at`` falls on in ``zone`` (01:00 in Moscow is that day, though it is
    the day before in UTC)."""
    return at.astimezone(zone).date()

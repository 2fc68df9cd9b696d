"""What an evening says: its post in the club chat (the live list), a place on it, a player's
list of evenings. Times are shown in the zone the evening was announced in."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from storage.models import (
    EVENING_CANCELLED,
    EVENING_OPEN,
    Evening,
    EveningList,
    PlayerEvening,
)
from views.i18n import Safe, Translator

WAITLIST_SHOWN = 40  # names on the post's waitlist; the rest are counted (Telegram's 4096)


def local(evening: Evening) -> datetime:
    return evening.starts_at.astimezone(ZoneInfo(evening.timezone))


def when(tr: Translator, locale: str, at: datetime) -> str:
    """A local time as ``пт 05.12, 19:30`` / ``Fri 05.12, 19:30``."""
    return tr.t(locale, "evening.when", weekday=tr.t(locale, f"evening.weekday.{at.weekday()}"),
                at=at)


def starts(tr: Translator, locale: str, evening: Evening) -> str:
    """When the evening starts, in its zone."""
    return when(tr, locale, local(evening))


def place(tr: Translator, locale: str, place: int, capacity: int) -> str:
    """A place on the list: a seat, or the waitlist's number."""
    if place > capacity:
        return tr.t(locale, "evening.place.waiting", place=place - capacity)
    return tr.t(locale, "evening.place.seat", place=place, capacity=capacity)


def post(tr: Translator, locale: str, listed: EveningList) -> str:
    """The club chat's post: the evening, its tables and the list as it stands."""
    evening = listed.evening
    lines = [tr.t(locale, "evening.post.head", when=Safe(starts(tr, locale, evening)),
                  tables=evening.tables, seats=evening.seats, capacity=evening.capacity)]
    if evening.status == EVENING_CANCELLED:
        lines.append(tr.t(locale, "evening.post.cancelled"))
        return "\n".join(lines)
    lines.append("")
    if listed.signups:
        lines.append(tr.t(locale, "evening.post.seated", count=len(listed.seated),
                          capacity=evening.capacity))
        lines += [tr.t(locale, "evening.post.line", place=s.place, name=s.name)
                  for s in listed.seated]
    else:
        lines.append(tr.t(locale, "evening.post.empty"))
    if listed.waitlist:
        lines += ["", tr.t(locale, "evening.post.waitlist")]
        lines += [tr.t(locale, "evening.post.line", place=listed.waiting(s) or 0, name=s.name)
                  for s in listed.waitlist[:WAITLIST_SHOWN]]
        if len(listed.waitlist) > WAITLIST_SHOWN:
            lines.append(tr.t(locale, "evening.post.more",
                              more=len(listed.waitlist) - WAITLIST_SHOWN))
    lines.append("")
    lines.append(tr.t(locale, "evening.post.open" if evening.status == EVENING_OPEN
                      else "evening.post.started"))
    return "\n".join(lines)


def mine(tr: Translator, locale: str, evenings: Sequence[PlayerEvening]) -> str:
    """``/evenings``: each evening the player is on the list of, with the place."""
    if not evenings:
        return tr.t(locale, "evening.mine.none")
    lines = [tr.t(locale, "evening.mine.head")]
    lines += [tr.t(locale, "evening.mine.line", when=Safe(starts(tr, locale, e.evening)),
                   club=e.club_title, place=Safe(place(tr, locale, e.place, e.capacity)))
              for e in evenings]
    return "\n".join(lines)


def profile(tr: Translator, locale: str, evenings: Sequence[PlayerEvening],
            no_shows: int) -> str:
    """``/profile``'s lines: the evenings the player is on the list of, and the no-shows."""
    lines = [tr.t(locale, "evening.profile.line", when=Safe(starts(tr, locale, e.evening)),
                  club=e.club_title, place=Safe(place(tr, locale, e.place, e.capacity)))
             for e in evenings]
    lines.append(tr.t(locale, "evening.no_shows", no_shows=no_shows))
    return "\n".join(lines)

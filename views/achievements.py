"""The achievements as a player reads them (``standing/achievements.py`` the catalogue): each
one's icon, name and "how to earn" in the player's language, the levels a player earned and
the way to the next one, the private message of a game's end and the club chat's post of the
rare ones, and the private message of a season's close to a player of its top ten. The texts
are ``locales/*/achievements.ftl``'s (``achievement.<id>.name``/``text``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from standing.achievements import (
    BY_ID,
    CATALOGUE,
    SEASON_TOP,
    Achievement,
    Count,
    levels_reached,
)
from storage.standing.achievements import Award
from views.i18n import Safe, Translator

NEXT_SHOWN = 3  # the levelled ones nearest their next level that /profile names


@dataclass(frozen=True, slots=True)
class Shown:
    """One achievement of a player: the highest level earned (None: not yet), its counter
    (a streak's best run) and the next level (None: every level earned)."""

    achievement: Achievement
    level: int | None
    value: int
    next: int | None

    @property
    def levelled(self) -> bool:
        return len(self.achievement.levels) > 1

    @property
    def on_the_way(self) -> bool:
        """A levelled one moving toward a level it has not reached."""
        return self.levelled and self.next is not None and self.value > 0


def shown(awards: Iterable[Award], progress: Mapping[str, Count]) -> list[Shown]:
    """Every achievement of the catalogue for one player, in the catalogue's order (a
    seasonal one's level is its counter's: it has no stored levels)."""
    top: dict[str, int] = {}
    for a in awards:
        if a.achievement in BY_ID:  # a level of an entry no longer in the catalogue: not shown
            top[a.achievement] = max(top.get(a.achievement, 0), a.level)
    out = []
    for achievement in CATALOGUE:
        level = top.get(achievement.id)
        value = progress.get(achievement.id, Count()).best
        if achievement.seasonal:
            level = max(levels_reached(achievement, value), default=None)
        nxt = next((n for n in achievement.levels if n > max(value, level or 0)), None)
        out.append(Shown(achievement, level, value, nxt))
    return out


def name(tr: Translator, locale: str, achievement_id: str) -> str:
    return tr.t(locale, f"achievement.{achievement_id}.name")


def text(tr: Translator, locale: str, achievement_id: str) -> str:
    return tr.t(locale, f"achievement.{achievement_id}.text")


def title(tr: Translator, locale: str, achievement: Achievement, level: int) -> str:
    """``🩺 <b>Miracle worker</b>``; a levelled one with its level: ``💉 <b>Doctor…</b> · 5``."""
    nm = name(tr, locale, achievement.id)
    if len(achievement.levels) > 1:
        return tr.t(locale, "achievement.title.level", icon=achievement.icon, name=nm,
                    level=level)
    return tr.t(locale, "achievement.title", icon=achievement.icon, name=nm)


def line(tr: Translator, locale: str, achievement: Achievement, level: int) -> str:
    """Its title and how it is earned."""
    return tr.t(locale, "achievement.line", title=Safe(title(tr, locale, achievement, level)),
                text=text(tr, locale, achievement.id))


def progress_line(tr: Translator, locale: str, item: Shown) -> str:
    assert item.next is not None
    return tr.t(locale, "achievement.progress", icon=item.achievement.icon,
                name=name(tr, locale, item.achievement.id), value=item.value, next=item.next)


def nearest(items: Sequence[Shown], limit: int = NEXT_SHOWN) -> list[Shown]:
    """The levelled ones on the way, the nearest to their next level first."""
    moving = [i for i in items if i.on_the_way]
    return sorted(moving, key=lambda i: (-(i.value / (i.next or 1)), i.achievement.id))[:limit]


def profile_lines(tr: Translator, locale: str, items: Sequence[Shown]) -> list[str]:
    """``/profile``'s part: the achievements earned (each at its highest level), then the
    levelled ones nearest their next level."""
    earned = [i for i in items if i.level is not None]
    if not earned:
        return [tr.t(locale, "achievement.profile.none")]
    lines = [tr.t(locale, "achievement.profile.head", count=len(earned), total=len(items))]
    lines += [title(tr, locale, i.achievement, i.level) for i in earned
              if i.level is not None]
    coming = nearest(items)
    if coming:
        lines.append(tr.t(locale, "achievement.profile.next"))
        lines += [progress_line(tr, locale, i) for i in coming]
    return lines


def told(tr: Translator, locale: str, game_id: int, earned: Sequence[tuple[str, int]]) -> str:
    """The private message of a game's end: the levels one player earned in it
    (``(achievement id, level)``, in the catalogue's order)."""
    lines = "\n".join(line(tr, locale, BY_ID[a], level) for a, level in earned)
    return tr.t(locale, "achievement.told", count=len(earned), game=game_id,
                lines=Safe(lines))


def club_post(tr: Translator, locale: str, game_id: int,
              earned: Sequence[tuple[str, str, int]]) -> str:
    """The club chat's post of the rare levels a game earned (``(who, achievement id,
    level)``; ``who`` the player's name as the table says it, escaped here)."""
    lines = "\n".join(tr.t(locale, "achievement.club.line", who=who,
                           line=Safe(line(tr, locale, BY_ID[a], level)))
                      for who, a, level in earned)
    return tr.t(locale, "achievement.club", count=len(earned), game=game_id,
                lines=Safe(lines))


def season_told(tr: Translator, locale: str, season: str, rank: int, seasons: int) -> str:
    """The private message of a season's close to a player of its top ten: ``season`` its
    name (escaped here), ``rank`` the place, ``seasons`` the closed seasons they ended in the
    top ten of, this one too."""
    level = max(levels_reached(SEASON_TOP, seasons), default=SEASON_TOP.levels[0])
    return tr.t(locale, "achievement.season_top.told", season=season, rank=rank,
                title=Safe(title(tr, locale, SEASON_TOP, level)), count=seasons)

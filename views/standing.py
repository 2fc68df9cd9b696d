"""A player's roles and rivals as read and said: the counted games by card and by side, each
beside how often that card wins for everyone; the players met most; the night kills by card;
the rating after each game. Shared by ``/profile`` and ``/top role`` (bot/handlers) and the
player's page (``web/``); the pictures of the same are drawn by :mod:`views.charts`.

Only counted games, and only once they ended: everything here is read from
``rating_history`` and ``night_kills``, which a running game never writes.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from standing.roles import (
    MIN_ROLE_GAMES,
    Compared,
    Point,
    Record,
    Rival,
    compare,
    compare_sides,
)
from storage.db import Database
from storage.standing.history import RoleRanked
from views.charts import RatingChart, RolesChart, rating_chart, roles_chart
from views.i18n import Safe, Translator

TOP_ROLE_LINES = 10  # the lines of ``/top role``


@dataclass(frozen=True)
class RolesAndRivals:
    """What a player's profile and page show of the counted games (all empty: none yet)."""

    cards: list[Compared]  # the cards dealt, most played first
    sides: list[Compared]  # the sides played (a side never played is left out)
    rivals: list[Rival]  # the players met most
    killed_by: dict[str, int]  # the player's night deaths by the killer's card
    killed: dict[str, int]  # the player's night kills by the victim's card
    points: list[Point]  # the overall rating after each counted game, oldest first

    @property
    def games(self) -> int:
        return sum(c.mine.games for c in self.cards)


@dataclass(frozen=True)
class RoleTop:
    """``/top role ROLE``: the players best with a card, and the card's record for everyone."""

    role: str
    lines: list[RoleRanked]
    everyone: Record
    min_games: int = MIN_ROLE_GAMES


async def roles_and_rivals(db: Database, tg_id: int) -> RolesAndRivals:
    mine = await db.history.roles(tg_id)
    if not mine:
        return RolesAndRivals([], [], [], {}, {}, [])
    everyone = await db.history.everyone()
    return RolesAndRivals(
        cards=compare(mine, everyone),
        sides=[c for c in compare_sides(mine, everyone) if c.mine.games],
        rivals=await db.history.rivals(tg_id),
        killed_by=await db.kills.killed_by(tg_id),
        killed=await db.kills.killed(tg_id),
        points=await db.history.points(tg_id))


async def role_top(db: Database, role: str) -> RoleTop:
    return RoleTop(role, await db.history.top_role(role, limit=TOP_ROLE_LINES),
                   (await db.history.everyone(role)).get(role, Record()))


def percent(rate: float | None) -> str:
    """A share as a whole percent ("—" without a game)."""
    return "—" if rate is None else f"{round(100 * rate)}%"


def compared_line(tr: Translator, locale: str, c: Compared, name: str, *,
                  card: bool = True) -> str:
    """One card's or side's line: the player's games and win rate beside everyone's (a card
    with fewer than ``MIN_ROLE_GAMES`` games says so)."""
    return tr.t(locale, "standing.roles.line", name=Safe(name), games=c.mine.games,
                wins=c.mine.wins, rate=percent(c.mine.rate), everyone=percent(c.everyone.rate),
                everyone_games=c.everyone.games) + (
        tr.t(locale, "standing.roles.few") if card and c.mine.games < MIN_ROLE_GAMES else "")


def kills_line(tr: Translator, locale: str, by_role: Mapping[str, int]) -> str:
    """``{role: count}`` as one list, the most first."""
    return ", ".join(tr.t(locale, "standing.roles.kill", role=tr.t(locale, f"game.role.{r}"),
                          count=n)
                     for r, n in sorted(by_role.items(), key=lambda kv: (-kv[1], kv[0])))


def rival_line(tr: Translator, locale: str, r: Rival) -> str:
    """A rival under ``/profile``: by nickname, «—» without one (as on the page and the
    Mini App: another player's Telegram name is never shown)."""
    line = tr.t(locale, "standing.rivals.line", nick=r.nickname or "—", together=r.together,
                won_together=r.won_together, against=r.against, won_against=r.won_against)
    if r.killed_you or r.you_killed:
        line += tr.t(locale, "standing.rivals.kills", killed_you=r.killed_you,
                     you_killed=r.you_killed)
    return line


def profile_lines(tr: Translator, locale: str, found: RolesAndRivals) -> list[str]:
    """The roles and rivals under ``/profile``: each heading only over lines of its own."""
    if not found.cards:
        return [tr.t(locale, "standing.roles.none")]
    lines = [tr.t(locale, "standing.roles.cards")]
    lines += [compared_line(tr, locale, c, tr.t(locale, f"game.role.{c.name}"))
              for c in found.cards]
    lines.append(tr.t(locale, "standing.roles.sides"))
    lines += [compared_line(tr, locale, c, tr.t(locale, f"stats.side.{c.name}"), card=False)
              for c in found.sides]
    lines.append(tr.t(locale, "standing.roles.note", games=MIN_ROLE_GAMES))
    if found.rivals:
        lines.append(tr.t(locale, "standing.rivals.title"))
        lines += [rival_line(tr, locale, r) for r in found.rivals]
    if found.killed_by:
        lines.append(tr.t(locale, "standing.kills.by",
                          kills=Safe(kills_line(tr, locale, found.killed_by))))
    if found.killed:
        lines.append(tr.t(locale, "standing.kills.mine",
                          kills=Safe(kills_line(tr, locale, found.killed))))
    return lines


def role_top_text(tr: Translator, locale: str, top: RoleTop) -> str:
    """``/top role``: the card's best players by win rate with it, and everyone's rate."""
    card = tr.t(locale, f"game.role.{top.role}")
    lines = [tr.t(locale, "standing.top.role", card=Safe(card), games=top.min_games)]
    lines += [tr.t(locale, "standing.top.role_row", rank=r.rank, nick=r.nickname or "—",
                   rate=percent(r.record.rate), games=r.record.games, wins=r.record.wins)
              for r in top.lines] or [
        tr.t(locale, "standing.top.role_empty", card=Safe(card), games=top.min_games)]
    if top.everyone.games:
        lines.append(tr.t(locale, "standing.top.role_everyone", card=Safe(card),
                          rate=percent(top.everyone.rate), games=top.everyone.games))
    return "\n".join(lines)


def _plain(text: str) -> str:
    return html.unescape(text)


def rating_picture(tr: Translator, locale: str, found: RolesAndRivals) -> RatingChart | None:
    """The rating's line (None under two counted games)."""
    return rating_chart(found.points, title=_plain(tr.t(locale, "web.roles.graph")))


def roles_picture(tr: Translator, locale: str, found: RolesAndRivals) -> RolesChart | None:
    """The bars of the share of wins by card (None without a counted game)."""
    return roles_chart(
        found.cards, title=_plain(tr.t(locale, "web.roles.bars")),
        legend=(_plain(tr.t(locale, "standing.chart.mine")),
                _plain(tr.t(locale, "standing.chart.everyone"))),
        label=lambda c: _plain(tr.t(locale, "standing.chart.bar", games=c.mine.games,
                                    card=Safe(tr.t(locale, f"game.role.{c.name}")))))

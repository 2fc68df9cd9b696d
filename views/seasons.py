"""The seasons as people read them (``/season``, the season's page, the picture at a season's
end): a season's name and dates, its boards by rating and by points (a club's and the
network's), the reader's own line and the Hall of Fame of the seasons that ended."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import date

from standing.rating import PROVISIONAL_GAMES
from standing.seasons import Season
from storage.db import Database
from storage.models import Club
from storage.standing.seasons import FAME_PLACES, Boards, Mine, Placed
from views.charts import BoardChart
from views.i18n import Translator

BOARD_LINES = 5  # the lines of each of ``/season``'s boards
PAST_SHOWN = 1  # the closed seasons whose Hall of Fame ``/season`` shows


@dataclass(frozen=True)
class SeasonPage:
    """``/season``'s read model: the season under way on the reader's calendar, the reader's
    line, its boards (the club's first, then the network's), and the Hall of Fame of the
    last seasons that ended (each: the club's, then the network's)."""

    season: Season
    mine: Mine | None
    boards: tuple[Boards, ...]
    fame: tuple[Boards, ...]
    titles: dict[int, str]  # club chat id -> its name


async def season_page(db: Database, today: date, *, club: Club | None, tg_id: int | None,
                      lines: int = BOARD_LINES, past: int = PAST_SHOWN) -> SeasonPage:
    """The page of the season holding ``today`` (the reader's calendar: the club's)."""
    season = await db.seasons.of_day(today)
    scopes = ([] if club is None else [club.chat_id]) + [None]
    boards = tuple([await db.seasons.boards(season, club_chat_id=scope, limit=lines)
                    for scope in scopes])
    fame: list[Boards] = []
    for closed in (await db.seasons.played(before=season.start))[:past]:
        fame += [await db.seasons.fame(closed, club_chat_id=scope) for scope in scopes]
    mine = None if tg_id is None else await db.seasons.mine(season, tg_id)
    titles = {} if club is None else {club.chat_id: club.label}
    return SeasonPage(season, mine, boards, tuple(fame), titles)


def season_name(tr: Translator, locale: str, season: Season) -> str:
    """A custom season's own name, else its quarter's ("Q1 2026", «1-й квартал 2026»)."""
    if season.name:
        return season.name
    year, quarter = season.quarter
    return tr.t(locale, "season.quarter", quarter=quarter, year=year)


def season_dates(season: Season) -> str:
    return f"{season.start:%d.%m.%Y} – {season.end:%d.%m.%Y}"


def _scope(tr: Translator, locale: str, boards: Boards, titles: dict[int, str]) -> str:
    if boards.club is None:
        return tr.t(locale, "season.scope.network")
    return tr.t(locale, "season.scope.club", club=titles.get(boards.club, str(boards.club)))


def rating_row(tr: Translator, locale: str, line: Placed) -> str:
    games = line.rating.games if line.rating is not None else 0
    return tr.t(locale, "season.row.rating", rank=line.rank, nick=line.nickname or "—",
                ordinal=line.value, games=games)


def points_row(tr: Translator, locale: str, line: Placed) -> str:
    return tr.t(locale, "season.row.points", rank=line.rank, nick=line.nickname or "—",
                points=int(line.value))


def board_lines(tr: Translator, locale: str, boards: Boards, titles: dict[int, str]) -> list[str]:
    """One scope's two boards: by rating, then by points (each with its empty line)."""
    scope = _scope(tr, locale, boards, titles)
    out = [tr.t(locale, "season.board.rating", scope=scope)]
    out += [rating_row(tr, locale, line) for line in boards.rating] or [
        tr.t(locale, "season.empty.rating", games=PROVISIONAL_GAMES)]
    out.append(tr.t(locale, "season.board.points", scope=scope))
    out += [points_row(tr, locale, line) for line in boards.points] or [
        tr.t(locale, "season.empty.points")]
    return out


def season_text(tr: Translator, locale: str, page: SeasonPage, web_url: str | None) -> str:
    """``/season``: the season under way, the reader's line, its boards, the Hall of Fame."""
    season = page.season
    lines = [tr.t(locale, "season.head", name=season_name(tr, locale, season),
                  dates=season_dates(season))]
    if page.mine is not None:
        rating = page.mine.rating
        if rating is None:
            lines.append(tr.t(locale, "season.mine.none"))
        else:
            lines.append(tr.t(locale, "season.mine", ordinal=rating.ordinal,
                              games=rating.games, points=page.mine.points))
    for boards in page.boards:
        lines.append("")
        lines += board_lines(tr, locale, boards, page.titles)
    lines.append("")
    if not page.fame:
        lines.append(tr.t(locale, "season.fame.none"))
    for boards in page.fame:
        lines.append(tr.t(locale, "season.fame.head", name=season_name(tr, locale, boards.season),
                          places=FAME_PLACES))
        lines += board_lines(tr, locale, boards, page.titles)
    if web_url:
        lines += ["", tr.t(locale, "season.link", url=f"{web_url.rstrip('/')}/season")]
    return "\n".join(lines)


def plain(text: str) -> str:
    """A rendered text for a picture: no markup, no HTML escapes (a name's own ``<`` stays)."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def season_chart(tr: Translator, locale: str, boards: Boards, club: str) -> BoardChart:
    """The picture of a closed season's club board: its lines by rating and by points."""
    name = season_name(tr, locale, boards.season)
    title = plain(tr.t(locale, "season.picture.title", club=club, name=name,
                       dates=season_dates(boards.season)))
    none = (plain(tr.t(locale, "season.picture.none")),)
    rating = tuple(plain(rating_row(tr, locale, line)) for line in boards.rating) or none
    points = tuple(plain(points_row(tr, locale, line)) for line in boards.points) or none
    return BoardChart(title, ((plain(tr.t(locale, "season.picture.rating")), rating),
                              (plain(tr.t(locale, "season.picture.points")), points)))

"""aiohttp routes over the stats service; pages rendered server-side with Jinja2 (autoescape).

Pages: ``/`` (the network's and every club's table), ``/season`` (the season under way and the
Hall of Fame of the seasons that ended) and ``/season/{first day}``, ``/club/{id}``,
``/player/{nick}`` with its charts ``/player/{nick}/rating.png`` and
``/player/{nick}/roles.png``, ``/game/{id}``, its picture ``/game/{id}/table.png`` and its
replay protocol ``/game/{id}/protocol.json`` (docs/replay.md). Only finished games are shown; a
game under way answers 404 "not finished". Players are named by nickname only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from aiohttp import web
from cachetools import LRUCache
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from standing.rating import PROVISIONAL_GAMES
from standing.roles import MIN_ROLE_GAMES
from storage.dates import local_day, zone_of
from storage.db import Database
from storage.models import Club
from storage.numbers import ID_DIGITS, read_number
from views import texts
from views.drawing import draw_chart, draw_page_view
from views.event_text import EventText
from views.i18n import SUPPORTED, Safe, Translator, default_translator
from views.picture import table_view
from views.seasons import season_dates, season_name
from views.standing import (
    kills_line,
    percent,
    rating_picture,
    roles_and_rivals,
    roles_picture,
)
from views.stats import StatsService

HERE = Path(__file__).resolve().parent
Now = Callable[[], datetime]  # an aware moment (the bot's clock)

STATS: web.AppKey[StatsService] = web.AppKey("stats", StatsService)
TRANSLATOR: web.AppKey[Translator] = web.AppKey("translator", Translator)
ENV: web.AppKey[Environment] = web.AppKey("env", Environment)
NOW: web.AppKey[Now] = web.AppKey("now", object)  # type: ignore[arg-type]
ZONE: web.AppKey[str] = web.AppKey("zone", str)  # the network's time zone (TIMEZONE)
PICTURES: web.AppKey[LRUCache[tuple[int, str], bytes]] = web.AppKey("pictures", LRUCache)
# the finished games' pictures kept, the least recently asked for going first: a crawl of every
# game (two languages each) keeps at most this many bytes (a picture is some 40 KB)
PICTURE_BYTES = 16 * 2 ** 20
CHARTS: web.AppKey[LRUCache[str, bytes]] = web.AppKey("charts", LRUCache)
# the players' charts kept, by what they draw (the same data, the same picture: a game's end
# or a void changes the key, never a stale picture), the least recently asked for going first
CHART_BYTES = 8 * 2 ** 20


def utc_now() -> datetime:
    return datetime.now(UTC)


def day_of(request: web.Request, club: Club | None = None) -> date:
    """Today on ``club``'s calendar (its time zone, else the network's), or the network's."""
    return local_day(request.app[NOW](), zone_of(None if club is None else club.time_zone,
                                                  request.app[ZONE]))


def pick(request: web.Request, default: str) -> str:
    """``?lang=ru|en``, else the first supported language of Accept-Language, else default."""
    lang = request.query.get("lang", "")
    if lang in SUPPORTED:
        return lang
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in SUPPORTED:
            return code
    return default


class Page:
    """What every template gets: ``t(key, **kw)`` (already-escaped HTML), the locale, links."""

    def __init__(self, request: web.Request, locale: str) -> None:
        self.request = request
        self.locale = locale
        self.tr = request.app[TRANSLATOR]

    def t(self, key: str, /, **kwargs: Any) -> Markup:
        return Markup(self.tr.t(self.locale, key, **kwargs))

    @property
    def root(self) -> str:
        """The site's root relative to this page ("./", "../", ...): links never start with
        "/", so the pages work under a path prefix (``WEB_URL=https://host/mafia`` behind a
        proxy that strips ``/mafia``)."""
        depth = self.request.rel_url.raw_path.count("/") - 1
        return "../" * depth if depth > 0 else "./"

    def url(self, path: str) -> str:
        """``path`` from the site's root (``/club/5``), as a link relative to this page."""
        return f"{self.root}{path.lstrip('/')}?lang={self.locale}"

    @property
    def other_lang_url(self) -> str:
        other = "en" if self.locale == "ru" else "ru"
        return f"?lang={other}"  # this page, the other language


def render(request: web.Request, template: str, *, status: int = 200,
           **context: Any) -> web.Response:
    locale = pick(request, request.app[TRANSLATOR].default)
    page = Page(request, locale)
    html = request.app[ENV].get_template(template).render(page=page, t=page.t, **context)
    return web.Response(text=html, content_type="text/html", charset="utf-8", status=status)


def not_found(request: web.Request, key: str = "web.not_found") -> web.Response:
    return render(request, "message.html", status=404, key=key)


async def home(request: web.Request) -> web.Response:
    stats = request.app[STATS]
    network = await stats.network_top(day_of(request))
    clubs = [await stats.club_top(c, day_of(request, c)) for c in await stats.db.stats.clubs()]
    return render(request, "home.html", network=network, clubs=clubs)


# the ids the database stores (SQLite's INTEGER, PostgreSQL's BIGINT: 64-bit, signed); a
# larger one in a URL would overflow the driver's parameter (a 500) instead of finding nothing
ID_MIN, ID_MAX = -(2 ** 63), 2 ** 63 - 1


async def rating(request: web.Request) -> web.Response:
    """How the skill rating works, in the page's language, and the network's table of it."""
    board = await request.app[STATS].rating_top(None, limit=50)
    return render(request, "rating.html", board=board, provisional=PROVISIONAL_GAMES)


def _row_id(text: str, *, positive: bool) -> int | None:
    """An id from the URL: ASCII digits (``int()`` would take "٣", "+3", " 3", "3_0") within
    64 bits, above 0 when ``positive`` (a game's id); else None, which answers 404."""
    value = read_number(text[1:] if text.startswith("-") else text, digits=ID_DIGITS)
    if value is None:
        return None
    value = -value if text.startswith("-") else value
    if not ID_MIN <= value <= ID_MAX or (positive and value <= 0):
        return None
    return value


async def season(request: web.Request) -> web.Response:
    """``/season``: the season under way on the network's calendar, its network board, and
    the Hall of Fame (the first places of the network's boards) of every season that ended;
    ``/season/{first day}``: one season's boards, the network's and each club's."""
    db, today = request.app[STATS].db, day_of(request)
    locale = pick(request, request.app[TRANSLATOR].default)
    tr = request.app[TRANSLATOR]
    key = request.match_info.get("season")
    if key is None:
        shown = await db.seasons.of_day(today)
    else:
        try:
            day = date.fromisoformat(key)
        except ValueError:
            return not_found(request)
        shown = await db.seasons.of_day(day)
        if shown.key != key:
            return not_found(request)
    current = key is None
    boards = [await db.seasons.boards(shown)]
    names: dict[int, str] = {}
    if not current:
        for found in await db.stats.clubs():
            played = await db.seasons.boards(shown, club_chat_id=found.chat_id)
            if played.rating or played.points:
                boards.append(played)
                names[found.chat_id] = found.label
    fame = [(season_name(tr, locale, s), s.key, await db.seasons.fame(s))
            for s in await db.seasons.played(before=shown.start)] if current else []
    return render(request, "season.html", name=season_name(tr, locale, shown),
                  dates=season_dates(shown), current=current, season_boards=boards, fame=fame,
                  names=names)


async def club(request: web.Request) -> web.Response:
    stats = request.app[STATS]
    chat_id = _row_id(request.match_info["club"], positive=False)  # a group's id is negative
    if chat_id is None:
        return not_found(request)
    found = await stats.db.clubs.get(chat_id)
    if found is None:
        return not_found(request)
    board = await stats.club_top(found, day_of(request, found))  # ends on the club's day
    games = await stats.db.stats.finished_games(chat_id)
    return render(request, "club.html", board=board, games=games)


async def player(request: web.Request) -> web.Response:
    stats = request.app[STATS]
    found = await stats.db.players.by_nickname(request.match_info["nick"])
    if found is None or found.nickname is None:
        return not_found(request)
    record = await stats.of(found)
    page_locale = pick(request, request.app[TRANSLATOR].default)
    tr = request.app[TRANSLATOR]
    reasons = [Markup(texts.ledger_reason(tr, page_locale, row)) for row in record.history]
    # the page names players by nickname only: a rival without one is not linked or named
    roles = await roles_and_rivals(stats.db, found.tg_id)
    return render(request, "player.html", p=record, reasons=reasons, roles=roles,
                  min_role_games=MIN_ROLE_GAMES, percent=percent,
                  kills=lambda by_role: Safe(kills_line(tr, page_locale, by_role)))


async def chart(request: web.Request) -> web.Response:
    """A player's chart as PNG: ``rating.png`` (the rating after each counted game) or
    ``roles.png`` (the share of wins by card beside everyone's); 404 when there is nothing to
    draw (under two counted games, none)."""
    stats, tr = request.app[STATS], request.app[TRANSLATOR]
    found = await stats.db.players.by_nickname(request.match_info["nick"])
    if found is None or found.nickname is None:
        return not_found(request)
    locale = pick(request, tr.default)
    read = await roles_and_rivals(stats.db, found.tg_id)
    drawn = (rating_picture if request.match_info["chart"] == "rating" else roles_picture)(
        tr, locale, read)
    if drawn is None:
        return not_found(request)
    view = drawn.to_json()
    key = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    cached = request.app[CHARTS].get(key)
    if cached is None:
        cached = await draw_chart(view, page=True)
        if len(cached) <= request.app[CHARTS].maxsize:  # one larger than the bound: not kept
            request.app[CHARTS][key] = cached
    return web.Response(body=cached, content_type="image/png",
                        headers={"Cache-Control": "no-cache"})


def _game_id(request: web.Request) -> int | None:
    return _row_id(request.match_info["game"], positive=True)


async def game(request: web.Request) -> web.Response:
    stats = request.app[STATS]
    game_id = _game_id(request)
    if game_id is None:
        return not_found(request)
    record = await stats.game_record(game_id)
    if record is None:
        return not_found(request, "web.not_finished")
    locale = pick(request, request.app[TRANSLATOR].default)
    text = EventText(request.app[TRANSLATOR])
    phases = [
        (phase, [Markup(text.render(record.table, e, locale)) for e in phase.events])
        for phase in record.phases
    ]
    return render(request, "game.html", r=record, phases=phases)


async def protocol(request: web.Request) -> web.Response:
    """The game's replay protocol, for ``python -m engine replay`` (its points are the
    ledger's, fines included)."""
    game_id = _game_id(request)
    found = None if game_id is None else await request.app[STATS].protocol(game_id)
    if found is None:
        return not_found(request, "web.not_finished")
    return web.json_response(found, dumps=lambda o: json.dumps(o, ensure_ascii=False, indent=1),
                             headers={"Content-Disposition":
                                      f'inline; filename="game-{game_id}.json"'})


async def picture(request: web.Request) -> web.Response:
    stats, tr = request.app[STATS], request.app[TRANSLATOR]
    game_id = _game_id(request)
    if game_id is None:
        return not_found(request)
    locale = pick(request, tr.default)
    cached = request.app[PICTURES].get((game_id, locale))
    if cached is None:
        got = await stats.picture_state(game_id)
        if got is None:
            return not_found(request, "web.not_finished")
        state, names = got
        found = await stats.db.games.get(game_id)
        club_ = await stats.db.clubs.get(found.club_chat_id)

        def label(key: str) -> str:
            prefix = "stats.pic." if key.startswith("seat.") else "game."
            return tr.t(locale, prefix + key)

        title = tr.t(locale, "stats.pic.title", game=game_id,
                     club=Safe(club_.title if club_ else ""))
        cached = await draw_page_view(table_view(state, names, title=title, label=label))
        if len(cached) <= request.app[PICTURES].maxsize:  # one larger than the bound: not kept
            request.app[PICTURES][(game_id, locale)] = cached
    return web.Response(body=cached, content_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400"})


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    return env


def create_web_app(db: Database, *, translator: Translator | None = None,
                   now: Now = utc_now, zone: str = "UTC",
                   picture_bytes: int = PICTURE_BYTES,
                   chart_bytes: int = CHART_BYTES) -> web.Application:
    """The pages over ``db``; ``now``: the clock, ``zone``: the network's time zone (the
    network's board and the season under way go by its day, a club's board by the club's)."""
    app = web.Application()
    app[STATS] = StatsService(db)
    app[TRANSLATOR] = translator or default_translator()
    app[ENV] = environment()
    app[NOW] = now
    app[ZONE] = zone
    pictures: LRUCache[tuple[int, str], bytes] = LRUCache(maxsize=picture_bytes, getsizeof=len)
    app[PICTURES] = pictures
    charts: LRUCache[str, bytes] = LRUCache(maxsize=chart_bytes, getsizeof=len)
    app[CHARTS] = charts
    app.add_routes([
        web.get("/", home),
        web.get("/rating", rating),
        web.get("/season", season),
        web.get("/season/{season}", season),
        web.get("/club/{club}", club),
        web.get("/player/{nick}", player),
        web.get("/player/{nick}/{chart:rating|roles}.png", chart),
        web.get("/game/{game}", game),
        web.get("/game/{game}/table.png", picture),
        web.get("/game/{game}/protocol.json", protocol),
        web.static("/static", HERE / "static"),
    ])
    return app


async def start_web(app: web.Application, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Serve ``app`` on ``host:port`` (the caller keeps the runner and calls ``cleanup()``)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner

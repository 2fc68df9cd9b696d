"""The host's Mini App: the live table on the host's phone, opened from the panel's button.

Routes (added to the bot process's web app only, where the game service lives; the read-only
``python -m web`` has none of them):

* ``GET /host/{game}``: the page (no game data in it: the state comes with the host's proof);
* ``GET /host/{game}/state``: the table as JSON (:class:`bot.game.panel.view.HostView`);
* ``POST /host/{game}/act``: ``{"action", "arg", "step"}`` through ``GameService.host_act``,
  the entry point the panel's buttons use (the same checks: host only, stale refused).

Both JSON routes need ``Authorization: tma <initData>`` (:mod:`bot.miniapp.auth`): missing, forged
or expired -> 401; a valid user who is not this game's host -> 403; an unknown or finished
game -> 404; a refused action -> 409 with the refusal's text. Nothing changes on any of them.

With several processes (PostgreSQL), the game lives in the memory of its club's holder only:
a request for a game whose club this process does not hold is checked here (the signature,
``auth_date``), then handed to the holder as a club call (``bot/cluster/club_calls.py``), which runs
the same :func:`state_answer` / :func:`act_answer` (the host's check, the moment's) and answers;
no answer within the call's timeout -> 503 "try again" (docs/scaling.md, "Club calls").
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.cluster.club_calls import CallTimeout, ClubCalls
from bot.errors import UserError
from bot.game.panel.view import ACTIONS, EXTEND_SECONDS, FOUL_REASONS, HostView
from bot.game.service import GameService, Reply
from bot.miniapp.auth import AuthError, host_user
from storage.backends import DatabaseUnavailable
from storage.numbers import ID_DIGITS, read_number
from views.i18n import SUPPORTED
from web.app import ENV, TRANSLATOR, Page

if TYPE_CHECKING:
    from bot.cluster.sharing import Sharing

log = logging.getLogger("web.host")

TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
GAMES: web.AppKey[GameService] = web.AppKey("host_games", GameService)
TOKEN: web.AppKey[str] = web.AppKey("host_token", str)
SCRIPT: web.AppKey[str] = web.AppKey("host_script", str)
SHARING: web.AppKey[Sharing | None] = web.AppKey("host_sharing")
NO_STORE = {"Cache-Control": "no-store"}
Answer = tuple[int, dict[str, Any]]  # the HTTP status and the JSON body

# the order of the buttons on the page (the host's actions, bot/game/panel/view.py): the page
# offers exactly what the panel does, the view's legal actions
ORDER = ACTIONS
DANGER = {"tech", "end"}
PAGE_TEXTS = ("yes", "cancel", "jailed", "offline", "blocked", "acted", "dead", "refused",
              "no_init_data", "offline_net", "choices", "votes", "close")
TAGS = re.compile(r"<[^>]*>")


def plain(text: str) -> str:
    """The translator's HTML as text (the page puts every text in with textContent)."""
    return html.unescape(TAGS.sub("", text))


class Texts:
    def __init__(self, games: GameService, locale: str) -> None:
        self.games, self.locale = games, locale

    def __call__(self, key: str, /, **kwargs: Any) -> str:
        return plain(self.games.notifier.t(self.locale, key, **kwargs))

    def reply(self, answer: Reply | UserError) -> str:
        return self(answer.key, **answer.kwargs)


def _actions(view: HostView, t: Texts) -> list[dict[str, Any]]:
    """The buttons for what the host may do now, each with what it needs from the host."""
    alive = [s.seat for s in view.seats if s.alive]
    everyone = [s.seat for s in view.seats]
    out: list[dict[str, Any]] = []
    names = sorted(view.actions, key=lambda a: (ORDER.index(a) if a in ORDER else len(ORDER), a))
    for name in names:
        base: dict[str, Any] = {"name": name, "danger": name in DANGER}
        if name == "preset":
            for preset, cards in sorted(view.presets.items()):
                out.append(base | {"arg": preset, "label": t(
                    f"miniapp.action.preset_{preset}", count=len(cards))})
            continue
        if name == "fate_mode":
            to = "bot" if view.fate_by_host else "host"
            out.append(base | {"arg": to, "label": t(f"miniapp.action.fate_mode_{to}")})
            continue
        item = base | {"label": t(f"miniapp.action.{name}", seconds=EXTEND_SECONDS)}
        if name == "tech":
            item |= {"seats": alive, "pick": t("miniapp.pick.tech"),
                     "confirm": t("miniapp.confirm.tech", seat="{seat}")}
        elif name == "fate":
            item |= {"seats": list(view.tied), "pick": t("miniapp.pick.fate")}
        elif name == "speak":  # the host's floor (the panel also offers another's time)
            item |= {"seats": [s.seat for s in view.seats if s.alive and s.jailed],
                     "pick": t("miniapp.pick.speak")}
        elif name == "unseat":
            item |= {"seats": everyone, "pick": t("miniapp.pick.unseat"),
                     "confirm": t("miniapp.confirm.unseat", seat="{seat}")}
        elif name == "seat":
            item |= {"seats": everyone, "pick": t("miniapp.pick.seat_from"),
                     "then": t("miniapp.pick.seat_to", seat="{seat}")}
        elif name == "end":
            item |= {"confirm": t("miniapp.confirm.end")}
        elif name == "foul":  # a seat, then the reason; the foul's number against a 2nd press
            item |= {"seats": everyone, "pick": t("miniapp.pick.foul"),
                     "ask": t("miniapp.pick.foul_reason", seat="{seat}"),
                     "options": [{"arg": r, "label": t(f"foul.reason.{r}")}
                                 for r in FOUL_REASONS],
                     "next": view.next_foul}
        elif name == "unfoul":
            seated = {s.seat: s.name for s in view.seats}
            item |= {"pick": t("miniapp.pick.unfoul"),
                     "options": [{"arg": str(f.number), "label": t(
                         "panel.unfoul.line", number=f.number, seat=f.seat,
                         name=seated.get(f.seat, "?"), reason=t(f"foul.reason.{f.reason}"))}
                         for f in view.fouls]}
        out.append(item)
    return out


def state_json(view: HostView, t: Texts, now: datetime) -> dict[str, Any]:
    phase = t(f"game.stage.{view.stage}")
    if view.stage == "night":
        phase = t("miniapp.night", n=view.night)
    elif view.stage == "day":
        phase = t("miniapp.day", n=view.day)
    elif view.stage in ("vote", "fate", "cancel", "evening"):
        phase = t("miniapp.day", n=view.day) + " · " + phase
    if view.voter is not None:
        phase += " · " + t("miniapp.voter", seat=view.voter)
    window = None
    if view.window is not None:  # a shorter window inside the phase, named
        inner = _left(view.window_deadline, view.window_remaining, now)
        if inner is not None:
            window = {"name": view.window, "in": inner,
                      "label": t(f"miniapp.window.{view.window}", seat=view.voter or "?")}
    # the moment's number under the key "step": what a page opened before an update and a
    # process of the version before send, so a rolling update breaks no open panel
    return {
        "game": view.game_id, "stage": view.stage, "step": view.moment, "night": view.night,
        "day": view.day, "paused": view.paused, "voter": view.voter,
        "deadline_in": _left(view.deadline, view.remaining, now), "window": window,
        "title": t("tables.miniapp", number=view.table, game=view.game_id)
        if view.table else t("miniapp.title", game=view.game_id), "phase": phase,
        "seats": [{"seat": s.seat, "name": s.name, "alive": s.alive, "dead": not s.alive,
                   "jailed": s.jailed, "offline": s.offline, "blocked": s.blocked,
                   "acted": s.acted, "fouls": s.fouls}
                  for s in view.seats],
        "choices": [t("miniapp.choice", seat=c.seat, role=t(f"game.role.{c.role}"),
                      target=c.target) for c in view.choices],
        "votes": [t("miniapp.vote", seat=voter, target=target) for voter, target in view.votes],
        "tied": list(view.tied),
        "actions": _actions(view, t),
    }


def _left(deadline: datetime | None, remaining: float | None, now: datetime) -> float | None:
    """Seconds to ``deadline`` (running), or ``remaining`` (paused)."""
    if deadline is not None:
        return max(0.0, (deadline - now).total_seconds())
    return remaining


def _failed(status: int, text: str, error: str) -> Answer:
    return status, {"error": error, "text": text}


def _game(request: web.Request) -> int:
    found = read_number(request.match_info["game"], digits=ID_DIGITS)
    if found is None:
        raise web.HTTPNotFound()
    return found


def table_locale(games: GameService, game_id: int, asked: str, default: str) -> str:
    """The Mini App speaks the club's language: ``?lang=`` when the page asks for one, else
    the table's (where it lives), else ``default``; never the phone's."""
    if asked in SUPPORTED:
        return asked
    table = games.tables.get(game_id)
    return table.locale if table is not None else default


def _texts(request: web.Request, game_id: int) -> Texts:
    games = request.app[GAMES]
    return Texts(games, table_locale(games, game_id, request.query.get("lang", ""),
                                     request.app[TRANSLATOR].default))


def _refusal(e: UserError, t: Texts) -> Answer:
    status = {"game.not_host": 403, "game.not_found": 404}.get(e.key, 409)
    return _failed(status, t.reply(e), e.key)


def _respond(answer: Answer) -> web.Response:
    status, body = answer
    return web.json_response(body, status=status, headers=NO_STORE)


def _user(request: web.Request, t: Texts) -> int:
    try:
        user = host_user(request.app[TOKEN], request.headers.get("Authorization"),
                         request.app[GAMES].clock())
    except AuthError as e:
        log.info("mini app refused", extra={"reason": e.reason, "path": request.path})
        _, body = _failed(401, t("miniapp.unauthorized"), "unauthorized")
        raise web.HTTPUnauthorized(text=json.dumps(body, ensure_ascii=False),
                                   content_type="application/json", headers=NO_STORE) from None
    return user.id


async def state_answer(games: GameService, game_id: int, user_id: int, locale: str) -> Answer:
    """``GET state`` where the game lives (this process, or the club's holder for another)."""
    t = Texts(games, locale)
    try:
        view = await games.host_view(game_id, user_id)
    except UserError as e:
        return _refusal(e, t)
    return 200, state_json(view, t, games.clock())


async def act_answer(games: GameService, game_id: int, user_id: int, locale: str,
                     action: str, arg: int | str | None, moment: int) -> Answer:
    """``POST act`` where the game lives: the panel's entry point, the same checks."""
    t = Texts(games, locale)
    try:
        answer = await games.host_act(game_id, user_id, action, arg, moment=moment)
    except UserError as e:
        return _refusal(e, t)
    return 200, {"ok": True, "text": t.reply(answer)}


def install_host_calls(calls: ClubCalls, games: GameService) -> None:
    """What a club's holder runs for the Mini App's requests another process received."""

    def locale_of(r: dict[str, Any]) -> str:
        return table_locale(games, int(r["game"]), str(r.get("locale") or ""),
                            games.tr.default)

    async def state_call(r: dict[str, Any]) -> dict[str, Any]:
        status, body = await state_answer(games, int(r["game"]), int(r["user"]), locale_of(r))
        return {"status": status, "body": body}

    async def act_call(r: dict[str, Any]) -> dict[str, Any]:
        status, body = await act_answer(games, int(r["game"]), int(r["user"]), locale_of(r),
                                        r["action"], r["arg"], int(r["step"]))
        return {"status": status, "body": body}

    calls.on("host.state", state_call)
    calls.on("host.act", act_call)


async def _club_elsewhere(request: web.Request, game_id: int) -> int | None:
    """The club of ``game_id`` if another process holds it (None: answered here)."""
    sharing, games = request.app[SHARING], request.app[GAMES]
    if sharing is None or game_id in games.tables:
        return None
    club = await games.db.inbox.club_of_game(game_id)
    return None if club is None or sharing.holds(club) else club


async def _answer(request: web.Request, t: Texts, game_id: int, kind: str,
                  here: Callable[[], Awaitable[Answer]], args: dict[str, Any]) -> web.Response:
    try:
        club = await _club_elsewhere(request, game_id)
        if club is None:
            return _respond(await here())
        sharing = request.app[SHARING]
        assert sharing is not None
        # the holder has the table: it picks the club's language unless the page asked for one
        asked = request.query.get("lang", "")
        answer = await sharing.calls.call(club, kind, {"game": game_id, "locale": asked, **args})
    except CallTimeout as e:
        key = "miniapp.timeout" if e.withdrawn else "miniapp.unconfirmed"
        return _respond(_failed(503, t(key), "timeout"))
    except DatabaseUnavailable:
        return _respond(_failed(503, t("miniapp.unconfirmed"), "unavailable"))
    if "status" not in answer:  # the holder's handler failed
        return _respond(_failed(503, t("miniapp.unconfirmed"), "failed"))
    return _respond((int(answer["status"]), dict(answer["body"])))


async def state(request: web.Request) -> web.Response:
    game_id = _game(request)
    t = _texts(request, game_id)
    user_id = _user(request, t)
    games = request.app[GAMES]
    return await _answer(request, t, game_id, "host.state",
                         lambda: state_answer(games, game_id, user_id, t.locale),
                         {"user": user_id})


async def act(request: web.Request) -> web.Response:
    game_id = _game(request)
    t = _texts(request, game_id)
    user_id = _user(request, t)
    try:
        body = await request.json()
    except ValueError:
        body = None
    action = body.get("action") if isinstance(body, dict) else None
    arg = body.get("arg") if isinstance(body, dict) else None
    moment = body.get("step") if isinstance(body, dict) else None
    if (not isinstance(action, str) or not isinstance(moment, int) or isinstance(moment, bool)
            or not (arg is None or (isinstance(arg, int | str) and not isinstance(arg, bool)))):
        return _respond(_failed(400, t("miniapp.bad_request"), "bad_request"))
    games = request.app[GAMES]
    return await _answer(request, t, game_id, "host.act",
                         lambda: act_answer(games, game_id, user_id, t.locale, action, arg,
                                            moment),
                         {"user": user_id, "action": action, "arg": arg, "step": moment})


async def page(request: web.Request) -> web.Response:
    """The page alone: the same for anyone (the table comes from ``/state``, with a proof)."""
    game_id = _game(request)
    tr = request.app[TRANSLATOR]
    games = request.app[GAMES]
    locale = table_locale(games, game_id, request.query.get("lang", ""), tr.default)
    t = Texts(games, locale)
    view = Page(request, locale)
    html_ = request.app[ENV].get_template("host.html").render(
        page=view, t=view.t, game_id=game_id, telegram_js=request.app[SCRIPT],
        texts={key: t(f"miniapp.{key}") for key in PAGE_TEXTS})
    script = request.app[SCRIPT]
    origin = "/".join(script.split("/")[:3]) if script else ""
    return web.Response(text=html_, content_type="text/html", charset="utf-8", headers={
        "Cache-Control": "no-store",
        # names are put in as text; this stops any script but ours and Telegram's anyway
        "Content-Security-Policy": f"default-src 'self'; script-src 'self' {origin}; "
                                   "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                   "connect-src 'self'; base-uri 'none'; form-action 'none'"})


def install_host_app(app: web.Application, games: GameService, token: str, *,
                     telegram_js: str = TELEGRAM_JS, sharing: Sharing | None = None) -> None:
    """Add the Mini App's routes to the web app (before it starts). ``auth_date`` and the
    countdown are read on the games' clock (the one their deadlines are set by). ``sharing``:
    several processes; a game whose club another holds is asked of it."""
    app[GAMES] = games
    app[SHARING] = sharing
    app[TOKEN] = token
    app[SCRIPT] = telegram_js
    app.add_routes([
        web.get("/host/{game}", page),
        web.get("/host/{game}/state", state),
        web.post("/host/{game}/act", act),
    ])


"""The host's Mini App: the live table on the host's phone, opened from the panel's button.

Routes (added to the bot process's web app only, where the game service lives; the read-only
``python -m web`` has none of them):

* ``GET /host/{game}``: the page (no game data in it: the state comes with the host's proof);
* ``GET /host/{game}/state``: the table as JSON (:class:`bot.game.host_view.HostView`);
* ``POST /host/{game}/act``: ``{"action", "arg", "step"}`` through ``GameService.host_act``,
  the entry point the panel's buttons use (the same checks: host only, stale refused).

Both JSON routes need ``Authorization: tma <initData>`` (:mod:`web.host_auth`): missing, forged
or expired -> 401; a valid user who is not this game's host -> 403; an unknown or finished
game -> 404; a refused action -> 409 with the refusal's text. Nothing changes on any of them.
"""

from __future__ import annotations

import html
import json
import logging
import re
from datetime import datetime
from typing import Any

from aiohttp import web

from bot.errors import UserError
from bot.game.host_view import EXTEND_SECONDS, HostView
from bot.game.service import GameService, Reply
from web.app import ENV, TRANSLATOR, Page, pick
from web.host_auth import AuthError, host_user

log = logging.getLogger("web.host")

TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
GAMES: web.AppKey[GameService] = web.AppKey("host_games", GameService)
TOKEN: web.AppKey[str] = web.AppKey("host_token", str)
SCRIPT: web.AppKey[str] = web.AppKey("host_script", str)

# the order of the buttons on the page; anything else the view offers comes after them
ORDER = ("deal", "preset", "seat", "unseat", "night", "day", "vote", "fate", "extend", "pause",
         "resume", "speak", "tech", "fate_mode", "end")
DANGER = {"tech", "end"}
PAGE_TEXTS = ("yes", "cancel", "jailed", "offline", "acted", "dead", "refused",
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
    if view.deadline is not None:
        left: float | None = max(0.0, (view.deadline - now).total_seconds())
    else:
        left = view.remaining
    return {
        "game": view.game_id, "stage": view.stage, "step": view.step, "night": view.night,
        "day": view.day, "paused": view.paused, "deadline_in": left, "voter": view.voter,
        "title": t("miniapp.title", game=view.game_id), "phase": phase,
        "seats": [{"seat": s.seat, "name": s.name, "alive": s.alive, "dead": not s.alive,
                   "jailed": s.jailed, "offline": s.offline, "acted": s.acted}
                  for s in view.seats],
        "choices": [t("miniapp.choice", seat=c.seat, role=t(f"game.role.{c.role}"),
                      target=c.target) for c in view.choices],
        "votes": [t("miniapp.vote", seat=voter, target=target) for voter, target in view.votes],
        "tied": list(view.tied),
        "actions": _actions(view, t),
    }


def _fail(status: int, text: str, error: str) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden,
           404: web.HTTPNotFound, 409: web.HTTPConflict}[status]
    return cls(text=json.dumps({"error": error, "text": text}, ensure_ascii=False),
               content_type="application/json", headers={"Cache-Control": "no-store"})


def _game(request: web.Request) -> int:
    try:
        return int(request.match_info["game"])
    except ValueError:
        raise web.HTTPNotFound() from None


def _texts(request: web.Request) -> Texts:
    return Texts(request.app[GAMES], pick(request, request.app[TRANSLATOR].default))


def _refusal(e: UserError, t: Texts) -> web.HTTPException:
    status = {"game.not_host": 403, "game.not_found": 404}.get(e.key, 409)
    return _fail(status, t.reply(e), e.key)


def _user(request: web.Request, t: Texts) -> int:
    try:
        user = host_user(request.app[TOKEN], request.headers.get("Authorization"),
                         request.app[GAMES].core.clock())
    except AuthError as e:
        log.info("mini app refused", extra={"reason": e.reason, "path": request.path})
        raise _fail(401, t("miniapp.unauthorized"), "unauthorized") from None
    return user.id


async def state(request: web.Request) -> web.Response:
    game_id, t = _game(request), _texts(request)
    user_id = _user(request, t)
    try:
        view = await request.app[GAMES].host_view(game_id, user_id)
    except UserError as e:
        raise _refusal(e, t) from None
    return web.json_response(state_json(view, t, request.app[GAMES].core.clock()),
                             headers={"Cache-Control": "no-store"})


async def act(request: web.Request) -> web.Response:
    game_id, t = _game(request), _texts(request)
    user_id = _user(request, t)
    try:
        body = await request.json()
    except ValueError:
        body = None
    action = body.get("action") if isinstance(body, dict) else None
    arg = body.get("arg") if isinstance(body, dict) else None
    step = body.get("step") if isinstance(body, dict) else None
    if (not isinstance(action, str) or not isinstance(step, int) or isinstance(step, bool)
            or not (arg is None or (isinstance(arg, int | str) and not isinstance(arg, bool)))):
        raise _fail(400, t("miniapp.bad_request"), "bad_request")
    try:
        answer = await request.app[GAMES].host_act(game_id, user_id, action, arg, step=step)
    except UserError as e:
        raise _refusal(e, t) from None
    return web.json_response({"ok": True, "text": t.reply(answer)},
                             headers={"Cache-Control": "no-store"})


async def page(request: web.Request) -> web.Response:
    """The page alone: the same for anyone (the table comes from ``/state``, with a proof)."""
    game_id = _game(request)
    tr = request.app[TRANSLATOR]
    games = request.app[GAMES]
    table = games.tables.get(game_id)
    locale = pick(request, table.locale if table is not None else tr.default)
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
                     telegram_js: str = TELEGRAM_JS) -> None:
    """Add the Mini App's routes to the web app (before it starts). ``auth_date`` and the
    countdown are read on the games' clock (the one their deadlines are set by)."""
    app[GAMES] = games
    app[TOKEN] = token
    app[SCRIPT] = telegram_js
    app.add_routes([
        web.get("/host/{game}", page),
        web.get("/host/{game}/state", state),
        web.post("/host/{game}/act", act),
    ])


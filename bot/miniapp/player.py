"""The player's Mini App: the player's own record, the gift shop and the evenings on the phone,
opened from ``/profile``'s button and the private chat's menu button.

Routes (the bot process's web app only, beside the host's):

* ``GET /app/player``: the page (no data in it: the same for anyone);
* ``GET /app/player/me``: the asking player's profile, rating, finished games, shop and
  evenings (:mod:`bot.miniapp.player_view`), in the player's language;
* ``GET /app/player/photo/{gift}``: a gift's photo, fetched from Telegram by the bot
  (:mod:`bot.miniapp.photos`);
* ``POST /app/player/exchange`` ``{"gift", "price", "club", "card"}``: a gift request, through
  ``Shop.ask`` (the confirmation's path in ``/gifts``: the same checks, the same rows);
* ``POST /app/player/withdraw`` ``{"request"}``: ``Shop.withdraw``;
* ``POST /app/player/evening`` ``{"evening", "action": "in" | "out"}``: ``EveningService``'s
  sign-up and cancel (the post's buttons' path).

Every route but the page needs ``Authorization: tma <initData>`` (:mod:`bot.miniapp.auth`, as
the host's): missing, forged, another bot's or over an hour old -> 401. The user is the
initData's and no request names another: a player reads and changes only its own rows. No
account -> 403; a refusal of the services (blocked, not enough points, a second press) -> 409
with its words; a body that is not the route's -> 400. None of them changes anything.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from aiohttp import web

from bot.errors import UserError
from bot.miniapp.auth import AuthError, check_init_data, init_data_of
from bot.miniapp.links import PLAYER_PATH
from bot.miniapp.photos import GiftPhotos, PhotoUnavailable, content_type
from bot.miniapp.player_view import PlayerReads, Words
from storage.models import Player
from web.app import ENV, TRANSLATOR, Page, pick

log = logging.getLogger("web.player")

ROUTE = f"/{PLAYER_PATH}"
NO_STORE = {"Cache-Control": "no-store"}
# a card of the Mini App: the page's own number for one confirmation (a second press of it is
# the same request, as a second press of a chat card's Yes is); negative, so it never meets a
# chat message's id, and within a JavaScript number's exact integers
CARD_MIN = -(2 ** 53)
ID_MAX = 2 ** 63 - 1


class PlayerApp:
    """What the routes need: the services they read and act through, the bot's token and
    clock (``auth_date`` is checked on it), the gifts' photos."""

    def __init__(self, reads: PlayerReads, photos: GiftPhotos, token: str,
                 clock: Callable[[], datetime], telegram_js: str) -> None:
        self.reads, self.photos, self.token = reads, photos, token
        self.clock, self.telegram_js = clock, telegram_js


PLAYER_APP: web.AppKey[PlayerApp] = web.AppKey("player_app", PlayerApp)


def _json(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(body, status=status, headers=NO_STORE)


def _failure(status: int, error: str, text: str) -> web.HTTPException:
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden,
        404: web.HTTPNotFound, 409: web.HTTPConflict}
    return kinds[status](text=json.dumps({"error": error, "text": text}, ensure_ascii=False),
                         content_type="application/json", headers=NO_STORE)


def _page_words(request: web.Request) -> Words:
    """Before the player is known: the language the phone asks for."""
    tr = request.app[TRANSLATOR]
    return Words(tr, pick(request, tr.default))


async def _player(request: web.Request) -> tuple[Player, Words]:
    """The initData's own account, and its language; else 401 / 403."""
    app = request.app[PLAYER_APP]
    try:
        user = check_init_data(app.token, init_data_of(request.headers.get("Authorization")),
                               app.clock())
    except AuthError as e:
        log.info("player app refused", extra={"reason": e.reason, "path": request.path})
        raise _failure(401, "unauthorized",
                       _page_words(request)("miniapp.player.unauthorized")) from None
    player = await app.reads.db.players.get(user.id)
    w = app.reads.words(player, user.language_code)
    if player is None:
        raise _failure(403, "not_registered", w("miniapp.player.not_registered"))
    return player, w


def _refused(error: UserError, w: Words) -> web.HTTPException:
    status = 403 if error.key == "misc.not_registered" else 409
    return _failure(status, error.key, w.refusal(error))


async def _body(request: web.Request, w: Words) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise _failure(400, "bad_request", w("miniapp.player.bad_request"))
    return body


def _number(body: dict[str, Any], key: str, w: Words, *, low: int = 1,
            high: int = ID_MAX) -> int:
    """An integer field within [low, high] (no bool, no text, no float): else 400."""
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _failure(400, "bad_request", w("miniapp.player.bad_request"))
    return value


async def me(request: web.Request) -> web.Response:
    player, w = await _player(request)
    return _json(await request.app[PLAYER_APP].reads.everything(player, w))


async def photo(request: web.Request) -> web.Response:
    """A gift's photo for a player who may see the catalogue (on sale, with a photo)."""
    player, w = await _player(request)
    app = request.app[PLAYER_APP]
    try:
        gift, _ = await app.reads.shop.gift(player.tg_id, _id(request.match_info["gift"]))
    except UserError as e:
        raise _failure(404, e.key, w.refusal(e)) from None
    if gift.photo is None:
        raise _failure(404, "no_photo", w("miniapp.player.no_photo"))
    try:
        data = await app.photos.get(gift.photo)
    except PhotoUnavailable:
        raise _failure(404, "no_photo", w("miniapp.player.no_photo")) from None
    return web.Response(body=data, content_type=content_type(data),
                        headers={"Cache-Control": "private, max-age=3600"})


def _id(text: str) -> int:
    """A positive id of a URL's part (ASCII digits only), else 404."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound()
    return int(text)


async def exchange(request: web.Request) -> web.Response:
    """The confirmation's Yes: ``Shop.ask``, the request the chat's card makes."""
    player, w = await _player(request)
    body = await _body(request, w)
    gift = _number(body, "gift", w)
    price = _number(body, "price", w, low=0)
    club = _number(body, "club", w, low=-ID_MAX)
    card = _number(body, "card", w, low=CARD_MIN, high=-1)
    shop = request.app[PLAYER_APP].reads.shop
    try:
        made = await shop.ask(player.tg_id, gift, price, card=card, club_id=club)
    except UserError as e:
        raise _refused(e, w) from None
    return _json({"ok": True, "request": made.id,
                  "text": w("shop.asked_popup", gift=made.gift_name)})


async def withdraw(request: web.Request) -> web.Response:
    player, w = await _player(request)
    request_id = _number(await _body(request, w), "request", w)
    try:
        done = await request.app[PLAYER_APP].reads.shop.withdraw(player.tg_id, request_id)
    except UserError as e:
        raise _refused(e, w) from None
    return _json({"ok": True, "text": w("shop.withdrawn_popup", id=done.id)})


async def evening(request: web.Request) -> web.Response:
    """I'm in / Cancel: the evening service's sign-up and cancel, as the post's buttons."""
    player, w = await _player(request)
    body = await _body(request, w)
    evening_id = _number(body, "evening", w)
    action = body.get("action")
    if action not in ("in", "out"):
        raise _failure(400, "bad_request", w("miniapp.player.bad_request"))
    evenings = request.app[PLAYER_APP].reads.evenings
    if evenings is None:
        raise _failure(404, "evening.refused.unknown", w("evening.refused.unknown"))
    try:
        answer = (await evenings.sign_up(evening_id, player.tg_id, player) if action == "in"
                  else await evenings.leave(evening_id, player.tg_id))
    except UserError as e:
        raise _refused(e, w) from None
    return _json({"ok": True, "text": w(answer.key, **answer.kwargs)})


async def page(request: web.Request) -> web.Response:
    """The page alone: the same for anyone (the data comes from ``/me``, with a proof)."""
    w = _page_words(request)
    app = request.app[PLAYER_APP]
    view = Page(request, w.locale)
    html_ = request.app[ENV].get_template("player_app.html").render(
        page=view, t=view.t, telegram_js=app.telegram_js,
        texts={key: w(f"miniapp.player.{key}") for key in (
            "unauthorized", "no_init_data", "offline", "refused", "close")})
    script = app.telegram_js
    origin = "/".join(script.split("/")[:3]) if script else ""
    return web.Response(text=html_, content_type="text/html", charset="utf-8", headers={
        "Cache-Control": "no-store",
        # every name is put in as text; this stops any script but ours and Telegram's anyway;
        # the gifts' photos are blobs the page fetched with its proof
        "Content-Security-Policy": f"default-src 'self'; script-src 'self' {origin}; "
                                   "style-src 'self' 'unsafe-inline'; img-src 'self' blob:; "
                                   "connect-src 'self'; base-uri 'none'; form-action 'none'"})


def install_player_app(app: web.Application, player_app: PlayerApp) -> None:
    """Add the player's Mini App's routes to the web app (before it starts)."""
    app[PLAYER_APP] = player_app
    app.add_routes([
        web.get(ROUTE, page),
        web.get(f"{ROUTE}/me", me),
        web.get(f"{ROUTE}/photo/{{gift}}", photo),
        web.post(f"{ROUTE}/exchange", exchange),
        web.post(f"{ROUTE}/withdraw", withdraw),
        web.post(f"{ROUTE}/evening", evening),
    ])

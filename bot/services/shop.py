"""The gift shop: a player's catalogue and requests, an admin's Handed over / Cancel, the
requests not handed over in time, and the telling of each change.

A request names the club where the player collects the gift (by default the club of its last
counted game; the confirmation may change it): that club's admins and the network's hear of it,
and only they may press Handed over / Cancel (``Power.HAND_OVER_GIFT`` in the request's club).

Every change of a request (asked, handed over, cancelled, withdrawn, expired, burned by a
block or the two months' expiry) is written first; :meth:`Shop.tell` then tells it, once,
through the durable outbox: the admins hear of a new request (with the buttons) and the player
that it was sent (with Withdraw); at its end the player hears of it, and both the admins'
message and the player's lose their buttons. The mark "told" and the
messages are written in one transaction (``storage/shop/requests.py``, ``mark_told``), so a
change is told once whichever process tells it, and one a crash left untold is told by the next
run of the shop's periodic job.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import timedelta
from typing import Literal

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.clock import Clock, utc_now
from bot.delivery.payload import Buttons, encode, send_payload
from bot.errors import UserError
from bot.services.accounts import Accounts, display
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import GiftRefused
from storage.models import CLUB_APPROVED, Club, Gift, GiftRequest, Player
from storage.repos.outbox import EDIT, SEND, Queued
from views import shop_texts
from views.i18n import Translator
from views.shop_texts import ShopView

Queue = Callable[[Sequence[Queued], Collection[int]], None]


class ShopCb(CallbackData, prefix="shop"):
    """The shop's buttons (built here: the admins' notices are queued by :meth:`Shop.tell`).
    A player's: ``card`` (a gift's card), ``ask`` (Exchange), ``confirm`` (at ``price``, the
    price the player saw, collected at ``club``), ``clubs`` (the clubs to choose from),
    ``club`` (this one chosen), ``keep`` (no), ``withdraw`` (a request); an admin's: ``hand``
    (Handed over), ``cancel``. ``id``: the gift's or the request's."""

    action: Literal["card", "ask", "confirm", "clubs", "club", "keep", "withdraw", "hand",
                    "cancel"]
    id: int
    price: int = 0
    club: int = 0  # the club where the gift is collected (0: none chosen yet)


def notice_key(request_id: int) -> str:
    """The outbox key of the admins' message about a request (edited when it closes)."""
    return f"gift:{request_id}"


def asked_key(request_id: int) -> str:
    """The outbox key of the player's "request sent" (its Withdraw goes when it closes)."""
    return f"{notice_key(request_id)}:asked"


CLUBS_SHOWN = 30  # the clubs a player chooses from at most (its own first)


class Shop:
    def __init__(self, db: Database, accounts: Accounts, translator: Translator,
                 permissions: Permissions, *, request_days: int, queued: Queue | None = None,
                 clock: Clock = utc_now, wall: Callable[[], float] = time.time) -> None:
        self.db = db
        self.accounts = accounts
        self.translator = translator
        self.permissions = permissions
        self.request_days = request_days
        self.clock = clock
        self.wall = wall
        # wakes the delivery for what was queued (the application's ``Delivery.queued``)
        self.queued = queued

    # ------------------------------------------------------------------ the player's side
    async def view(self, tg_id: int) -> ShopView:
        """The catalogue as ``tg_id`` sees it: the gifts on sale, its points and requests."""
        await self.accounts.require(tg_id)
        return ShopView(gifts=await self.db.gifts.catalogue(active_only=True),
                        points=await self.db.ledger.balance(tg_id),
                        reserved=await self.db.gift_requests.reserved(tg_id),
                        requests=await self.db.gift_requests.open_of(tg_id),
                        handing=await self._handing())

    async def gift(self, tg_id: int, gift_id: int) -> tuple[Gift, ShopView]:
        """A gift on sale and the player's view (a retired or unknown gift: refused)."""
        view = await self.view(tg_id)
        gift = await self.db.gifts.get(gift_id)
        if gift is None:
            raise UserError("shop.refused.unknown_gift")
        if not gift.active:
            raise UserError("shop.refused.retired", gift=gift.name)
        return gift, view

    async def check(self, tg_id: int, gift_id: int, price: int) -> Gift:
        """What the Exchange button checks before it asks for the confirmation; the request
        itself checks all of it again under its locks (:meth:`ask`)."""
        await self.accounts.require(tg_id, active=True)
        await self._require_handing()
        gift, view = await self.gift(tg_id, gift_id)
        if gift.price != price:
            raise UserError("shop.refused.price_changed", gift=gift.name, price=gift.price)
        why = view.why_not(gift)
        if why is not None:
            raise self._refusal(GiftRefused(why, gift=gift, available=view.available))
        return gift

    async def ask(self, tg_id: int, gift_id: int, price: int, card: int,
                  club_id: int) -> GiftRequest:
        """The player confirmed: a request that reserves the points and an item, collected at
        the club ``club_id`` (an approved club); its admins and the network's are told."""
        await self.accounts.require(tg_id, active=True)
        await self._require_handing()
        await self.club(club_id)
        try:
            request = await self.db.gift_requests.ask(tg_id, gift_id, price=price, card=card,
                                                      now=self.clock(), club_chat_id=club_id)
        except GiftRefused as e:
            raise self._refusal(e) from e
        await self.tell()
        return request

    async def withdraw(self, tg_id: int, request_id: int) -> GiftRequest:
        try:
            request = await self.db.gift_requests.withdraw(request_id, tg_id=tg_id,
                                                           now=self.clock())
        except GiftRefused as e:
            raise self._refusal(e) from e
        await self.tell()
        return request

    # ------------------------------------------------------------------ the club
    async def home_club(self, tg_id: int) -> Club | None:
        """Where the player collects a gift unless it says otherwise: the club of its last
        counted game (the points' club), if the network approves it."""
        for played in await self.db.stats.played_games(tg_id, limit=5):
            club = await self.db.clubs.get(played.club_chat_id)
            if club is not None and club.approved:
                return club
        return None

    async def club(self, club_id: int) -> Club:
        """An approved club a gift may be collected at (else refused: the buttons are old)."""
        club = await self.db.clubs.get(club_id) if club_id else None
        if club is None or not club.approved:
            raise UserError("shop.refused.club")
        return club

    async def clubs(self, tg_id: int) -> list[Club]:
        """The clubs a player may collect a gift at: the approved ones, its own first."""
        approved = await self.db.clubs.listed((CLUB_APPROVED,))
        if not approved:
            raise UserError("shop.refused.no_clubs")
        mine = [p.club_chat_id for p in await self.db.stats.played_games(tg_id, limit=50)]
        order = {chat_id: i for i, chat_id in reversed(list(enumerate(mine)))}
        approved.sort(key=lambda c: (order.get(c.chat_id, len(order)), c.label.casefold()))
        return approved[:CLUBS_SHOWN]

    # ------------------------------------------------------------------ the admins' side
    async def hand_over(self, admin_id: int, request_id: int) -> tuple[GiftRequest, int]:
        """Handed over: the ledger's 'redeem' row, one item off the stock; the player told."""
        await self._require_hander(admin_id, request_id)
        try:
            done = await self.db.gift_requests.hand_over(request_id, admin_id=admin_id,
                                                         now=self.clock())
        except GiftRefused as e:
            raise self._refusal(e) from e
        await self.tell()
        return done

    async def cancel(self, admin_id: int, request_id: int) -> GiftRequest:
        await self._require_hander(admin_id, request_id)
        try:
            request = await self.db.gift_requests.cancel(request_id, admin_id=admin_id,
                                                         now=self.clock())
        except GiftRefused as e:
            raise self._refusal(e) from e
        await self.tell()
        return request

    async def open_requests(self, admin_id: int) -> list[tuple[GiftRequest, str]]:
        """Every open request the admin may hand over, with its player's name
        (``/gift_requests``)."""
        requests = [r for r in await self.db.gift_requests.open_all()
                    if await self.permissions.may(admin_id, Power.HAND_OVER_GIFT,
                                                  club_id=r.club_chat_id)]
        players = await self._players(r.tg_id for r in requests)
        return [(r, _name(players.get(r.tg_id), r.tg_id)) for r in requests]

    def admin_buttons(self, locale: str, request: GiftRequest) -> InlineKeyboardMarkup:
        tr = self.translator
        return InlineKeyboardMarkup(inline_keyboard=[[
            InlineKeyboardButton(text=tr.t(locale, "shop.button.hand"),
                                 callback_data=ShopCb(action="hand", id=request.id).pack()),
            InlineKeyboardButton(text=tr.t(locale, "shop.button.cancel"),
                                 callback_data=ShopCb(action="cancel", id=request.id).pack()),
        ]])

    def withdraw_button(self, locale: str, request: GiftRequest) -> InlineKeyboardMarkup:
        text = html.unescape(self.translator.t(locale, "shop.button.withdraw", id=request.id,
                                               gift=request.gift_name))
        return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=text, callback_data=ShopCb(action="withdraw", id=request.id).pack())]])

    # ------------------------------------------------------------------ the periodic job
    async def expire_overdue(self) -> int:
        """Close the requests not handed over within GIFT_REQUEST_DAYS (their points and items
        free again), then tell whatever is untold. How many expired."""
        now = self.clock()
        expired = await self.db.gift_requests.expire(now - timedelta(days=self.request_days),
                                                     now=now)
        await self.tell()
        return expired

    async def tell(self) -> int:
        """Tell every change not told yet (see the module's docstring); how many were told."""
        requests = await self.db.gift_requests.untold()
        if not requests:
            return 0
        admins = {r.id: await self._handers(r) for r in requests}
        players = await self._players([*(r.tg_id for r in requests),
                                       *(r.closed_by for r in requests if r.closed_by),
                                       *(a for ids in admins.values() for a in ids)])
        told: list[tuple[GiftRequest, Sequence[Queued]]] = []
        for request in requests:
            club = await self.db.clubs.get(request.club_chat_id) if request.club_chat_id \
                else None
            told.append((request, await self._messages(
                request, players, admins[request.id], club.label if club else None)))
        queued = await self.db.gift_requests.mark_told(told, self.clock(), self.wall())
        if self.queued is not None:
            for messages, chats in queued:
                self.queued(messages, chats)
        return len(queued)

    async def _messages(self, request: GiftRequest, players: dict[int, Player],
                        admins: Sequence[int], club: str | None) -> list[Queued]:
        tr, key = self.translator, notice_key(request.id)
        player = players.get(request.tg_id)
        name = _name(player, request.tg_id)
        messages: list[Queued] = []
        # a Telegram account: it pressed Yes, so its "request sent" goes even when an old
        # failure marked it as having blocked the bot; what it is told later does not
        telegram = player is not None and not player.offline
        reachable = telegram and player is not None and not player.bot_blocked
        if request.open:  # new: the admins hear of it, the player has it with Withdraw
            balance = await self.db.ledger.balance(request.tg_id)
            for admin_id in admins:
                locale = self.accounts.locale_of(players.get(admin_id), None)
                text = shop_texts.admin_notice(tr, locale, request, name, balance, club)
                messages.append(Queued(admin_id, SEND, send_payload(
                    text, self.admin_buttons(locale, request)), key=key))
            if telegram:
                locale = self.accounts.locale_of(player, None)
                messages.append(Queued(request.tg_id, SEND, send_payload(
                    shop_texts.asked(tr, locale, request, self.request_days, club),
                    self.withdraw_button(locale, request)), key=asked_key(request.id)))
            return messages
        if request.announced:  # the admins' message shows the outcome, without its buttons
            by = players.get(request.closed_by) if request.closed_by else None
            for admin_id in admins:
                locale = self.accounts.locale_of(players.get(admin_id), None)
                text = shop_texts.admin_outcome(
                    tr, locale, request, name,
                    None if request.closed_by is None else _name(by, request.closed_by))
                messages.append(Queued(admin_id, EDIT, send_payload(text), key=key))
        if telegram:  # its "request sent" loses Withdraw
            messages.append(Queued(request.tg_id, EDIT, encode(Buttons()),
                                   key=asked_key(request.id)))
        if player is not None and reachable:
            locale = self.accounts.locale_of(player, None)
            told = shop_texts.player_outcome(tr, locale, request, self.request_days)
            if told is not None:
                messages.append(Queued(request.tg_id, SEND, send_payload(told),
                                       key=f"{key}:end"))
        return messages

    # ------------------------------------------------------------------ helpers
    async def _handing(self) -> bool:
        """Someone can hand gifts over: the network has owners or admins."""
        return bool(await self.permissions.network_staff())

    async def _require_handing(self) -> None:
        """A request nobody could hand over would only hold the player's points until it
        expires: with no owner nor network admin the exchange is closed."""
        if not await self._handing():
            raise UserError("shop.no_admins")

    async def _require_hander(self, admin_id: int, request_id: int) -> None:
        """Only the admins of the club where the gift is collected, and the network's."""
        request = await self.db.gift_requests.get(request_id)
        if request is None:
            raise self._refusal(GiftRefused("unknown_request"))
        await self.permissions.require(admin_id, Power.HAND_OVER_GIFT,
                                       club_id=request.club_chat_id)

    async def _handers(self, request: GiftRequest) -> list[int]:
        """Who hears of a request: the network's owners and admins, and the admins of its
        club."""
        club = request.club_chat_id
        return sorted(set(await self.permissions.network_staff())
                      | set(await self.db.staff.club_admins(club) if club is not None else ()))

    async def _players(self, tg_ids: Iterable[int]) -> dict[int, Player]:
        return await self.db.players.get_many(tg_ids)

    def _refusal(self, error: GiftRefused) -> UserError:
        """A storage refusal in the words of ``shop.refused.*``."""
        gift = error.gift.name if error.gift is not None else ""
        request = error.request
        if error.reason == "insufficient" and request is not None:  # at the handover
            return UserError("shop.refused.handover_insufficient", id=request.id,
                             points=request.points, balance=error.available)
        if error.reason == "closed" and request is not None:  # a second press, a stale one
            return UserError(f"shop.refused.closed_{request.status}", id=request.id,
                             gift=request.gift_name)
        if error.reason == "duplicate" and request is not None:
            return UserError("shop.refused.duplicate", id=request.id, gift=request.gift_name)
        price = error.gift.price if error.gift is not None else 0
        return UserError(f"shop.refused.{error.reason}", gift=gift, price=price,
                         available=error.available, missing=price - error.available,
                         days=self.request_days)


def _name(player: Player | None, tg_id: int) -> str:
    return display(player) if player is not None else str(tg_id)

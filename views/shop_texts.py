"""The gift shop's words: the catalogue a player sees, a gift's card, a request's notices to its
player and to the admins, and the admins' catalogue pages (texts: ``locales/*/shop.ftl``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.models import REQUEST_OPEN, Gift, GiftRequest
from views.i18n import Safe, Translator


@dataclass(frozen=True)
class ShopView:
    """What a player's ``/gifts`` shows: the gifts on sale, the balance and the reserved
    points, and the player's open requests."""

    gifts: list[Gift]
    points: int
    reserved: int
    requests: list[GiftRequest]
    handing: bool = True  # someone can hand the gifts over (the bot has admins)

    @property
    def available(self) -> int:
        return max(0, self.points - self.reserved)

    def why_not(self, gift: Gift) -> str | None:
        """Why the player cannot take ``gift`` now (a key of ``shop.why``), None if it can."""
        if not self.handing:
            return "no_admins"
        if not gift.active:
            return "retired"
        if gift.left <= 0:
            return "out_of_stock"
        if self.available < gift.price:
            return "insufficient"
        return None


def balance_line(tr: Translator, locale: str, points: int, reserved: int) -> str:
    return tr.t(locale, "shop.balance", points=points, reserved=reserved,
                available=max(0, points - reserved))


def catalogue(tr: Translator, locale: str, view: ShopView) -> str:
    lines = [tr.t(locale, "shop.head"), balance_line(tr, locale, view.points, view.reserved), ""]
    if not view.handing:
        lines += [tr.t(locale, "shop.no_admins"), ""]
    if not view.gifts:
        lines.append(tr.t(locale, "shop.empty"))
    for gift in view.gifts:
        lines.append(gift_line(tr, locale, gift, view))
    if view.requests:
        lines += ["", tr.t(locale, "shop.mine_head")]
        lines += [tr.t(locale, "shop.mine_line", id=r.id, gift=r.gift_name, points=r.points,
                       date=r.created_at.date()) for r in view.requests]
    lines += ["", tr.t(locale, "shop.hint")]
    return "\n".join(lines)


def gift_line(tr: Translator, locale: str, gift: Gift, view: ShopView) -> str:
    why = view.why_not(gift)
    if why is None:
        return tr.t(locale, "shop.line_yes", name=gift.name, price=gift.price, left=gift.left)
    return tr.t(locale, "shop.line_no", name=gift.name, price=gift.price, left=gift.left,
                why=Safe(_why(tr, locale, why, gift, view)))


def card(tr: Translator, locale: str, gift: Gift, view: ShopView) -> str:
    """A gift's card (a photo's caption, or a text)."""
    why = view.why_not(gift)
    lines = [tr.t(locale, "shop.card", name=gift.name, price=gift.price, left=gift.left),
             balance_line(tr, locale, view.points, view.reserved)]
    if why is not None:
        lines.append(tr.t(locale, "shop.no_admins") if why == "no_admins"
                     else _why(tr, locale, why, gift, view))
    return "\n".join(lines)


def _why(tr: Translator, locale: str, why: str | None, gift: Gift, view: ShopView) -> str:
    if why is None:
        return ""
    return tr.t(locale, f"shop.why.{why}", missing=gift.price - view.available)


def asked(tr: Translator, locale: str, request: GiftRequest, days: int,
          club: str | None = None) -> str:
    """The player's answer to its Exchange (``club``: where the gift is collected)."""
    text = tr.t(locale, "shop.asked", id=request.id, gift=request.gift_name,
                points=request.points, days=days)
    return text if club is None else text + "\n" + tr.t(locale, "shop.collect_at", club=club)


def admin_notice(tr: Translator, locale: str, request: GiftRequest, player: str,
                 balance: int, club: str | None = None) -> str:
    """An admin's message about a new request (with the buttons Handed over / Cancel)."""
    text = tr.t(locale, "shop.notice", id=request.id, gift=request.gift_name,
                points=request.points, player=player, balance=balance,
                date=request.created_at.date())
    return text if club is None else text + "\n" + tr.t(locale, "shop.collect_at", club=club)


def admin_outcome(tr: Translator, locale: str, request: GiftRequest, player: str,
                  by: str | None) -> str:
    """An admin's message about a request once it is closed (the buttons gone)."""
    outcome = tr.t(locale, f"shop.outcome.{request.status}", by=by or "—")
    return tr.t(locale, "shop.closed_notice", id=request.id, gift=request.gift_name,
                points=request.points, player=player, outcome=outcome)


def player_outcome(tr: Translator, locale: str, request: GiftRequest, days: int) -> str | None:
    """What the player hears of its request's end (None: the player ended it itself)."""
    if request.status in (REQUEST_OPEN, "withdrawn"):
        return None
    return tr.t(locale, f"shop.told.{request.status}", id=request.id, gift=request.gift_name,
                points=request.points, days=days)


def request_line(tr: Translator, locale: str, request: GiftRequest, player: str) -> str:
    return tr.t(locale, "shop.request_line", id=request.id, gift=request.gift_name,
                points=request.points, player=player, date=request.created_at.date())


def open_requests(tr: Translator, locale: str,
                  lines: Sequence[tuple[GiftRequest, str]]) -> str:
    """An admin's ``/gift_requests``: each open request with its player's name."""
    if not lines:
        return tr.t(locale, "shop.requests_none")
    return "\n".join([tr.t(locale, "shop.requests_head", count=len(lines)),
                      *(request_line(tr, locale, r, name) for r, name in lines)])


def admin_catalogue(tr: Translator, locale: str, gifts: Sequence[Gift], open_count: int) -> str:
    """The admins' ``/shop``: every gift, retired ones too."""
    lines = [tr.t(locale, "shop.admin.head", count=len(gifts), requests=open_count)]
    lines += [admin_line(tr, locale, g) for g in gifts]
    if not gifts:
        lines.append(tr.t(locale, "shop.admin.empty"))
    return "\n".join(lines)


def admin_line(tr: Translator, locale: str, gift: Gift) -> str:
    line = tr.t(locale, "shop.admin.line", id=gift.id, name=gift.name, price=gift.price,
                stock=gift.stock, reserved=gift.reserved)
    return line if gift.active else line + tr.t(locale, "shop.admin.retired_mark")


def admin_gift(tr: Translator, locale: str, gift: Gift) -> str:
    """A gift's page in the admins' dialog."""
    return "\n".join([
        admin_line(tr, locale, gift),
        tr.t(locale, "shop.admin.photo_yes" if gift.photo else "shop.admin.photo_no"),
        tr.t(locale, "shop.admin.page_hint", id=gift.id),
    ])

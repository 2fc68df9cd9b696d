"""The gift shop in a private chat: ``/gifts``, a gift's card, Exchange and its confirmation,
a request withdrawn, and the admins' Handed over / Cancel on a request's notice (logic:
``bot.services.shop``; each refusal is a popup on the button)."""

from __future__ import annotations

import html

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.errors import UserError
from bot.services import Services
from bot.services.shop import Shop, ShopCb
from storage.models import Club, Gift
from views import shop_texts
from views.i18n import Translator
from views.shop_texts import ShopView


def label(tr: Translator, locale: str, key: str, **kwargs: object) -> str:
    """A button's text: plain, so a gift's name shows as it was typed."""
    return html.unescape(tr.t(locale, key, **kwargs))


def _button(text: str, action: str, id_: int, price: int = 0,
            club: int = 0) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        text=text, callback_data=ShopCb(action=action, id=id_, price=price, club=club).pack())


def catalogue_buttons(tr: Translator, locale: str, view: ShopView) -> InlineKeyboardMarkup:
    rows = [[_button(label(tr, locale, "shop.button.gift", name=g.name, price=g.price), "card",
                     g.id)] for g in view.gifts]
    rows += [[_button(label(tr, locale, "shop.button.withdraw", id=r.id, gift=r.gift_name),
                      "withdraw", r.id)] for r in view.requests]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def exchange_button(tr: Translator, locale: str, gift_id: int,
                    price: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[_button(
        label(tr, locale, "shop.button.exchange", price=price), "ask", gift_id, price)]])


async def gifts(message: Message, shop: Shop, services: Services, locale: str) -> None:
    assert message.from_user is not None
    view = await shop.view(message.from_user.id)
    tr = services.translator
    await services.replies.answer(message, shop_texts.catalogue(tr, locale, view),
                                  reply_markup=catalogue_buttons(tr, locale, view))


async def gift_card(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                    services: Services, locale: str) -> None:
    gift, view = await shop.gift(query.from_user.id, callback_data.id)
    tr, replies = services.translator, services.replies
    text = shop_texts.card(tr, locale, gift, view)
    markup = (exchange_button(tr, locale, gift.id, gift.price)
              if view.why_not(gift) is None else None)
    await services.sender.answer(query)
    if gift.photo:  # (one Telegram refuses, a file_id it no longer takes, goes as a text)
        await replies.send_photo(query.from_user.id, gift.photo, caption=text,
                                 reply_markup=markup)
    else:
        await replies.send_text(query.from_user.id, text, reply_markup=markup)


def confirmation(tr: Translator, locale: str, gift: Gift, club: Club) -> InlineKeyboardMarkup:
    """Yes / No, and the club where the gift is collected (pressed: another one)."""
    return InlineKeyboardMarkup(inline_keyboard=[
        [_button(label(tr, locale, "shop.button.confirm", price=gift.price, name=gift.name),
                 "confirm", gift.id, gift.price, club.chat_id),
         _button(label(tr, locale, "shop.button.keep"), "keep", gift.id, gift.price)],
        [_button(label(tr, locale, "shop.button.collect", club=club.label), "clubs", gift.id,
                 gift.price, club.chat_id)],
    ])


def club_choice(tr: Translator, locale: str, gift: Gift,
                clubs: list[Club]) -> InlineKeyboardMarkup:
    """A button per club where the gift may be collected, then No."""
    rows = [[_button(label(tr, locale, "shop.button.club", club=c.label), "club", gift.id,
                     gift.price, c.chat_id)] for c in clubs]
    rows.append([_button(label(tr, locale, "shop.button.keep"), "keep", gift.id, gift.price)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


async def exchange(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                   services: Services, locale: str) -> None:
    """Exchange: checked now, then the confirmation on the card's own buttons, naming the
    club of the player's last game (none: the clubs to choose from first)."""
    gift = await shop.check(query.from_user.id, callback_data.id, callback_data.price)
    tr = services.translator
    home = await shop.home_club(query.from_user.id)
    markup = (confirmation(tr, locale, gift, home) if home is not None else
              club_choice(tr, locale, gift, await shop.clubs(query.from_user.id)))
    await services.sender.answer(query)
    if query.message is not None:
        await services.replies.edit_markup(query.message.chat.id, query.message.message_id,
                                           markup)


async def choose_club(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                      services: Services, locale: str) -> None:
    """The club's button of the confirmation: the clubs to choose from."""
    gift = await shop.check(query.from_user.id, callback_data.id, callback_data.price)
    markup = club_choice(services.translator, locale, gift,
                         await shop.clubs(query.from_user.id))
    await services.sender.answer(query)
    if query.message is not None:
        await services.replies.edit_markup(query.message.chat.id, query.message.message_id,
                                           markup)


async def club_chosen(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                      services: Services, locale: str) -> None:
    """A club chosen: the confirmation again, naming it."""
    gift = await shop.check(query.from_user.id, callback_data.id, callback_data.price)
    club = await shop.club(callback_data.club)
    await services.sender.answer(query)
    if query.message is not None:
        await services.replies.edit_markup(
            query.message.chat.id, query.message.message_id,
            confirmation(services.translator, locale, gift, club))


async def keep(query: CallbackQuery, callback_data: ShopCb, services: Services,
               locale: str) -> None:
    await services.sender.answer(query, services.translator.t(locale, "shop.kept"))
    if query.message is not None:
        await services.replies.edit_markup(
            query.message.chat.id, query.message.message_id,
            exchange_button(services.translator, locale, callback_data.id, callback_data.price))


async def confirm(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                  services: Services, locale: str) -> None:
    """The request: the card's message id makes a second press of it the same request. The
    player's "request sent" (with Withdraw) is the shop's to tell (``Shop.tell``), so it loses
    its button when the request closes."""
    if query.message is None:
        raise UserError("shop.refused.stale")
    request = await shop.ask(query.from_user.id, callback_data.id, callback_data.price,
                             card=query.message.message_id, club_id=callback_data.club)
    tr, replies = services.translator, services.replies
    await services.sender.answer(query, label(tr, locale, "shop.asked_popup",
                                              gift=request.gift_name))
    # the card said "Left: 2 ... available: 50" before the request: it says what is true now,
    # and that the request's own message (with Withdraw) is where it goes on
    chat, card = query.message.chat.id, query.message.message_id
    try:
        gift, view = await shop.gift(query.from_user.id, callback_data.id)
    except UserError:  # retired meanwhile: the buttons go, the request's message tells all
        await replies.edit_markup(chat, card, None)
        return
    text = "\n".join([shop_texts.card(tr, locale, gift, view),
                      tr.t(locale, "shop.card_asked", id=request.id)])
    if gift.photo:
        await replies.edit_caption(chat, card, text)
    else:
        await replies.edit_text(chat, card, text)


async def withdraw(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                   services: Services, locale: str) -> None:
    request = await shop.withdraw(query.from_user.id, callback_data.id)
    tr = services.translator
    await services.sender.answer(query, label(tr, locale, "shop.withdrawn_popup",
                                              id=request.id))
    await services.replies.send_text(query.from_user.id, tr.t(
        locale, "shop.withdrawn", id=request.id, gift=request.gift_name,
        points=request.points))


async def hand_over(query: CallbackQuery, callback_data: ShopCb, shop: Shop,
                    services: Services, locale: str) -> None:
    """An admin's Handed over (the notice itself is edited by the telling: all admins')."""
    request, balance = await shop.hand_over(query.from_user.id, callback_data.id)
    await services.sender.answer(query, label(
        services.translator, locale, "shop.handed_popup", id=request.id,
        gift=request.gift_name, balance=balance))


async def cancel(query: CallbackQuery, callback_data: ShopCb, shop: Shop, services: Services,
                 locale: str) -> None:
    request = await shop.cancel(query.from_user.id, callback_data.id)
    await services.sender.answer(query, label(
        services.translator, locale, "shop.cancelled_popup", id=request.id,
        gift=request.gift_name))


def create_router() -> Router:
    router = Router(name="shop")
    router.message.filter(F.chat.type == "private")
    router.callback_query.filter(F.message.chat.type == "private")
    router.message.register(gifts, Command("gifts"))
    router.callback_query.register(gift_card, ShopCb.filter(F.action == "card"))
    router.callback_query.register(exchange, ShopCb.filter(F.action == "ask"))
    router.callback_query.register(keep, ShopCb.filter(F.action == "keep"))
    router.callback_query.register(confirm, ShopCb.filter(F.action == "confirm"))
    router.callback_query.register(choose_club, ShopCb.filter(F.action == "clubs"))
    router.callback_query.register(club_chosen, ShopCb.filter(F.action == "club"))
    router.callback_query.register(withdraw, ShopCb.filter(F.action == "withdraw"))
    router.callback_query.register(hand_over, ShopCb.filter(F.action == "hand"))
    router.callback_query.register(cancel, ShopCb.filter(F.action == "cancel"))
    return router

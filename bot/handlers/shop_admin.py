"""The admins' gift catalogue in a private chat: the ``/shop`` dialog (buttons, and the values
it asks for typed as the next message) and the commands ``/gift_add``, ``/gift_edit``,
``/gift_photo``, ``/gift_retire``, ``/gift_restore``, ``/gift_requests`` (logic:
``bot.services.catalogue`` and ``bot.services.shop``)."""

from __future__ import annotations

import html
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.errors import UserError
from bot.handlers.buttons import CatalogueCb
from bot.handlers.shop import label
from bot.services import Services
from bot.services.catalogue import Catalogue, DialogTurn
from bot.services.shop import Shop
from storage.models import Gift
from views import shop_texts
from views.i18n import Translator

ButtonRows = list[list[InlineKeyboardButton]]


def _button(text: str, action: str, id_: int = 0, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(
        text=text, callback_data=CatalogueCb(action=action, id=id_, arg=arg).pack())


def catalogue_page(tr: Translator, locale: str, gifts: list[Gift],
                   open_count: int) -> tuple[str, InlineKeyboardMarkup]:
    rows: ButtonRows = [[_button(label(tr, locale, "shop.admin.button.gift", id=g.id, name=g.name),
                           "gift", g.id)] for g in gifts]
    rows.append([_button(label(tr, locale, "shop.admin.button.new"), "new")])
    return (shop_texts.admin_catalogue(tr, locale, gifts, open_count),
            InlineKeyboardMarkup(inline_keyboard=rows))


def gift_page(tr: Translator, locale: str, gift: Gift) -> tuple[str, InlineKeyboardMarkup]:
    def field(name: str) -> InlineKeyboardButton:
        return _button(label(tr, locale, f"shop.admin.button.{name}"), "field", gift.id, name)

    rows: ButtonRows = [[field("name"), field("price")], [field("stock"), field("photo")]]
    if gift.photo:
        rows.append([_button(label(tr, locale, "shop.admin.button.nophoto"), "nophoto",
                             gift.id)])
    rows.append([_button(label(tr, locale, "shop.admin.button.retire"), "retire", gift.id)
                 if gift.active else
                 _button(label(tr, locale, "shop.admin.button.restore"), "restore", gift.id)])
    rows.append([_button(label(tr, locale, "shop.admin.button.list"), "list")])
    return shop_texts.admin_gift(tr, locale, gift), InlineKeyboardMarkup(inline_keyboard=rows)


def prompt(tr: Translator, locale: str, field: str, gift: Gift | None,
           name: str | None = None) -> tuple[str, InlineKeyboardMarkup]:
    """The dialog's question for a typed value, with its way out."""
    if gift is not None and field != "photo":
        current = {"name": gift.name, "price": str(gift.price), "stock": str(gift.stock)}
        text = tr.t(locale, f"shop.admin.ask.{field}", gift=gift.name, current=current[field],
                    reserved=gift.reserved)
    else:
        text = tr.t(locale, f"shop.admin.ask.new_{field}", gift=name or "")
    if field == "photo" and gift is not None and name is not None:  # a new gift's photo
        way_out = _button(label(tr, locale, "shop.admin.button.skip"), "skip", gift.id)
    else:
        way_out = _button(label(tr, locale, "shop.admin.button.stop"), "stop")
    return text, InlineKeyboardMarkup(inline_keyboard=[[way_out]])


def _user(event: Message | CallbackQuery) -> int:
    assert event.from_user is not None
    return event.from_user.id


async def _send_gift(services: Services, chat_id: int, locale: str, gift: Gift,
                     done_key: str | None = None) -> None:
    tr = services.translator
    text, markup = gift_page(tr, locale, gift)
    if done_key is not None:
        text = tr.t(locale, done_key, gift=gift.name) + "\n\n" + text
    await services.replies.send_text(chat_id, text, reply_markup=markup)


# ---------------------------------------------------------------------- the commands


async def shop_command(message: Message, catalogue: Catalogue, services: Services,
                       locale: str) -> None:
    gifts, open_count = await catalogue.gifts(_user(message))
    text, markup = catalogue_page(services.translator, locale, gifts, open_count)
    await services.replies.answer(message, text, reply_markup=markup)


async def gift_add(message: Message, command: CommandObject, catalogue: Catalogue,
                   services: Services, locale: str) -> None:
    gift = await catalogue.add(_user(message), command.args or "")
    await _send_gift(services, message.chat.id, locale, gift, "shop.admin.added")


async def gift_edit(message: Message, command: CommandObject, catalogue: Catalogue,
                    services: Services, locale: str) -> None:
    gift = await catalogue.edit(_user(message), command.args or "")
    await _send_gift(services, message.chat.id, locale, gift, "shop.admin.changed")


async def gift_photo(message: Message, command: CommandObject, catalogue: Catalogue,
                     services: Services, locale: str) -> None:
    """``/gift_photo ID`` as a photo's caption, or in reply to a photo."""
    photos = message.photo or (message.reply_to_message.photo
                               if message.reply_to_message is not None else None)
    file_id = photos[-1].file_id if photos else None
    gift = await catalogue.photo(_user(message), command.args or "", file_id)
    await _send_gift(services, message.chat.id, locale, gift, "shop.admin.changed")


async def gift_retire(message: Message, command: CommandObject, catalogue: Catalogue,
                      services: Services, locale: str) -> None:
    gift = await catalogue.set_active(_user(message), command.args or "", False)
    await _send_gift(services, message.chat.id, locale, gift, "shop.admin.retired")


async def gift_restore(message: Message, command: CommandObject, catalogue: Catalogue,
                       services: Services, locale: str) -> None:
    gift = await catalogue.set_active(_user(message), command.args or "", True)
    await _send_gift(services, message.chat.id, locale, gift, "shop.admin.restored")


async def gift_requests(message: Message, shop: Shop, services: Services,
                        locale: str) -> None:
    """Every open request, each with its Handed over / Cancel."""
    tr, replies = services.translator, services.replies
    lines = await shop.open_requests(_user(message))
    await replies.answer(message, shop_texts.open_requests(tr, locale, lines))
    for request, name in lines:
        await replies.answer(message, shop_texts.request_line(tr, locale, request, name),
                             reply_markup=shop.admin_buttons(locale, request))


# ---------------------------------------------------------------------- the dialog


async def typed(message: Message, catalogue: Catalogue, services: Services,
                locale: str) -> None:
    """The value the dialog asked for (a text, or a photo)."""
    photo = message.photo[-1].file_id if message.photo else None
    turn: DialogTurn = await catalogue.typed(_user(message), message.text, photo)
    tr = services.translator
    if turn.field is not None:
        text, markup = prompt(tr, locale, turn.field, turn.gift, turn.name)
        if turn.gift is not None:
            text = tr.t(locale, "shop.admin.added", gift=turn.gift.name) + "\n\n" + text
        await services.replies.answer(message, text, reply_markup=markup)
    elif turn.gift is not None:
        await _send_gift(services, message.chat.id, locale, turn.gift, "shop.admin.changed")


async def waiting(message: Message, catalogue: Catalogue) -> bool:
    """The filter of :func:`typed`: an admin's plain message while the dialog waits."""
    if message.from_user is None or (message.text or "").startswith("/"):
        return False
    if message.text is None and not message.photo:
        return False
    return await catalogue.waiting(message.from_user.id)


async def photo_hint(message: Message, services: Services, locale: str) -> None:
    """An admin's photo the dialog did not ask for: how to make it a gift's."""
    await services.replies.answer(message, services.translator.t(locale, "shop.admin.photo_hint"))


async def admins_photo(message: Message, catalogue: Catalogue) -> bool:
    return message.from_user is not None and bool(message.photo) \
        and await catalogue.is_admin(message.from_user.id)


async def dialog_button(query: CallbackQuery, callback_data: CatalogueCb, catalogue: Catalogue,
                        services: Services, locale: str) -> None:
    admin_id, tr, sender = _user(query), services.translator, services.sender
    action, chat = callback_data.action, query.from_user.id
    page: tuple[str, InlineKeyboardMarkup] | None = None
    note: str | None = None
    if action == "list":
        gifts, open_count = await catalogue.gifts(admin_id)
        page = catalogue_page(tr, locale, gifts, open_count)
    elif action == "gift":
        page = gift_page(tr, locale, await catalogue.gift(admin_id, callback_data.id))
    elif action in ("retire", "restore"):
        gift = await catalogue.toggle(admin_id, callback_data.id, action == "restore")
        page, note = gift_page(tr, locale, gift), tr.t(locale, f"shop.admin.{action}d",
                                                       gift=gift.name)
    elif action == "nophoto":
        gift = await catalogue.photo(admin_id, f"{callback_data.id} off", None)
        page, note = gift_page(tr, locale, gift), tr.t(locale, "shop.admin.changed",
                                                       gift=gift.name)
    elif action in ("stop", "skip"):
        skipped = (await catalogue.skip_photo(admin_id, callback_data.id)
                   if action == "skip" else None)
        if skipped is None:
            await catalogue.stop(admin_id)
        await sender.answer(query, label(tr, locale, "shop.admin.stopped"))
        if query.message is not None:  # the question answered: its button goes
            await services.replies.edit_markup(chat, query.message.message_id, None)
        if skipped is not None:
            await _send_gift(services, chat, locale, skipped)
        return
    else:  # "new", "field": a value asked for
        field = "name" if action == "new" else callback_data.arg
        if field not in ("name", "price", "stock", "photo"):
            raise UserError("shop.refused.stale")
        asked = await catalogue.ask_for(admin_id, field,
                                        None if action == "new" else callback_data.id)
        await sender.answer(query)
        text, markup = prompt(tr, locale, field, asked)
        await services.replies.send_text(chat, text, reply_markup=markup)
        return
    await sender.answer(query, None if note is None else html.unescape(note))  # plain text
    if query.message is not None:
        await services.replies.edit_text(chat, query.message.message_id, page[0],
                                         reply_markup=page[1])


def create_router(admin_middleware: Any | None = None) -> Router:
    router = Router(name="shop_admin")
    router.message.filter(F.chat.type == "private")
    router.callback_query.filter(F.message.chat.type == "private")
    if admin_middleware is not None:
        router.message.middleware(admin_middleware)
    router.message.register(shop_command, Command("shop"))
    router.message.register(gift_add, Command("gift_add"))
    router.message.register(gift_edit, Command("gift_edit"))
    router.message.register(gift_photo, Command("gift_photo"))
    router.message.register(gift_retire, Command("gift_retire"))
    router.message.register(gift_restore, Command("gift_restore"))
    router.message.register(gift_requests, Command("gift_requests"))
    router.message.register(typed, waiting)
    router.message.register(photo_hint, admins_photo)
    router.callback_query.register(dialog_button, CatalogueCb.filter())
    return router

"""An outbox row to the Telegram call that delivers it.

The worker (:mod:`bot.delivery.worker`) sends a chat's rows in their turns and marks them; this
says what each one is on the wire. Once a row's turn comes the worker asks for the message an
edit changes (:func:`message_to_edit`) and the picture drawn (:func:`drawn`), and then for the
request itself (:func:`call_for`), built from the row's typed payload
(:mod:`bot.delivery.payload`) as it goes out then — so that the chats waiting for their turn
hold only their row, not the request's models. Reads the outbox for an edit's message; draws
pictures (``views/drawing.py``); sends nothing.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

from aiogram.methods import (
    CloseForumTopic,
    EditMessageCaption,
    EditMessageReplyMarkup,
    EditMessageText,
    SendDocument,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup

from bot.delivery.payload import (
    Buttons,
    CloseTopic,
    Document,
    Payload,
    Photo,
    Picture,
    Text,
    text_of,
)
from storage.repos.outbox import EDIT, Outbox, OutboxRow
from views.drawing import draw

log = logging.getLogger("bot.delivery.calls")

NO_CAPTION = "there is no caption in the message to edit"


async def message_to_edit(outbox: Outbox, row: OutboxRow, payload: Payload
                          ) -> int | str | None:
    """The message an edit changes (None for a send), or why there is none: the message of a
    handler's button (its ``message_id``), else the one Telegram confirmed for the send under
    the row's key."""
    if row.method != EDIT:
        return None
    known = getattr(payload, "message_id", None)  # a handler's edit of a button's message
    if isinstance(known, int):
        return known
    assert row.key is not None
    target = await outbox.message_id(row.chat_id, row.key)
    if target is None or target[0] != "sent" or target[1] is None:
        return f"no message to edit ({None if target is None else target[0]})"
    return target[1]


async def photo_of(payload: Payload) -> bytes | None:
    """A picture row's image (drawn now: a JPEG); None for any other row. A row queued before
    the sender drew the pictures holds its PNG, base64 (``photo``). Its caption is the row's
    words (:func:`bot.delivery.payload.text_of`)."""
    if not isinstance(payload, Picture):
        return None
    if payload.picture is not None:
        return await draw(payload.picture)
    if payload.photo is not None:
        return base64.b64decode(payload.photo)
    return None


async def drawn(row: OutboxRow, payload: Payload) -> bytes | None:
    """A picture row's image, drawn before the row takes its turn; None for a text, or when
    the picture cannot be drawn (its caption then goes out as a text)."""
    try:
        return await photo_of(payload)
    except Exception:
        log.exception("cannot draw the picture of %s in %s", row.key, row.chat_id)
        return None


def photo_name(image: bytes) -> str:
    return "table.png" if image.startswith(b"\x89PNG") else "table.jpg"  # (an older row's)


def markup_of(payload: Payload) -> InlineKeyboardMarkup | None:
    data = getattr(payload, "markup", None)
    return None if data is None else InlineKeyboardMarkup.model_validate(data)


def call_for(chat_id: int, payload: Payload, *, parse_mode: str,
             target: int | None = None, photo: bytes | None = None,
             text: str | None = None) -> TelegramMethod[Any]:
    """The request that delivers a row to ``chat_id``: ``payload``, the row's as it goes out
    now (:func:`bot.delivery.late.as_of`); ``target``, the message it edits
    (:func:`message_to_edit`; None: a send); ``photo``, its picture drawn (:func:`drawn`;
    None: not drawn, its caption goes as a text); ``text``, a merged post's words, sent or
    edited instead of the row's own (a picture sent opening one takes them as its caption)."""
    markup = markup_of(payload)
    thread = payload.thread  # a table's forum topic (sends name it; edits need not)
    if isinstance(payload, CloseTopic):
        assert thread is not None
        return CloseForumTopic(chat_id=chat_id, message_thread_id=thread)
    if isinstance(payload, Document):  # a handler's file (bot/delivery/replies.py)
        data = base64.b64decode(payload.document)
        return SendDocument(chat_id=chat_id, message_thread_id=thread,
                            document=BufferedInputFile(data, filename=payload.filename),
                            caption=payload.caption,
                            parse_mode=parse_mode if payload.caption else None)
    if isinstance(payload, Photo):  # a photo Telegram has (a handler's: a gift's card)
        caption = payload.caption
        return SendPhoto(chat_id=chat_id, message_thread_id=thread,
                         photo=payload.photo_id, caption=caption, reply_markup=markup,
                         parse_mode=parse_mode if caption else None)
    if target is not None and isinstance(payload, Buttons):  # a handler's buttons changed
        return EditMessageReplyMarkup(chat_id=chat_id, message_id=target, reply_markup=markup)
    if photo is not None:
        return SendPhoto(chat_id=chat_id, message_thread_id=thread,
                         photo=BufferedInputFile(photo, filename=photo_name(photo)),
                         caption=text_of(payload, text if target is None else None),
                         parse_mode=parse_mode)
    if target is None:
        return SendMessage(chat_id=chat_id, message_thread_id=thread,
                           text=text_of(payload, text),  # or a picture's caption, not drawn
                           parse_mode=parse_mode, reply_markup=markup,
                           protect_content=True if getattr(payload, "protect", False)
                           else None)
    if text is None and not isinstance(payload, Text):  # a caption (the morning's post)
        return EditMessageCaption(chat_id=chat_id, message_id=target,
                                  caption=text_of(payload), parse_mode=parse_mode,
                                  reply_markup=markup)
    return EditMessageText(chat_id=chat_id, message_id=target,
                           text=text_of(payload, text), parse_mode=parse_mode,
                           reply_markup=markup)


def as_text(method: TelegramMethod[Any], refusal: str) -> SendMessage | EditMessageText | None:
    """The request that delivers a row instead of ``method`` when Telegram refuses that with a
    bad request (``refusal``, its description); None when nothing else delivers it. A photo
    by its ``file_id`` Telegram no longer takes goes as its caption, a text. A picture that
    could not be drawn went out as its caption, a text (:func:`drawn`), so its caption's edits
    are edits of that text: when Telegram says the message has no caption, the same edit goes
    as a text's."""
    if isinstance(method, SendPhoto) and isinstance(method.photo, str):
        return SendMessage(chat_id=method.chat_id, message_thread_id=method.message_thread_id,
                           text=method.caption or "", parse_mode=method.parse_mode,
                           reply_markup=method.reply_markup)
    if isinstance(method, EditMessageCaption) and NO_CAPTION in refusal.lower():
        return EditMessageText(chat_id=method.chat_id, message_id=method.message_id,
                               text=method.caption or "", parse_mode=method.parse_mode,
                               reply_markup=method.reply_markup)
    return None

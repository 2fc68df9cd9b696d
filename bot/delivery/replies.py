"""The handlers' answers: queued in the durable outbox and sent by the delivery worker, so that
no handler waits for its chat's send budget.

A handler holds one of the update slots (``UPDATES_IN_FLIGHT``) while it runs. A reply sent
from it would wait there for its chat's turn (one message a second in a private chat, twenty a
minute in a group): a user sending hundreds of messages would hold every slot with replies to
himself, and everyone else's presses would wait behind them. Queued, a reply costs its handler
one write (committed with the other writes of the moment); the worker sends it in the chat's
order (after what a game step queued there before it) within the limits, retries it, and a
restart sends what was queued.

In a club chat an answer to a member who does not host there spends the chat's members'
budget (:class:`AnswerBudget`, ``bot/telegram/flood.py``): past it the answer is not given,
so that no member's commands push a table's posts back.

In a forum every answer to a message written in a topic goes to that topic: the update's
middleware names the message being answered (:func:`answering`), and whatever is queued to
its chat while it is handled, here or by a service (:func:`topic_for`: an evening's post),
carries its ``message_thread_id`` unless it names a topic of its own.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from aiogram.types import Chat, InlineKeyboardMarkup, Message

from bot.delivery.payload import (
    Buttons,
    Caption,
    Document,
    Photo,
    Picture,
    Text,
    encode,
    markup_json,
)
from bot.delivery.sender import TelegramSender, topic_of
from bot.delivery.worker import Delivery
from storage.repos.outbox import EDIT, SEND, Queued

log = logging.getLogger("bot.delivery.replies")

# the chat and the forum topic of the message the update under way answers (None: no topic)
_answering: ContextVar[tuple[int, int] | None] = ContextVar("answering", default=None)


@contextmanager
def answering(chat: Chat | None, thread: int | None) -> Iterator[None]:
    """While an update from ``chat`` (a message, or a button under one) is handled, what is
    queued to the chat goes to the forum topic it was written in: ``thread``, aiogram's
    ``event_thread_id`` (a forum's topic; a thread elsewhere is no topic)."""
    token = _answering.set((chat.id, thread) if chat is not None and chat.is_forum
                           and thread is not None else None)
    try:
        yield
    finally:
        _answering.reset(token)


def topic_for(chat_id: int) -> int | None:
    """The forum topic an answer to ``chat_id`` goes to: the one the message being answered
    was written in, when it was written in that chat."""
    found = _answering.get()
    return found[1] if found is not None and found[0] == chat_id else None


class AnswerBudget(Protocol):
    """Whether a club chat's answer to ``user_id`` may be given now (it spends the budget)."""

    async def may_answer(self, chat_id: int, user_id: int) -> bool: ...


def edit_key(message_id: int, what: str = "message") -> str:
    """The outbox key of an edit of a message known by its id (a button's message): a later
    edit of the same message (its text, or its buttons alone), queued before the first went
    out, replaces it."""
    return f"{what}:{message_id}"


class Replies:
    """``replies: Replies`` in a handler (``Services.replies``)."""

    def __init__(self, delivery: Delivery, sender: TelegramSender, *,
                 budget: AnswerBudget | None = None,
                 on_withheld: Callable[[], None] = lambda: None) -> None:
        self.delivery = delivery
        self.sender = sender
        self.budget = budget  # the club chats' (bot/telegram/flood.py's ``ClubAnswers``)
        self.on_withheld = on_withheld  # the metrics' counter

    async def answer(self, message: Message, text: str, *,
                     reply_markup: InlineKeyboardMarkup | None = None) -> None:
        """``text`` in the chat (and the forum topic) of ``message``; in a club chat to a
        member who does not host, only within the chat's budget for members."""
        chat, user = message.chat, message.from_user
        if chat.type != "private" and user is not None and self.budget is not None \
                and not await self.budget.may_answer(chat.id, user.id):
            self.on_withheld()
            log.info("answer withheld", extra={"chat_id": chat.id, "user_id": user.id})
            return
        await self.send_text(chat.id, text, reply_markup=reply_markup, thread=topic_of(message))

    async def send_text(self, chat_id: int, text: str, *,
                        reply_markup: InlineKeyboardMarkup | None = None,
                        protect_content: bool = False, thread: int | None = None) -> None:
        """``thread``: the forum topic to answer in (by default the one of the message being
        answered, :func:`topic_for`)."""
        thread = thread if thread is not None else topic_for(chat_id)
        await self._queue(Queued(chat_id, SEND, encode(Text(
            text=text, markup=markup_json(reply_markup), protect=protect_content,
            thread=thread))))

    async def edit_text(self, chat_id: int, message_id: int, text: str, *,
                        reply_markup: InlineKeyboardMarkup | None = None) -> None:
        await self._queue(Queued(chat_id, EDIT, encode(Text(
            text=text, markup=markup_json(reply_markup), message_id=message_id)),
            key=edit_key(message_id)))

    async def edit_caption(self, chat_id: int, message_id: int, caption: str, *,
                           reply_markup: InlineKeyboardMarkup | None = None) -> None:
        """A photo's caption (a photo sent as its caption's text instead: that text)."""
        await self._queue(Queued(chat_id, EDIT, encode(Caption(
            caption=caption, markup=markup_json(reply_markup), message_id=message_id)),
            key=edit_key(message_id)))

    async def edit_markup(self, chat_id: int, message_id: int,
                          reply_markup: InlineKeyboardMarkup | None = None) -> None:
        """The buttons of a message changed (None: none left), its text kept."""
        await self._queue(Queued(chat_id, EDIT, encode(Buttons(
            markup=markup_json(reply_markup), message_id=message_id)),
            key=edit_key(message_id, "markup")))

    async def send_photo(self, chat_id: int, photo: str, *, caption: str | None = None,
                         reply_markup: InlineKeyboardMarkup | None = None) -> None:
        """A photo Telegram already has (its ``file_id``), with an HTML caption; one Telegram
        refuses goes as its caption, a text (the worker)."""
        await self._queue(Queued(chat_id, SEND, encode(Photo(
            photo_id=photo, caption=caption or "", markup=markup_json(reply_markup),
            thread=topic_for(chat_id)))))

    async def send_picture(self, chat_id: int, view: dict[str, Any], caption: str) -> None:
        """A picture drawn by the sender when its turn comes (a player's chart,
        ``views/charts.py``: ``view`` is what to draw), with an HTML caption; one that cannot
        be drawn goes as its caption (the worker)."""
        await self._queue(Queued(chat_id, SEND, encode(Picture(
            picture=view, caption=caption, thread=topic_for(chat_id)))))

    async def send_document(self, chat_id: int, data: bytes, filename: str, *,
                            caption: str | None = None, thread: int | None = None) -> None:
        thread = thread if thread is not None else topic_for(chat_id)
        await self._queue(Queued(chat_id, SEND, encode(Document(
            document=base64.b64encode(data).decode("ascii"), filename=filename,
            caption=caption or None, thread=thread))))

    def say_now(self, message: Message, text: str) -> Awaitable[Any]:
        """``text`` in the chat of ``message``, sent without the outbox, in the background (the
        handler does not wait for it): what is said when the database, and so the outbox, does
        not answer."""
        return self.sender.post(message.chat.id, text, thread=topic_of(message))

    async def _queue(self, message: Queued) -> None:
        await self.delivery.enqueue([message])

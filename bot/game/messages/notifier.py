"""The only way game texts leave the bot: engine events and service messages -> chats.

Only this module knows how an audience maps to chats: everyone -> the club chat, a seat -> that
player's private chat (``Table.chat_of``: the host's for an offline seat, with a "for №5 NICK"
line on top), the Mafia -> each living Mafia player in private, the host -> the host in
private. Texts come from ``locales/<lang>/game.ftl`` through the translator.

Nothing is sent from here: inside a game step (the game's lock, :meth:`bot.game.steps.Steps.lock`)
every request is collected and written to the durable outbox in the step's transaction, together
with the log events that caused it; the delivery worker sends them afterwards (docs/delivery.md).
A message that is edited later is sent under a stable key (``ref``, e.g. ``g12:s3:prompt:5``,
:func:`message_ref`) and the edit names that key.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar, Token
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.payload import (
    Caption,
    CloseTopic,
    Late,
    Payload,
    Picture,
    Text,
    bare_text,
    body_of,
    decode,
    encode,
    folded,
    markup_json,
    picture_payload,
    send_payload,
)
from bot.game.messages.senders import Sender
from engine import AudienceKind, Event
from record.posts import TEXT_LIMIT, Post, units
from record.table import Table
from storage.models import is_offline_account
from storage.repos.outbox import EDIT, SEND, Queued
from views.event_text import EventText
from views.i18n import Safe, Translator

if TYPE_CHECKING:
    from views.picture import TableView

log = logging.getLogger("bot.game.messages.notifier")

Markup = Callable[[str], InlineKeyboardMarkup]  # locale -> keyboard

TIMED_KEPT = 16  # a table's timed texts kept (the open posts' edits repeat only the latest)


# A game step's requests, tied to the task running the step: tasks and scheduler jobs started
# from inside a step inherit the context, never the batch.
_batch: ContextVar[tuple[object, list[Queued]] | None] = ContextVar("notifier_batch",
                                                                     default=None)


def _current() -> list[Queued] | None:
    entry = _batch.get()
    if entry is None or entry[0] is not asyncio.current_task():
        return None
    return entry[1]


def message_ref(table: Table, *parts: object) -> str:
    """The stable outbox key of a table's message that is edited later, e.g.
    ``g12:s3:prompt:5``."""
    return ":".join([f"g{table.game_id}", *(str(p) for p in parts)])


def button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def rows(buttons: Sequence[InlineKeyboardButton], width: int = 3) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[list(buttons[i:i + width]) for i in range(0, len(buttons), width)]
    )


class Notifier(EventText):
    def __init__(self, sender: Sender, translator: Translator,
                 locale_of: Callable[[int], str]) -> None:
        super().__init__(translator)
        self.sender = sender
        self.locale_of = locale_of

    # ------------------------------------------------------------------ basics
    def t(self, locale: str, key: str, **kwargs: Any) -> str:
        values = {k: Safe(v(locale)) if callable(v) else v for k, v in kwargs.items()}
        return self.tr.t(locale, key, **values)

    # ------------------------------------------------------------------ a game step's batch
    def begin(self) -> Token[tuple[object, list[Queued]] | None]:
        """Collect this task's requests instead of delivering them (a game step)."""
        return _batch.set((asyncio.current_task(), []))

    def take(self) -> list[Queued]:
        """The requests collected so far in this step (the batch is emptied)."""
        batch = _current()
        if batch is None:
            return []
        taken = list(batch)
        batch.clear()
        return taken

    def end(self, token: Token[tuple[object, list[Queued]] | None]) -> None:
        _batch.reset(token)

    def placed(self, table: Table, messages: list[Queued]) -> list[Queued]:
        """A step's requests with the table's club posts placed: in its forum topic
        (``thread``), opening with its name when another table shares its chat (``label``:
        the sender puts it before the text or caption), in the table's lane of the chat's
        queue when it plays beside others (a topic, or a name: the tables take turns,
        ``bot/delivery/worker.py``). A lone table's posts keep the chat's order: a game's
        last posts go before the next game's lobby."""
        label = (self.tr.t(table.locale, "tables.label", number=table.number)
                 if table.named else None)
        lane = table.game_id if table.thread is not None or label is not None else None
        out = []
        for m in messages:
            if m.chat_id != table.chat_id:
                out.append(m)
                continue
            payload = decode(m.payload)
            if table.thread is not None:
                payload = replace(payload, thread=table.thread)
            if label is not None:
                payload = replace(payload, label=label)
            late = self._late(table, payload)
            if late and isinstance(payload, Text | Caption | Picture):
                payload = replace(payload, late=late)
            out.append(Queued(m.chat_id, m.method, encode(payload), m.key, m.throttle, lane))
        return out

    def timed(self, table: Table, locale: str, key: str, until: datetime,
              **kwargs: Any) -> str:
        """A club text that states how long its moment lasts (``key``, "the night lasts 30
        seconds"), until ``until``; its words for once the moment is over are ``key_late``.
        The table keeps both: a post holding this text (its own, or one it is edited into)
        carries them, and the worker sends the latter when the post goes out after ``until``
        (a chat behind its budget: :func:`bot.delivery.late.as_of`)."""
        text = self.t(locale, key, **kwargs)
        timed = table.memory.timed
        timed.pop(text, None)
        timed[text] = (self.t(locale, f"{key}_late", **kwargs), until.timestamp())
        while len(timed) > TIMED_KEPT:
            del timed[next(iter(timed))]
        return text

    @staticmethod
    def _late(table: Table, payload: Payload) -> Late:
        """The ``late`` of a club row whose text holds timed texts (:meth:`timed`): each one,
        its words once over and its moment's end."""
        if not table.memory.timed:
            return ()
        body = body_of(payload)
        return tuple((said, over, until) for said, (over, until) in table.memory.timed.items()
                     if said in body)

    def _gathered(self, chat_id: int) -> tuple[list[Queued], int] | None:
        """The step's batch and the index of the plain post being gathered for ``chat_id``
        (the chat's latest request in this step, a plain unkeyed send), if there is one."""
        batch = _current()
        if batch is None:
            return None
        for i in range(len(batch) - 1, -1, -1):
            m = batch[i]
            if m.chat_id == chat_id:
                if m.method != SEND or m.key is not None or bare_text(m.payload) is None:
                    return None
                return batch, i
        return None

    def seal(self, chat_id: int, ref: str) -> str | None:
        """Give the plain post being gathered for ``chat_id`` in this step the key ``ref`` (so
        it can be edited later, and is not sent twice); its text, or None if there is none."""
        found = self._gathered(chat_id)
        if found is None:
            return None
        batch, i = found
        m = batch[i]
        batch[i] = Queued(m.chat_id, SEND, m.payload, ref)
        return bare_text(m.payload)

    def take_post(self, chat_id: int, limit: int) -> str | None:
        """Take the plain post being gathered for ``chat_id`` out of the step (it is said
        elsewhere: in an earlier post, a caption); None if there is none or it is longer than
        ``limit``."""
        found = self._gathered(chat_id)
        if found is None:
            return None
        batch, i = found
        text = bare_text(batch[i].payload)
        if text is None or units(text) > limit:
            return None
        del batch[i]
        return text

    async def tell(self, chat_id: int, post: Post | None, ref: str) -> Post | None:
        """What this step says in ``chat_id`` (its plain post) is edited into ``post`` when it
        fits there, or else is a new post under ``ref``; the post that holds it now."""
        if post is not None:
            text = self.take_post(chat_id, post.room())
            if text is not None:
                post = post.plus(text)
                await self.edit_post(chat_id, post)
                return post
        sealed = self.seal(chat_id, ref)
        return post if sealed is None else Post(ref, sealed)

    async def _queue(self, message: Queued) -> None:
        batch = _current()
        if batch is None:
            await self.sender.deliver([message])
            return
        if message.method == EDIT:
            # an edit of a message queued in this same step replaces its text (one request)
            for i in range(len(batch) - 1, -1, -1):
                queued = batch[i]
                if queued.chat_id == message.chat_id and queued.key == message.key:
                    payload = folded(queued.payload, message.payload,
                                     into_edit=queued.method == EDIT)
                    batch[i] = Queued(queued.chat_id, queued.method, payload, queued.key,
                                      max(queued.throttle, message.throttle))
                    return
        said = bare_text(message.payload) if message.method == SEND else None
        if message.chat_id < 0 and message.key is None and said is not None:
            # Say it once: plain club posts of one step go out as one post (well under
            # Telegram's 4096).
            found = self._gathered(message.chat_id)
            if found is not None:
                at, i = found
                last = at[i]
                gathered = bare_text(last.payload)
                assert gathered is not None  # (what _gathered finds)
                if units(gathered) + units(said) < TEXT_LIMIT:
                    at[i] = Queued(last.chat_id, SEND, send_payload(f"{gathered}\n\n{said}"),
                                   last.key, last.throttle, last.lane)
                    return
        batch.append(message)

    async def send(self, chat_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                   protect: bool = False, ref: str | None = None) -> None:
        await self._queue(Queued(chat_id, SEND, send_payload(text, markup, protect), ref))

    async def edit(self, chat_id: int, ref: str, text: str, *,
                   markup: InlineKeyboardMarkup | None = None, throttle: float = 0.0,
                   redraw: bool = False) -> None:
        """``redraw``: the edit only redraws a live list (a lobby's seats, a vote's board):
        the chat's announcements go before it (:data:`bot.delivery.payload.REDRAW`)."""
        payload = Text(text=text, markup=markup_json(markup), redraw=redraw)
        await self._queue(Queued(chat_id, EDIT, encode(payload), ref, throttle))

    async def club(self, table: Table, key: str, *, markup: Markup | None = None,
                   ref: str | None = None, until: datetime | None = None,
                   **kwargs: Any) -> None:
        """A club post; ``ref``: the key later edits name (its own post, never merged);
        ``until``: the end of the moment whose length it states (:meth:`timed`)."""
        locale = table.locale
        text = (self.t(locale, key, **kwargs) if until is None
                else self.timed(table, locale, key, until, **kwargs))
        await self.send(table.chat_id, text,
                        markup=None if markup is None else markup(locale), ref=ref)

    async def private(self, tg_id: int, key: str, *, markup: Markup | None = None,
                      protect: bool = False, ref: str | None = None, **kwargs: Any) -> None:
        locale = self.locale_of(tg_id)
        await self.send(tg_id, self.t(locale, key, **kwargs),
                        markup=None if markup is None else markup(locale), protect=protect,
                        ref=ref)

    async def edit_private(self, tg_id: int, ref: str, key: str, *,
                           markup: Markup | None = None, **kwargs: Any) -> None:
        locale = self.locale_of(tg_id)
        await self.edit(tg_id, ref, self.t(locale, key, **kwargs),
                        markup=None if markup is None else markup(locale))

    async def club_photo(self, table: Table, view: TableView | None, caption: str, *,
                         ref: str | None = None) -> None:
        """The table's picture as its own club post, drawn when it is sent (nothing without
        one: its caption is then posted by the caller)."""
        if view is None:
            return
        await self._queue(Queued(table.chat_id, SEND, picture_payload(view, caption), ref))

    async def close_topic(self, table: Table) -> None:
        """The game is over (or aborted): the forum topic the bot opened for its table is
        closed after the table's last post (the chat's order; the end of the game's step)."""
        if table.own_topic and table.thread is not None:
            await self._queue(Queued(table.chat_id, SEND, encode(CloseTopic()),
                                     f"g{table.game_id}:topic_closed"))

    async def edit_post(self, chat_id: int, post: Post) -> None:
        """Replace the text (or a picture's caption) of the post sent under ``post.ref``."""
        if post.caption:
            await self._queue(Queued(chat_id, EDIT, encode(Caption(caption=post.text)),
                                     post.ref))
        else:
            await self.edit(chat_id, post.ref, post.text)

    def _for_seat(self, table: Table, seat: int, locale: str, text: str) -> str:
        """An offline seat's message goes to the host: say whose it is."""
        if not table.is_offline(seat):
            return text
        head = self.tr.t(locale, "seats.for", seat=seat, name=table.name(seat))
        return f"{head}\n{text}"

    async def to_seat(self, table: Table, seat: int, key: str, /, *, markup: Markup | None = None,
                      protect: bool = False, ref: str | None = None, **kwargs: Any) -> None:
        """A private message to a seat: its player, or the host for an offline seat."""
        chat = table.chat_of(seat)
        locale = self.locale_of(chat)
        await self.send(
            chat, self._for_seat(table, seat, locale, self.t(locale, key, **kwargs)),
            markup=None if markup is None else markup(locale), protect=protect, ref=ref)

    async def to_player(self, table: Table, seat: int, key: str, /, **kwargs: Any) -> None:
        """A private message about what happened to a seat's player (a foul, its fine): to
        the player themself, also when the host plays the seat; to the host only for an
        account without Telegram (nobody else to tell)."""
        tg_id = table.tg_of(seat)
        if is_offline_account(tg_id):
            await self.to_seat(table, seat, key, **kwargs)
            return
        locale = self.locale_of(tg_id)
        await self.send(tg_id, self.t(locale, key, **kwargs))

    async def edit_seat(self, table: Table, seat: int, ref: str, key: str, /, *,
                        markup: Markup | None = None, **kwargs: Any) -> None:
        chat = table.chat_of(seat)
        locale = self.locale_of(chat)
        await self.edit(
            chat, ref, self._for_seat(table, seat, locale, self.t(locale, key, **kwargs)),
            markup=None if markup is None else markup(locale))

    async def edit_club(self, table: Table, ref: str, key: str, *,
                        markup: Markup | None = None, throttle: float = 0.0,
                        redraw: bool = False, **kwargs: Any) -> None:
        locale = table.locale
        await self.edit(table.chat_id, ref, self.t(locale, key, **kwargs),
                        markup=None if markup is None else markup(locale), throttle=throttle,
                        redraw=redraw)

    # ------------------------------------------------------------------ engine events
    def chats(self, table: Table, event: Event) -> list[int]:
        """The audience -> chat mapping (the single place it lives)."""
        return [chat for chat, _ in self._targets(table, event)]

    def _targets(self, table: Table, event: Event) -> list[tuple[int, int | None]]:
        """(chat, seat) pairs of an event's audience; the seat when it is a seat's message."""
        kind = event.audience.kind
        if kind is AudienceKind.EVERYONE:
            return [(table.chat_id, None)]
        if kind is AudienceKind.HOST:
            return [(table.host_id, None)]
        if kind is AudienceKind.SEAT:
            seat = event.audience.seat
            return [] if seat is None or seat not in table.seats else [
                (table.chat_of(seat), seat)]
        # The Mafia: every living Mafia player.
        return [(table.chat_of(p.seat), p.seat) for p in table.game if p.is_mafia and p.alive]

    async def events(self, table: Table, events: Iterable[Event]) -> None:
        for event in events:
            for chat, seat in self._targets(table, event):
                locale = table.locale if chat == table.chat_id else self.locale_of(chat)
                text = self.render(table, event, locale)
                if seat is not None:
                    text = self._for_seat(table, seat, locale, text)
                await self.send(chat, text)

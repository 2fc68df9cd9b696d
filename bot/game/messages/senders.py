"""Where the notifier's requests go: the durable outbox (:class:`QueueSender`, the bot) or
memory (:class:`RecordingSender`, service tests and the web pages' replays)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from aiogram.types import InlineKeyboardMarkup

from bot.delivery.worker import CLOSE_TOPIC, Delivery, markup_of, photo_of, text_of
from storage.repos.outbox import EDIT, Queued


class Sender(Protocol):
    """Where the notifier's requests go. ``durable``: the requests of a game step are written
    in the step's own transaction (:meth:`bot.game.core.GameCore.flush`), then ``queued`` is
    told; otherwise ``deliver`` takes them after the step's events are logged."""

    durable: bool

    async def deliver(self, messages: Sequence[Queued]) -> None: ...

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None: ...


class QueueSender:
    """The durable outbox: rows in SQLite, sent by the delivery worker
    (``bot/delivery/worker.py``)."""

    durable = True

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery

    async def deliver(self, messages: Sequence[Queued]) -> None:
        await self.delivery.enqueue(list(messages))

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None:
        self.delivery.queued(messages, new)


@dataclass(frozen=True)
class Sent:
    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    protect: bool = False
    message_id: int = 0
    edit: bool = False
    key: str | None = None
    photo: bytes | None = None  # a picture, ``text`` its caption
    thread: int | None = None  # the forum topic it went to
    closes_topic: bool = False  # not a message: the table's topic closed


class RecordingSender:
    """Keeps everything in memory, as if Telegram confirmed each request at once (service
    tests; also handy for dry runs); a picture is drawn as the sender draws it. Sends under a
    key already sent are ignored, as the outbox does."""

    durable = False

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.blocked: set[int] = set()
        self.ids: dict[tuple[int, str], int] = {}
        self._next = 0

    async def deliver(self, messages: Sequence[Queued]) -> None:
        for m in messages:
            if m.chat_id in self.blocked:
                continue
            thread = m.payload.get("thread")
            if m.payload.get(CLOSE_TOPIC):
                self.sent.append(Sent(m.chat_id, "", key=m.key, thread=thread, closes_topic=True))
                continue
            photo = await photo_of(m.payload)
            text = photo[1] if photo is not None else text_of(m.payload)
            markup = markup_of(m.payload)
            if m.method == EDIT:
                assert m.key is not None
                message_id = self.ids.get((m.chat_id, m.key))
                if message_id is not None:
                    self.sent.append(Sent(m.chat_id, text, markup, False, message_id, edit=True,
                                          key=m.key, thread=thread))
                continue
            if m.key is not None and (m.chat_id, m.key) in self.ids:
                continue
            self._next += 1
            if m.key is not None:
                self.ids[(m.chat_id, m.key)] = self._next
            self.sent.append(Sent(m.chat_id, text, markup, bool(m.payload.get("protect")),
                                  self._next, key=m.key,
                                  photo=photo[0] if photo is not None else None, thread=thread))

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None:
        await self.deliver(messages)

    def to(self, chat_id: int) -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id]

"""The delivery's test double: the notifier's requests kept in memory instead of the outbox
(a :class:`bot.game.messages.senders.Sender`), for the game layer's service tests."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.delivery.calls import markup_of, photo_of
from bot.delivery.payload import CloseTopic, Text, decode, text_of
from storage.repos.outbox import EDIT, Queued


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
    tests); a picture is drawn as the sender draws it. Sends under a
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
            payload = decode(m.payload)
            thread = payload.thread
            if isinstance(payload, CloseTopic):
                self.sent.append(Sent(m.chat_id, "", key=m.key, thread=thread, closes_topic=True))
                continue
            photo = await photo_of(payload)
            text = text_of(payload)  # (a picture's caption)
            markup = markup_of(payload)
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
            protect = isinstance(payload, Text) and payload.protect
            self.sent.append(Sent(m.chat_id, text, markup, protect, self._next, key=m.key,
                                  photo=photo, thread=thread))

    async def queued(self, messages: Sequence[Queued], new: Collection[int]) -> None:
        await self.deliver(messages)

    def to(self, chat_id: int) -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id]

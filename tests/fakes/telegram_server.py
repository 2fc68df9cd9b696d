"""A fake Telegram Bot API server for flow tests over real HTTP.

The real aiogram ``Bot`` talks to it through ``TelegramAPIServer.from_base(fake.base_url)``.
Tests drive it through the *control side*: plain Python methods on :class:`FakeTelegram`
(``send``, ``press``, ``next_message``, ``fail_next``, ``migrate``, ...). See docs/bot.md.

Updates reach the bot by long polling (getUpdates), or — once the bot called setWebhook — by
POSTing each one to the webhook URL with the ``X-Telegram-Bot-Api-Secret-Token`` header, in
order, retrying until the bot answers 2xx (getUpdates then answers 409, like Telegram).

Every request is recorded with its time (:attr:`FakeTelegram.log`), and so is the moment each
update is handed to the bot (:attr:`FakeTelegram.delivered_at`). With ``limits=TelegramLimits()``
the server enforces Telegram's rate limits (off by default): beyond them it answers
429 "Too Many Requests" with ``retry_after``, as Telegram does. The load benchmark
(``benchmarks/bench_load.py`` and ``benchmarks/load/``) uses both.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "commands",
        "scope",
        "entities",
        "caption_entities",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
        "menu_button",
    }
)
INT_FIELDS = frozenset({"chat_id", "user_id", "message_id", "offset", "limit", "cache_time",
                        "message_thread_id"})
# How long the waits for the bot's next message, edit, call or condition wait by default: only
# a failing test waits it out, and on a 2-core machine busy with other test workers a plain
# answer has taken more than 5 s.
WAIT = 20.0
FAULT_KINDS = ("html502", "json500", "429", "drop", "hang")
GROUP_LIMITED = frozenset({"sendMessage", "sendDocument", "sendPhoto", "editMessageText",
                           "editMessageCaption", "editMessageReplyMarkup"})
SENDING_METHODS = frozenset(
    {
        "sendMessage",
        "sendDocument",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageReplyMarkup",
        "deleteMessage",
        "answerCallbackQuery",
    }
)

# Requests that count against Telegram's message limits (answers to buttons do not).
LIMITED_METHODS = frozenset(
    {"sendMessage", "sendDocument", "sendPhoto", "editMessageText", "editMessageCaption",
     "editMessageReplyMarkup"}
)

DEFAULT_TOKEN = "123456789:AAF-fake-token-for-tests-only-0123456"


@dataclass
class FakeUser:
    id: int
    first_name: str
    language_code: str | None = "ru"
    username: str | None = None
    last_name: str | None = None

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    id: int
    type: str  # "private" | "group" | "supergroup"
    title: str | None = None
    first_name: str | None = None
    username: str | None = None
    is_forum: bool = False  # a supergroup with topics

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "username"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass
class FakeTopic:
    """A forum topic: its thread id is the id of the message that created it, as Telegram's."""

    thread: int
    name: str
    by_bot: bool = False  # created with createForumTopic
    closed: bool = False


@dataclass
class SentMessage:
    """A message the bot sent (edits are applied in place; ``history`` keeps old texts)."""

    chat_id: int
    message_id: int
    text: str | None
    reply_markup: dict[str, Any] | None = None
    parse_mode: str | None = None
    protect_content: bool = False
    document_name: str | None = None
    document_bytes: bytes | None = None
    caption: str | None = None
    photo_bytes: bytes | None = None  # sendPhoto of an uploaded file
    photo_id: str | None = None  # sendPhoto of a file Telegram has (its file_id)
    thread: int | None = None  # the forum topic it was sent to (message_thread_id)
    deleted: bool = False
    history: list[str | None] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def body(self) -> str:
        """Text or caption, whichever the message has."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def said(self) -> str:
        """The text of a text message; fails the test if the message has none (a photo, a file)."""
        assert self.text is not None, f"message {self.message_id} has no text: {self!r}"
        return self.text

    def buttons(self) -> list[tuple[str, str]]:
        """All inline buttons as ``(text, callback_data or url)``, row by row."""
        if not self.reply_markup:
            return []
        out: list[tuple[str, str]] = []
        for row in self.reply_markup.get("inline_keyboard", []):
            for button in row:
                web_app = button.get("web_app") or {}
                out.append((button["text"], button.get("callback_data") or button.get("url")
                            or web_app.get("url", "")))
        return out

    def button_data(self, text_part: str) -> str:
        """The callback data of the first button whose text contains ``text_part``."""
        for text, data in self.buttons():
            if text_part in text:
                return data
        raise AssertionError(f"no button with {text_part!r} in {self.buttons()!r}")


@dataclass(frozen=True)
class TelegramLimits:
    """Telegram's published limits: ~30 messages a second overall, 1 a second per private chat
    (a short burst allowed), 20 a minute per group."""

    global_per_second: float = 30
    chat_per_second: float = 1
    chat_burst: float = 3
    group_per_minute: float = 20


@dataclass
class _Bucket:
    rate: float  # tokens a second
    capacity: float
    tokens: float
    updated: float

    def wait(self, now: float) -> float:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class RateLimit:
    """:meth:`check` counts one message to a chat, or says how long to wait (counting nothing).

    Overall and per chat: token buckets (a burst, then the rate); per group: at most
    ``group_per_minute`` messages in any 60 seconds (a sliding window).
    """

    def __init__(self, limits: TelegramLimits, clock: Any = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._buckets: dict[int | None, _Bucket] = {}
        self._groups: dict[int, deque[float]] = defaultdict(deque)

    def _bucket(self, key: int | None, rate: float, capacity: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(rate, capacity, capacity, self.clock())
        return bucket

    def check(self, chat_id: int) -> float:
        limits, now = self.limits, self.clock()
        rate = limits.global_per_second
        buckets = [self._bucket(None, rate, rate),
                   self._bucket(chat_id, limits.chat_per_second, limits.chat_burst)]
        wait = max(b.wait(now) for b in buckets)
        window: deque[float] | None = None
        if chat_id < 0:
            window = self._groups[chat_id]
            while window and window[0] <= now - 60:
                window.popleft()
            if len(window) >= limits.group_per_minute:
                wait = max(wait, window[0] + 60 - now)
        if wait > 0:
            return wait
        for bucket in buckets:
            bucket.tokens -= 1
        if window is not None:
            window.append(now)
        return 0.0


@dataclass
class Request:
    """One request the bot made: when (``time.monotonic()``), what, and the answer's status."""

    at: float
    method: str
    chat_id: int | None
    status: int
    params: dict[str, Any]


@dataclass
class _Failure:
    status: int
    retry_after: int | None
    methods: frozenset[str] | None
    remaining: int


class FakeTelegram:
    """The fake Bot API server plus its control side. Use as ``async with FakeTelegram() as f``."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "mafia_test_bot",
        limits: TelegramLimits | None = None,
        clock: Any = time.monotonic,
        sleep: Any = asyncio.sleep,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_user = {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Mafia Test Bot",
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.admins: dict[int, set[int]] = defaultdict(set)
        self.member_counts: dict[int, int] = {}  # getChatMemberCount's answer per group
        self.creators: dict[int, int] = {}
        self.blocked_by: set[int] = set()
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.callback_answers: dict[str, dict[str, Any]] = {}
        self._sent: dict[int, list[SentMessage]] = defaultdict(list)
        self._read: dict[int, int] = defaultdict(int)
        self._edits: dict[int, list[SentMessage]] = defaultdict(list)
        self._edits_read: dict[int, int] = defaultdict(int)
        self._message_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._failures: list[_Failure] = []
        self.files: dict[str, bytes] = {}  # file_id -> content of documents users sent
        self.file_status: int | None = None  # set: every file download answers this status
        self.photos: set[str] = set()  # file_ids of the photos users sent (the bot may resend)
        # the private chats' menu button: None -> the default for every private chat, a
        # chat's id -> its own (setChatMenuButton)
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        self.clock = clock
        self.sleep = sleep  # a hang's wait (tests/fakes/virtual_clock.py: on a virtual clock)
        # called as a hang begins, with the method, its parameters and the hang's seconds
        self.on_hang: Callable[[str, dict[str, Any], float], None] | None = None
        self.rate_limit = RateLimit(limits, clock) if limits is not None else None
        self.log: list[Request] = []  # every request but getUpdates, with its time and status
        self.delivered_at: dict[int, float] = {}  # update_id -> first handed to the bot
        self.sent_updates: dict[int, dict[str, Any]] = {}  # update_id -> the update
        self.query_updates: dict[str, int] = {}  # callback query id -> update_id
        self._faults: dict[tuple[str, int], tuple[str, float]] = {}
        self.method_calls: dict[str, int] = defaultdict(int)
        self.faults_hit: list[tuple[str, int, str]] = []
        self.group_limit: int | None = None
        self._group_times: dict[int, list[float]] = defaultdict(list)
        self._changed = asyncio.Condition()
        self.changes = 0  # requests of the bot and updates pushed so far (see changed())
        self.in_flight = 0  # requests being handled, getUpdates aside (see settled())
        self._runner: web.AppRunner | None = None
        self._closing = False
        self.port = 0
        self.migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self.topics: dict[int, dict[int, FakeTopic]] = defaultdict(dict)  # chat -> thread -> topic
        self.topic_rights: set[int] = set()  # forums where the bot may create and close topics
        self.html_answers = False  # answer every call with a proxy's HTML page
        self.webhook: dict[str, Any] | None = None  # {"url", "secret"} after setWebhook
        self.webhook_statuses: list[int] = []  # the bot's HTTP answers to delivered updates
        self.polled_updates = 0  # updates handed out by getUpdates
        self._delivery: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 (``port`` 0: a free one; see :attr:`base_url`)."""
        self._closing = False
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("GET", "/file/bot{token}/{path:.+}", self._file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # (host, port) of the one socket
        self._delivery = asyncio.create_task(self._deliver_webhook())

    async def stop(self) -> None:
        self._closing = True
        await self._notify()  # release pending long polls
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
            self._delivery = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ control: people
    def user(
        self,
        user_id: int,
        first_name: str = "Player",
        *,
        language_code: str | None = "ru",
        username: str | None = None,
    ) -> FakeUser:
        """Create (or replace) a user; its private chat has the same id."""
        user = FakeUser(user_id, first_name, language_code, username)
        self.users[user_id] = user
        self.chats[user_id] = FakeChat(user_id, "private", first_name=first_name, username=username)
        return user

    def group(
        self, chat_id: int, title: str = "Mafia Club", *, type: str = "supergroup",
        forum: bool = False,
    ) -> FakeChat:
        """Create a group chat (ids of groups are negative); ``forum``: a supergroup with
        topics."""
        assert chat_id < 0, "group chat ids are negative"
        assert not forum or type == "supergroup", "only a supergroup has topics"
        chat = FakeChat(chat_id, type, title=title, is_forum=forum)
        self.chats[chat_id] = chat
        return chat

    def topic(self, chat_id: int, name: str) -> int:
        """A member creates a topic in the forum ``chat_id``; its thread id."""
        assert self.chats[chat_id].is_forum, "topics live in a forum"
        thread = next(self._message_ids[chat_id])
        self.topics[chat_id][thread] = FakeTopic(thread, name)
        return thread

    def allow_topics(self, chat_id: int, allowed: bool = True) -> None:
        """Give the bot the right to manage the forum's topics (createForumTopic,
        closeForumTopic), or take it away."""
        if allowed:
            self.topic_rights.add(chat_id)
        else:
            self.topic_rights.discard(chat_id)

    def in_topic(self, chat_id: int, thread: int | None) -> list[SentMessage]:
        """What the bot sent to one topic of a forum (``None``: outside every topic)."""
        return [m for m in self._sent[chat_id] if m.thread == thread]

    def set_admins(self, chat_id: int, user_ids: set[int] | list[int]) -> None:
        """Set who is an administrator of a group chat (the first one is its creator)."""
        ordered = list(user_ids)
        self.admins[chat_id] = set(ordered)
        if ordered:
            self.creators[chat_id] = ordered[0]
        else:
            self.creators.pop(chat_id, None)

    async def add_bot(self, chat_id: int, by: FakeUser | int, *, members: int = 12) -> None:
        """``by`` adds the bot to the group ``chat_id`` (Telegram's ``my_chat_member``: the bot
        from "left" to "member"); the group then has ``members`` members."""
        chat, user = self.chats[chat_id], self._user(by)
        self.member_counts[chat_id] = members
        bot = {"id": self.bot_id, "is_bot": True, "first_name": "Bot"}
        await self._push({"my_chat_member": {
            "chat": chat.as_dict(), "from": user.as_dict(), "date": int(time.time()),
            "old_chat_member": {"status": "left", "user": bot},
            "new_chat_member": {"status": "member", "user": bot}}})

    def block_bot(self, user_id: int, blocked: bool = True) -> None:
        """The user blocks (or unblocks) the bot: sends to its chat answer 403."""
        if blocked:
            self.blocked_by.add(user_id)
        else:
            self.blocked_by.discard(user_id)

    def fail_next(
        self,
        count: int,
        *,
        status: int = 429,
        retry_after: int | None = 1,
        methods: set[str] | frozenset[str] | None = SENDING_METHODS,
    ) -> None:
        """Answer the next ``count`` calls of ``methods`` (None: any but getUpdates) with an error.

        ``status=429`` answers "Too Many Requests" with ``retry_after``; other statuses (e.g. 500)
        answer a plain server error.
        """
        self._failures.append(
            _Failure(status, retry_after if status == 429 else None, _frozen(methods), count)
        )

    async def migrate(self, old_chat_id: int, new_chat_id: int, *,
                      service_messages: bool = True) -> FakeChat:
        """The group ``old_chat_id`` becomes the supergroup ``new_chat_id``: from now on every
        send to the old id answers 400 with ``migrate_to_chat_id``. With ``service_messages``
        the bot also gets Telegram's two service messages (``migrate_to_chat_id`` in the old
        group, ``migrate_from_chat_id`` in the new one)."""
        old = self.chats[old_chat_id]
        new = self.group(new_chat_id, old.title or "Mafia Club", type="supergroup")
        if old_chat_id in self.admins:
            self.set_admins(new_chat_id, [self.creators.get(old_chat_id, 0),
                                          *self.admins[old_chat_id]])
        self.migrated[old_chat_id] = new_chat_id
        if service_messages:
            someone = next(iter(self.users.values()), None) or self.user(1, "Admin")
            for chat, key, value in ((old, "migrate_to_chat_id", new_chat_id),
                                     (new, "migrate_from_chat_id", old_chat_id)):
                await self._push({"message": {
                    "message_id": next(self._message_ids[chat.id]), "date": int(time.time()),
                    "chat": chat.as_dict(), "from": someone.as_dict(), key: value}})
        return new

    def clear_failures(self) -> None:
        """Forget the failures still planned by :meth:`fail_next`."""
        self._failures.clear()
    def fault(self, method: str, nth: int, kind: str, *, hang: float = 5.0) -> None:
        """The ``nth`` call (1-based, counted from the server's start) of ``method`` misbehaves
        the way Telegram sometimes does, and is NOT carried out:

        ``html502`` an HTML error page with status 502; ``json500`` a JSON 500; ``429`` Too Many
        Requests (retry after 1 s); ``drop`` the connection closed without an answer; ``hang``
        no answer for ``hang`` seconds (past the client's timeout), then a 504.
        """
        if kind not in FAULT_KINDS:
            raise ValueError(kind)
        self._faults[(method, nth)] = (kind, hang)

    def limit_groups(self, per_minute: int | None) -> None:
        """Like Telegram: more than ``per_minute`` sends/edits to one group within a minute
        answer 429 (None: no limit)."""
        self.group_limit = per_minute

    # ------------------------------------------------------------------ control: updates
    async def send(
        self,
        user: FakeUser | int,
        text: str,
        *,
        chat_id: int | None = None,
        thread: int | None = None,
    ) -> dict[str, Any]:
        """The user sends ``text`` (a command if it starts with '/') in ``chat_id`` (in a
        forum, in the topic ``thread``; None: its General topic).

        ``chat_id`` defaults to the user's private chat. Returns the message as Telegram sent it.
        """
        user = self._user(user)
        chat = self.chats[chat_id if chat_id is not None else user.id]
        message: dict[str, Any] = {
            "message_id": next(self._message_ids[chat.id]),
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": user.as_dict(),
            "text": text,
        }
        if thread is not None:
            assert thread in self.topics[chat.id], f"no topic {thread} in {chat.id}"
            message.update(message_thread_id=thread, is_topic_message=True)
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        await self._push({"message": message})
        return message

    async def send_document(
        self,
        user: FakeUser | int,
        filename: str,
        content: bytes,
        *,
        caption: str | None = None,
        chat_id: int | None = None,
    ) -> dict[str, Any]:
        """The user sends a file (with an optional caption, a command if it starts with '/');
        the bot fetches it with getFile and the file URL. Returns the message."""
        user = self._user(user)
        chat = self.chats[chat_id if chat_id is not None else user.id]
        message_id = next(self._message_ids[chat.id])
        file_id = f"user_doc_{chat.id}_{message_id}"
        self.files[file_id] = content
        message: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": user.as_dict(),
            "document": {"file_id": file_id, "file_unique_id": "u" + file_id,
                         "file_name": filename, "file_size": len(content)},
        }
        if caption is not None:
            message["caption"] = caption
            if caption.startswith("/"):
                length = len(caption.split(maxsplit=1)[0])
                message["caption_entities"] = [
                    {"type": "bot_command", "offset": 0, "length": length}]
        await self._push({"message": message})
        return message

    async def send_photo(
        self,
        user: FakeUser | int,
        *,
        caption: str | None = None,
        reply_to: dict[str, Any] | None = None,
        chat_id: int | None = None,
        content: bytes | None = None,
    ) -> dict[str, Any]:
        """The user sends a photo (with an optional caption, a command if it starts with '/');
        its ``file_id`` (in ``photo[-1]``) is one the bot may send again, and download
        (getFile) as ``content``. Returns the message."""
        user = self._user(user)
        chat = self.chats[chat_id if chat_id is not None else user.id]
        message_id = next(self._message_ids[chat.id])
        file_id = f"AgACAgPhoto_{chat.id}_{message_id}"
        self.photos.add(file_id)
        if content is not None:
            self.files[file_id] = content
        message: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": user.as_dict(),
            "photo": [{"file_id": file_id + "_small", "file_unique_id": "s" + file_id,
                       "width": 90, "height": 90},
                      {"file_id": file_id, "file_unique_id": "u" + file_id,
                       "width": 1280, "height": 1280}],
        }
        if caption is not None:
            message["caption"] = caption
            if caption.startswith("/"):
                length = len(caption.split(maxsplit=1)[0])
                message["caption_entities"] = [
                    {"type": "bot_command", "offset": 0, "length": length}]
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        await self._push({"message": message})
        return message

    async def reply(
        self, user: FakeUser | int, text: str, to: dict[str, Any], *, chat_id: int | None = None
    ) -> dict[str, Any]:
        """The user answers message ``to`` (as returned by :meth:`send`/:meth:`send_document`)
        with ``text``."""
        user = self._user(user)
        chat = self.chats[chat_id if chat_id is not None else user.id]
        message: dict[str, Any] = {
            "message_id": next(self._message_ids[chat.id]),
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": user.as_dict(),
            "text": text,
            "reply_to_message": to,
        }
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        await self._push({"message": message})
        return message

    async def press(
        self,
        user: FakeUser | int,
        message: SentMessage,
        data: str | None = None,
        *,
        button: str | None = None,
    ) -> str:
        """The user presses an inline button of ``message`` (by callback ``data`` or by text part).

        Returns the callback query id; await :meth:`callback_answer` with it for the answer.
        """
        user = self._user(user)
        if data is None:
            assert button is not None, "give data= or button="
            data = message.button_data(button)
        query_id = str(next(self._callback_ids))
        await self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.as_dict(),
                    "chat_instance": str(message.chat_id),
                    "message": self._message_json(message),
                    "data": data,
                }
            }
        )
        return query_id

    # ------------------------------------------------------------------ control: reading
    def messages(self, chat_id: int) -> list[SentMessage]:
        """Everything the bot sent to ``chat_id`` so far (with edits applied)."""
        return list(self._sent[chat_id])

    def unread(self, chat_id: int) -> list[SentMessage]:
        """Messages not yet returned by :meth:`next_message` (marks them read)."""
        items = self._sent[chat_id][self._read[chat_id] :]
        self._read[chat_id] = len(self._sent[chat_id])
        return list(items)

    async def next_message(
        self, chat_id: int, timeout: float = WAIT,  # noqa: ASYNC109
    ) -> SentMessage:
        """Wait for the next message (text or document) the bot sends to ``chat_id``."""

        def ready() -> bool:
            return self._read[chat_id] < len(self._sent[chat_id])

        await self._wait(ready, timeout, f"no new message in chat {chat_id}")
        message = self._sent[chat_id][self._read[chat_id]]
        self._read[chat_id] += 1
        return message

    async def next_edit(
        self, chat_id: int, timeout: float = WAIT,  # noqa: ASYNC109
    ) -> SentMessage:
        """Wait for the next edit (text or markup) of a message in ``chat_id``."""

        def ready() -> bool:
            return self._edits_read[chat_id] < len(self._edits[chat_id])

        await self._wait(ready, timeout, f"no edit in chat {chat_id}")
        message = self._edits[chat_id][self._edits_read[chat_id]]
        self._edits_read[chat_id] += 1
        return message

    async def callback_answer(
        self, query_id: str, timeout: float = WAIT,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        """Wait for the bot's answerCallbackQuery to ``query_id`` (its parameters)."""
        await self._wait(
            lambda: query_id in self.callback_answers, timeout, f"no answer to query {query_id}"
        )
        return self.callback_answers[query_id]

    async def wait_call(
        self, method: str, timeout: float = WAIT,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        """Wait until the bot has called ``method`` at least once; return the last parameters."""
        await self._wait(
            lambda: any(m == method for m, _ in self.calls), timeout, f"{method} never called"
        )
        return [p for m, p in self.calls if m == method][-1]

    async def wait_for(
        self, ready: Callable[..., object], timeout: float = WAIT,  # noqa: ASYNC109
        what: str = "",
    ) -> None:
        """Wait until ``ready()`` (a condition on what the bot sent: messages, prompts, calls)
        is true. It is checked now and again after each request of the bot and each update the
        test pushes, never by polling; an AssertionError after ``timeout`` seconds.

        ``ready`` is typed ``Callable[..., object]``: in a loop, the tests bind the loop's
        variable as a default (``lambda uid=uid: ...``), which mypy cannot infer against
        ``Callable[[], object]``."""
        await self._wait(ready, timeout, what or f"{ready}")

    async def changed(self, timeout: float, since: int | None = None) -> bool:  # noqa: ASYNC109
        """Wait for the bot's next request (or an update pushed) after :attr:`changes` was
        ``since`` (default: now); False if none came within ``timeout`` seconds. For a driver
        that reads state the bot wrote before it sent: note ``changes``, read, then wait."""
        seen = self.changes if since is None else since
        with contextlib.suppress(AssertionError):
            await self._wait(lambda: self.changes != seen, timeout, "a change")
        return self.changes != seen

    async def settled(self, timeout: float = WAIT) -> None:  # noqa: ASYNC109
        """Wait until no request of the bot is being handled. A request whose client gave up
        (a stopped delivery's, a timed-out one) is still answered, and its message sent, as
        Telegram would: a test that changes the fake's behaviour after stopping a sender waits
        for this first."""
        await self._wait(lambda: self.in_flight == 0, timeout, "no request in flight")

    def pending_updates(self) -> int:
        """Updates the bot has not fetched yet."""
        return len(self._updates)

    # ------------------------------------------------------------------ internals
    def _user(self, user: FakeUser | int) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        return self.users[user] if user in self.users else self.user(user)

    async def _wait(
        self, ready: Any, timeout: float, what: str,  # noqa: ASYNC109
    ) -> None:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
            except TimeoutError:
                raise AssertionError(f"{what} within {timeout}s") from None

    async def _notify(self) -> None:
        self.changes += 1
        await self._wake()

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def push_raw(self, update: dict[str, Any]) -> int:
        """Queue ``update`` exactly as given (malformed ones too), with the next update_id."""
        await self._push(update)
        return int(update["update_id"])

    async def _push(self, update: dict[str, Any]) -> None:
        update["update_id"] = next(self._update_ids)
        self.sent_updates[update["update_id"]] = update
        if "callback_query" in update:
            self.query_updates[update["callback_query"]["id"]] = update["update_id"]
        self._updates.append(update)
        await self._notify()

    def _message_json(self, message: SentMessage) -> dict[str, Any]:
        chat = self.chats.get(message.chat_id) or FakeChat(message.chat_id, "private")
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": self.bot_user,
        }
        if message.text is not None:
            data["text"] = message.text
        if message.caption is not None:
            data["caption"] = message.caption
        if message.document_name is not None:
            data["document"] = {
                "file_id": f"doc{message.chat_id}_{message.message_id}",
                "file_unique_id": f"u{message.chat_id}_{message.message_id}",
                "file_name": message.document_name,
            }
        if message.photo_id is not None:
            data["photo"] = [{"file_id": message.photo_id, "file_unique_id": "u" + message.photo_id,
                              "width": 720, "height": 720}]
        elif message.photo_bytes is not None:
            data["photo"] = [{
                "file_id": f"photo{message.chat_id}_{message.message_id}",
                "file_unique_id": f"p{message.chat_id}_{message.message_id}",
                "width": 720, "height": 720,
            }]
        if message.reply_markup:
            data["reply_markup"] = message.reply_markup
        if message.thread is not None:
            data.update(message_thread_id=message.thread, is_topic_message=True)
        return data

    def _take_failure(self, method: str) -> _Failure | None:
        for failure in self._failures:
            if failure.remaining <= 0:
                continue
            if failure.methods is None and method == "getUpdates":
                continue
            if failure.methods is not None and method not in failure.methods:
                continue
            failure.remaining -= 1
            return failure
        return None

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "application/json":
            params = dict(await request.json())
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader), "the Bot API's parts are not nested"
                if part.filename is not None:
                    files[part.name or ""] = (part.filename, await part.read())
                else:
                    params[part.name or ""] = await part.text()
        else:
            params = dict(await request.post())
            params.update(request.query)
        for key, value in list(params.items()):
            if not isinstance(value, str):
                continue
            if key in JSON_FIELDS:
                params[key] = json.loads(value)
            elif key in INT_FIELDS:
                params[key] = int(value)
            elif value in ("true", "false"):
                params[key] = value == "true"
            elif value.startswith("attach://") and value[9:] in files:
                params[key] = files[value[9:]]
        for key, file in files.items():
            params.setdefault(key, file)
        return params

    async def _deliver_webhook(self) -> None:
        """POST the updates to the bot's webhook, one at a time, in order."""
        import aiohttp

        async with aiohttp.ClientSession() as session:
            while not self._closing:
                async with self._changed:
                    await self._changed.wait_for(
                        lambda: self._closing or (self.webhook is not None and bool(self._updates)))
                hook = self.webhook
                if self._closing or hook is None or not self._updates:
                    continue
                update = self._updates[0]
                self.delivered_at.setdefault(update["update_id"], self.clock())
                headers = {}
                if hook.get("secret"):
                    headers["X-Telegram-Bot-Api-Secret-Token"] = str(hook["secret"])
                try:
                    async with session.post(hook["url"], json=update, headers=headers,
                                            timeout=aiohttp.ClientTimeout(total=10)) as resp:
                        status = resp.status
                except (aiohttp.ClientError, TimeoutError):
                    status = 0
                self.webhook_statuses.append(status)
                if 200 <= status < 300:
                    if self._updates and self._updates[0] is update:
                        self._updates.pop(0)
                else:
                    await asyncio.sleep(0.05)  # Telegram retries later

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["method"] == "getUpdates":  # a long poll is never "in flight"
            return await self._handle_request(request)
        self.in_flight += 1
        try:
            await self._wake()
            return await self._handle_request(request)
        finally:
            self.in_flight -= 1
            await self._wake()

    async def _handle_request(self, request: web.Request) -> web.Response:
        if self.html_answers:
            return web.Response(status=200, content_type="text/html",
                                text="<html><body><h1>Welcome to our proxy</h1></body></html>")
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params = await self._params(request)
        if method == "getUpdates":
            return await self._api_getUpdates(params)
        self.calls.append((method, params))
        self.method_calls[method] += 1
        at = self.clock()
        result = await self._fault(request, method, params)  # (a Response is falsy: is None)
        if result is None:
            result = await self._answer(method, params)
        chat_id = params.get("chat_id")
        self.log.append(Request(at, method, chat_id if isinstance(chat_id, int) else None,
                                result.status, params))
        await self._notify()  # wake wait_call()
        return result

    async def _fault(self, request: web.Request, method: str,
                     params: dict[str, Any]) -> web.Response | None:
        """A misbehaviour planned by :meth:`fault` for this call, if any."""
        fault = self._faults.pop((method, self.method_calls[method]), None)
        if fault is not None:
            kind, hang = fault
            self.faults_hit.append((method, self.method_calls[method], kind))
            if kind == "html502":
                return web.Response(status=502, content_type="text/html",
                                    text="<html><body><h1>502 Bad Gateway</h1></body></html>")
            if kind == "json500":
                return _error(500, "Internal Server Error")
            if kind == "429":
                return _error(429, "Too Many Requests: retry after 1",
                              parameters={"retry_after": 1})
            if kind == "drop":
                if request.transport is not None:
                    request.transport.abort()
                return web.Response(status=500)
            if self.on_hang is not None:
                self.on_hang(method, params, hang)
            await self.sleep(hang)
            return _error(504, "Gateway Timeout")
        return None

    async def _answer(self, method: str, params: dict[str, Any]) -> web.Response:
        if self.group_limit is not None and method in GROUP_LIMITED:
            chat = params.get("chat_id")
            if isinstance(chat, int | str) and int(chat) < 0:
                now = time.monotonic()
                times = [t for t in self._group_times[int(chat)] if now - t < 60]
                if len(times) >= self.group_limit:
                    self._group_times[int(chat)] = times
                    wait = max(1, int(60 - (now - times[0])) + 1)
                    return _error(429, f"Too Many Requests: retry after {wait}",
                                  parameters={"retry_after": wait})
                times.append(now)
                self._group_times[int(chat)] = times
        failure = self._take_failure(method)
        if failure is not None:
            if failure.status == 429:
                return _too_many(failure.retry_after or 1)
            return _error(failure.status, "Internal Server Error")
        if self.rate_limit is not None and method in LIMITED_METHODS:
            chat_id = params.get("chat_id")
            if isinstance(chat_id, int):
                left = self.rate_limit.check(chat_id)
                if left > 0:
                    return _too_many(max(1, math.ceil(left)))
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return _error(404, "Not Found")
        result: web.Response = await handler(params)
        return result

    # ------------------------------------------------------------------ Bot API methods
    async def _api_getMe(self, params: dict[str, Any]) -> web.Response:
        return _ok(self.bot_user)

    async def _api_getUpdates(self, params: dict[str, Any]) -> web.Response:
        if self.webhook is not None:
            return _error(409, "Conflict: can't use getUpdates method while webhook is active;"
                               " use deleteWebhook to delete the webhook first")
        offset = int(params.get("offset", 0) or 0)
        timeout = float(params.get("timeout", 0) or 0)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and timeout > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: bool(self._updates) or self._closing),
                        timeout,
                    )
        limit = int(params.get("limit", 100) or 100)
        batch = self._updates[:limit]
        self.polled_updates += len(batch)
        now = self.clock()
        for update in batch:
            self.delivered_at.setdefault(update["update_id"], now)
        return _ok(batch)

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> web.Response:
        self.webhook = None
        return _ok(True)

    async def _api_setWebhook(self, params: dict[str, Any]) -> web.Response:
        self.webhook = {"url": str(params["url"]), "secret": params.get("secret_token")}
        await self._notify()  # start delivering what is queued
        return _ok(True)

    async def _api_getWebhookInfo(self, params: dict[str, Any]) -> web.Response:
        return _ok({"url": self.webhook["url"] if self.webhook else "",
                    "has_custom_certificate": False, "pending_update_count": len(self._updates)})

    async def _api_close(self, params: dict[str, Any]) -> web.Response:
        return _ok(True)

    async def _api_logOut(self, params: dict[str, Any]) -> web.Response:
        return _ok(True)

    async def _api_setMyCommands(self, params: dict[str, Any]) -> web.Response:
        self.commands[(_scope_key(params), params.get("language_code", ""))] = params["commands"]
        return _ok(True)

    async def _api_getMyCommands(self, params: dict[str, Any]) -> web.Response:
        return _ok(self.commands.get((_scope_key(params), params.get("language_code", "")), []))

    async def _api_deleteMyCommands(self, params: dict[str, Any]) -> web.Response:
        self.commands.pop((_scope_key(params), params.get("language_code", "")), None)
        return _ok(True)

    def _check_thread(self, chat_id: int, params: dict[str, Any]) -> web.Response | None:
        """A send into a forum topic: the topic must exist and be open."""
        thread = params.get("message_thread_id")
        chat = self.chats.get(chat_id)
        if thread is None or chat is None or not chat.is_forum:
            return None
        topic = self.topics[chat_id].get(int(thread))
        if topic is None:
            return _error(400, "Bad Request: message thread not found")
        if topic.closed:
            return _error(400, "Bad Request: TOPIC_CLOSED")
        return None

    def _thread(self, chat_id: int, params: dict[str, Any]) -> int | None:
        chat = self.chats.get(chat_id)
        thread = params.get("message_thread_id")
        return int(thread) if thread is not None and chat is not None and chat.is_forum else None

    def _check_chat(self, chat_id: int) -> web.Response | None:
        if chat_id in self.migrated:
            return _error(400, "Bad Request: group chat was upgraded to a supergroup chat",
                          parameters={"migrate_to_chat_id": self.migrated[chat_id]})
        if chat_id in self.blocked_by:
            return _error(403, "Forbidden: bot was blocked by the user")
        if chat_id not in self.chats:
            return _error(400, "Bad Request: chat not found")
        return None

    async def _record_sent(self, message: SentMessage) -> web.Response:
        self._sent[message.chat_id].append(message)
        message.raw = self._message_json(message)
        await self._notify()
        return _ok(message.raw)

    async def _api_sendMessage(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if (error := self._check_chat(chat_id)) is not None:
            return error
        text = str(params.get("text", ""))
        if not text.strip():
            return _error(400, "Bad Request: message text is empty")
        if (error := _check_markup(chat_id, params.get("reply_markup"))) is not None:
            return error
        if (error := self._check_thread(chat_id, params)) is not None:
            return error
        return await self._record_sent(
            SentMessage(
                chat_id=chat_id,
                message_id=next(self._message_ids[chat_id]),
                text=text,
                reply_markup=params.get("reply_markup"),
                parse_mode=params.get("parse_mode"),
                protect_content=bool(params.get("protect_content", False)),
                thread=self._thread(chat_id, params),
            )
        )

    async def _api_sendDocument(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if (error := self._check_chat(chat_id)) is not None:
            return error
        document = params.get("document")
        if not isinstance(document, tuple):
            return _error(400, "Bad Request: there is no document in the request")
        name, content = document
        return await self._record_sent(
            SentMessage(
                chat_id=chat_id,
                message_id=next(self._message_ids[chat_id]),
                text=None,
                caption=params.get("caption"),
                reply_markup=params.get("reply_markup"),
                parse_mode=params.get("parse_mode"),
                protect_content=bool(params.get("protect_content", False)),
                document_name=name,
                document_bytes=content,
            )
        )

    async def _api_setChatMenuButton(self, params: dict[str, Any]) -> web.Response:
        chat = params.get("chat_id")
        button = params.get("menu_button") or {"type": "default"}
        if button.get("type") == "web_app" and not str(
                button.get("web_app", {}).get("url", "")).startswith("https://"):
            return _error(400, "Bad Request: BUTTON_URL_INVALID")  # Mini Apps: HTTPS only
        self.menu_buttons[None if chat is None else int(chat)] = button
        return _ok(True)

    async def _api_getChatMenuButton(self, params: dict[str, Any]) -> web.Response:
        chat = params.get("chat_id")
        found = self.menu_buttons.get(None if chat is None else int(chat))
        if found is None:
            found = self.menu_buttons.get(None, {"type": "commands"})
        return _ok(found)

    async def _api_getFile(self, params: dict[str, Any]) -> web.Response:
        file_id = str(params.get("file_id", ""))
        if file_id not in self.files:
            return _error(400, "Bad Request: invalid file_id")
        return _ok({"file_id": file_id, "file_unique_id": "u" + file_id,
                    "file_size": len(self.files[file_id]), "file_path": f"documents/{file_id}"})

    async def _file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        if self.file_status is not None:  # a download failing as a file server's can
            return web.Response(status=self.file_status, text="file server error")
        file_id = request.match_info["path"].rsplit("/", 1)[-1]
        if file_id not in self.files:
            return _error(404, "Not Found")
        return web.Response(body=self.files[file_id])

    async def _api_sendPhoto(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if (error := self._check_chat(chat_id)) is not None:
            return error
        photo = params.get("photo")
        if isinstance(photo, str) and photo not in self.photos:
            return _error(400, "Bad Request: wrong file identifier/HTTP URL specified")
        if not isinstance(photo, tuple | str):
            return _error(400, "Bad Request: there is no photo in the request")
        if (error := self._check_thread(chat_id, params)) is not None:
            return error
        return await self._record_sent(
            SentMessage(
                chat_id=chat_id,
                message_id=next(self._message_ids[chat_id]),
                text=None,
                caption=params.get("caption"),
                reply_markup=params.get("reply_markup"),
                parse_mode=params.get("parse_mode"),
                protect_content=bool(params.get("protect_content", False)),
                photo_bytes=photo[1] if isinstance(photo, tuple) else None,
                photo_id=photo if isinstance(photo, str) else None,
                thread=self._thread(chat_id, params),
            )
        )

    def _forum(self, params: dict[str, Any]) -> tuple[int, web.Response | None]:
        """The forum of a topic call, or why it is refused (not a forum, no right)."""
        chat_id = int(params.get("chat_id", 0))
        if (error := self._check_chat(chat_id)) is not None:
            return chat_id, error
        if not self.chats[chat_id].is_forum:
            return chat_id, _error(400, "Bad Request: the chat is not a forum")
        if chat_id not in self.topic_rights:
            return chat_id, _error(400, "Bad Request: not enough rights to manage topics")
        return chat_id, None

    async def _api_createForumTopic(self, params: dict[str, Any]) -> web.Response:
        chat_id, error = self._forum(params)
        if error is not None:
            return error
        name = str(params.get("name", ""))
        if not 1 <= len(name) <= 128:
            return _error(400, "Bad Request: TOPIC_TITLE_EMPTY")
        thread = next(self._message_ids[chat_id])
        self.topics[chat_id][thread] = FakeTopic(thread, name, by_bot=True)
        await self._notify()
        return _ok({"message_thread_id": thread, "name": name, "icon_color": 7322096})

    async def _api_closeForumTopic(self, params: dict[str, Any]) -> web.Response:
        chat_id, error = self._forum(params)
        if error is not None:
            return error
        topic = self.topics[chat_id].get(int(params.get("message_thread_id", 0)))
        if topic is None:
            return _error(400, "Bad Request: message thread not found")
        if topic.closed:
            return _error(400, "Bad Request: TOPIC_NOT_MODIFIED")
        topic.closed = True
        await self._notify()
        return _ok(True)

    def _find(self, params: dict[str, Any]) -> SentMessage | None:
        chat_id = int(params.get("chat_id", 0))
        message_id = int(params.get("message_id", 0))
        for message in self._sent.get(chat_id, []):
            if message.message_id == message_id and not message.deleted:
                return message
        return None

    async def _edited(self, message: SentMessage) -> web.Response:
        message.raw = self._message_json(message)
        self._edits[message.chat_id].append(message)
        await self._notify()
        return _ok(message.raw)

    async def _api_editMessageText(self, params: dict[str, Any]) -> web.Response:
        return await self._edit_content(params, "text")

    async def _api_editMessageCaption(self, params: dict[str, Any]) -> web.Response:
        return await self._edit_content(params, "caption")

    async def _edit_content(self, params: dict[str, Any], field: str) -> web.Response:
        """editMessageText / editMessageCaption: replace the message's text or caption."""
        if (error := self._check_chat(int(params.get("chat_id", 0)))) is not None:
            return error
        message = self._find(params)
        if message is None:
            return _error(400, "Bad Request: message to edit not found")
        if field == "caption" and message.photo_bytes is None and message.caption is None:
            return _error(400, "Bad Request: there is no caption in the message to edit")
        value = params.get(field)
        markup = params.get("reply_markup")
        if (error := _check_markup(message.chat_id, markup)) is not None:
            return error
        if value == getattr(message, field) and markup == message.reply_markup:
            return _error(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        message.history.append(getattr(message, field))
        setattr(message, field, value)
        message.reply_markup = markup
        message.parse_mode = params.get("parse_mode")
        return await self._edited(message)

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> web.Response:
        if (error := self._check_chat(int(params.get("chat_id", 0)))) is not None:
            return error
        message = self._find(params)
        if message is None:
            return _error(400, "Bad Request: message to edit not found")
        markup = params.get("reply_markup")
        if markup == message.reply_markup:
            return _error(400, "Bad Request: message is not modified")
        message.reply_markup = markup
        return await self._edited(message)

    async def _api_deleteMessage(self, params: dict[str, Any]) -> web.Response:
        message = self._find(params)
        if message is None:
            return _error(400, "Bad Request: message to delete not found")
        message.deleted = True
        await self._notify()
        return _ok(True)

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> web.Response:
        self.callback_answers[str(params["callback_query_id"])] = params
        await self._notify()
        return _ok(True)

    async def _api_getChat(self, params: dict[str, Any]) -> web.Response:
        chat = self.chats.get(int(params["chat_id"]))
        if chat is None:
            return _error(400, "Bad Request: chat not found")
        data = chat.as_dict()
        data.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        return _ok(data)

    def _member(self, chat_id: int, user_id: int) -> dict[str, Any]:
        user = self._user(user_id).as_dict()
        creator = self.creators.get(chat_id)
        if user_id == creator:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.admins.get(chat_id, set()):
            rights = {
                name: True
                for name in (
                    "can_be_edited", "can_manage_chat", "can_delete_messages",
                    "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                    "can_change_info", "can_invite_users", "can_post_stories",
                    "can_edit_stories", "can_delete_stories", "can_send_welcome_messages",
                )
            }
            return {"status": "administrator", "user": user, "is_anonymous": False, **rights}
        return {"status": "member", "user": user}

    async def _api_getChatMember(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if chat_id not in self.chats:
            return _error(400, "Bad Request: chat not found")
        return _ok(self._member(chat_id, int(params["user_id"])))

    async def _api_getChatMemberCount(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if chat_id not in self.chats:
            return _error(400, "Bad Request: chat not found")
        return _ok(self.member_counts.get(chat_id, len(self.admins.get(chat_id, ())) + 1))

    async def _api_getChatAdministrators(self, params: dict[str, Any]) -> web.Response:
        chat_id = int(params["chat_id"])
        if chat_id not in self.chats:
            return _error(400, "Bad Request: chat not found")
        return _ok([self._member(chat_id, uid) for uid in sorted(self.admins.get(chat_id, set()))])


def _scope_key(params: dict[str, Any]) -> str:
    """``scope.type``, plus ``:<chat_id>`` for chat scopes (``"chat:900"``)."""
    scope = params.get("scope") or {"type": "default"}
    if "chat_id" in scope:
        return f"{scope['type']}:{scope['chat_id']}"
    return str(scope["type"])


def _frozen(methods: set[str] | frozenset[str] | None) -> frozenset[str] | None:
    return None if methods is None else frozenset(methods)


def _ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _too_many(retry_after: int) -> web.Response:
    return _error(
        429, f"Too Many Requests: retry after {retry_after}",
        parameters={"retry_after": retry_after},
    )


def _error(code: int, description: str, parameters: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=code)


def _check_markup(chat_id: int, markup: Any) -> web.Response | None:
    """A ``web_app`` button (a Mini App) is refused outside private chats and without HTTPS,
    as Telegram does."""
    if not isinstance(markup, dict):
        return None
    for row in markup.get("inline_keyboard", []):
        for button in row:
            web_app = button.get("web_app")
            if web_app is None:
                continue
            if chat_id < 0 or not str(web_app.get("url", "")).startswith("https://"):
                return _error(400, "Bad Request: BUTTON_TYPE_INVALID")
    return None

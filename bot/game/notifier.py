"""The only way game texts leave the bot: engine events and service messages -> chats.

Only this module knows how an audience maps to chats: everyone -> the club chat, a seat -> that
player's private chat (``Table.chat_of``: the host's for an offline seat, with a "for №5 NICK"
line on top), the Mafia -> each living Mafia player in private, the host -> the host in
private. Texts come from ``locales/<lang>/game.ftl`` through the translator.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup

from bot.game.table import Table
from bot.i18n import Safe, Translator
from bot.outbox import Outbox
from engine import AudienceKind, Event

log = logging.getLogger("bot.game.notifier")

Markup = Callable[[str], InlineKeyboardMarkup]  # locale -> keyboard
Lazy = Callable[[str], str]  # locale -> text (already safe HTML)


class Sender(Protocol):
    async def send(self, chat_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                   protect: bool = False) -> int | None: ...

    async def edit(self, chat_id: int, message_id: int, text: str, *,
                   markup: InlineKeyboardMarkup | None = None) -> None: ...

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> int | None: ...


class OutboxSender:
    """Sends through the rate-limited outbox."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    async def send(self, chat_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                   protect: bool = False) -> int | None:
        message = await self.outbox.send_text(chat_id, text, reply_markup=markup,
                                              protect_content=protect or None)
        return None if message is None else message.message_id

    async def edit(self, chat_id: int, message_id: int, text: str, *,
                   markup: InlineKeyboardMarkup | None = None) -> None:
        await self.outbox.edit_text(chat_id, message_id, text, reply_markup=markup)

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> int | None:
        message = await self.outbox.request(chat_id, SendPhoto(
            chat_id=chat_id, photo=BufferedInputFile(png, filename="table.png"),
            caption=caption, parse_mode=self.outbox.parse_mode))
        return None if message is None else message.message_id


@dataclass(frozen=True)
class Sent:
    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    protect: bool = False
    message_id: int = 0
    edit: bool = False
    photo: bytes | None = None  # a picture, ``text`` its caption


class RecordingSender:
    """Keeps everything in memory (service tests; also handy for dry runs)."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.blocked: set[int] = set()
        self._next = 0

    async def send(self, chat_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                   protect: bool = False) -> int | None:
        if chat_id in self.blocked:
            return None
        self._next += 1
        self.sent.append(Sent(chat_id, text, markup, protect, self._next))
        return self._next

    async def edit(self, chat_id: int, message_id: int, text: str, *,
                   markup: InlineKeyboardMarkup | None = None) -> None:
        if chat_id not in self.blocked:
            self.sent.append(Sent(chat_id, text, markup, False, message_id, edit=True))

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> int | None:
        if chat_id in self.blocked:
            return None
        self._next += 1
        self.sent.append(Sent(chat_id, caption, None, False, self._next, photo=png))
        return self._next

    def to(self, chat_id: int) -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id]


def button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def rows(buttons: Sequence[InlineKeyboardButton], width: int = 3) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[list(buttons[i:i + width]) for i in range(0, len(buttons), width)]
    )


class Notifier:
    def __init__(self, sender: Sender, translator: Translator,
                 locale_of: Callable[[int], str]) -> None:
        self.sender = sender
        self.tr = translator
        self.locale_of = locale_of

    # ------------------------------------------------------------------ basics
    def t(self, locale: str, key: str, **kwargs: Any) -> str:
        values = {k: Safe(v(locale)) if callable(v) else v for k, v in kwargs.items()}
        return self.tr.t(locale, key, **values)

    def seat(self, table: Table, seat: int) -> str:
        return f"№{seat} {table.name(seat)}"

    def seat_list(self, table: Table, seats: Iterable[int]) -> Lazy:
        chosen = list(seats)

        def render(locale: str) -> str:
            if not chosen:
                return self.tr.t(locale, "game.nobody")
            return ", ".join(self.tr.t(locale, "game.seat", seat=s, name=table.name(s))
                             for s in chosen)
        return render

    def role_name(self, locale: str, role: str) -> str:
        return self.tr.t(locale, f"game.role.{role}")

    async def club(self, table: Table, key: str, *, markup: Markup | None = None,
                   **kwargs: Any) -> int | None:
        locale = table.locale
        return await self.sender.send(
            table.chat_id, self.t(locale, key, **kwargs),
            markup=None if markup is None else markup(locale))

    async def private(self, tg_id: int, key: str, *, markup: Markup | None = None,
                      protect: bool = False, **kwargs: Any) -> int | None:
        locale = self.locale_of(tg_id)
        return await self.sender.send(
            tg_id, self.t(locale, key, **kwargs),
            markup=None if markup is None else markup(locale), protect=protect)

    async def edit_private(self, tg_id: int, message_id: int, key: str, *,
                           markup: Markup | None = None, **kwargs: Any) -> None:
        locale = self.locale_of(tg_id)
        await self.sender.edit(tg_id, message_id, self.t(locale, key, **kwargs),
                               markup=None if markup is None else markup(locale))

    async def club_photo(self, table: Table, png: bytes | None, key: str, **kwargs: Any
                         ) -> int | None:
        """A club post with the table's picture, ``key`` its caption (plain text without one)."""
        if png is None:
            return await self.club(table, key, **kwargs)
        return await self.sender.send_photo(table.chat_id, png,
                                            self.t(table.locale, key, **kwargs))

    def _for_seat(self, table: Table, seat: int, locale: str, text: str) -> str:
        """An offline seat's message goes to the host: say whose it is."""
        if not table.is_offline(seat):
            return text
        head = self.tr.t(locale, "seats.for", seat=seat, name=table.name(seat))
        return f"{head}\n{text}"

    async def to_seat(self, table: Table, seat: int, key: str, /, *, markup: Markup | None = None,
                      protect: bool = False, **kwargs: Any) -> int | None:
        """A private message to a seat: its player, or the host for an offline seat."""
        chat = table.chat_of(seat)
        locale = self.locale_of(chat)
        return await self.sender.send(
            chat, self._for_seat(table, seat, locale, self.t(locale, key, **kwargs)),
            markup=None if markup is None else markup(locale), protect=protect)

    async def edit_seat(self, table: Table, seat: int, message_id: int, key: str, /, *,
                        markup: Markup | None = None, **kwargs: Any) -> None:
        chat = table.chat_of(seat)
        locale = self.locale_of(chat)
        await self.sender.edit(
            chat, message_id, self._for_seat(table, seat, locale, self.t(locale, key, **kwargs)),
            markup=None if markup is None else markup(locale))

    async def edit_club(self, table: Table, message_id: int, key: str, *,
                        markup: Markup | None = None, **kwargs: Any) -> None:
        locale = table.locale
        await self.sender.edit(table.chat_id, message_id, self.t(locale, key, **kwargs),
                               markup=None if markup is None else markup(locale))

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

    def render(self, table: Table, event: Event, locale: str) -> str:
        """The text of one engine event in ``locale``."""
        data = dict(event.data)
        kwargs: dict[str, Any] = {}
        kind = event.kind
        if kind == "open_immunities":
            holders: Mapping[int, list[str]] = data["holders"]
            if not holders:
                return self.tr.t(locale, "game.ev.open_immunities_none")
            lines = [
                self.tr.t(locale, "game.ev.immunity_line", seat=s, name=table.name(s),
                          what=", ".join(self.tr.t(locale, f"game.immunity.{i}") for i in imms))
                for s, imms in holders.items()
            ]
            kwargs["lines"] = Safe("\n".join(lines))
        elif kind in ("night_deaths", "jailed", "released"):
            if kind == "night_deaths" and not data["seats"]:
                return self.tr.t(locale, "game.ev.night_deaths_none", night=data["night"])
            kwargs["seats"] = Safe(self.seat_list(table, data["seats"])(locale))
            kwargs["night"] = data.get("night", "")
        elif kind == "friend_saved":
            kwargs["who"] = Safe(self.seat(table, data["seat"]))
            if data.get("by") is not None:
                kwargs["by"] = Safe(self.seat(table, data["by"]))
                return self.tr.t(locale, "game.ev.friend_saved_by", **kwargs)
        elif kind == "check_result":
            kwargs["who"] = Safe(self.seat(table, data["target"]))
            kind = "check_mafia" if data["mafia"] else "check_civilian"
        elif kind == "mafia_team":
            members: Mapping[int, str] = data["members"]
            kwargs["lines"] = Safe("\n".join(
                f"{self.seat(table, s)} — {self.role_name(locale, r)}" for s, r in members.items()))
        elif kind == "vote_tally":
            counts: Mapping[int, int] = data["counts"]
            lines = [f"{self.seat(table, s)}: {c}" for s, c in
                     sorted(counts.items(), key=lambda sc: (-sc[1], sc[0]))]
            kwargs["lines"] = Safe("\n".join(lines) or self.tr.t(locale, "game.nobody"))
            kwargs["day"] = data["day"]
        elif kind == "shootout":
            kwargs["tied"] = Safe(self.seat_list(table, data["tied"])(locale))
            kwargs["who"] = Safe(self.seat(table, data["condemned"]))
        elif kind == "vote_failed":
            kwargs["tied"] = Safe(self.seat_list(table, data["tied"])(locale))
        elif kind in ("verdict_cancelled",):
            kwargs["who"] = Safe(self.seat(table, data["condemned"]))
        elif kind in ("condemned_died", "technical_death"):
            kwargs["who"] = Safe(self.seat(table, data["seat"]))
        elif kind == "game_over":
            roles: Mapping[int, str] = data["roles"]
            kwargs["winner"] = self.tr.t(locale, f"game.winner.{data['winner']}")
            kwargs["lines"] = Safe("\n".join(
                f"{self.seat(table, s)} — {self.role_name(locale, r)}" for s, r in roles.items()))
        elif kind in ("night_summary", "day_summary"):
            kwargs["text"] = Safe(self._summary(table, data, locale))
        return self.tr.t(locale, f"game.ev.{kind}", **kwargs)

    def _summary(self, table: Table, data: Mapping[str, Any], locale: str) -> str:
        """The host's whole truth of a phase, roles included (private to the host)."""
        t = self.tr.t

        def who(seat: int | None) -> str:
            if seat is None:
                return t(locale, "game.nobody")
            return f"{self.seat(table, seat)} ({self.role_name(locale, str(table.role(seat)))})"

        lines = []
        for key, value in data.items():
            if key in ("night", "day"):
                continue
            label = t(locale, f"game.summary.{key}")
            if key == "choices":
                shown = "\n".join(f"  {who(a)} → {who(b)}" for a, b in value.items())
                shown = "\n" + shown if shown else t(locale, "game.nobody")
            elif key == "saved":
                shown = ", ".join(f"{who(seat)} ({t(locale, f'game.summary.by_{by}')})"
                                  for seat, by in value) or t(locale, "game.nobody")
            elif key == "checks":
                shown = ", ".join(
                    f"{who(by)} → {who(target)}: "
                    + t(locale, "game.summary.mafia_yes" if mafia else "game.summary.mafia_no")
                    for by, target, mafia in value) or t(locale, "game.nobody")
            elif isinstance(value, list):
                shown = ", ".join(who(x) for x in value) or t(locale, "game.nobody")
            else:
                shown = who(value)
            lines.append(f"{label}: {shown}")
        return "\n".join(lines)

    async def events(self, table: Table, events: Iterable[Event]) -> None:
        for event in events:
            for chat, seat in self._targets(table, event):
                locale = table.locale if chat == table.chat_id else self.locale_of(chat)
                text = self.render(table, event, locale)
                if seat is not None:
                    text = self._for_seat(table, seat, locale, text)
                await self.sender.send(chat, text)

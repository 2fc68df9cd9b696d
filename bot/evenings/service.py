"""The evening service: announcing an evening, signing up and cancelling, the host calling it
off, and its timers (two reminders, the start, the end).

Each change is one transaction of ``db.evenings`` with the messages it causes (the post's edit,
a promotion's private message, the reminders), sent by the durable outbox; the post is one
message edited in place (``e<id>:post``), its edits at most one every :data:`EDIT_GAP`.

The timers run where the club is held: :meth:`EveningService.restore` arms them from the
database at a start (every club) or a takeover (that club), :meth:`EveningService.release`
drops them when the club goes elsewhere. Each timer's effect is marked in the evening's row in
the transaction that queues its messages, so a reminder fired twice (a restart, an old holder
that has not noticed) is sent once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from zoneinfo import ZoneInfo

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.clock import Clock
from bot.delivery.payload import Text, encode, markup_json, send_payload
from bot.delivery.replies import topic_for
from bot.delivery.worker import Delivery
from bot.errors import UserError
from bot.evenings.callbacks import EveningCb
from bot.evenings.when import read, read_day, read_time
from bot.game.answers import Reply, reply
from bot.game.timers import Deadlines
from storage.dates import zone_of
from storage.db import Database
from storage.models import (
    EVENING_HOURS,
    EVENING_OPEN,
    Club,
    Evening,
    EveningChange,
    EveningList,
    Player,
    PlayerEvening,
    SignUp,
    is_offline_account,
)
from storage.repos.evenings import Compose
from storage.repos.outbox import EDIT, SEND, Queued
from views import evenings as texts
from views.i18n import Safe, Translator

log = logging.getLogger("bot.evenings")

DAY_BEFORE = timedelta(hours=24)  # the first reminder
SOON_BEFORE = timedelta(hours=2)  # the second
EDIT_GAP = 6.0  # the post's edits: at most one every 6 s (the group's 20 posts a minute)
TIMERS = ("day", "soon", "begin", "end")
REFUSED = {"started": "evening.refused.started", "cancelled": "evening.refused.cancelled",
           "closed": "evening.refused.closed"}


async def _nothing(chat_id: int) -> None:
    """No lobby follows the list (an evening service on its own: the tests of storage)."""


class EveningService:
    def __init__(self, db: Database, delivery: Delivery, translator: Translator, *,
                 deadlines: Deadlines, clock: Clock, zone: str, default_locale: str,
                 bot_username: Callable[[], str],
                 on_change: Callable[[int], Awaitable[None]] = _nothing) -> None:
        self.db = db
        self.delivery = delivery
        self.tr = translator
        self.deadlines = deadlines
        self.clock = clock
        self.zone = ZoneInfo(zone)  # the network's TIMEZONE: a club without its own
        self.default_locale = default_locale
        self.bot_username = bot_username  # named to a stranger signing up (the start-up's)
        self.armed: dict[int, int] = {}  # evening -> its club, whose timers run here
        # the list changed (a sign-up, a cancel, the evening called off): the club's lobbies
        # of the night show it again (``GuestsRoom.list_changed``, given by bot/wiring.py)
        self.on_change = on_change

    def zone_of(self, club: Club) -> ZoneInfo:
        """The club's time zone (its own, else the network's): its evenings are announced,
        typed and shown in it."""
        return zone_of(club.time_zone, str(self.zone))

    # ------------------------------------------------------------------ the announcement
    async def typed(self, club: Club, user_id: int, words: list[str]) -> EveningList:
        """``/evening DD.MM HH:MM TABLES SEATS``, in the club's time zone."""
        typed = read(words, self.clock(), self.zone_of(club))
        return await self.announce(club, user_id, typed.starts_at, typed.tables, typed.seats)

    async def announce(self, club: Club, user_id: int, starts_at: datetime, tables: int,
                       seats: int) -> EveningList:
        """The evening's post in the club chat, its timers armed here (the club's holder); in
        a forum, in the topic the host announced it from (its later edits follow it)."""
        local = self.zone_of(club)
        zone = str(local)
        when = Safe(texts.when(self.tr, club.locale, starts_at.astimezone(local)))
        if starts_at <= self.clock():
            raise UserError("evening.past", when=when)
        thread = topic_for(club.chat_id)
        change = await self._changed(
            lambda compose: self.db.evenings.announce(
                club.chat_id, user_id, starts_at, zone, tables, seats, now=self.clock(),
                wall=self.delivery.wall(), compose=compose),
            lambda c: [self._post(club, c.after, first=True, thread=thread)])
        if change is None:
            raise UserError("evening.exists", when=when)
        self.arm(change.after.evening)
        return change.after

    # ------------------------------------------------------------------ the list
    async def sign_up(self, evening_id: int, tg_id: int, account: Player | None) -> Reply:
        player = account if account is not None else await self.db.players.get(tg_id)
        if player is None:
            raise UserError("evening.not_registered", bot=self.bot_username())
        if player.blocked:
            raise UserError("evening.blocked")
        if not player.nickname:
            raise UserError("evening.no_nick")
        club = await self._club_of(evening_id)
        change = await self._changed(
            lambda compose: self.db.evenings.sign_up(
                evening_id, tg_id, now=self.clock(), wall=self.delivery.wall(),
                compose=compose),
            lambda c: self._list_changed(club, c))
        made = _made(change)
        if made.refused != "already":
            _refuse_if(made)
        mine = made.after.of(tg_id)
        assert mine is not None
        if made.refused == "already":  # a second press: the place, and nothing changed
            again = self._placed("evening.already", made.after, mine)
            raise UserError(again.key, **again.kwargs)
        await self.on_change(club.chat_id)
        return self._placed("evening.signed", made.after, mine)

    async def leave(self, evening_id: int, tg_id: int) -> Reply:
        club = await self._club_of(evening_id)
        change = await self._changed(
            lambda compose: self.db.evenings.leave(
                evening_id, tg_id, now=self.clock(), wall=self.delivery.wall(),
                compose=compose),
            lambda c: self._list_changed(club, c))
        if _made(change).refused == "not_listed":
            raise UserError("evening.not_listed")
        _refuse_if(_made(change))
        await self.on_change(club.chat_id)
        return reply("evening.left")

    def _placed(self, key: str, listed: EveningList, mine: SignUp) -> Reply:
        waiting = listed.waiting(mine)
        if waiting is not None:
            return reply(f"{key}_waiting", place=waiting)
        return reply(key, place=mine.place, capacity=listed.evening.capacity)

    def _list_changed(self, club: Club, change: EveningChange) -> list[Queued]:
        """The post's edit; a private line to each player the change moved onto a seat."""
        said = [self._post(club, change.after, first=False)]
        before = {s.tg_id for s in change.before.seated}
        waited = {s.tg_id for s in change.before.waitlist}
        for promoted in change.after.seated:
            if promoted.tg_id in waited and promoted.tg_id not in before:
                said += self._private(promoted, "evening.promoted", club, change.after)
        return said

    async def cancel(self, club: Club, words: list[str]) -> Reply:
        """``/evening cancel [DD.MM [HH:MM]]``: the host calls the club's evening off."""
        evenings = await self.db.evenings.live([club.chat_id])
        if words:
            today = self.clock().astimezone(self.zone_of(club)).date()
            day = read_day(words[0], today)
            at = read_time(words[1]) if len(words) > 1 else None
            evenings = [e for e in evenings if texts.local(e).date() == day
                        and (at is None or texts.local(e).time() == at)]
        if not evenings:
            raise UserError("evening.cancel.none")
        if len(evenings) > 1:
            raise UserError("evening.cancel.which", evenings=", ".join(
                texts.starts(self.tr, club.locale, e) for e in evenings))
        evening = evenings[0]

        def notices(change: EveningChange) -> list[Queued]:
            said = [self._post(club, change.after, first=False)]
            for signup in change.after.signups:
                said += self._private(signup, "evening.cancelled", club, change.after)
            return said
        change = await self._changed(
            lambda compose: self.db.evenings.cancel(evening.id, wall=self.delivery.wall(),
                                                    compose=compose), notices)
        _refuse_if(_made(change))
        self.disarm(evening.id)
        await self.on_change(club.chat_id)
        return reply("evening.cancel.done",
                     when=Safe(texts.starts(self.tr, club.locale, evening)))

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The club's group became a supergroup (storage moved its evenings): each live
        evening's post again in the new chat, under the same key, so its later edits find it
        there (the old one cannot be edited any more). Posted once however often told."""
        club = await self.db.clubs.get(new_chat_id)
        if club is None:
            return
        for evening in await self.db.evenings.live([new_chat_id]):
            listed = await self.db.evenings.get(evening.id)
            if listed is not None:
                await self.delivery.enqueue([self._post(club, listed, first=True)])

    async def mine(self, tg_id: int) -> list[PlayerEvening]:
        return await self.db.evenings.of_player(tg_id)

    async def profile(self, tg_id: int) -> tuple[list[PlayerEvening], int]:
        """``/profile``: the player's evenings and the evenings not come to."""
        return await self.db.evenings.of_player(tg_id), await self.db.evenings.no_shows(tg_id)

    # ------------------------------------------------------------------ what is said
    def _post(self, club: Club, listed: EveningList, *, first: bool,
              thread: int | None = None) -> Queued:
        locale = club.locale
        markup = None
        if listed.evening.status == EVENING_OPEN:
            evening = listed.evening.id
            markup = InlineKeyboardMarkup(inline_keyboard=[[
                InlineKeyboardButton(text=self.tr.t(locale, "evening.button.in"),
                                     callback_data=EveningCb(evening=evening,
                                                             action="in").pack()),
                InlineKeyboardButton(text=self.tr.t(locale, "evening.button.out"),
                                     callback_data=EveningCb(evening=evening,
                                                             action="out").pack())]])
        post = Text(text=texts.post(self.tr, locale, listed), markup=markup_json(markup),
                    thread=thread)
        key = post_key(listed.evening.id)
        if first:
            return Queued(club.chat_id, SEND, encode(post), key)
        # its live list: the chat's announcements go first
        return Queued(club.chat_id, EDIT, encode(replace(post, redraw=True)), key, EDIT_GAP)

    def _private(self, signup: SignUp, key: str, club: Club,
                 listed: EveningList) -> list[Queued]:
        """``key`` to the player, in the player's language, with the evening and the place."""
        if is_offline_account(signup.tg_id):
            return []
        locale = signup.language or self.default_locale
        evening = listed.evening
        text = self.tr.t(locale, key, club=club.title,
                         when=Safe(texts.starts(self.tr, locale, evening)),
                         place=Safe(texts.place(self.tr, locale, signup.place,
                                                evening.capacity)))
        return [Queued(signup.tg_id, SEND, send_payload(text))]

    async def _changed(self, make: Callable[[Compose], Awaitable[EveningChange | None]],
                       compose: Compose) -> EveningChange | None:
        """A change made with ``compose``'s messages; their chats' workers woken after it."""
        said: list[Queued] = []

        def composing(change: EveningChange) -> Sequence[Queued]:
            messages = list(compose(change))
            said.extend(messages)
            return messages
        change = await make(composing)
        if change is not None and change.new_chats:
            self.delivery.queued(said, change.new_chats)
        return change

    async def _club_of(self, evening_id: int) -> Club:
        listed = await self.db.evenings.get(evening_id)
        if listed is None:
            raise UserError("evening.refused.unknown")
        return await self._club(listed.evening.club_chat_id)

    async def _club(self, chat_id: int) -> Club:
        club = await self.db.clubs.get(chat_id)
        if club is None:  # the evening's club row is its foreign key: never gone
            raise UserError("evening.refused.unknown")
        return club

    # ------------------------------------------------------------------ the timers
    def arm(self, evening: Evening) -> None:
        """The evening's timers still to run, here (a past one runs at once)."""
        now = self.clock()
        start = evening.starts_at
        due: list[tuple[str, datetime]] = []
        if not evening.reminded_day:
            due.append(("day", start - DAY_BEFORE))
        if not evening.reminded_soon:
            due.append(("soon", start - SOON_BEFORE))
        if evening.status == EVENING_OPEN:
            due.append(("begin", start))
        due.append(("end", start + EVENING_HOURS))
        self.armed[evening.id] = evening.club_chat_id
        for kind, at in due:
            self.deadlines.arm(timer_key(evening.id, kind), max(at, now),
                               partial(self.fire, evening.id, kind))

    def disarm(self, evening_id: int) -> None:
        for kind in TIMERS:
            self.deadlines.disarm(timer_key(evening_id, kind))
        self.armed.pop(evening_id, None)

    async def restore(self, clubs: Sequence[int] | None = None) -> None:
        """A start (every club) or a takeover (``clubs``): the live evenings' timers."""
        for evening in await self.db.evenings.live(clubs):
            self.arm(evening)

    def release(self, club: int) -> None:
        """The club is held elsewhere now: its evenings' timers run there."""
        for evening_id, of in list(self.armed.items()):
            if of == club:
                self.disarm(evening_id)

    async def fire(self, evening_id: int, kind: str) -> None:
        """One of the evening's timers (its effect written once, whoever runs it)."""
        try:
            listed = await self.db.evenings.get(evening_id)
            if listed is None:
                return
            club = await self._club(listed.evening.club_chat_id)
            if kind in ("day", "soon"):
                await self._remind(listed.evening, club, kind)
            elif kind == "begin":
                await self._changed(
                    lambda compose: self.db.evenings.begin(
                        evening_id, wall=self.delivery.wall(), compose=compose),
                    lambda c: [self._post(club, c.after, first=False)])
            else:
                start = listed.evening.starts_at
                await self.db.evenings.end(
                    evening_id, now=self.clock(), since=start - EVENING_HOURS,
                    until=start + EVENING_HOURS, wall=self.delivery.wall(),
                    compose=lambda c: [])
                self.disarm(evening_id)
        except Exception:
            log.exception("timer %s of evening %s failed", kind, evening_id)

    async def _remind(self, evening: Evening, club: Club, kind: str) -> None:
        """The reminder to everyone on the list, with their place; skipped (marked all the
        same) when its moment has passed: the day's once the two hours' is due, the two
        hours' once the evening began (a process that was down meanwhile)."""
        now = self.clock()
        late = now >= evening.starts_at - (SOON_BEFORE if kind == "day" else timedelta())

        def compose(change: EveningChange) -> list[Queued]:
            if late:
                return []
            said: list[Queued] = []
            for signup in change.after.signups:
                said += self._private(signup, f"evening.remind.{kind}", club, change.after)
            return said
        await self._changed(
            lambda c: self.db.evenings.remind(evening.id, kind, now=now,
                                              wall=self.delivery.wall(), compose=c), compose)


def post_key(evening_id: int) -> str:
    """The outbox key of the evening's post: its edits name it."""
    return f"e{evening_id}:post"


def timer_key(evening_id: int, kind: str) -> str:
    return f"evening{evening_id}:{kind}"


def _made(change: EveningChange | None) -> EveningChange:
    if change is None:
        raise UserError("evening.refused.unknown")
    return change


def _refuse_if(change: EveningChange) -> None:
    if change.refused is not None:
        raise UserError(REFUSED.get(change.refused, "evening.refused.unknown"))


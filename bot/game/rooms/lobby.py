"""The lobby's life: a table opened (``/newgame``), and its end when nobody dealt it (its time up,
its host gone from the chat). Its post: :mod:`.lobby_post`; its seats: :mod:`.seats`; the asks
of the players a host seats: :mod:`.consent`; its friend orders: :mod:`.friends`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import Protocol

from bot.errors import UserError
from bot.game.answers import secs
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier
from bot.game.rooms.consent import ConsentRoom
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.steps import Steps
from bot.game.tables import Place, TableDefaults, Tables, Where
from bot.game.timekeeper import Timekeeper
from bot.locks import KeyedLocks
from record.log_events import Aborted, FateMode, Friendly, TableNamed
from record.table import Stage, Table
from storage.db import Database
from storage.models import STATUS_ABORTED
from storage.repos.games import GameChange

log = logging.getLogger("bot.game.rooms.lobby")

# may_host(user_id, chat_id): whether the account may open a table in the club chat (the
# application asks bot/services/permissions.py; the game layer never decides it alone)
MayHost = Callable[[int, int], Awaitable[bool]]


async def nobody_hosts(user_id: int, chat_id: int) -> bool:
    """The default: only a caller that checked already (``is_admin``) opens a table."""
    return False


class Topics(Protocol):
    """The forum topics the bot opens for its tables (the Bot API's ``createForumTopic``:
    :meth:`bot.delivery.sender.TelegramSender.create_topic`)."""

    async def create_topic(self, chat_id: int, name: str) -> int | None:
        """A new topic's thread id, or None when the bot may not create one there."""

    async def close_topic(self, chat_id: int, thread: int) -> None:
        """Close a topic it created (``closeForumTopic``)."""


class NoTopics:
    """No topics are ever created: a table plays where it was opened."""

    async def create_topic(self, chat_id: int, name: str) -> int | None:
        return None

    async def close_topic(self, chat_id: int, thread: int) -> None:
        return None


class LobbyRoom:
    """A table opened, and closed again when nobody dealt it (who sits at it:
    :class:`~bot.game.rooms.seats.SeatsRoom`).

    ``post``: the lobby's post, posted at the opening and closed with the lobby; ``asks``: the
    consent asks still open, ended by the close; ``may_host``: who may open a table; ``ttl``: a
    lobby nobody dealt closes after so many seconds (None: never; LOBBY_TTL_MINUTES)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 defaults: TableDefaults, notifier: Notifier, locales: Languages,
                 post: LobbyPost, asks: ConsentRoom, *, may_host: MayHost,
                 topics: Topics | None = None, ttl: float | None = None) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.clock = timekeeper.clock
        self.defaults = defaults  # a new table's day and timers
        self.notifier = notifier
        self.tr = notifier.tr
        self.locales = locales
        self.post = post
        self.asks = asks
        self.may_host = may_host
        self.topics: Topics = topics if topics is not None else NoTopics()
        self.ttl = ttl
        # /newgame: a lock per club (opening a lobby writes its game's row: no other club's
        # opening or join waits for that); its tables are numbered under it
        self.opening: KeyedLocks[int] = KeyedLocks()

    async def open_lobby(self, where: Where, title: str, user_id: int, *,
                         is_admin: bool = False) -> Table:
        """A new table in the club chat. A host runs one table: a second ``/newgame`` of the
        same host is refused; another host's opens the next table (numbered after the open
        ones). In a forum it gets a topic of its own when the bot may create one (asked from
        the General topic, or from a topic that has a table already); otherwise it plays where
        it was asked, and tables sharing a place name themselves in every post. Who may:
        ``may_host`` (``Power.HOST``), unless the caller checked already (``is_admin``)."""
        place = where if isinstance(where, Place) else Place(where)
        if not (is_admin or await self.may_host(user_id, place.chat_id)):
            raise UserError("game.not_host_rights")
        chat_id = place.chat_id
        async with self.opening.hold(chat_id):
            mine = self.tables.hosted_by(user_id, chat_id)
            if mine is not None:
                raise UserError("game.already_open", game=mine.game_id)
            seated = self.tables.of_player(user_id)
            if seated is not None:
                raise UserError("tables.host.seated", number=seated.number,
                                game=seated.game_id)
            club = await self.db.clubs.get(chat_id)
            if club is None:
                club = await self.db.clubs.ensure(chat_id, title=title,
                                                  locale=self.locales.default)
            open_here = self.tables.tables_in(chat_id)
            number = max((t.number for t in open_here), default=0) + 1
            thread, own = place.thread, False
            if place.forum and (thread is None or any(t.thread == thread for t in open_here)):
                made = await self.topics.create_topic(
                    chat_id, self.tr.t(club.locale, "tables.topic", number=number))
                if made is not None:
                    thread, own = made, True
            sharing = [t for t in open_here if t.thread == thread]
            now = self.clock()
            # fixed now for the game's whole life: an approval during it changes nothing
            friendly = not club.approved
            try:
                game_id = await self.db.games.create(chat_id, user_id, created_at=now,
                                                     table_no=number, thread_id=thread,
                                                     own_topic=own, friendly=friendly)
            except Exception:
                if own and thread is not None:  # no table plays in it: not left open, empty
                    await self._close_made(chat_id, thread)
                raise
            table = Table(game_id, chat_id, user_id, self.defaults.day_of(club, now),
                          number=number, thread=thread, own_topic=own, locale=club.locale,
                          timers=self.defaults.club_timers(club), opened_at=now)
            self.tables.add(table)
            await self.locales.load_player(user_id)
        for other in sharing:  # from now on each table says its name
            async with self.steps.lock(other.game_id):
                if other.open and not other.named:
                    await self.steps.record(other, TableNamed())
        async with self.steps.lock(game_id):
            if friendly:  # in the log too: a restart, a replay and the pages know it
                await self.steps.record(table, Friendly())
            if sharing:
                await self.steps.record(table, TableNamed())
            await self.post.post(table)
            if club.fate_by_host:
                await self.steps.record(table, FateMode(True))
        self.arm_expiry(table)
        return table

    def arm_expiry(self, table: Table) -> None:
        """The lobby closes ``ttl`` after it opened unless dealt: from the game's row, so a
        restart arms it again (at once when its time passed while the bot was down)."""
        if self.ttl is None or table.opened_at is None or table.stage is not Stage.LOBBY:
            return
        at = max(table.opened_at + timedelta(seconds=self.ttl), self.clock())
        self.timekeeper.schedule(table, "lobby_ttl", at, partial(self._expired, table.game_id))

    async def _expired(self, game_id: int) -> None:
        await self.close_lobby(game_id, "expired")

    async def close_lobby(self, game_id: int, why: str) -> bool:
        """Close a lobby nobody dealt (``why``: ``expired``, ``host_left``): its seats are
        free, open asks end, the lobby post says why and loses its buttons, the host is told
        (a topic the bot opened for it closes with the step). Nothing happens to a game dealt
        meanwhile. True when it closed."""
        table = self.tables.by_id.get(game_id)
        if table is None:
            return False
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY or not table.open \
                    or self.tables.by_id.get(game_id) is not table:
                return False
            self.timekeeper.cancel(table, "lobby_ttl")
            await self.asks.close_asks(table, "closed")
            await self.steps.record(table, Aborted(why))
            self.steps.change_row(table, GameChange(status=STATUS_ABORTED))
            hours = secs(self.ttl / 3600) if self.ttl else 0
            await self.post.closed(table, why, hours)
            await self.notifier.private(table.host_id, f"game.lobby.closed_{why}",
                                        game=game_id, hours=hours)
        # once durable: a table gone from memory is a game whose row says so already
        self.tables.drop(game_id)
        return True

    async def host_left(self, chat_id: int, tg_id: int) -> None:
        """``tg_id`` left (or was removed from) the club chat: the lobby it hosts there
        closes (a dealt game goes on: its host still has the panel)."""
        table = self.tables.hosted_by(tg_id, chat_id)
        if table is not None and table.stage is Stage.LOBBY:
            await self.close_lobby(table.game_id, "host_left")

    async def _close_made(self, chat_id: int, thread: int) -> None:
        try:
            await self.topics.close_topic(chat_id, thread)
        except Exception:
            log.exception("the topic %s of chat %s stays open", thread, chat_id)

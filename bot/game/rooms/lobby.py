"""The lobby: opening a game, taking and changing seats (its post: `bot/game/rooms/lobby_post.py`;
a seat taken: `bot/game/rooms/seating.py`; the asks of the Telegram players a host seats:
`bot/game/rooms/consent.py`; orders: `bot/game/rooms/friends.py`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import Protocol

from bot.errors import UserError, explain
from bot.game.answers import Reply, reply, secs
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier
from bot.game.rooms.consent import ConsentRoom
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.rooms.seating import LobbySeating
from bot.game.steps import Steps
from bot.game.tables import Place, TableDefaults, Tables, Where
from bot.game.timekeeper import Timekeeper
from bot.locks import KeyedLocks
from engine.composition import MAX_PLAYERS
from record.log_events import (
    Aborted,
    FateMode,
    Friendly,
    OfflineSeat,
    TableNamed,
)
from record.table import SeatInfo, Stage, Table
from storage.db import Database
from storage.errors import (
    InvalidNickname,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
)
from storage.models import STATUS_ABORTED, Player
from storage.repos.games import GameChange

log = logging.getLogger("bot.game.rooms.lobby")

# may_host(user_id, chat_id): whether the account may open a table in the club chat (the
# application asks bot/services/permissions.py; the game layer never decides it alone)
MayHost = Callable[[int, int], Awaitable[bool]]
Hold = Callable[[Table, int], Awaitable[None]]  # a join's last check (tonight's held seats)


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
    """A table opened and its seats before the deal (the friend orders placed at it:
    :class:`~bot.game.rooms.friends.FriendsRoom`).

    ``post``: the lobby's post, drawn again after every change of its seats and asks;
    ``seating``: a seat taken or given up; ``asks``: the consent asks a host's ``/addseat`` of
    a Telegram player starts, ``/unseat`` withdraws and the lobby's close ends;
    ``may_host``: who may open a table; ``hold``: a join's last check (the lobby's lock held),
    which refuses a walk-in a seat held for the players of tonight's list invited to the table
    (:meth:`bot.game.rooms.guests.GuestList.hold`); ``ttl``: a lobby nobody dealt closes after
    so many seconds (None: never; LOBBY_TTL_MINUTES)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 defaults: TableDefaults, notifier: Notifier, locales: Languages,
                 post: LobbyPost, seating: LobbySeating, asks: ConsentRoom, *,
                 may_host: MayHost, hold: Hold | None = None,
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
        self.seating = seating
        self.asks = asks
        self.may_host = may_host
        self.hold: Hold = hold or _no_hold
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

    async def join(self, game_id: int, tg_id: int, account: Player | None = None) -> Reply:
        """``account``: the presser's account as the update's middleware read it (no second
        read on the busiest press of the evening)."""
        known = self.tables.by_id.get(game_id)
        if known is not None and tg_id == known.host_id:
            raise UserError("game.join.host")  # before any account check: a host never plays
        player = account if account is not None else await self.db.players.get(tg_id)
        if player is None:
            raise UserError("game.join.not_registered", link=self.post.join_link(game_id))
        if player.blocked:
            raise UserError("game.join.blocked")
        if not player.nickname:
            raise UserError("game.join.no_nick")
        if player.language:
            self.locales.known[tg_id] = player.language
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if table.seat_of(tg_id) is not None:
                raise UserError("game.join.already", seat=table.seat_of(tg_id))
            if tg_id == table.host_id:
                raise UserError("game.join.host")  # the host sees every role
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("game.join.full")
            await self.hold(table, tg_id)
            self.seating.take(table, SeatInfo(0, tg_id, player.nickname),
                              lambda game: UserError("game.join.other_game", game=game),
                              lambda other: UserError("tables.join.other", number=other.number,
                                                      game=other.game_id))
            await self.post.refresh(table, {tg_id: player})
            return reply("game.join.ok", seat=table.seat_of(tg_id), game=game_id)

    async def join_hook(self, tg_id: int, game_id: int, locale: str) -> bool:
        """``/start join_<id>``: True if the player joined (answered here either way)."""
        if game_id not in self.tables.by_id or not self.tables.by_id[game_id].open:
            return False
        try:
            answer = await self.join(game_id, tg_id)
        except UserError as e:
            await self.notifier.send(tg_id, self.tr.t(locale, e.key, **e.kwargs))
            return True
        await self.notifier.send(tg_id, self.tr.t(locale, answer.key, **answer.kwargs))
        return True

    async def leave(self, game_id: int, tg_id: int) -> Reply:
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if table.seat_of(tg_id) is None:
                raise UserError("game.leave.not_joined")
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != tg_id]
            self.seating.save(table, order)
            await self.post.refresh(table)
            return reply("game.leave.ok")

    async def _seated(self, table: Table, nick: str) -> tuple[Player, int]:
        """The player holding ``nick`` and their seat at ``table``; refused when not seated."""
        player = await self.db.players.by_nickname(nick)
        seat = None if player is None else table.seat_of(player.tg_id)
        if player is None or seat is None:  # a friendly game's guest: by the seat's name
            wanted = nick.strip().casefold()
            guest = next((i for i in table.seats.values() if i.tg_id in table.offline
                          and i.name.casefold() == wanted), None)
            player = None if guest is None else await self.db.players.get(guest.tg_id)
            if guest is None or player is None:
                raise UserError("game.reseat.unknown", nick=nick)
            seat = guest.seat
        return player, seat

    async def reseat(self, where: Where, user_id: int, nick: str, position: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            player, seat = await self._seated(table, nick)
            if not 1 <= position <= len(table.seats):
                raise UserError("game.reseat.bad_number", max=len(table.seats))
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            order.insert(position - 1, table.seats[seat])
            self.seating.save(table, order)
            await self.post.refresh(table)
            return reply("game.reseat.ok", nick=player.nickname or nick, seat=position)

    async def add_offline(self, where: Where, user_id: int, nick: str, sex: str | None
                          ) -> Reply:
        """``/addseat NICK [m|f]``: a seat the host plays (its card and buttons go to the host).

        A nickname of a Telegram account is only asked: the player is seated once they press
        "Yes, seat me" in private (:meth:`.consent.ConsentRoom.consent`); until then the
        lobby shows them waiting, and the deal goes on without them. An account without
        Telegram is found by nickname, or created (``create_offline``) — in a game that counts;
        a friendly game seats a name of its own instead (``create_guest``: no nickname of the
        network taken)."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if len(table.seats) + len(table.asked) >= MAX_PLAYERS:
                raise UserError("game.join.full")
            player = await self.db.players.by_nickname(nick)
            if player is not None and not player.offline:
                return await self.asks.ask(table, player, nick)
            if table.friendly:
                return await self._add_guest(table, nick, sex)
            created = player is None
            if player is None:
                try:
                    player = await self.db.players.create_offline(nick, sex=sex)
                except (InvalidNickname, LookalikeNickname, NicknameReserved) as e:
                    raise explain(e) from None
                except NicknameTaken:  # taken in between: look it up again
                    player = await self.db.players.by_nickname(nick)
                    if player is None or not player.offline:
                        raise UserError("seats.add.usage") from None
            elif sex is not None and player.sex != sex:
                player = await self.db.players.set_sex(player.tg_id, sex)
            if player.blocked:
                raise UserError("seats.add.blocked", nick=player.nickname or nick)
            seated = table.seat_of(player.tg_id)
            if seated is not None:
                raise UserError("seats.add.already", nick=player.nickname or nick, seat=seated)
            name = player.nickname or nick
            await self.seating.for_host(table, player.tg_id, name, lambda game: UserError(
                "seats.add.other_game", nick=name, game=game))
            return reply("seats.add.new" if created else "seats.add.ok", nick=name,
                         seat=table.seat_of(player.tg_id))

    async def _add_guest(self, table: Table, name: str, sex: str | None) -> Reply:
        """A friendly game's own seat without Telegram, under ``name`` (no network account
        holds it: nothing of it ranks, and no nickname is taken)."""
        wanted = name.strip().casefold()
        for info in table.seats.values():
            if info.name.casefold() == wanted:
                raise UserError("seats.add.already", nick=info.name, seat=info.seat)
        try:
            guest = await self.db.players.create_guest(name, sex=sex)
        except InvalidNickname as e:
            raise explain(e) from None
        await self.seating.for_host(table, guest.tg_id, guest.display_name,
                                    lambda game: UserError("seats.add.other_game",
                                                           nick=guest.display_name, game=game))
        return reply("seats.add.guest", nick=guest.display_name,
                     seat=table.seat_of(guest.tg_id))

    async def unseat(self, where: Where, user_id: int, nick: str) -> Reply:
        """``/unseat NICK``: the host takes a seat off the table before the deal."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            asked = await self.db.players.by_nickname(nick)
            if asked is not None and asked.tg_id in table.asked:  # asked, not seated: no more
                await self.asks.close(table, asked.tg_id, "withdrawn")
                return reply("seats.unseat.ok", nick=asked.nickname or nick)
            player, _ = await self._seated(table, nick)
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            self.seating.save(table, order)
            if player.tg_id in table.offline:
                await self.steps.record(table, OfflineSeat(player.tg_id, seated=False))
            await self.post.refresh(table)
            return reply("seats.unseat.ok", nick=player.nickname or player.display_name)


async def _no_hold(table: Table, tg_id: int) -> None:
    """No evening tonight holds a seat (a lobby without the evening's guests)."""

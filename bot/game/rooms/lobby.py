"""The lobby: opening a game, taking and changing seats (orders: `bot/game/rooms/friends.py`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import engine
from bot.errors import UserError, explain
from bot.game.callbacks import LobbyCb
from bot.game.core import GameCore, Place, Reply, Where, reply
from bot.game.messages.notifier import Markup, button, rows
from bot.game.rooms.phase import PhaseService
from bot.locks import KeyedLocks
from engine.composition import MAX_PLAYERS
from record.table import SeatInfo, Stage, Table
from storage.errors import (
    InvalidNickname,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
)
from storage.models import Player

log = logging.getLogger("bot.game.rooms.lobby")

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


class LobbyService(PhaseService):
    """Seats before the deal; "Давай дружить" orders are placed and decided here."""

    def __init__(self, core: GameCore, topics: Topics | None = None) -> None:
        super().__init__(core)
        self.topics: Topics = topics or NoTopics()
        # /newgame: a lock per club (opening a lobby writes its game's row: no other club's
        # opening or join waits for that); its tables are numbered under it
        self.opening: KeyedLocks[int] = KeyedLocks()
        # a join's last check (the lobby's lock held): refuses a walk-in a seat held for the
        # players of tonight's list invited to the table (bot/game/rooms/guests.py)
        self.hold: Callable[[Table, int], Awaitable[None]] = _no_hold

    async def open_lobby(self, where: Where, title: str, user_id: int, *,
                         is_admin: bool = False) -> Table:
        """A new table in the club chat. A host runs one table: a second ``/newgame`` of the
        same host is refused; another host's opens the next table (numbered after the open
        ones). In a forum it gets a topic of its own when the bot may create one (asked from
        the General topic, or from a topic that has a table already); otherwise it plays where
        it was asked, and tables sharing a place name themselves in every post. Who may:
        ``core.may_host`` (``Power.HOST``), unless the caller checked already (``is_admin``)."""
        place = where if isinstance(where, Place) else Place(where)
        if not (is_admin or await self.core.may_host(user_id, place.chat_id)):
            raise UserError("game.not_host_rights")
        chat_id = place.chat_id
        async with self.opening.hold(chat_id):
            mine = self.core.hosted_by(user_id, chat_id)
            if mine is not None:
                raise UserError("game.already_open", game=mine.game_id)
            seated = self.core.of_player(user_id)
            if seated is not None:
                raise UserError("tables.host.seated", number=seated.number,
                                game=seated.game_id)
            club = await self.db.clubs.get(chat_id)
            if club is None:
                club = await self.db.clubs.ensure(chat_id, title=title,
                                                  locale=self.core.default_locale)
            open_here = self.core.tables_in(chat_id)
            number = max((t.number for t in open_here), default=0) + 1
            thread, own = place.thread, False
            if place.forum and (thread is None or any(t.thread == thread for t in open_here)):
                made = await self.topics.create_topic(
                    chat_id, self.tr.t(club.locale, "tables.topic", number=number))
                if made is not None:
                    thread, own = made, True
            sharing = [t for t in open_here if t.thread == thread]
            now = self.clock()
            try:
                game_id = await self.db.games.create(chat_id, user_id, created_at=now,
                                                     table_no=number, thread_id=thread,
                                                     own_topic=own)
            except Exception:
                if own and thread is not None:  # no table plays in it: not left open, empty
                    await self._close_made(chat_id, thread)
                raise
            table = Table(game_id, chat_id, user_id, self.core.day_of(club, now), number=number,
                          thread=thread, own_topic=own, locale=club.locale,
                          timers=self.core.club_timers(club))
            self.core.add(table)
            await self.core.load_player(user_id)
        for other in sharing:  # from now on each table says its name
            async with self.core.lock(other.game_id):
                if other.open and not other.named:
                    await self.core.record(other, "table_named")
        async with self.core.lock(game_id):
            if sharing:
                await self.core.record(table, "table_named")
            await self.post(table)
            if club.fate_by_host:
                await self.core.record(table, "fate_mode", {"host": True})
        return table

    async def _close_made(self, chat_id: int, thread: int) -> None:
        try:
            await self.topics.close_topic(chat_id, thread)
        except Exception:
            log.exception("the topic %s of chat %s stays open", thread, chat_id)

    async def post(self, table: Table) -> None:
        """The lobby's post, logged as posted in the same step: the game's row is committed
        before this step, so a process killed between the two leaves a lobby the restore
        finds unposted (:meth:`bot.game.restore.Restorer`) and posts."""
        # the same key in a chat the club moved to: the lobby's later edits find this post
        await self.notifier.club(table, "game.lobby.text", ref=self.core.ref(table, "lobby"),
                                 markup=self._lobby_markup(table),
                                 **await self._lobby_kwargs(table))
        await self.core.record(table, "lobby_posted")

    async def repost(self, table: Table) -> None:
        """The lobby message again (the club moved to a supergroup): joins go on there."""
        async with self.core.lock(table.game_id):
            if table.stage is not Stage.LOBBY or not table.open:
                return
            await self.post(table)

    def join_link(self, game_id: int) -> str:
        return f"https://t.me/{self.core.bot_username}?start=join_{game_id}"

    def _lobby_markup(self, table: Table) -> Markup:
        def build(locale: str) -> Any:
            buttons = [
                button(self.tr.t(locale, "game.lobby.join"),
                       LobbyCb(game=table.game_id, action="join").pack()),
                button(self.tr.t(locale, "game.lobby.leave"),
                       LobbyCb(game=table.game_id, action="leave").pack()),
            ]
            markup = rows(buttons, 2)
            markup.inline_keyboard.append([button(
                self.tr.t(locale, "tables.another"),
                LobbyCb(game=table.game_id, action="table").pack())])
            if self.core.bot_username:
                from aiogram.types import InlineKeyboardButton
                markup.inline_keyboard.append([InlineKeyboardButton(
                    text=self.tr.t(locale, "game.lobby.open_bot"),
                    url=self.join_link(table.game_id))])
            return markup
        return build

    async def _lobby_kwargs(self, table: Table,
                            known: dict[int, Player] | None = None) -> dict[str, Any]:
        marks = await self._lobby_marks(table, known or {})
        seats = sorted(table.seats.values(), key=lambda s: s.seat)

        def line(locale: str, info: SeatInfo) -> str:
            found = frozenset(str(m) for m in marks.get(info.tg_id, ()))
            key = (locale, info.seat, info.name, found, info.tg_id in table.offline)
            drawn = table.lobby_lines.get(key)
            if drawn is None:  # a line is drawn once, not at every join of the evening
                drawn = self.tr.t(locale, "game.seat", seat=info.seat, name=info.name)
                extra = [self.tr.t(locale, f"game.immunity.{m}") for m in sorted(found)]
                if key[4]:
                    extra.insert(0, self.tr.t(locale, "seats.lobby_mark"))
                if extra:
                    drawn += f" — {', '.join(extra)}"
                table.lobby_lines[key] = drawn
            return drawn

        def render(locale: str) -> str:
            if not seats:
                return self.tr.t(locale, "game.lobby.empty")
            return "\n".join(line(locale, info) for info in seats)
        return {"game": table.game_id, "seats": render, "count": len(seats)}

    async def _lobby_marks(self, table: Table, known: dict[int, Player]
                           ) -> dict[int, frozenset[engine.OpenImmunity]]:
        """The lobby list's open immunities, worked out once per seated player (the list is
        drawn again at every join; the deal reads them afresh, :meth:`marks_of`)."""
        if table.killed_today is None:
            table.killed_today = frozenset(
                await self.db.first_day_killed.for_day(table.chat_id, table.day))
        missing = [s.tg_id for s in table.seats.values() if s.tg_id not in table.lobby_marks]
        unknown = [tg_id for tg_id in missing if tg_id not in known]
        players = {**known, **(await self.db.players.get_many(unknown) if unknown else {})}
        for tg_id in missing:
            table.lobby_marks[tg_id] = _marks(players.get(tg_id), tg_id in table.killed_today)
        return table.lobby_marks

    @staticmethod
    def marks_of(table: Table, players: dict[int, Player], killed: set[int]
                 ) -> dict[int, set[engine.OpenImmunity]]:
        """The open immunities of the seated (newbies, the killed on the first day in this
        club today), from their accounts and the day's kills."""
        marks: dict[int, set[engine.OpenImmunity]] = {}
        for info in table.seats.values():
            found = _marks(players.get(info.tg_id), info.tg_id in killed)
            if found:
                marks[info.tg_id] = set(found)
        return marks

    async def _refresh_lobby(self, table: Table, known: dict[int, Player] | None = None
                             ) -> None:
        await self.notifier.edit_club(table, self.core.ref(table, "lobby"), "game.lobby.text",
                                      markup=self._lobby_markup(table),
                                      **await self._lobby_kwargs(table, known))

    def _save_seats(self, table: Table, order: Sequence[SeatInfo]) -> None:
        """The new seating in memory; written with the step (:meth:`GameCore.stage_seats`)."""
        before = table.seats
        table.seats = {i: SeatInfo(i, info.tg_id, info.name) for i, info in enumerate(order, 1)}
        self.core.stage_seats(table, before)

    def _take_seat(self, table: Table, info: SeatInfo,
                   other_game: Callable[[int], UserError],
                   other_table: Callable[[Table], UserError]) -> None:
        """Seat ``info`` last at ``table`` (its game's lock held). One open game per player is
        checked and the seat taken in memory with no ``await`` between them, so no other
        table's join runs in between and no lock is needed (a lock shared by every table
        would make every join wait behind the other lobbies' openings, which write); the seats are
        written with the step's own transaction, after the game's lock. Another table of the
        same club is named in the refusal; so is the table its host runs (a host does not
        play)."""
        hosted = self.core.hosted_by(info.tg_id, table.chat_id)
        if hosted is not None:
            raise UserError("tables.join.hosting", number=hosted.number, game=hosted.game_id)
        other = self.core.of_player(info.tg_id)
        if other is not None:
            if other.chat_id == table.chat_id:
                raise other_table(other)
            raise other_game(other.game_id)
        self._save_seats(table, [*sorted(table.seats.values(), key=lambda s: s.seat), info])

    async def join(self, game_id: int, tg_id: int, account: Player | None = None) -> Reply:
        """``account``: the presser's account as the update's middleware read it (no second
        read on the busiest press of the evening)."""
        known = self.core.tables.get(game_id)
        if known is not None and tg_id == known.host_id:
            raise UserError("game.join.host")  # before any account check: a host never plays
        player = account if account is not None else await self.db.players.get(tg_id)
        if player is None:
            raise UserError("game.join.not_registered", link=self.join_link(game_id))
        if player.blocked:
            raise UserError("game.join.blocked")
        if not player.nickname:
            raise UserError("game.join.no_nick")
        if player.language:
            self.core.locales[tg_id] = player.language
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if table.seat_of(tg_id) is not None:
                raise UserError("game.join.already", seat=table.seat_of(tg_id))
            if tg_id == table.host_id:
                raise UserError("game.join.host")  # the host sees every role
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("game.join.full")
            await self.hold(table, tg_id)
            self._take_seat(table, SeatInfo(0, tg_id, player.nickname),
                            lambda game: UserError("game.join.other_game", game=game),
                            lambda other: UserError("tables.join.other", number=other.number,
                                                    game=other.game_id))
            await self._refresh_lobby(table, {tg_id: player})
            return reply("game.join.ok", seat=table.seat_of(tg_id), game=game_id)

    async def join_hook(self, tg_id: int, game_id: int, locale: str) -> bool:
        """``/start join_<id>``: True if the player joined (answered here either way)."""
        if game_id not in self.core.tables or not self.core.tables[game_id].open:
            return False
        try:
            answer = await self.join(game_id, tg_id)
        except UserError as e:
            await self.notifier.send(tg_id, self.tr.t(locale, e.key, **e.kwargs))
            return True
        await self.notifier.send(tg_id, self.tr.t(locale, answer.key, **answer.kwargs))
        return True

    async def leave(self, game_id: int, tg_id: int) -> Reply:
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if table.seat_of(tg_id) is None:
                raise UserError("game.leave.not_joined")
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != tg_id]
            self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.leave.ok")

    async def _seated(self, table: Table, nick: str) -> tuple[Player, int]:
        """The player holding ``nick`` and their seat at ``table``; refused when not seated."""
        player = await self.db.players.by_nickname(nick)
        seat = None if player is None else table.seat_of(player.tg_id)
        if player is None or seat is None:
            raise UserError("game.reseat.unknown", nick=nick)
        return player, seat

    async def reseat(self, where: Where, user_id: int, nick: str, position: int) -> Reply:
        table = self.core.in_chat(where, user_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            player, seat = await self._seated(table, nick)
            if not 1 <= position <= len(table.seats):
                raise UserError("game.reseat.bad_number", max=len(table.seats))
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            order.insert(position - 1, table.seats[seat])
            self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.reseat.ok", nick=player.nickname or nick, seat=position)

    async def add_offline(self, where: Where, user_id: int, nick: str, sex: str | None
                          ) -> Reply:
        """``/addseat NICK [m|f]``: seat a player without Telegram; the host plays its buttons.

        The account is found by nickname, or created without Telegram (``create_offline``)."""
        table = self.core.in_chat(where, user_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("game.join.full")
            player = await self.db.players.by_nickname(nick)
            created = player is None
            if player is None:
                try:
                    player = await self.db.players.create_offline(nick, sex=sex)
                except (InvalidNickname, LookalikeNickname, NicknameReserved) as e:
                    raise explain(e) from None
                except NicknameTaken:  # taken in between: look it up again
                    player = await self.db.players.by_nickname(nick)
                    if player is None:
                        raise UserError("seats.add.usage") from None
            elif sex is not None and player.offline and player.sex != sex:
                player = await self.db.players.set_sex(player.tg_id, sex)
            if player.blocked:
                raise UserError("seats.add.blocked", nick=player.nickname or nick)
            if player.tg_id == table.host_id:
                raise UserError("game.join.host")
            seated = table.seat_of(player.tg_id)
            if seated is not None:
                raise UserError("seats.add.already", nick=player.nickname or nick, seat=seated)
            name = player.nickname or nick
            self._take_seat(table, SeatInfo(0, player.tg_id, name),
                            lambda game: UserError("seats.add.other_game", nick=name, game=game),
                            lambda other: UserError("tables.add.other", nick=name,
                                                    number=other.number, game=other.game_id))
            await self.core.record(table, "offline_seat", {"tg_id": player.tg_id})
            await self._refresh_lobby(table)
            return reply("seats.add.new" if created else "seats.add.ok", nick=name,
                         seat=table.seat_of(player.tg_id))

    async def unseat(self, where: Where, user_id: int, nick: str) -> Reply:
        """``/unseat NICK``: the host takes a seat off the table before the deal."""
        table = self.core.in_chat(where, user_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            player, _ = await self._seated(table, nick)
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            self._save_seats(table, order)
            if player.tg_id in table.offline:
                await self.core.record(table, "offline_seat",
                                       {"tg_id": player.tg_id, "seated": False})
            await self._refresh_lobby(table)
            return reply("seats.unseat.ok", nick=player.nickname or nick)


async def _no_hold(table: Table, tg_id: int) -> None:
    """No evening tonight holds a seat (a lobby without the evening's guests)."""


def _marks(player: Player | None, killed_today: bool) -> frozenset[engine.OpenImmunity]:
    found = set()
    if player is not None and player.games_played == 0:
        found.add(engine.OpenImmunity.NEWBIE)
    if killed_today:
        found.add(engine.OpenImmunity.FIRST_DAY_KILLED)
    return frozenset(found)

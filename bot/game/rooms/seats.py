"""The seats of a lobby: Join and Leave (and the deep link's join), the host's ``/seat``,
``/addseat`` and ``/unseat``. A seat is taken through :mod:`.seating`; a host's ``/addseat``
of a Telegram player only asks them (:mod:`.consent`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.errors import UserError, explain
from bot.game.answers import Reply, reply
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier
from bot.game.rooms.consent import ConsentRoom
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.rooms.seating import LobbySeating
from bot.game.steps import Steps
from bot.game.tables import Tables, Where
from engine.composition import MAX_PLAYERS
from record.log_events import OfflineSeat
from record.table import SeatInfo, Stage, Table
from storage.db import Database
from storage.errors import (
    InvalidNickname,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
)
from storage.models import Player

Hold = Callable[[Table, int], Awaitable[None]]  # a join's last check (tonight's held seats)


class SeatsRoom:
    """Who sits where before the deal. ``post``: the lobby's post, drawn again after every
    change; ``seating``: a seat taken or given up; ``asks``: the consent asks a host's
    ``/addseat`` of a Telegram player starts and ``/unseat`` withdraws; ``hold``: a join's last
    check (the game's lock held), which refuses a walk-in a seat held for the players of
    tonight's list invited to the table (:meth:`bot.game.rooms.guests.GuestList.hold`)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier,
                 locales: Languages, post: LobbyPost, seating: LobbySeating, asks: ConsentRoom, *,
                 hold: Hold | None = None) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.locales = locales
        self.post = post
        self.seating = seating
        self.asks = asks
        self.hold: Hold = hold or _no_hold

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

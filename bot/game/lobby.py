"""The lobby: opening a game, taking and changing seats, "Давай дружить" orders."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import engine
from bot.errors import UserError, explain
from bot.game.callbacks import FriendAcceptCb, FriendCb, LobbyCb
from bot.game.core import PhaseService, Reply, reply, rule
from bot.game.notifier import Markup, button, rows
from bot.game.table import SeatInfo, Stage, Table
from engine import RuleViolation
from engine.composition import MAX_PLAYERS
from storage.errors import (
    InvalidNickname,
    InvalidOrder,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
    UnknownOrder,
)
from storage.models import Player


class LobbyService(PhaseService):
    """Seats before the deal; "Давай дружить" orders are placed and decided here."""

    async def open_lobby(self, chat_id: int, title: str, user_id: int, *,
                         is_admin: bool) -> Table:
        if not (is_admin or user_id in self.core.host_ids):
            raise UserError("game.not_host_rights")
        async with self.core.seating:
            for table in self.core.tables.values():
                if table.chat_id == chat_id and table.open:
                    raise UserError("game.already_open", game=table.game_id)
            club = await self.db.clubs.get(chat_id)
            if club is None:
                club = await self.db.clubs.ensure(chat_id, title=title,
                                                  locale=self.core.default_locale)
            now = self.clock()
            game_id = await self.db.games.create(chat_id, user_id, created_at=now)
            table = Table(game_id, chat_id, user_id, now.date(), locale=club.locale,
                          timers=self.core.club_timers(club))
            self.core.add(table)
            await self.core.load_player(user_id)
        async with self.core.lock(game_id):
            await self.notifier.club(table, "game.lobby.text", ref=self.core.ref(table, "lobby"),
                                     markup=self._lobby_markup(table),
                                     **await self._lobby_kwargs(table))
            if club.fate_by_host:
                await self.core.record(table, "fate_mode", {"host": True})
        return table

    async def repost(self, table: Table) -> None:
        """The lobby message again (the club moved to a supergroup): joins go on there."""
        async with self.core.lock(table.game_id):
            if table.stage is not Stage.LOBBY or not table.open:
                return
            # the same key in the new chat: the lobby's later edits find this post
            await self.notifier.club(table, "game.lobby.text", ref=self.core.ref(table, "lobby"),
                                     markup=self._lobby_markup(table),
                                     **await self._lobby_kwargs(table))

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
            if self.core.bot_username:
                from aiogram.types import InlineKeyboardButton
                markup.inline_keyboard.append([InlineKeyboardButton(
                    text=self.tr.t(locale, "game.lobby.open_bot"),
                    url=self.join_link(table.game_id))])
            return markup
        return build

    async def _lobby_kwargs(self, table: Table) -> dict[str, Any]:
        marks = await self.open_immunities(table)
        seats = sorted(table.seats.values(), key=lambda s: s.seat)

        def render(locale: str) -> str:
            if not seats:
                return self.tr.t(locale, "game.nobody")
            lines = []
            for info in seats:
                line = self.tr.t(locale, "game.seat", seat=info.seat, name=info.name)
                extra = [self.tr.t(locale, f"game.immunity.{m}") for m in
                         sorted(marks.get(info.tg_id, ()))]
                if info.tg_id in table.offline:
                    extra.insert(0, self.tr.t(locale, "seats.lobby_mark"))
                if extra:
                    line += f" — {', '.join(extra)}"
                lines.append(line)
            return "\n".join(lines)
        return {"game": table.game_id, "seats": render, "count": len(seats)}

    async def open_immunities(self, table: Table) -> dict[int, set[engine.OpenImmunity]]:
        """Newbies (no game played yet) and the killed on the first day (same club, same day)."""
        killed = await self.db.first_day_killed.for_day(table.chat_id, table.day)
        players = await self.db.players.get_many(s.tg_id for s in table.seats.values())
        marks: dict[int, set[engine.OpenImmunity]] = {}
        for info in table.seats.values():
            player = players.get(info.tg_id)
            found = set()
            if player is not None and player.games_played == 0:
                found.add(engine.OpenImmunity.NEWBIE)
            if info.tg_id in killed:
                found.add(engine.OpenImmunity.FIRST_DAY_KILLED)
            if found:
                marks[info.tg_id] = found
        return marks

    async def _refresh_lobby(self, table: Table) -> None:
        await self.notifier.edit_club(table, self.core.ref(table, "lobby"), "game.lobby.text",
                                      markup=self._lobby_markup(table),
                                      **await self._lobby_kwargs(table))

    async def _save_seats(self, table: Table, order: Sequence[SeatInfo]) -> None:
        seats = {i: SeatInfo(i, info.tg_id, info.name) for i, info in enumerate(order, 1)}
        await self.db.games.set_seats(table.game_id, [(s.seat, s.tg_id) for s in seats.values()])
        table.seats = seats

    async def _take_seat(self, table: Table, info: SeatInfo,
                         other_game: Callable[[int], UserError]) -> None:
        """Seat ``info`` last at ``table`` (its game's lock held). One open game per player is
        checked and the seat taken in memory under the seating lock, which is not held over
        the write: 2,400 players joining 200 tables at once do not queue on one lock."""
        async with self.core.seating:
            other = self.core.of_player(info.tg_id)
            if other is not None:
                raise other_game(other.game_id)
            before = table.seats
            order = [*sorted(before.values(), key=lambda s: s.seat), info]
            table.seats = {i: SeatInfo(i, s.tg_id, s.name) for i, s in enumerate(order, 1)}
        try:
            await self.db.games.set_seats(table.game_id,
                                          [(s.seat, s.tg_id) for s in table.seats.values()])
        except BaseException:
            table.seats = before  # under the game's lock: nothing else changed the seats
            raise

    async def join(self, game_id: int, tg_id: int) -> Reply:
        player = await self.db.players.get(tg_id)
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
            await self._take_seat(table, SeatInfo(0, tg_id, player.nickname),
                                  lambda game: UserError("game.join.other_game", game=game))
            await self._refresh_lobby(table)
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
            await self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.leave.ok")

    async def _seated(self, table: Table, nick: str) -> tuple[Player, int]:
        """The player holding ``nick`` and their seat at ``table``; refused when not seated."""
        player = await self.db.players.by_nickname(nick)
        seat = None if player is None else table.seat_of(player.tg_id)
        if player is None or seat is None:
            raise UserError("game.reseat.unknown", nick=nick)
        return player, seat

    async def reseat(self, chat_id: int, user_id: int, nick: str, position: int) -> Reply:
        table = self.core.in_chat(chat_id)
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
            await self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.reseat.ok", nick=player.nickname or nick, seat=position)

    async def add_offline(self, chat_id: int, user_id: int, nick: str, sex: str | None
                          ) -> Reply:
        """``/addseat NICK [m|f]``: seat a player without Telegram; the host plays its buttons.

        The account is found by nickname, or created without Telegram (``create_offline``)."""
        table = self.core.in_chat(chat_id)
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
            await self._take_seat(table, SeatInfo(0, player.tg_id, name),
                                  lambda game: UserError("seats.add.other_game", nick=name,
                                                         game=game))
            await self.core.record(table, "offline_seat", {"tg_id": player.tg_id})
            await self._refresh_lobby(table)
            return reply("seats.add.new" if created else "seats.add.ok", nick=name,
                         seat=table.seat_of(player.tg_id))

    async def unseat(self, chat_id: int, user_id: int, nick: str) -> Reply:
        """``/unseat NICK``: the host takes a seat off the table before the deal."""
        table = self.core.in_chat(chat_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            player, _ = await self._seated(table, nick)
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            await self._save_seats(table, order)
            if player.tg_id in table.offline:
                await self.core.record(table, "offline_seat",
                                       {"tg_id": player.tg_id, "seated": False})
            await self._refresh_lobby(table)
            return reply("seats.unseat.ok", nick=player.nickname or nick)

    def spouses(self, table: Table, players: dict[int, Any]) -> dict[int, int]:
        out = {}
        for seat, player in players.items():
            if player is not None and player.spouse_id is not None:
                other = table.seat_of(player.spouse_id)
                if other is not None:
                    out[seat] = other
        return out

    async def friend_menu(self, tg_id: int) -> tuple[Table, list[int]]:
        """The lobby the player sits in, and the seats it may befriend (engine-checked)."""
        table = self.core.of_player(tg_id)
        if table is None or table.stage is not Stage.LOBBY:
            raise UserError("game.friend.no_lobby")
        seat = self.core.require_seat(table, tg_id)
        players = {s: await self.db.players.get(table.tg_of(s)) for s in table.seats}
        if players[seat] is None or players[seat].sex is None:  # type: ignore[union-attr]
            raise UserError("game.rule.friend_sex_unknown")
        legal = []
        for holder in sorted(table.seats):
            try:
                self._check_friend(table, players, seat, holder)
            except UserError:
                continue
            legal.append(holder)
        if not legal:
            raise UserError("game.friend.nobody")
        return table, legal

    def _check_friend(self, table: Table, players: dict[int, Any], orderer: int,
                      holder: int) -> None:
        sexes = {s: (p.sex if p is not None else None) for s, p in players.items()}
        try:
            engine.check_friend_order(list(table.seats), sexes, orderer, holder,
                                      self.spouses(table, players))
        except RuleViolation as e:
            raise rule(e) from None

    def friend_markup(self, table: Table, seats: Sequence[int]) -> Markup:
        return lambda locale: rows([
            button(self.notifier.seat(table, s),
                   FriendCb(game=table.game_id, holder=s).pack()) for s in seats], 2)

    def friend_announce_markup(self, table: Table, holder: int) -> Markup:
        return lambda locale: rows([
            button(self.tr.t(locale, "game.friend.announce_yes"),
                   FriendCb(game=table.game_id, holder=holder, announce=1).pack()),
            button(self.tr.t(locale, "game.friend.announce_no"),
                   FriendCb(game=table.game_id, holder=holder, announce=0).pack()),
        ], 2)

    async def friend_choose(self, game_id: int, tg_id: int, holder: int, announce: int
                            ) -> Reply:
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.friend.too_late")
            seat = self.core.require_seat(table, tg_id)
            players = {s: await self.db.players.get(table.tg_of(s)) for s in table.seats}
            self._check_friend(table, players, seat, holder)
            if announce < 0:
                await self.notifier.private(tg_id, "game.friend.ask_announce",
                                            markup=self.friend_announce_markup(table, holder),
                                            who=self.notifier.seat(table, holder))
                return reply("game.friend.chosen")
            try:
                order = await self.db.immunity.order(game_id, tg_id, table.tg_of(holder),
                                                     announce_name=bool(announce))
            except InvalidOrder:
                raise UserError("game.friend.duplicate") from None
            accept = FriendAcceptCb(game=game_id, order=order.id, accept=True).pack()
            decline = FriendAcceptCb(game=game_id, order=order.id, accept=False).pack()
            await self.notifier.private(
                table.host_id, "game.friend.host_ask",
                markup=lambda loc: rows([button(self.tr.t(loc, "game.friend.accept"), accept),
                                         button(self.tr.t(loc, "game.friend.decline"), decline)],
                                        2),
                orderer=self.notifier.seat(table, seat), holder=self.notifier.seat(table, holder),
                announce=lambda loc: self.tr.t(loc, f"game.friend.announce_{int(announce)}"))
            return reply("game.friend.ordered")

    async def friend_decide(self, game_id: int, user_id: int, order_id: int, accept: bool
                            ) -> Reply:
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            self.core.require_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.friend.too_late")
            orders = {o.id: o for o in await self.db.immunity.for_game(game_id)}
            order = orders.get(order_id)
            if order is None:
                raise UserError("game.friend.unknown")
            if order.accepted:
                raise UserError("game.friend.already")
            if accept:
                try:
                    await self.db.immunity.accept(order_id)
                except UnknownOrder:
                    raise UserError("game.friend.unknown") from None
            holder = table.seat_of(order.holder_id)
            who = self.notifier.seat(table, holder) if holder is not None else "?"
            await self.notifier.private(
                order.orderer_id, "game.friend.accepted" if accept else "game.friend.declined",
                who=who)
            return reply("game.friend.decided")

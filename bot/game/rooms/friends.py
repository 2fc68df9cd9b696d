"""The lobby's "Давай дружить" orders: a seated player orders a friend's immunity, the
friend's holder accepts or refuses (the engine checks who may befriend whom)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply
from bot.game.callbacks import FriendAcceptCb, FriendCb
from bot.game.guards import require_seat, rule
from bot.game.messages.notifier import Markup, Notifier, button, rows
from bot.game.steps import Steps
from bot.game.tables import Tables
from engine import RuleViolation
from record.table import Stage, Table
from storage.db import Database
from storage.errors import InvalidOrder, UnknownOrder


class FriendsRoom:
    """"Давай дружить" orders, placed and decided before the deal."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr

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
        table = self.tables.of_player(tg_id)
        if table is None or table.stage is not Stage.LOBBY:
            raise UserError("game.friend.no_lobby")
        seat = require_seat(table, tg_id)
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
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.friend.too_late")
            seat = require_seat(table, tg_id)
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
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            self.steps.by_host(table, user_id)
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
            return reply("game.friend.decided_yes" if accept else "game.friend.decided_no",
                         who=who)

"""The game service: lobby, deal, nights, votes, results and points, surviving restarts.

Every method follows the same path (docs/game-flow.md): take the game's lock, ask the engine
whether the step is legal (a refusal becomes a :class:`UserError` with a locale key), append the
step to the game's event log, apply it to the in-memory :class:`Table`, then notify. Deadlines
are scheduler jobs that call the same methods; after a restart :meth:`GameService.restore`
rebuilds every running game from its log and re-arms its deadlines.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import engine
from bot.errors import UserError
from bot.game.callbacks import CancelCb, FateCb, FriendAcceptCb, FriendCb, LobbyCb, NightCb, VoteCb
from bot.game.notifier import Markup, Notifier, button, rows
from bot.game.table import (
    CANCEL_DL,
    FATE_DL,
    MAFIA_DL,
    NIGHT_DL,
    TURN_DL,
    Result,
    SeatInfo,
    Stage,
    Table,
    iso,
)
from bot.game.timers import Clock, Deadlines, GameTimers, utc_now
from bot.i18n import Translator
from engine import CompositionError, Phase, Role, RuleViolation
from engine.composition import MAX_PLAYERS
from engine.roles import LAWYER_ROLES
from storage.db import Database
from storage.errors import InvalidOrder, UnknownOrder
from storage.models import STATUS_ABORTED, STATUS_PAUSED, STATUS_RUNNING, GamePoints

log = logging.getLogger("bot.game")

MAX_EXTEND = 3600
ACTIVE_STAGES = (Stage.NIGHT, Stage.VOTE, Stage.FATE, Stage.CANCEL)


def rule(error: RuleViolation | CompositionError) -> UserError:
    """An engine refusal, as the answer the user sees (``game.rule.<code>``)."""
    return UserError(f"game.rule.{error.code}")


@dataclass(frozen=True)
class Reply:
    """What the service answers (a callback answer or a message): a locale key."""

    key: str
    kwargs: dict[str, Any]


def reply(key: str, **kwargs: Any) -> Reply:
    return Reply(key, kwargs)


class GameService:
    def __init__(
        self,
        db: Database,
        notifier: Notifier,
        deadlines: Deadlines,
        translator: Translator,
        *,
        timers: GameTimers | None = None,
        host_ids: frozenset[int] = frozenset(),
        clock: Clock = utc_now,
        default_locale: str = "ru",
        bot_username: str = "",
        rng: random.Random | None = None,
        new_seed: Callable[[], bytes] = engine.new_seed,
    ) -> None:
        self.db = db
        self.notifier = notifier
        self.deadlines = deadlines
        self.tr = translator
        self.timers = timers or GameTimers()
        self.host_ids = host_ids
        self.clock = clock
        self.default_locale = default_locale
        self.bot_username = bot_username
        self.rng = rng or secrets.SystemRandom()
        self.new_seed = new_seed  # the deal's secret seed; tests inject a reproducible one
        self.tables: dict[int, Table] = {}
        self.locales: dict[int, str] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seating = asyncio.Lock()  # joins: one open game per player
        self._role_names = self._build_role_names()

    # ================================================================== helpers
    def locale_of(self, tg_id: int) -> str:
        return self.locales.get(tg_id, self.default_locale)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def table(self, game_id: int) -> Table:
        table = self.tables.get(game_id)
        if table is None or not table.open:
            raise UserError("game.not_found")
        return table

    def in_chat(self, chat_id: int) -> Table:
        for table in self.tables.values():
            if table.chat_id == chat_id and table.open:
                return table
        raise UserError("game.none_in_chat")

    def of_player(self, tg_id: int) -> Table | None:
        for table in self.tables.values():
            if table.open and table.seat_of(tg_id) is not None:
                return table
        return None

    def _host(self, table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise UserError("game.not_host")

    def _seat(self, table: Table, tg_id: int) -> int:
        seat = table.seat_of(tg_id)
        if seat is None:
            raise UserError("game.rule.not_at_table")
        return seat

    async def _record(self, table: Table, kind: str, payload: dict[str, Any] | None = None
                      ) -> Result | None:
        """Write the step to the log first, then apply it: the log is the truth."""
        body = payload or {}
        seq = await self.db.games.append_event(table.game_id, kind, body, at=self.clock())
        return table.apply(kind, body, seq)

    def _at(self, seconds: float) -> datetime:
        return self.clock() + timedelta(seconds=seconds)

    async def _load_player(self, tg_id: int) -> None:
        player = await self.db.players.get(tg_id)
        if player is not None and player.language:
            self.locales[tg_id] = player.language

    def _build_role_names(self) -> dict[str, Role]:
        names: dict[str, Role] = {}
        for role in Role:
            names[role.value] = role
            for locale in self.tr.catalogs:
                if self.tr.has(locale, f"game.role.{role}"):
                    names[self.tr.t(locale, f"game.role.{role}").casefold()] = role
        return names

    # ================================================================== lobby
    async def open_lobby(self, chat_id: int, title: str, user_id: int, *,
                         is_admin: bool) -> Table:
        if not (is_admin or user_id in self.host_ids):
            raise UserError("game.not_host_rights")
        async with self._seating:
            for table in self.tables.values():
                if table.chat_id == chat_id and table.open:
                    raise UserError("game.already_open", game=table.game_id)
            club = await self.db.clubs.get(chat_id)
            if club is None:
                club = await self.db.clubs.ensure(chat_id, title=title,
                                                  locale=self.default_locale)
            now = self.clock()
            game_id = await self.db.games.create(chat_id, user_id, created_at=now)
            table = Table(game_id, chat_id, user_id, now.date(), locale=club.locale)
            self.tables[game_id] = table
            await self._load_player(user_id)
        async with self.lock(game_id):
            message_id = await self.notifier.club(table, "game.lobby.text",
                                                  markup=self._lobby_markup(table),
                                                  **await self._lobby_kwargs(table))
            if message_id is not None:
                await self._record(table, "lobby_message", {"message_id": message_id})
            if club.fate_by_host:
                await self._record(table, "fate_mode", {"host": True})
        return table

    def join_link(self, game_id: int) -> str:
        return f"https://t.me/{self.bot_username}?start=join_{game_id}"

    def _lobby_markup(self, table: Table) -> Markup:
        def build(locale: str) -> Any:
            buttons = [
                button(self.tr.t(locale, "game.lobby.join"),
                       LobbyCb(game=table.game_id, action="join").pack()),
                button(self.tr.t(locale, "game.lobby.leave"),
                       LobbyCb(game=table.game_id, action="leave").pack()),
            ]
            markup = rows(buttons, 2)
            if self.bot_username:
                from aiogram.types import InlineKeyboardButton
                markup.inline_keyboard.append([InlineKeyboardButton(
                    text=self.tr.t(locale, "game.lobby.open_bot"),
                    url=self.join_link(table.game_id))])
            return markup
        return build

    async def _lobby_kwargs(self, table: Table) -> dict[str, Any]:
        marks = await self._open_immunities(table)
        seats = sorted(table.seats.values(), key=lambda s: s.seat)

        def render(locale: str) -> str:
            if not seats:
                return self.tr.t(locale, "game.nobody")
            lines = []
            for info in seats:
                line = self.tr.t(locale, "game.seat", seat=info.seat, name=info.name)
                extra = [self.tr.t(locale, f"game.immunity.{m}") for m in
                         sorted(marks.get(info.tg_id, ()))]
                if extra:
                    line += f" — {', '.join(extra)}"
                lines.append(line)
            return "\n".join(lines)
        return {"game": table.game_id, "seats": render, "count": len(seats)}

    async def _open_immunities(self, table: Table) -> dict[int, set[engine.OpenImmunity]]:
        """Newbies (no game played yet) and the killed on the first day (same club, same day)."""
        killed = await self.db.first_day_killed.for_day(table.chat_id, table.day)
        marks: dict[int, set[engine.OpenImmunity]] = {}
        for info in table.seats.values():
            player = await self.db.players.get(info.tg_id)
            found = set()
            if player is not None and player.games_played == 0:
                found.add(engine.OpenImmunity.NEWBIE)
            if info.tg_id in killed:
                found.add(engine.OpenImmunity.FIRST_DAY_KILLED)
            if found:
                marks[info.tg_id] = found
        return marks

    async def _refresh_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None:
            return
        await self.notifier.edit_club(table, table.lobby_message_id, "game.lobby.text",
                                      markup=self._lobby_markup(table),
                                      **await self._lobby_kwargs(table))

    async def _save_seats(self, table: Table, order: Sequence[SeatInfo]) -> None:
        seats = {i: SeatInfo(i, info.tg_id, info.name) for i, info in enumerate(order, 1)}
        await self.db.games.set_seats(table.game_id, [(s.seat, s.tg_id) for s in seats.values()])
        table.seats = seats

    async def join(self, game_id: int, tg_id: int) -> Reply:
        player = await self.db.players.get(tg_id)
        if player is None:
            raise UserError("game.join.not_registered", link=self.join_link(game_id))
        if player.blocked:
            raise UserError("game.join.blocked")
        if not player.nickname:
            raise UserError("game.join.no_nick")
        if player.language:
            self.locales[tg_id] = player.language
        async with self._seating:
            table = self.table(game_id)
            async with self.lock(game_id):
                if table.stage is not Stage.LOBBY:
                    raise UserError("game.join.closed")
                if table.seat_of(tg_id) is not None:
                    raise UserError("game.join.already", seat=table.seat_of(tg_id))
                if tg_id == table.host_id:
                    raise UserError("game.join.host")  # the host sees every role
                other = self.of_player(tg_id)
                if other is not None:
                    raise UserError("game.join.other_game", game=other.game_id)
                if len(table.seats) >= MAX_PLAYERS:
                    raise UserError("game.join.full")
                order = [*sorted(table.seats.values(), key=lambda s: s.seat),
                         SeatInfo(0, tg_id, player.nickname)]
                await self._save_seats(table, order)
                await self._refresh_lobby(table)
                return reply("game.join.ok", seat=table.seat_of(tg_id), game=game_id)

    async def join_hook(self, tg_id: int, game_id: int, locale: str) -> bool:
        """``/start join_<id>``: True if the player joined (answered here either way)."""
        if game_id not in self.tables or not self.tables[game_id].open:
            return False
        try:
            answer = await self.join(game_id, tg_id)
        except UserError as e:
            await self.notifier.sender.send(tg_id, self.tr.t(locale, e.key, **e.kwargs))
            return True
        await self.notifier.sender.send(tg_id, self.tr.t(locale, answer.key, **answer.kwargs))
        return True

    async def leave(self, game_id: int, tg_id: int) -> Reply:
        table = self.table(game_id)
        async with self.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            if table.seat_of(tg_id) is None:
                raise UserError("game.leave.not_joined")
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != tg_id]
            await self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.leave.ok")

    async def reseat(self, chat_id: int, user_id: int, nick: str, position: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.join.closed")
            player = await self.db.players.by_nickname(nick)
            seat = None if player is None else table.seat_of(player.tg_id)
            if player is None or seat is None:
                raise UserError("game.reseat.unknown", nick=nick)
            if not 1 <= position <= len(table.seats):
                raise UserError("game.reseat.bad_number", max=len(table.seats))
            order = [s for s in sorted(table.seats.values(), key=lambda s: s.seat)
                     if s.tg_id != player.tg_id]
            order.insert(position - 1, table.seats[seat])
            await self._save_seats(table, order)
            await self._refresh_lobby(table)
            return reply("game.reseat.ok", nick=player.nickname or nick, seat=position)

    # ================================================================== composition, deal
    def parse_roles(self, text: str) -> list[Role]:
        """``mafia_chief, mafia*2, doctor`` or localized card names; ``*N`` repeats."""
        parts = [p.strip() for p in (text.split(",") if "," in text else text.split())]
        roles: list[Role] = []
        for part in filter(None, parts):
            name, count = part, 1
            if "*" in part:
                name, _, times = part.rpartition("*")
                if not times.strip().isdigit() or not 1 <= int(times) <= MAX_PLAYERS:
                    raise UserError("game.roles.unknown", name=part)
                count = int(times)
            role = self._role_names.get(name.strip().casefold())
            if role is None:
                raise UserError("game.roles.unknown", name=part)
            roles += [role] * count
        return roles

    async def _cards(self, table: Table) -> list[Role]:
        if table.composition is not None:
            return list(table.composition)
        n = len(table.seats)
        preset = await self.db.clubs.preset(table.chat_id, n)
        if preset is not None:
            try:
                return [Role(r) for r in preset]
            except ValueError:
                log.warning("bad preset for %s players in %s", n, table.chat_id)
        try:
            return list(engine.default_composition(n))
        except CompositionError as e:
            raise rule(e) from None

    def roles_text(self, locale: str, cards: Sequence[Role]) -> str:
        counts: dict[Role, int] = {}
        for role in cards:
            counts[role] = counts.get(role, 0) + 1
        return ", ".join(
            self.tr.t(locale, f"game.role.{r}") + (f" ×{c}" if c > 1 else "")
            for r, c in counts.items())

    async def composition(self, chat_id: int, user_id: int, text: str | None) -> Reply:
        """``/roles``: show the composition for the table, or set the host's own."""
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            if text:
                self._host(table, user_id)
                if table.stage is not Stage.LOBBY:
                    raise UserError("game.join.closed")
                cards = self.parse_roles(text)
                try:
                    engine.validate_composition(cards)
                except CompositionError as e:
                    raise rule(e) from None
                await self._record(table, "composition", {"roles": [str(r) for r in cards]})
            elif table.started:
                # During the game no card name goes to the club chat: the host gets it.
                await self.notifier.private(
                    table.host_id, "game.roles.show", count=len(table.cards),
                    roles=lambda loc: self.roles_text(loc, table.cards))
                return reply("game.roles.to_host")
            else:
                cards = await self._cards(table)
            locale = table.locale
            return reply("game.roles.show", count=len(cards),
                         roles=self.roles_text(locale, cards))

    async def set_fate_mode(self, chat_id: int, user_id: int, by_host: bool) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            await self._record(table, "fate_mode", {"host": by_host})
            await self.db.clubs.set_fate_by_host(chat_id, by_host)  # the club's next games too
            return reply("game.fate.mode_host" if by_host else "game.fate.mode_bot")

    async def deal(self, chat_id: int, user_id: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.deal.already")
            seats = sorted(table.seats)
            cards = await self._cards(table)
            if len(cards) != len(seats):
                if not engine.composition.MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
                    raise UserError("game.rule.table_size")
                raise UserError("game.deal.size", cards=len(cards), seats=len(seats))
            try:
                engine.validate_composition(cards)
            except CompositionError as e:
                raise rule(e) from None
            players = {s: await self.db.players.get(table.tg_of(s)) for s in seats}
            marks = await self._open_immunities(table)
            friends = await self._friends(table, players)
            seed = self.new_seed()
            dealt = engine.deal_cards(cards, seats, seed)
            entries = []
            specs = []
            for seat in seats:
                player = players[seat]
                tg = table.tg_of(seat)
                immunities = sorted(str(i) for i in marks.get(tg, ()))
                friend_by = friends.get(seat)
                entries.append({
                    "seat": seat, "tg_id": tg, "name": table.name(seat), "role": str(dealt[seat]),
                    "sex": None if player is None else player.sex, "immunities": immunities,
                    "friend": seat in friends, "friend_by": friend_by,
                })
                specs.append(engine.SeatSpec(seat, dealt[seat]))
            engine.new_game(specs)  # one more check before anything is written
            commitment = engine.commitment(seed, dealt)
            await self._record(table, "deal", {
                "seed": seed.hex(), "commitment": commitment, "cards": [str(c) for c in cards],
                "seats": entries,
            })
            await self._announce_deal(table)
            return reply("game.deal.ok")

    async def _announce_deal(self, table: Table) -> None:
        """Storage's copy of the deal, the commitment, the open immunities, the cards.

        The log's ``deal`` comes first: a crash before ``deal_announced`` repeats this."""
        game = table.game
        await self.db.games.set_roles(table.game_id, {p.seat: str(p.role) for p in game})
        await self.db.games.set_commitment(table.game_id, table.commitment or "")
        await self.db.games.set_status(table.game_id, STATUS_RUNNING)
        await self.notifier.club(table, "game.deal.done", count=len(table.seats),
                                 commitment=table.commitment or "")
        await self.notifier.events(table, [engine.open_immunities_event(game)])
        for seat in sorted(table.seats):
            await self._send_card(table, seat)
        await self._record(table, "deal_announced")

    async def _friends(self, table: Table, players: dict[int, Any]) -> dict[int, int | None]:
        """Accepted "Давай дружить" orders still legal at the deal: holder seat -> announcer."""
        orders = await self.db.immunity.for_game(table.game_id)
        sexes = {s: (p.sex if p is not None else None) for s, p in players.items()}
        spouse = self._spouses(table, players)
        out: dict[int, int | None] = {}
        for order in orders:
            orderer, holder = table.seat_of(order.orderer_id), table.seat_of(order.holder_id)
            if not order.accepted or orderer is None or holder is None or holder in out:
                continue
            try:
                engine.check_friend_order(list(table.seats), sexes, orderer, holder, spouse)
            except RuleViolation:
                await self.notifier.private(table.host_id, "game.friend.dropped",
                                            who=self.notifier.seat(table, holder))
                continue
            out[holder] = orderer if order.announce_name else None
        return out

    def _spouses(self, table: Table, players: dict[int, Any]) -> dict[int, int]:
        out = {}
        for seat, player in players.items():
            if player is not None and player.spouse_id is not None:
                other = table.seat_of(player.spouse_id)
                if other is not None:
                    out[seat] = other
        return out

    async def _send_card(self, table: Table, seat: int) -> None:
        role = table.role(seat)
        await self.notifier.private(
            table.tg_of(seat), "game.card", protect=True, seat=seat, game=table.game_id,
            role=lambda loc: self.tr.t(loc, f"game.role.{role}"),
            team=lambda loc: self.tr.t(loc, f"game.team.{role.team}"),
            about=lambda loc: self.tr.t(loc, f"game.about.{role}"))

    async def my_role(self, tg_id: int) -> Reply:
        table = self.of_player(tg_id)
        if table is None or not table.started:
            raise UserError("game.myrole.none")
        seat = self._seat(table, tg_id)
        await self._send_card(table, seat)
        return reply("game.myrole.sent")

    # ================================================================== friend immunity
    async def friend_menu(self, tg_id: int) -> tuple[Table, list[int]]:
        """The lobby the player sits in, and the seats it may befriend (engine-checked)."""
        table = self.of_player(tg_id)
        if table is None or table.stage is not Stage.LOBBY:
            raise UserError("game.friend.no_lobby")
        seat = self._seat(table, tg_id)
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
                                      self._spouses(table, players))
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
        table = self.table(game_id)
        async with self.lock(game_id):
            if table.stage is not Stage.LOBBY:
                raise UserError("game.friend.too_late")
            seat = self._seat(table, tg_id)
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
        table = self.table(game_id)
        async with self.lock(game_id):
            self._host(table, user_id)
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

    # ================================================================== night
    async def start_night(self, chat_id: int, user_id: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            self._can_start_phase(table, Phase.NIGHT)
            step = table.step + 1
            night = table.game.night_number + 1
            deadlines = {NIGHT_DL: iso(self._at(self.timers.night))}
            if table.pickers():
                deadlines[MAFIA_DL] = iso(self._at(min(self.timers.mafia_agree,
                                                       self.timers.night)))
            await self._record(table, "night_start", {"step": step, "deadlines": deadlines})
            await self.notifier.club(table, "game.night.start", night=night,
                                     seconds=_secs(self.timers.night))
            if night == 1:
                await self.notifier.events(table, [engine.mafia_roster(table.game)])
            table.prompts = {}
            for seat in engine.night_actors(table.game):
                await self._night_prompt(table, seat)
            self._arm(table)
            if not table.pending_night():
                await self._resolve_night(table)
            return reply("game.night.started")

    def _can_start_phase(self, table: Table, phase: Phase) -> None:
        if table.stage is Stage.LOBBY:
            raise UserError("game.deal.first")
        if table.paused:
            raise UserError("game.paused")
        if table.stage in ACTIVE_STAGES:
            raise UserError("game.busy")
        if table.game.phase is not None and table.game.next_phase() is not phase:
            raise UserError("game.rule.phase_order")

    def _night_markup(self, table: Table, seat: int) -> Markup:
        targets = engine.legal_targets(table.game, seat)
        return lambda locale: rows([
            button(self.notifier.seat(table, t),
                   NightCb(game=table.game_id, step=table.step, target=t).pack())
            for t in targets], 2)

    def _night_kwargs(self, table: Table, seat: int) -> dict[str, Any]:
        action = table.role(seat).action
        kwargs: dict[str, Any] = {
            "night": table.game.night_number + 1,
            "action": lambda loc: self.tr.t(loc, f"game.action.{action}"),
        }
        if table.is_picker(seat):
            picks = {s: table.choices.get(s) for s in table.pickers()}

            def render(loc: str) -> str:
                return "\n".join(
                    f"{self.notifier.seat(table, s)} → "
                    + (self.notifier.seat(table, t) if t is not None
                       else self.tr.t(loc, "game.nobody"))
                    for s, t in picks.items())
            kwargs["picks"] = render
        return kwargs

    async def _night_prompt(self, table: Table, seat: int) -> None:
        picker = table.is_picker(seat)
        key = "game.night.prompt_mafia" if picker else "game.night.prompt"
        if not engine.legal_targets(table.game, seat):
            await self.notifier.private(table.tg_of(seat), "game.night.no_targets",
                                        night=table.game.night_number + 1)
            return
        message_id = await self.notifier.private(
            table.tg_of(seat), key, markup=self._night_markup(table, seat),
            **self._night_kwargs(table, seat))
        if message_id is not None:
            table.prompts[seat] = message_id

    async def _refresh_mafia(self, table: Table) -> None:
        locked = table.mafia_locked
        for seat in table.pickers():
            message_id = table.prompts.get(seat)
            kwargs = self._night_kwargs(table, seat)
            markup = None if locked else self._night_markup(table, seat)
            key = "game.night.prompt_mafia_locked" if locked else "game.night.prompt_mafia"
            if message_id is None:
                new_id = await self.notifier.private(table.tg_of(seat), key, markup=markup,
                                                     **kwargs)
                if new_id is not None:
                    table.prompts[seat] = new_id
            else:
                await self.notifier.edit_private(table.tg_of(seat), message_id, key,
                                                 markup=markup, **kwargs)

    @staticmethod
    def _expect(table: Table, stage: Stage, step: int) -> None:
        """A button belongs to one phase step: any other is stale; nothing moves while paused."""
        if table.stage is not stage or step != table.step:
            raise UserError("game.stale")
        if table.paused:
            raise UserError("game.paused")

    async def choose(self, game_id: int, tg_id: int, step: int, target: int) -> Reply:
        """A night choice from a private button."""
        table = self.table(game_id)
        async with self.lock(game_id):
            seat = self._seat(table, tg_id)
            self._expect(table, Stage.NIGHT, step)
            try:
                engine.check_night_choice(table.game, seat, target)
            except RuleViolation as e:
                raise rule(e) from None
            if table.is_picker(seat):
                if table.mafia_locked:
                    raise UserError("game.night.mafia_locked")
                if table.choices.get(seat) == target:
                    raise UserError("game.night.same")
                await self._record(table, "choice", {"seat": seat, "target": target})
                picks = {table.choices.get(s) for s in table.pickers()}
                if len(picks) == 1 and None not in picks:
                    await self._record(table, "mafia_locked")
                    self.deadlines.disarm(self._key(table, MAFIA_DL))
                await self._refresh_mafia(table)
            else:
                if seat in table.choices:
                    raise UserError("game.night.already")
                await self._record(table, "choice", {"seat": seat, "target": target})
                message_id = table.prompts.get(seat)
                if message_id is not None:
                    await self.notifier.edit_private(
                        tg_id, message_id, "game.night.chosen",
                        who=self.notifier.seat(table, target))
            if not table.pending_night():
                await self._resolve_night(table)
            return reply("game.night.accepted", who=self.notifier.seat(table, target))

    async def _resolve_night(self, table: Table) -> None:
        choices = table.valid_choices()
        self._disarm(table)
        result = await self._record(table, "night_resolved", {
            "choices": {str(k): v for k, v in sorted(choices.items())}})
        assert result is not None
        await self._announce(table, result)

    async def _announce(self, table: Table, result: Result) -> None:
        """The outcome of a resolution: engine events, last words, then what comes next."""
        await self.notifier.events(table, result.events)
        if not isinstance(result, engine.TechnicalDeathResult) and result.died:
            await self._last_words(table, list(result.died), 0)  # never after a technical death
        if isinstance(result, engine.NightResult) and not table.game.over:
            await self.notifier.club(table, "game.day.start", day=table.game.day_number + 1)
        if isinstance(result, engine.DayResult) and not table.game.over:
            await self.notifier.club(table, "game.evening", night=table.game.night_number + 1)
        if table.game.over:
            await self._finish(table)
        else:
            await self._record(table, "announced", {"seq": table.resolved_seq})

    async def _last_words(self, table: Table, seats: list[int], index: int) -> None:
        """The dead speak one after another, LAST_WORD_SECONDS each (RULES.md 4.4)."""
        await self.notifier.club(table, "game.last_word.start",
                                 who=self.notifier.seat(table, seats[index]),
                                 seconds=_secs(self.timers.last_word))
        self.deadlines.arm(self._key(table, f"last_word_{seats[index]}"),
                           self._at(self.timers.last_word),
                           partial(self._last_word_over, table, seats, index))

    async def _last_word_over(self, table: Table, seats: list[int], index: int) -> None:
        async with self.lock(table.game_id):
            await self.notifier.club(table, "game.last_word.over",
                                     who=self.notifier.seat(table, seats[index]))
            if index + 1 < len(seats):
                await self._last_words(table, seats, index + 1)

    # ================================================================== day
    async def start_day(self, chat_id: int, user_id: int) -> Reply:
        """``/day``: announce the day's talk (the vote starts with /vote)."""
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            self._can_start_phase(table, Phase.DAY)
            await self.notifier.club(table, "game.day.start", day=table.game.day_number + 1)
            return reply("game.day.started")

    async def start_vote(self, chat_id: int, user_id: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            self._can_start_phase(table, Phase.DAY)
            order = engine.voters(table.game)
            await self._record(table, "vote_start", {"step": table.step + 1, "order": order})
            await self.notifier.club(table, "game.vote.start", day=table.game.day_number + 1,
                                     order=self.notifier.seat_list(table, order),
                                     seconds=_secs(self.timers.vote_turn))
            await self._next_turn(table, 0)
            return reply("game.vote.started")

    async def _next_turn(self, table: Table, start: int) -> None:
        able = set(engine.voters(table.game))
        turn = start
        while turn < len(table.order) and table.order[turn] not in able:
            turn += 1
        if turn >= len(table.order):
            await self._record(table, "votes_done")
            await self._after_votes(table)
            return
        await self._record(table, "turn", {
            "turn": turn, "deadlines": {TURN_DL: iso(self._at(self.timers.vote_turn))}})
        voter = table.order[turn]
        if not engine.vote_candidates(table.game, voter):
            await self.notifier.club(table, "game.vote.turn", who=self.notifier.seat(table, voter),
                                     seconds=_secs(self.timers.vote_turn))
            await self._turn_timeout(table)  # nobody may be voted for: nothing to wait for
            return
        self._arm(table)
        # The voter's buttons first: the club chat has the tighter rate limit.
        await self._vote_prompt(table, voter)
        await self.notifier.club(table, "game.vote.turn", who=self.notifier.seat(table, voter),
                                 seconds=_secs(self.timers.vote_turn))

    async def _vote_prompt(self, table: Table, voter: int) -> None:
        candidates = engine.vote_candidates(table.game, voter)
        message_id = await self.notifier.private(
            table.tg_of(voter), "game.vote.prompt", seconds=_secs(self.timers.vote_turn),
            markup=lambda loc: rows([
                button(self.notifier.seat(table, c),
                       VoteCb(game=table.game_id, step=table.step, target=c).pack())
                for c in candidates], 2))
        if message_id is not None:
            table.prompts[voter] = message_id

    async def vote(self, game_id: int, tg_id: int, step: int, target: int) -> Reply:
        table = self.table(game_id)
        async with self.lock(game_id):
            seat = self._seat(table, tg_id)
            self._expect(table, Stage.VOTE, step)
            try:
                engine.check_vote(table.game, seat, target)
            except RuleViolation as e:
                raise rule(e) from None
            if seat in table.votes:
                raise UserError("game.vote.already")
            if table.current_voter() != seat:
                raise UserError("game.vote.not_your_turn")
            await self._record(table, "vote", {"seat": seat, "target": target})
            self.deadlines.disarm(self._key(table, TURN_DL))
            message_id = table.prompts.get(seat)
            if message_id is not None:
                await self.notifier.edit_private(tg_id, message_id, "game.vote.chosen",
                                                 who=self.notifier.seat(table, target))
            await self.notifier.club(table, "game.vote.cast", voter=self.notifier.seat(table, seat),
                                     who=self.notifier.seat(table, target))
            await self._next_turn(table, table.turn + 1)
            return reply("game.vote.accepted", who=self.notifier.seat(table, target))

    async def _turn_timeout(self, table: Table) -> None:
        voter = table.current_voter()
        if voter is None:
            return
        await self._record(table, "vote_timeout", {"seat": voter})
        own = engine.timeout_vote(table.game, voter)
        key = "game.vote.timeout_self" if own is not None else "game.vote.timeout_none"
        await self.notifier.club(table, key, who=self.notifier.seat(table, voter))
        message_id = table.prompts.get(voter)
        if message_id is not None:
            await self.notifier.edit_private(table.tg_of(voter), message_id, "game.vote.missed")
        await self._next_turn(table, table.turn + 1)

    def _tally(self, table: Table) -> engine.Tally:
        full, _ = engine.complete_votes(table.game, table.valid_votes())
        return engine.tally_votes(full)

    async def _after_votes(self, table: Table) -> None:
        tally = self._tally(table)
        if tally.shootout and table.fate is None:
            if table.fate_by_host:
                await self._record(table, "fate_wait", {
                    "deadlines": {FATE_DL: iso(self._at(self.timers.fate))}})
                await self.notifier.club(table, "game.fate.host_draws",
                                         tied=self.notifier.seat_list(table, tally.tied))
                await self._fate_prompt(table, tally.tied)
                self._arm(table)
                return
            seat = engine.draw_fate(tally.tied, self.rng)
            await self._record(table, "fate", {"seat": seat, "by": "bot"})
        condemned = tally.leader if tally.leader is not None else table.fate
        if condemned is not None and not tally.failed and self._lawyer_window(table):
            lawyers = engine.cancellers(table.game, condemned)
            await self._record(table, "cancel_window", {
                "lawyers": lawyers, "deadlines": {CANCEL_DL: iso(self._at(self.timers.cancel))}})
            await self.notifier.club(table, "game.cancel.window",
                                     who=self.notifier.seat(table, condemned),
                                     seconds=_secs(self.timers.cancel))
            for lawyer in lawyers:
                await self._cancel_prompt(table, lawyer, condemned)
            self._arm(table)
            return
        await self._resolve_day(table, None)

    async def _fate_prompt(self, table: Table, tied: Sequence[int]) -> None:
        await self.notifier.private(
            table.host_id, "game.fate.ask", tied=self.notifier.seat_list(table, tied),
            markup=lambda loc: rows([
                button(self.notifier.seat(table, s),
                       FateCb(game=table.game_id, step=table.step, target=s).pack())
                for s in tied], 3))

    async def _cancel_prompt(self, table: Table, lawyer: int, condemned: int | None) -> None:
        await self.notifier.private(
            table.tg_of(lawyer), "game.cancel.ask",
            who=self.notifier.seat(table, condemned) if condemned is not None else "?",
            seconds=_secs(self.timers.cancel),
            markup=lambda loc: rows([button(
                self.tr.t(loc, "game.cancel.button"),
                CancelCb(game=table.game_id, step=table.step).pack())]))

    def _lawyer_window(self, table: Table) -> bool:
        """The window opens whenever the deal has a Lawyer card (public knowledge), so that
        whether one is still alive cannot be told from the chat."""
        return any(card in LAWYER_ROLES for card in table.cards)

    async def fate(self, game_id: int, user_id: int, step: int, target: int) -> Reply:
        table = self.table(game_id)
        async with self.lock(game_id):
            self._host(table, user_id)
            self._expect(table, Stage.FATE, step)
            if target not in self._tally(table).tied:
                raise UserError("game.rule.fate_not_tied")
            await self._record(table, "fate", {"seat": target, "by": "host"})
            self.deadlines.disarm(self._key(table, FATE_DL))
            await self._after_votes(table)
            return reply("game.fate.accepted", who=self.notifier.seat(table, target))

    async def cancel(self, game_id: int, tg_id: int, step: int) -> Reply:
        """A Lawyer cancels the verdict."""
        table = self.table(game_id)
        async with self.lock(game_id):
            seat = self._seat(table, tg_id)
            self._expect(table, Stage.CANCEL, step)
            try:
                engine.check_cancel(table.game, seat, table.condemned())
            except RuleViolation as e:
                raise rule(e) from None
            if seat not in table.lawyers:
                raise UserError("game.stale")
            await self._resolve_day(table, seat)
            return reply("game.cancel.accepted")

    async def _resolve_day(self, table: Table, cancel_by: int | None) -> None:
        self._disarm(table)
        result = await self._record(table, "day_resolved", {
            "votes": {str(k): v for k, v in sorted(table.valid_votes().items())},
            "fate": table.fate, "cancel_by": cancel_by})
        assert result is not None
        await self._announce(table, result)

    # ================================================================== host controls
    async def technical_death(self, chat_id: int, user_id: int, seat: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if not table.started:
                raise UserError("game.deal.first")
            try:
                engine.technical_death(table.game, seat)
            except RuleViolation as e:
                raise rule(e) from None
            voter = table.current_voter()
            result = await self._record(table, "tech", {"seat": seat})
            assert result is not None
            if table.game.over:
                self._disarm(table)
                await self._announce(table, result)
                return reply("game.tech.ok")
            await self._announce(table, result)
            if table.stage is Stage.NIGHT and not table.paused:
                if not table.mafia_locked and not table.pickers():
                    await self._record(table, "mafia_locked")
                if not table.pending_night():
                    await self._resolve_night(table)
            elif table.stage is Stage.VOTE and voter == seat and not table.paused:
                self.deadlines.disarm(self._key(table, TURN_DL))
                await self._next_turn(table, table.turn + 1)
            elif table.stage in (Stage.FATE, Stage.CANCEL):
                # The removed player's votes no longer count: the verdict is decided again
                # (now, or when the host resumes).
                self._disarm(table)
                await self._record(table, "verdict_reset")
                if not table.paused:
                    await self._after_votes(table)
            return reply("game.tech.ok")

    async def give_word(self, chat_id: int, user_id: int, seat: int, by: int | None) -> Reply:
        """``/speak SEAT [FROM]``: a jailed player gets speaking time (given by another player)."""
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if not table.started:
                raise UserError("game.deal.first")
            player = table.game.players.get(seat)
            if player is None:
                raise UserError("game.rule.target_unknown")
            if not player.alive:
                raise UserError("game.rule.target_dead")
            if not player.jailed:
                raise UserError("game.rule.target_not_jailed")
            if by is not None:
                giver = table.game.players.get(by)
                if giver is None or not giver.able or by == seat:
                    raise UserError("game.speak.bad_giver")
            seconds = self.timers.vote_turn
            await self.notifier.club(
                table, "game.speak.start" if by is None else "game.speak.given",
                who=self.notifier.seat(table, seat),
                by=self.notifier.seat(table, by) if by is not None else "",
                seconds=_secs(seconds))
            self.deadlines.arm(self._key(table, f"speak_{seat}"), self._at(seconds),
                               partial(self._speech_over, table.game_id, seat))
            return reply("game.tech.ok")

    async def _speech_over(self, game_id: int, seat: int) -> None:
        table = self.tables.get(game_id)
        if table is not None:
            await self.notifier.club(table, "game.speak.over", who=self.notifier.seat(table, seat))

    async def status(self, chat_id: int, user_id: int) -> Reply:
        """Phase, deadline and the seats still to act (the night's only to the host)."""
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            now = self.clock()
            left = [max(0.0, (at - now).total_seconds()) for at in table.deadlines.values()]
            stage = f"game.stage.{table.stage}"
            pending: list[int] = []
            if table.stage is Stage.NIGHT:
                # Who still has to choose tonight tells who has a night action: host only.
                await self.notifier.private(
                    table.host_id, "game.status.night_host",
                    seats=self.notifier.seat_list(table, table.pending_night()))
            elif table.stage is Stage.VOTE:
                pending = [s for s in table.order[table.turn:]
                           if s in engine.voters(table.game)]
            return reply(
                "game.status.text", game=table.game_id,
                stage=lambda loc: self.tr.t(loc, stage),
                paused=lambda loc: self.tr.t(loc, "game.status.paused") if table.paused else "",
                deadline=(lambda loc: self.tr.t(loc, "game.status.deadline",
                                                seconds=_secs(min(left)))) if left else "—",
                seats=self.notifier.seat_list(table, pending),
                alive=len(table.game.alive) if table.started else len(table.seats))

    async def pause(self, chat_id: int, user_id: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if table.paused:
                raise UserError("game.pause.already")
            if not table.started:
                raise UserError("game.deal.first")
            now = self.clock()
            remaining = {k: max(0.0, (at - now).total_seconds())
                         for k, at in table.deadlines.items()}
            self._disarm(table)
            await self._record(table, "pause", {"remaining": remaining})
            await self.db.games.set_status(table.game_id, STATUS_PAUSED)
            await self.notifier.club(table, "game.pause.done")
            return reply("game.pause.done")

    async def resume(self, chat_id: int, user_id: int) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if not table.paused:
                raise UserError("game.pause.not_paused")
            deadlines = {k: iso(self._at(v)) for k, v in table.remaining.items()}
            await self._record(table, "resume", {"deadlines": deadlines})
            await self.db.games.set_status(table.game_id, STATUS_RUNNING)
            await self.notifier.club(table, "game.pause.resumed")
            self._arm(table)
            if table.stage is Stage.VOTE and table.current_voter() is None:
                await self._after_votes(table)  # a verdict reset while paused
            return reply("game.pause.resumed")

    async def extend(self, chat_id: int, user_id: int, seconds: float) -> Reply:
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            if table.paused:
                raise UserError("game.paused")
            if not 0 < seconds <= MAX_EXTEND:
                raise UserError("game.extend.bad", max=MAX_EXTEND)
            if not table.deadlines:
                raise UserError("game.extend.nothing")
            deadlines = {k: iso(at + timedelta(seconds=seconds))
                         for k, at in table.deadlines.items()}
            await self._record(table, "extend", {"deadlines": deadlines})
            self._arm(table)
            await self.notifier.club(table, "game.extend.done", seconds=_secs(seconds))
            return reply("game.extend.done", seconds=_secs(seconds))

    async def end_game(self, chat_id: int, user_id: int) -> Reply:
        """``/endgame``: abort; nobody gets points; the deal is revealed when there was one."""
        table = self.in_chat(chat_id)
        async with self.lock(table.game_id):
            self._host(table, user_id)
            self._disarm(table)
            await self._record(table, "aborted")
            await self.db.games.set_status(table.game_id, STATUS_ABORTED)
            await self.notifier.club(table, "game.aborted")
            if table.started:
                await self._reveal(table)
            self.tables.pop(table.game_id, None)
            return reply("game.aborted_ok")

    async def _reveal(self, table: Table) -> None:
        assert table.seed is not None
        game = table.game
        await self.notifier.club(
            table, "game.end.seed", seed=table.seed.hex(), commitment=table.commitment or "",
            cards=", ".join(str(c) for c in table.cards),
            seats=", ".join(str(s) for s in table.game.seats),
            lines=lambda loc: "\n".join(
                f"{self.notifier.seat(table, p.seat)} — {self.tr.t(loc, f'game.role.{p.role}')}"
                for p in game))

    async def _finish(self, table: Table) -> None:
        """Results, the seed, the points (once), first-day-killed marks, games played."""
        self._disarm(table)
        game = table.game
        totals: dict[int, list[engine.LedgerEntry]] = {}
        for entry in game.ledger:
            totals.setdefault(entry.seat, []).append(entry)

        def points(loc: str) -> str:
            lines = []
            for seat in game.seats:
                entries = totals.get(seat, [])
                reasons: dict[str, int] = {}
                for e in entries:
                    reasons[str(e.reason)] = reasons.get(str(e.reason), 0) + e.points
                detail = ", ".join(f"{self.tr.t(loc, f'game.reason.{r}')} +{p}"
                                   for r, p in reasons.items())
                lines.append(self.tr.t(loc, "game.end.points_line",
                                       who=self.notifier.seat(table, seat),
                                       total=sum(e.points for e in entries),
                                       detail=detail or "—"))
            return "\n".join(lines)
        await self.notifier.club(table, "game.end.points", lines=points)
        await self._reveal(table)
        for seat in sorted(table.first_day_dead):
            await self.db.first_day_killed.mark(table.chat_id, table.day, table.tg_of(seat))
        rows_ = [GamePoints(table.tg_of(e.seat), e.points, str(e.reason), e.phase)
                 for e in game.ledger]
        await self.db.games.finish(table.game_id, status="finished", points=rows_, day=table.day)
        table.stage = Stage.OVER
        self.tables.pop(table.game_id, None)

    # ================================================================== deadlines
    def _key(self, table: Table, name: str) -> str:
        return f"game{table.game_id}:{name}"

    def _arm(self, table: Table) -> None:
        if table.paused or not table.open:
            return
        now = self.clock()
        for name, at in table.deadlines.items():
            self.deadlines.arm(self._key(table, name), max(at, now),
                               partial(self.on_deadline, table.game_id, name, table.step))

    def _disarm(self, table: Table) -> None:
        for name in (NIGHT_DL, MAFIA_DL, TURN_DL, FATE_DL, CANCEL_DL):
            self.deadlines.disarm(self._key(table, name))

    async def on_deadline(self, game_id: int, name: str, step: int) -> None:
        """A scheduler job: the same steps a host or a player would take."""
        table = self.tables.get(game_id)
        if table is None:
            return
        try:
            async with self.lock(game_id):
                if (not table.open or table.paused or step != table.step
                        or name not in table.deadlines):
                    return
                if table.deadlines[name] > self.clock() + timedelta(seconds=0.001):
                    self._arm(table)  # moved by /extend: wait for the new time
                    return
                await self._deadline(table, name)
        except Exception:
            log.exception("deadline %s of game %s failed", name, game_id)

    async def _deadline(self, table: Table, name: str) -> None:
        if name == NIGHT_DL and table.stage is Stage.NIGHT:
            await self._resolve_night(table)
        elif name == MAFIA_DL and table.stage is Stage.NIGHT:
            await self._record(table, "mafia_locked")
            await self._refresh_mafia(table)
            if not table.pending_night():
                await self._resolve_night(table)
        elif name == TURN_DL and table.stage is Stage.VOTE:
            await self._turn_timeout(table)
        elif name == FATE_DL and table.stage is Stage.FATE:
            tally = self._tally(table)
            seat = engine.draw_fate(tally.tied, self.rng)
            await self._record(table, "fate", {"seat": seat, "by": "bot"})
            await self._after_votes(table)
        elif name == CANCEL_DL and table.stage is Stage.CANCEL:
            await self._resolve_day(table, None)

    # ================================================================== restart
    async def restore(self) -> list[int]:
        """Rebuild every running game from its log, re-arm deadlines, resend open prompts."""
        restored = []
        for game in await self.db.games.running():
            try:
                table = await self._rebuild(game.id)
            except Exception:
                log.exception("cannot rebuild game %s", game.id)
                continue
            if table.stage is Stage.ABORTED:  # the crash came inside /endgame
                await self.db.games.set_status(game.id, STATUS_ABORTED)
                continue
            self.tables[game.id] = table
            restored.append(game.id)
            async with self.lock(game.id):
                await self._resume_after_restart(table)
        return restored

    async def _rebuild(self, game_id: int) -> Table:
        game = await self.db.games.get(game_id)
        club = await self.db.clubs.get(game.club_chat_id)
        table = Table(game.id, game.club_chat_id, game.host_id, game.created_at.date(),
                      locale=club.locale if club is not None else self.default_locale)
        await self._load_player(game.host_id)
        for seat in game.seats:
            player = await self.db.players.get(seat.tg_id)
            name = (player.nickname or player.display_name) if player else str(seat.tg_id)
            table.seats[seat.seat] = SeatInfo(seat.seat, seat.tg_id, name)
            await self._load_player(seat.tg_id)
        for event in await self.db.games.events(game_id):
            table.apply(event.kind, dict(event.payload), event.seq)
        return table

    async def _resume_after_restart(self, table: Table) -> None:
        if table.stage is Stage.LOBBY:
            return
        if not table.deal_announced:
            await self._announce_deal(table)  # the crash came right after the deal
        if table.last_result is not None and table.resolved_seq > table.announced:
            await self._announce(table, table.last_result)  # the crash came before it
            if not table.open or table.game.over:
                return
        if table.stage is Stage.OVER:
            await self._finish(table)
            return
        if table.paused:
            return
        if table.stage is Stage.NIGHT:
            if not table.pending_night():
                await self._resolve_night(table)  # the crash came after the last choice
                return
            for seat in table.pending_night():
                if table.is_picker(seat):
                    continue
                await self._night_prompt(table, seat)
            if not table.mafia_locked:
                for seat in table.pickers():
                    await self._night_prompt(table, seat)
        elif table.stage is Stage.VOTE:
            voter = table.current_voter()
            if voter is None:
                await self._after_votes(table)  # the crash came between the last vote and tally
                return
            if voter in table.votes or voter in table.timeouts:
                await self._next_turn(table, table.turn + 1)  # ... or before the next turn
                return
            if TURN_DL not in table.deadlines:
                await self._next_turn(table, table.turn)  # ... or before the first turn
                return
            await self._vote_prompt(table, voter)
        elif table.stage is Stage.CANCEL:
            condemned = table.condemned()
            for lawyer in table.lawyers:
                await self._cancel_prompt(table, lawyer, condemned)
        elif table.stage is Stage.FATE:
            await self._fate_prompt(table, self._tally(table).tied)
        self._arm(table)

    # ================================================================== blocked players
    async def on_blocked(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id``: tell the host (the deadline goes on)."""
        table = self.of_player(chat_id)
        if table is None or chat_id == table.host_id:
            return
        seat = table.seat_of(chat_id)
        assert seat is not None
        await self.notifier.private(table.host_id, "game.blocked_bot",
                                    who=self.notifier.seat(table, seat))


def _secs(seconds: float) -> int | float:
    """A duration for the texts: whole seconds (a number, so the texts pick its plural form)."""
    if seconds >= 10 or seconds == int(seconds):
        return round(seconds)
    return float(f"{seconds:g}")


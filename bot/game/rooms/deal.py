"""The composition, the deal and the cards (``/roles``, ``/fate``, ``/deal``, ``/myrole``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply
from bot.game.guards import require_seat, rule
from bot.game.messages.notifier import Notifier, message_ref
from bot.game.rooms.consent import ConsentRoom
from bot.game.rooms.friends import FriendsRoom
from bot.game.rooms.lobby_post import marks_of
from bot.game.steps import Steps
from bot.game.tables import Tables, Where
from engine import CompositionError, Role, RuleViolation
from engine.composition import MAX_PLAYERS
from record.log_events import Composition, Deal, DealAnnounced, DealtSeat, FateMode
from record.table import Stage, Table
from storage.db import Database
from storage.models import STATUS_RUNNING, ImmunityOrder
from storage.numbers import read_number
from storage.repos.games import GameChange
from views.i18n import Translator

log = logging.getLogger("bot.game")


class DealRoom:
    """The cards: composition, shoot-out mode, the committed deal, each player's card.
    ``new_seed``: the deal's secret seed (a test's is reproducible)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier,
                 asks: ConsentRoom, friends: FriendsRoom, new_seed: Callable[[], bytes]) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.asks = asks
        self.friends = friends
        self.new_seed = new_seed
        self._role_names = card_names(self.tr)

    def parse_roles(self, text: str, locale: str) -> list[Role]:
        """``Шеф, Мафия*2, Доктор``, ``mafia_chief mafia*2 doctor`` or ``Брат адвоката``:
        card names in any language (case and «ё» ignored, a name of several words kept whole
        when the cards are not separated by commas); ``*N`` repeats."""
        parts = ([p.strip() for p in text.split(",")] if "," in text
                 else self._names_of(text.split()))
        roles: list[Role] = []
        for part in filter(None, parts):
            name, count = part, 1
            if "*" in part:
                name, _, times = part.rpartition("*")
                repeats = read_number(times.strip())
                if repeats is None or not 1 <= repeats <= MAX_PLAYERS:
                    raise self._unknown(part, locale)
                count = repeats
            role = self._role_names.get(fold_card_name(name))
            if role is None:
                raise self._unknown(part, locale)
            roles += [role] * count
        return roles

    def _names_of(self, words: list[str]) -> list[str]:
        """Words grouped into card names, the longest known name first (up to three words)."""
        parts: list[str] = []
        i = 0
        while i < len(words):
            for width in (3, 2, 1):
                chunk = " ".join(words[i:i + width])
                name = fold_card_name(chunk.rpartition("*")[0] or chunk)
                if width == 1 or name in self._role_names:
                    parts.append(chunk)
                    i += width
                    break
        return parts

    def _unknown(self, name: str, locale: str) -> UserError:
        cards = ", ".join(self.tr.t(locale, f"game.role.{r}") for r in Role)
        return UserError("game.roles.unknown", name=name, cards=cards)

    async def _cards(self, table: Table) -> list[Role]:
        """The table's cards, the club's preset for its size read here."""
        preset = (None if table.composition is not None
                  else await self.db.clubs.preset(table.chat_id, len(table.seats)))
        return self._cards_from(table, preset)

    def _cards_from(self, table: Table, preset: list[str] | None) -> list[Role]:
        """The table's cards: the host's composition, else the club's ``preset`` for the size
        (as read), else the default."""
        if table.composition is not None:
            return list(table.composition)
        n = len(table.seats)
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

    async def composition(self, where: Where, user_id: int, text: str | None) -> Reply:
        """``/roles``: show the composition for the table, or set the host's own."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            if text:
                self.steps.by_host(table, user_id)
                if table.stage is not Stage.LOBBY:
                    raise UserError("game.join.closed")
                cards = self.parse_roles(text, table.locale)
                try:
                    engine.validate_composition(cards)
                except CompositionError as e:
                    raise rule(e) from None
                await self.steps.record(table, Composition(tuple(cards)))
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

    async def set_fate_mode(self, where: Where, user_id: int, by_host: bool) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.stage not in (Stage.LOBBY, Stage.DEALT):
                # as on the panel: a shoot-out's drawer never changes once the game has begun
                raise UserError("game.fate.too_late")
            await self.steps.record(table, FateMode(by_host))
            # the club's next games too
            await self.db.clubs.set_fate_by_host(table.chat_id, by_host)
            return reply("game.fate.mode_host" if by_host else "game.fate.mode_bot")

    async def deal(self, where: Where, user_id: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.stage is not Stage.LOBBY:
                raise UserError("game.deal.already")
            seats = sorted(table.seats)
            # one snapshot read (storage/repos/deal_reads.py), the game's lock held
            inputs = await self.db.deal_reads.read(
                chat_id=table.chat_id, game_id=table.game_id, day=table.day,
                tg_ids=(table.tg_of(s) for s in seats),
                preset_size=None if table.composition is not None else len(seats))
            cards = self._cards_from(table, inputs.preset)
            if len(cards) != len(seats):
                if not engine.composition.MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
                    raise UserError("game.rule.table_size")
                raise UserError("game.deal.size", cards=len(cards), seats=len(seats))
            try:
                engine.validate_composition(cards)
            except CompositionError as e:
                raise rule(e) from None
            found = inputs.players
            players = {s: found.get(table.tg_of(s)) for s in seats}
            marks = marks_of(table, found, inputs.killed_today)
            friends = await self._friends(table, players, inputs.orders)
            seed = self.new_seed()
            dealt = engine.deal_cards(cards, seats, seed)
            entries: list[DealtSeat] = []
            specs = []
            for seat in seats:
                player = players[seat]
                tg = table.tg_of(seat)
                immunities = tuple(sorted(marks.get(tg, ())))  # by name: they are str
                friend_by = friends.get(seat)
                entries.append(DealtSeat(
                    seat=seat, tg_id=tg, name=table.name(seat), role=dealt[seat],
                    sex=None if player is None else player.sex, immunities=immunities,
                    friend=seat in friends, friend_by=friend_by, offline=tg in table.offline))
                specs.append(engine.SeatSpec(seat, dealt[seat]))
            engine.new_game(specs)  # one more check before anything is written
            commitment = engine.commitment(seed, dealt)
            await self.asks.close_asks(table, "deal")  # unanswered: the deal goes on without
            await self.steps.record(table, Deal(
                seed=seed.hex(), commitment=commitment, cards=tuple(cards), seats=tuple(entries)))
            await self.announce_deal(table)
            return reply("game.deal.ok")

    async def announce_deal(self, table: Table) -> None:
        """Storage's copy of the deal, the commitment, the open immunities, the cards.

        The log's ``deal`` comes first: a crash before ``deal_announced`` repeats this."""
        game = table.game
        # storage's copy of the deal, in the step's transaction after its log (one commit)
        self.steps.change_row(table, GameChange(
            roles={p.seat: str(p.role) for p in game}, commitment=table.commitment or "",
            status=STATUS_RUNNING))
        await self.notifier.club(table, "game.deal.done", count=len(table.seats),
                                 commitment=table.commitment or "")
        await self.notifier.events(table, [engine.open_immunities_event(game)])
        table.memory.last_post = await self.notifier.tell(table.chat_id, None,
                                                   message_ref(table, "deal"))
        for seat in sorted(table.seats):
            await self._send_card(table, seat, ref=message_ref(table, "card", seat))
        await self.steps.record(table, DealAnnounced())

    async def _friends(self, table: Table, players: dict[int, Any],
                       orders: list[ImmunityOrder]) -> dict[int, int | None]:
        """Accepted "Давай дружить" orders still legal at the deal: holder seat -> announcer."""
        sexes = {s: (p.sex if p is not None else None) for s, p in players.items()}
        spouse = self.friends.spouses(table, players)
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

    async def _send_card(self, table: Table, seat: int, ref: str | None = None) -> None:
        role = table.role(seat)
        await self.notifier.to_seat(
            table, seat, "game.card", protect=True, seat=seat, game=table.game_id, ref=ref,
            role=lambda loc: self.tr.t(loc, f"game.role.{role}"),
            team=lambda loc: self.tr.t(loc, f"game.team.{role.team}"),
            about=lambda loc: self.tr.t(loc, f"game.about.{role}"))

    async def my_role(self, tg_id: int) -> Reply:
        table = self.tables.of_player(tg_id)
        if table is None or not table.started:
            raise UserError("game.myrole.none")
        seat = require_seat(table, tg_id)
        await self._send_card(table, seat)
        return reply("game.myrole.sent")


def card_names(tr: Translator) -> dict[str, Role]:
    """Every name a host may type for a card in ``/roles``: its id, its name in each language
    and the names the club says (``game.role_alias.*``: «Шеф», «Комиссар», «Врач»), folded."""
    names: dict[str, Role] = {}
    for role in Role:
        names[fold_card_name(role.value)] = role
        for locale in tr.catalogs:
            for key in (f"game.role.{role}", f"game.role_alias.{role}"):
                if tr.has(locale, key):
                    for name in tr.t(locale, key).split("|"):
                        names[fold_card_name(name)] = role
    return names


def fold_card_name(name: str) -> str:
    """A card's name as compared: case, «ё» and extra spaces ignored."""
    return " ".join(name.casefold().replace("ё", "е").split())

"""Player accounts over the storage API: registration, nickname, settings, spouse, points."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.clock import Clock, utc_now
from bot.errors import UserError, explain
from storage.db import Database
from storage.errors import DailyLimit, StorageError
from storage.models import BalanceView, Player, TopEntry
from views.i18n import SUPPORTED, pick_locale

JOIN_PAYLOAD = re.compile(r"^join_([0-9]{1,18})$")  # ASCII: "\d" takes every script's
COMPLAINTS_PER_DAY = 3  # complaints one player may file per calendar day (UTC)


@dataclass(frozen=True)
class StartResult:
    player: Player
    is_new: bool
    join_game_id: int | None  # the lobby a deep link asks to join
    bad_payload: bool


@dataclass(frozen=True)
class Proposal:
    proposer: Player
    target: Player


def parse_start_payload(payload: str | None) -> tuple[int | None, bool]:
    """``(game_id, bad)`` from a /start deep-link payload (``join_<game_id>``)."""
    if not payload or payload.strip() == "help":  # "help": a link from a club chat
        return None, False
    match = JOIN_PAYLOAD.match(payload.strip())
    if match is None:
        return None, True
    return int(match.group(1)), False


class Accounts:
    def __init__(self, db: Database, *, default_locale: str, clock: Clock = utc_now) -> None:
        self.db = db
        self.default_locale = default_locale
        self.clock = clock

    # ------------------------------------------------------------------ reading
    async def get(self, tg_id: int) -> Player | None:
        return await self.db.players.get(tg_id)

    async def cached(self, tg_id: int) -> Player | None:
        """The account as of its last committed write, from memory when read before (the
        read of every update: storage/repos/account_cache.py)."""
        return await self.db.players.cached(tg_id)

    def locale_of(self, player: Player | None, language_code: str | None) -> str:
        return pick_locale(player.language if player else None, language_code,
                           self.default_locale)

    async def require(self, tg_id: int, *, active: bool = False) -> Player:
        """The registered player (``active``: and not blocked by the administration)."""
        player = await self.db.players.get(tg_id)
        if player is None:
            raise UserError("misc.not_registered")
        if active and player.blocked:
            raise UserError("misc.account_blocked")
        return player

    async def by_nick(self, nick: str) -> Player:
        player = await self.db.players.by_nickname(nick)
        if player is None:
            raise UserError("admin.not_found", nick=nick)
        return player

    async def split_nick(self, args: str) -> tuple[Player, str]:
        """The longest leading words of ``args`` that are a nickname, and the rest.

        Nicknames may contain spaces; a quoted ``"Big Tom" rest`` form is also accepted.
        """
        args = args.strip()
        if args.startswith('"') and '"' in args[1:]:
            end = args.index('"', 1)
            return await self.by_nick(args[1:end]), args[end + 1 :].strip()
        words = args.split()
        for count in range(len(words), 0, -1):
            player = await self.db.players.by_nickname(" ".join(words[:count]))
            if player is not None:
                return player, " ".join(words[count:])
        raise UserError("admin.not_found", nick=words[0] if words else "")

    # ------------------------------------------------------------------ commands
    async def start(
        self, tg_id: int, display_name: str, language_code: str | None, payload: str | None
    ) -> StartResult:
        existing = await self.db.players.get(tg_id)
        player = await self.db.players.register(tg_id, display_name=display_name[:64] or "?")
        if player.language is None:
            # Remember Telegram's language (ru/en) so messages the player did not ask for
            # (a proposal, an expiry warning) are in it too; /lang changes it later.
            code = pick_locale(None, language_code, "")
            if code:
                player = await self.db.players.set_language(tg_id, code)
        if player.bot_blocked:
            player = await self.db.players.set_bot_blocked(tg_id, False)
        game_id, bad = parse_start_payload(payload)
        return StartResult(player, existing is None, game_id, bad)

    async def set_nickname(self, tg_id: int, nick: str) -> tuple[Player, bool]:
        """Returns the player and whether the nickname changed."""
        player = await self.require(tg_id, active=True)
        if not nick.strip():
            raise UserError("nick.usage")
        try:
            updated = await self.db.players.set_nickname(tg_id, nick)
        except StorageError as e:
            raise explain(e) from e
        return updated, updated.nickname != player.nickname

    async def set_language(self, tg_id: int, language: str) -> Player:
        if language not in SUPPORTED:
            raise UserError("misc.error")
        await self.require(tg_id)
        return await self.db.players.set_language(tg_id, language)

    async def set_sex(self, tg_id: int, sex: str) -> Player:
        await self.require(tg_id)
        try:
            return await self.db.players.set_sex(tg_id, sex)
        except StorageError as e:
            raise explain(e) from e

    async def spouse(self, player: Player) -> Player | None:
        if player.spouse_id is None:
            return None
        return await self.db.players.get(player.spouse_id)

    async def propose(self, tg_id: int, nick: str) -> Proposal:
        me = await self.require(tg_id, active=True)
        if not nick.strip():
            raise UserError("spouse.usage")
        if me.nickname is None:
            raise UserError("spouse.need_nick")
        target = await self.by_nick(nick)
        if target.offline:  # no Telegram: nobody could answer the proposal
            raise UserError("seats.offline_account", nick=target.nickname or nick)
        try:
            me = await self.db.players.propose_spouse(tg_id, target.tg_id)
        except StorageError as e:
            raise explain(e) from e
        return Proposal(me, target)

    async def answer_proposal(self, tg_id: int, proposer_id: int, accept: bool) -> Player:
        """Accept or decline; returns the proposer."""
        await self.require(tg_id)
        proposer = await self.db.players.get(proposer_id)
        if proposer is None or proposer.spouse_proposed_to != tg_id:
            raise UserError("spouse.no_proposal")
        if not accept:
            if proposer.spouse_id is None:
                # storage has no "withdraw proposal"; divorce() of an unmarried player
                # clears exactly its pending proposal
                proposer = await self.db.players.divorce(proposer_id)
            return proposer
        try:
            _, proposer = await self.db.players.confirm_spouse(tg_id, proposer_id)
        except StorageError as e:
            raise explain(e) from e
        return proposer

    async def divorce(self, tg_id: int) -> Player:
        """Returns the former spouse."""
        me = await self.require(tg_id)
        if me.spouse_id is None:
            raise UserError("spouse.not_married")
        former = await self.db.players.get(me.spouse_id)
        await self.db.players.divorce(tg_id)
        if former is None:
            raise UserError("spouse.not_married")
        return former

    async def balance(self, tg_id: int, *, rows: int = 10) -> BalanceView:
        await self.require(tg_id)
        return BalanceView(
            info=await self.db.ledger.balance_with_rank(tg_id),
            rows=await self.db.ledger.recent_grouped(tg_id, limit=rows),
            expires_on=await self.db.ledger.expiry_date(tg_id),
            reserved=await self.db.gift_requests.reserved(tg_id),
        )

    async def top(self, limit: int = 20) -> list[TopEntry]:
        return await self.db.ledger.top(limit)

    async def complain(self, tg_id: int, args: str) -> Player:
        """Record a complaint ``NICK TEXT``; returns the player complained about."""
        await self.require(tg_id, active=True)
        if not args.strip():
            raise UserError("complain.usage")
        about, text = await self.split_nick(args)
        if not text:
            raise UserError("complain.usage")
        if about.tg_id == tg_id:
            raise UserError("complain.self")
        try:  # the cap checked with the insert, in one transaction: a burst stores no more
            await self.db.complaints.add(tg_id, about.tg_id, text[:1000], self.clock(),
                                         per_day=COMPLAINTS_PER_DAY)
        except DailyLimit:
            raise UserError("club.complain.limit", limit=COMPLAINTS_PER_DAY) from None
        return about

    async def mark_bot_blocked(self, chat_id: int) -> None:
        """Outbox hook: Telegram said this user blocked the bot."""
        if chat_id > 0 and await self.db.players.get(chat_id) is not None:
            await self.db.players.set_bot_blocked(chat_id, True)


def display(player: Player) -> str:
    """How a player is named to others: the nickname, else the Telegram name."""
    return player.nickname or player.display_name

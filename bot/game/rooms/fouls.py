"""The host's whistle: a foul against a seat (``/foul``, the panel, the Mini App), its fine,
its undoing (``/unfoul``) and, from the club's Nth foul of a player, the offer of the technical
death (the bot proposes, the host decides).

A foul is one step logged at once with its fine (``Steps.record_now``): the fine's ledger row
is checked against the player's balance and the network's caps in the same transaction, so a
fine takes at most what the player may spend (its balance less what open gift requests
reserve), never more than the network's cap on one foul's fine nor more than its cap on a
player's fines in one game leaves, and the log says what it took. What it costs, from which
foul the offer comes and whether the club chat hears of it are the club's settings
(``/settings``), read at each foul.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply
from bot.game.callbacks import FoulOfferCb
from bot.game.guards import require_host, rule
from bot.game.messages.notifier import Notifier, button, rows
from bot.game.rooms.host import HostRoom
from bot.game.rooms.offers import offer_ref
from bot.game.steps import Steps
from bot.game.tables import Place, Tables, Where
from engine import Foul, FoulReason, RuleViolation
from record.log_events import FoulCalled, FoulOfferClosed, FoulUndone
from record.table import Table
from storage.db import Database
from storage.errors import FineAboveCap, InsufficientBalance
from storage.models import Club, Fine
from storage.repos.games import GameChange
from views.event_text import Lazy
from views.i18n import Safe

FINE_TRIES = 3  # a fine re-read this often when the balance changed under it
NOTE_LIMIT = 200  # characters of the host's own words kept with a foul
# what a host types after /foul, in either language (the whole text, or its first word)
REASON_WORDS: dict[str, FoulReason] = {
    **dict.fromkeys(("turn", "talk", "talking", "out_of_turn", "ход", "речь", "разговор",
                     "реплика", "время"), FoulReason.OUT_OF_TURN),
    **dict.fromkeys(("night", "at_night", "ночь", "ночью"), FoulReason.AT_NIGHT),
    **dict.fromkeys(("gesture", "sign", "жест", "жесты"), FoulReason.GESTURE),
    **dict.fromkeys(("other", "другое", "прочее"), FoulReason.OTHER),
}


def parse_reason(text: str) -> tuple[FoulReason, str | None]:
    """``/foul 5 night`` -> AT_NIGHT; ``/foul 5 night shouted`` -> AT_NIGHT, "shouted";
    ``/foul 5 swore at Boris`` -> OTHER, "swore at Boris"; nothing -> OTHER."""
    words = text.split()
    if not words:
        return FoulReason.OTHER, None
    found = REASON_WORDS.get(words[0].casefold().strip(".,:;!"))
    if found is None:
        return FoulReason.OTHER, text.strip()[:NOTE_LIMIT]
    rest = " ".join(words[1:])[:NOTE_LIMIT]
    return found, rest or None


class FoulsRoom:
    """Fouls, fines and their undoing; the Nth foul's offer of the technical death (taken:
    the host's ``/tech``, :meth:`HostRoom.technical_death`)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier,
                 host: HostRoom) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.host = host

    def hosted(self, where: Where, user_id: int) -> Table:
        """The game a command is about: the club chat's (the sender's table there), or (in
        private) the one the user hosts."""
        chat = where.chat_id if isinstance(where, Place) else where
        if chat < 0:
            return self.tables.in_chat(where, user_id)
        for table in self.tables.by_id.values():
            if table.open and table.host_id == user_id:
                return table
        raise UserError("foul.no_game")

    async def _club(self, table: Table) -> Club:
        club = await self.db.clubs.cached(table.chat_id)
        return club if club is not None else Club(table.chat_id, "", table.locale)

    def _fines(self, table: Table, ledger: tuple[engine.LedgerEntry, ...]) -> GameChange | None:
        """The engine's rows of a fine (or its reversal), as the game's ledger rows."""
        if not ledger:
            return None
        # the game's date (the club's calendar), as its points are dated at the end
        return GameChange(fines=tuple(Fine(table.tg_of(e.seat), e.points, str(e.reason),
                                           e.phase, table.day) for e in ledger))

    def _reason(self, foul: Foul, note: str | None) -> Lazy:
        def said(locale: str) -> str:
            text = self.tr.t(locale, f"foul.reason.{foul.reason}")
            return text if not note else self.tr.t(locale, "foul.reason.noted",
                                                   reason=Safe(text), note=note)
        return said

    def _fine(self, foul: Foul, price: int, cap: int | None = None, *,
              reserved: bool = False) -> Lazy:
        """What a foul's fine took; ``cap``: the network's cap on a player's fines in one game
        took less than the price (else the balance did); ``reserved``: the balance held the
        price, but points of it are reserved for the player's gift request."""
        key = ("foul.fine.none" if not price else
               "foul.fine.taken" if foul.points == price else
               ("foul.fine.capped" if foul.points else "foul.fine.capped_out")
               if cap is not None else
               ("foul.fine.reserved" if foul.points else "foul.fine.reserved_out")
               if reserved else
               "foul.fine.short" if foul.points else "foul.fine.empty")
        return lambda locale: self.tr.t(locale, key, points=foul.points, price=price,
                                        cap=cap or 0)

    # ------------------------------------------------------------------ a foul
    async def foul(self, where: Where, user_id: int, seat: int,
                   reason: FoulReason = FoulReason.OTHER, note: str | None = None, *,
                   expect: int | None = None, confirm: bool = False) -> Reply:
        """A foul against ``seat``. ``expect``: the foul's number the button was drawn for (a
        second press of the same button is refused: ``foul.already``); ``confirm``: also tell
        the host in private (a typed command, whose answer is no popup)."""
        table = self.hosted(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if not table.started:
                raise UserError("game.deal.first")
            if seat not in table.seats:
                raise UserError("club.bad_seat", seat=seat, count=len(table.seats))
            if expect is not None and expect != len(table.game.fouls) + 1:
                raise UserError("foul.already")
            club = await self._club(table)
            during = table.foul_phase()
            for _ in range(FINE_TRIES):
                await self.steps.flush(table)  # this game's earlier writes are in
                caps = await self.db.network.fine_caps()
                # a friendly game fines nobody
                price = 0 if table.friendly else min(club.foul_points, caps.fine)
                # what the network leaves of a player's fines in one game, after this game's
                # fouls of the seat that stand (the log's, as the ledger's rows of the game)
                left = max(0, caps.game - sum(f.points for f in table.game.fouls
                                              if f.seat == seat and not f.undone))
                taken, capped, reserved = 0, False, False
                if price:
                    available = await self.db.ledger.available(table.tg_of(seat))
                    taken = max(0, min(price, left, available))
                    capped = left < min(price, available)
                    if taken < price and not capped:  # the balance, or its reserved points?
                        reserved = await self.db.ledger.balance(table.tg_of(seat)) > available
                try:
                    _, result = engine.foul(table.game, seat, reason=reason, points=taken,
                                            during=during)
                except RuleViolation as e:
                    raise rule(e) from None
                fine = self._fine(result.foul, price, caps.game if capped else None,
                                  reserved=reserved)
                words, offered = await self._tell_foul(table, club, result, note, fine,
                                                       confirm=confirm)
                event = FoulCalled(seat, reason, taken, phase=during, note=note or None,
                                   offer=club.foul_limit if offered else None)
                try:
                    await self.steps.record_now(table, event, self._fines(table, result.ledger))
                except (InsufficientBalance, FineAboveCap):
                    continue  # the balance or a cap changed since it was read: read again
                return reply("foul.done", **words)
            raise UserError("foul.busy")

    async def _tell_foul(self, table: Table, club: Club, result: engine.FoulResult,
                         note: str | None, fine: Lazy, *,
                         confirm: bool) -> tuple[dict[str, Any], bool]:
        """What a foul says: the player in private, the club chat when the club says so, the
        host when it typed the foul, and the offer of the technical death from the club's
        limit on. Returns the host's answer's arguments and whether the offer was made."""
        foul = result.foul
        reason = self._reason(foul, note)
        who = self.notifier.seat(table, foul.seat)
        await self.notifier.to_player(table, foul.seat, "foul.player", game=table.game_id,
                                      reason=reason, fine=fine, count=result.standing)
        if club.foul_public:
            await self.notifier.club(table, "foul.club", who=who, reason=reason,
                                     count=result.standing)
        words: dict[str, Any] = {"number": foul.number, "who": who, "reason": reason,
                                    "fine": fine}
        if confirm:
            await self.notifier.private(table.host_id, "foul.done", **words)
        offered = bool(club.foul_limit) and result.standing >= club.foul_limit \
            and table.game.player(foul.seat).alive
        if offered:
            await self.notifier.private(
                table.host_id, "foul.offer.text", who=who, count=result.standing,
                limit=club.foul_limit, ref=offer_ref(table, foul.number),
                markup=lambda loc: rows([
                    button(self.tr.t(loc, "foul.offer.tech", seat=foul.seat),
                           FoulOfferCb(game=table.game_id, number=foul.number,
                                       accept=True).pack()),
                    button(self.tr.t(loc, "foul.offer.keep"),
                           FoulOfferCb(game=table.game_id, number=foul.number,
                                       accept=False).pack())], width=1))
        return words, offered

    @staticmethod
    def _offer_stands(table: Table, number: int) -> bool:
        """The offer after foul ``number`` is still to decide: open, its foul not undone, the
        player in the game with as many fouls standing as the offer said (from the log)."""
        limit = table.foul_offers.get(number)
        if limit is None:
            return False
        foul = table.game.fouls[number - 1]
        return (not foul.undone and table.game.player(foul.seat).alive
                and engine.standing_fouls(table.game, foul.seat) >= limit)

    async def _close_offer(self, table: Table, number: int, how: str, who: str) -> None:
        """The open offer after foul ``number`` loses its buttons and says ``how`` it ended
        (kept, taken, gone, undone); logged, so a restart knows it is closed."""
        if number not in table.foul_offers:
            return
        await self.notifier.edit_private(table.host_id, offer_ref(table, number),
                                         f"foul.offer.{how}", who=who)
        if table.open:  # a technical death may have ended the game: its log is closed
            await self.steps.record(table, FoulOfferClosed(number, how))

    # ------------------------------------------------------------------ an undoing
    async def undo(self, where: Where, user_id: int, number: int | None = None, *,
                   confirm: bool = False) -> Reply:
        """The foul ``number`` (None: the latest that stands) was recorded against the wrong
        seat: it no longer counts and its fine comes back as a reversing row."""
        table = self.hosted(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if not table.started:
                raise UserError("game.deal.first")
            fouls = table.game.fouls
            if number is None:
                standing = [f for f in fouls if not f.undone]
                if not standing:
                    raise UserError("foul.none")
                number = standing[-1].number
            if not 1 <= number <= len(fouls):
                raise UserError("foul.unknown", number=number)
            if fouls[number - 1].undone:
                raise UserError("foul.undone_already", number=number)
            try:
                _, result = engine.undo_foul(table.game, number)
            except RuleViolation as e:
                raise rule(e) from None
            foul = result.foul
            await self.steps.flush(table)
            who = self.notifier.seat(table, foul.seat)
            reason = self._reason(foul, table.foul_notes.get(number))

            def back(locale: str) -> str:
                return self.tr.t(locale, "foul.back", points=foul.points) if foul.points else ""

            await self.notifier.to_player(table, foul.seat, "foul.undone.player",
                                          game=table.game_id, reason=reason, back=back)
            if (await self._club(table)).foul_public:
                await self.notifier.club(table, "foul.undone.club", who=who)
            if confirm:
                await self.notifier.private(table.host_id, "foul.undone.done", number=number,
                                            who=who, back=back)
            # a reversal is never refused (it gives points back)
            await self.steps.record_now(table, FoulUndone(number),
                                        self._fines(table, result.ledger))
            # the player's open offers whose foul this was, or whose count it made
            for offered in sorted(table.foul_offers):
                if table.game.fouls[offered - 1].seat == foul.seat \
                        and not self._offer_stands(table, offered):
                    await self._close_offer(table, offered, "undone", who)
            return reply("foul.undone.done", number=number, who=who, back=back)

    # ------------------------------------------------------------------ the offer
    async def offer(self, game_id: int, user_id: int, number: int, accept: bool) -> Reply:
        """The host's answer to the offer of the technical death after foul ``number``:
        ``accept`` removes the player (``/tech``'s own step), else the player plays on. What
        stands is read from the log's table, so an offer is judged the same after a restart:
        one whose moment passed (the foul undone, the count below the limit again, the player
        out) is refused and closed; one answered already says what was decided."""
        table = self.tables.table(game_id)
        require_host(table, user_id)
        fouls = table.game.fouls if table.started else ()
        if not 1 <= number <= len(fouls):
            raise UserError("game.stale")
        foul = fouls[number - 1]
        who = self.notifier.seat(table, foul.seat)
        async with self.steps.lock(game_id):
            how = table.foul_offers_closed.get(number)
            if how is None and number not in table.foul_offers:
                raise UserError("game.stale")  # no offer was made after this foul
            if how is None and not self._offer_stands(table, number):
                how = "gone"
                await self._close_offer(table, number, how, who)
            elif how is None and not accept:
                await self._close_offer(table, number, "kept", who)
                return reply("foul.offer.kept", who=who)
        if how in ("gone", "undone"):
            raise UserError("foul.offer.stale", who=who)
        if how is not None:  # a second press: what the host decided
            raise UserError(f"foul.offer.{how}", who=who)
        answer = await self.host.technical_death(table.chat_id, user_id, foul.seat)
        async with self.steps.lock(game_id):
            await self._close_offer(table, number, "taken", who)
        return answer

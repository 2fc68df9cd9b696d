"""The day: talk, vote turns, the tally, a shoot-out's fate, the Lawyers' window, the verdict,
and the floor given to a jailed player (``/speak``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import engine
from bot.errors import UserError
from bot.game.callbacks import FateCb, cancel_data, vote_data
from bot.game.core import GameCore, PhaseService, Reply, reply, rule, secs
from bot.game.notifier import button, rows
from bot.game.results import Results
from bot.game.table import CANCEL_DL, FATE_DL, TURN_DL, Stage, Table, iso
from engine import Phase, RuleViolation
from engine.roles import LAWYER_ROLES


class DayService(PhaseService):
    """A day from ``/vote`` to ``day_resolved``; owns the turn, fate and Lawyers' deadlines."""

    def __init__(self, core: GameCore, results: Results) -> None:
        super().__init__(core)
        self.results = results
        core.on_expiry(TURN_DL, self._turn_over)
        core.on_expiry(FATE_DL, self._fate_over)
        core.on_expiry(CANCEL_DL, self._cancel_over)

    async def start_day(self, chat_id: int, user_id: int) -> Reply:
        """``/day``: announce the day's talk (the vote starts with /vote)."""
        table = self.core.in_chat(chat_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            self.core.can_start_phase(table, Phase.DAY)
            await self.notifier.club(table, "game.day.start", day=table.game.day_number + 1)
            return reply("game.day.started")

    async def start_vote(self, chat_id: int, user_id: int) -> Reply:
        table = self.core.in_chat(chat_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
            self.core.can_start_phase(table, Phase.DAY)
            order = engine.voters(table.game)
            await self.core.record(table, "vote_start", {"step": table.step + 1, "order": order})
            await self.notifier.club(table, "game.vote.start", day=table.game.day_number + 1,
                                     order=self.notifier.seat_list(table, order),
                                     seconds=secs(self.timers.vote_turn))
            await self.next_turn(table, 0)
            return reply("game.vote.started")

    async def next_turn(self, table: Table, start: int) -> None:
        able = set(engine.voters(table.game))
        turn = start
        while turn < len(table.order) and table.order[turn] not in able:
            turn += 1
        if turn >= len(table.order):
            await self.core.record(table, "votes_done")
            await self.after_votes(table)
            return
        await self.core.record(table, "turn", {
            "turn": turn, "deadlines": {TURN_DL: iso(self.core.at(self.timers.vote_turn))}})
        voter = table.order[turn]
        if not engine.vote_candidates(table.game, voter):
            await self.notifier.club(table, "game.vote.turn", who=self.notifier.seat(table, voter),
                                     seconds=secs(self.timers.vote_turn))
            await self._turn_timeout(table)  # nobody may be voted for: nothing to wait for
            return
        self.core.arm(table)
        # The voter's buttons first: the club chat has the tighter rate limit.
        await self.vote_prompt(table, voter)
        await self.notifier.club(table, "game.vote.turn", who=self.notifier.seat(table, voter),
                                 seconds=secs(self.timers.vote_turn))

    async def vote_prompt(self, table: Table, voter: int) -> None:
        candidates = engine.vote_candidates(table.game, voter)
        offline = table.is_offline(voter)
        message_id = await self.notifier.to_seat(
            table, voter, "game.vote.prompt", seconds=secs(self.timers.vote_turn),
            markup=lambda loc: rows([
                button(self.notifier.seat(table, c),
                       vote_data(table.game_id, table.step, voter, c, offline=offline))
                for c in candidates], 2))
        if message_id is not None:
            table.prompts[voter] = message_id

    async def vote(self, game_id: int, tg_id: int, step: int, target: int, *,
                   for_seat: int | None = None) -> Reply:
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            seat = self.core.acting_seat(table, tg_id, for_seat)
            self.core.expect(table, Stage.VOTE, step)
            try:
                engine.check_vote(table.game, seat, target)
            except RuleViolation as e:
                raise rule(e) from None
            if seat in table.votes:
                raise UserError("game.vote.already")
            if table.current_voter() != seat:
                raise UserError("game.vote.not_your_turn")
            await self.core.record(table, "vote", {"seat": seat, "target": target})
            self.deadlines.disarm(self.core.key(table, TURN_DL))
            message_id = table.prompts.get(seat)
            if message_id is not None:
                await self.notifier.edit_seat(table, seat, message_id, "game.vote.chosen",
                                              who=self.notifier.seat(table, target))
            await self.notifier.club(table, "game.vote.cast", voter=self.notifier.seat(table, seat),
                                     who=self.notifier.seat(table, target))
            await self.next_turn(table, table.turn + 1)
            return reply("game.vote.accepted", who=self.notifier.seat(table, target))

    async def _turn_timeout(self, table: Table) -> None:
        voter = table.current_voter()
        if voter is None:
            return
        await self.core.record(table, "vote_timeout", {"seat": voter})
        own = engine.timeout_vote(table.game, voter)
        key = "game.vote.timeout_self" if own is not None else "game.vote.timeout_none"
        await self.notifier.club(table, key, who=self.notifier.seat(table, voter))
        message_id = table.prompts.get(voter)
        if message_id is not None:
            await self.notifier.edit_seat(table, voter, message_id, "game.vote.missed")
        await self.next_turn(table, table.turn + 1)

    def tally(self, table: Table) -> engine.Tally:
        full, _ = engine.complete_votes(table.game, table.valid_votes())
        return engine.tally_votes(full)

    async def after_votes(self, table: Table) -> None:
        tally = self.tally(table)
        if tally.shootout and table.fate is None:
            if table.fate_by_host:
                await self.core.record(table, "fate_wait", {
                    "deadlines": {FATE_DL: iso(self.core.at(self.timers.fate))}})
                await self.notifier.club(table, "game.fate.host_draws",
                                         tied=self.notifier.seat_list(table, tally.tied))
                await self.fate_prompt(table, tally.tied)
                self.core.arm(table)
                return
            seat = engine.draw_fate(tally.tied, self.core.rng)
            await self.core.record(table, "fate", {"seat": seat, "by": "bot"})
        condemned = tally.leader if tally.leader is not None else table.fate
        if condemned is not None and not tally.failed and self._lawyer_window(table):
            lawyers = engine.cancellers(table.game, condemned)
            deadline = iso(self.core.at(self.timers.cancel))
            await self.core.record(table, "cancel_window", {
                "lawyers": lawyers, "deadlines": {CANCEL_DL: deadline}})
            await self.notifier.club(table, "game.cancel.window",
                                     who=self.notifier.seat(table, condemned),
                                     seconds=secs(self.timers.cancel))
            for lawyer in lawyers:
                await self.cancel_prompt(table, lawyer, condemned)
            self.core.arm(table)
            return
        await self._resolve_day(table, None)

    async def fate_prompt(self, table: Table, tied: Sequence[int]) -> None:
        await self.notifier.private(
            table.host_id, "game.fate.ask", tied=self.notifier.seat_list(table, tied),
            markup=lambda loc: rows([
                button(self.notifier.seat(table, s),
                       FateCb(game=table.game_id, step=table.step, target=s).pack())
                for s in tied], 3))

    async def cancel_prompt(self, table: Table, lawyer: int, condemned: int | None) -> None:
        offline = table.is_offline(lawyer)
        await self.notifier.to_seat(
            table, lawyer, "game.cancel.ask",
            who=self.notifier.seat(table, condemned) if condemned is not None else "?",
            seconds=secs(self.timers.cancel),
            markup=lambda loc: rows([button(
                self.tr.t(loc, "game.cancel.button"),
                cancel_data(table.game_id, table.step, lawyer, offline=offline))]))

    def _lawyer_window(self, table: Table) -> bool:
        """The window opens whenever the deal has a Lawyer card (public knowledge), so that
        whether one is still alive cannot be told from the chat."""
        return any(card in LAWYER_ROLES for card in table.cards)

    async def fate(self, game_id: int, user_id: int, step: int, target: int) -> Reply:
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            self.core.require_host(table, user_id)
            self.core.expect(table, Stage.FATE, step)
            if target not in self.tally(table).tied:
                raise UserError("game.rule.fate_not_tied")
            await self.core.record(table, "fate", {"seat": target, "by": "host"})
            self.deadlines.disarm(self.core.key(table, FATE_DL))
            await self.after_votes(table)
            return reply("game.fate.accepted", who=self.notifier.seat(table, target))

    async def cancel(self, game_id: int, tg_id: int, step: int, *,
                     for_seat: int | None = None) -> Reply:
        """A Lawyer cancels the verdict (``for_seat``: the host, for an offline Lawyer)."""
        table = self.core.table(game_id)
        async with self.core.lock(game_id):
            seat = self.core.acting_seat(table, tg_id, for_seat)
            self.core.expect(table, Stage.CANCEL, step)
            try:
                engine.check_cancel(table.game, seat, table.condemned())
            except RuleViolation as e:
                raise rule(e) from None
            if seat not in table.lawyers:
                raise UserError("game.stale")
            await self._resolve_day(table, seat)
            return reply("game.cancel.accepted")

    async def _resolve_day(self, table: Table, cancel_by: int | None) -> None:
        self.core.disarm(table)
        result = await self.core.record(table, "day_resolved", {
            "votes": {str(k): v for k, v in sorted(table.valid_votes().items())},
            "fate": table.fate, "cancel_by": cancel_by})
        assert result is not None
        await self.results.announce(table, result)

    async def give_word(self, chat_id: int, user_id: int, seat: int, by: int | None) -> Reply:
        """``/speak SEAT [FROM]``: a jailed player gets speaking time (given by another player)."""
        table = self.core.in_chat(chat_id)
        async with self.core.lock(table.game_id):
            self.core.require_host(table, user_id)
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
                seconds=secs(seconds))
            self.deadlines.arm(self.core.key(table, f"speak_{seat}"), self.core.at(seconds),
                               partial(self._speech_over, table.game_id, seat))
            return reply("game.tech.ok")

    async def _speech_over(self, game_id: int, seat: int) -> None:
        table = self.core.tables.get(game_id)
        if table is not None:
            await self.notifier.club(table, "game.speak.over", who=self.notifier.seat(table, seat))

    # ------------------------------------------------------------------ deadlines
    async def _turn_over(self, table: Table) -> None:
        if table.stage is Stage.VOTE:
            await self._turn_timeout(table)

    async def _fate_over(self, table: Table) -> None:
        """The host did not draw in time: the bot draws."""
        if table.stage is Stage.FATE:
            tally = self.tally(table)
            seat = engine.draw_fate(tally.tied, self.core.rng)
            await self.core.record(table, "fate", {"seat": seat, "by": "bot"})
            await self.after_votes(table)

    async def _cancel_over(self, table: Table) -> None:
        if table.stage is Stage.CANCEL:
            await self._resolve_day(table, None)

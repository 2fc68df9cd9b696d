"""The day: talk, vote turns, the tally, a shoot-out's fate, the Lawyers' window, the verdict,
and the floor given to a jailed player (``/speak``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Any

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply, secs
from bot.game.callbacks import FateCb, cancel_data, vote_data
from bot.game.guards import can_start_phase, expect, rule
from bot.game.messages.notifier import Notifier, button, message_ref, rows
from bot.game.prompts import Prompts
from bot.game.rooms.results import ResultsRoom
from bot.game.steps import Steps
from bot.game.tables import Tables, Where
from bot.game.timekeeper import Timekeeper
from engine import Audience, AudienceKind, Phase, RuleViolation
from engine.roles import LAWYER_ROLES
from record.log_events import (
    CancelWindow,
    DayResolved,
    DayStart,
    Fate,
    FateWait,
    Turn,
    Vote,
    VotesDone,
    VoteStart,
    VoteTimeout,
)
from record.table import CANCEL_DL, FATE_DL, TURN_DL, Stage, Table

EVERYONE = Audience(AudienceKind.EVERYONE)
# seconds: the vote board is edited at most this often — 10 of the group's 20 requests a
# minute at most, so the outcome posts always find room
BOARD_EDIT_GAP = 6.0


class DayRoom:
    """A day from ``/vote`` to ``day_resolved``; owns the turn, fate and Lawyers' deadlines.
    ``rng``: the bot's draw of a shoot-out."""

    def __init__(self, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 notifier: Notifier, prompts: Prompts, results: ResultsRoom,
                 rng: random.Random) -> None:
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.notifier = notifier
        self.tr = notifier.tr
        self.prompts = prompts
        self.results = results
        self.rng = rng
        timekeeper.on_time_up(TURN_DL, self._turn_over)
        timekeeper.on_time_up(FATE_DL, self._fate_over)
        timekeeper.on_time_up(CANCEL_DL, self._cancel_over)

    async def start_day(self, where: Where, user_id: int) -> Reply:
        """``/day``: announce the day's talk (the vote starts with /vote)."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            can_start_phase(table, Phase.DAY)
            if table.stage is Stage.DEALT:  # the game opens with a day
                if table.day_first:
                    return reply("game.day.started")  # a second press: announced already
                await self.steps.record(table, DayStart())
            await self.notifier.club(table, await self.results.day_start(table),
                                     day=table.game.current_day)
            return reply("game.day.started")

    async def start_vote(self, where: Where, user_id: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            can_start_phase(table, Phase.DAY)
            order = engine.voters(table.game)
            await self.steps.record(table, VoteStart(table.moment + 1, tuple(order)))
            if not engine.votable(table.game):
                # every player holds an open immunity: nobody may be voted for, so no board, no
                # prompts and no turns; the day resolves, and the table hears why
                # (docs/rules.md#41-voting)
                await self.steps.record(table, VotesDone())
                await self._resolve_day(table, None)
                return reply("game.vote.impossible")
            # the board first (its turn lines are edited in): an edit follows its send
            await self.notifier.club(table, "game.vote.board", ref=self.board_ref(table),
                                     **self.board_kwargs(table))
            await self.next_turn(table, 0)
            return reply("game.vote.started")

    async def next_turn(self, table: Table, start: int) -> None:
        able = set(engine.voters(table.game))
        turn = start
        while turn < len(table.order) and table.order[turn] not in able:
            turn += 1
        if turn >= len(table.order):
            await self.steps.record(table, VotesDone())
            await self.after_votes(table)
            return
        await self.steps.record(table, Turn(
            turn, {TURN_DL: self.timekeeper.at(self.timekeeper.timers(table).vote_turn)}))
        voter = table.order[turn]
        if not engine.vote_candidates(table.game, voter):
            await self._turn_timeout(table)  # nobody may be voted for: nothing to wait for
            return
        self.timekeeper.arm(table)
        # The voter's buttons first: the club chat has the tighter rate limit.
        await self.vote_prompt(table, voter)
        await self.refresh_board(table)

    # ------------------------------------------------------------------ the vote board
    def board_ref(self, table: Table) -> str:
        return message_ref(table, f"s{table.moment}", "board")

    def board_kwargs(self, table: Table) -> dict[str, Any]:
        """The one live post of a vote: order, whose turn, the votes so far, the turn's time."""
        seat = self.notifier.seat
        current = table.current_voter()
        order, votes, timeouts = list(table.order), dict(table.votes), list(table.timeouts)
        seconds = secs(self.timekeeper.timers(table).vote_turn)
        able = set(engine.voters(table.game)) if table.started else set()
        until = table.deadlines.get(TURN_DL)  # the turn's end

        def lines(loc: str) -> str:
            out = []
            for s in order:
                if s in votes:
                    out.append(self.tr.t(loc, "game.vote.board_voted", voter=seat(table, s),
                                         who=seat(table, votes[s])))
                elif s in timeouts:
                    own = s in able and engine.timeout_vote(table.game, s) is not None
                    key = "game.vote.board_timeout_self" if own else "game.vote.board_timeout_none"
                    out.append(self.tr.t(loc, key, who=seat(table, s)))
                elif s == current:
                    out.append(self.tr.t(loc, "game.vote.board_now", who=seat(table, s),
                                         seconds=seconds) if until is None
                               else self.notifier.timed(table, loc, "game.vote.board_now",
                                                        until, who=seat(table, s),
                                                        seconds=seconds))
                else:
                    out.append(self.tr.t(loc, "game.vote.board_waiting", who=seat(table, s)))
            return "\n".join(out)
        return {"day": table.game.current_day, "seconds": seconds, "lines": lines,
                "done": (lambda loc: "\n" + self.tr.t(loc, "game.vote.board_done"))
                if current is None else ""}

    async def refresh_board(self, table: Table) -> None:
        """Edit the board (a queued edit is replaced by a newer one; one edit every few
        seconds at most)."""
        await self.notifier.edit_club(table, self.board_ref(table), "game.vote.board",
                                      throttle=BOARD_EDIT_GAP, redraw=True,
                                      **self.board_kwargs(table))

    async def vote_prompt(self, table: Table, voter: int, *, again: bool = False) -> None:
        candidates = engine.vote_candidates(table.game, voter)
        offline = table.is_offline(voter)
        base = message_ref(table, f"s{table.moment}", "vote", voter)
        if again and await self.prompts.kept_prompt(table, voter, table.chat_of(voter), base):
            return  # the voter has it (or will): not sent twice
        ref = self.prompts.prompt_ref(table, table.chat_of(voter), base, again)
        await self.notifier.to_seat(
            table, voter, "game.vote.prompt", ref=ref,
            seconds=secs(self.timekeeper.timers(table).vote_turn),
            markup=lambda loc: rows([
                button(self.notifier.seat(table, c),
                       vote_data(table.game_id, table.moment, voter, c, offline=offline))
                for c in candidates], 2))
        table.memory.prompts[voter] = ref

    async def vote(self, game_id: int, tg_id: int, moment: int, target: int, *,
                   for_seat: int | None = None) -> Reply:
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            seat = self.steps.pressing_seat(table, tg_id, for_seat)
            expect(table, Stage.VOTE, moment)
            try:
                engine.check_vote(table.game, seat, target)
            except RuleViolation as e:
                raise rule(e) from None
            if seat in table.votes:
                raise UserError("game.vote.already")
            if table.current_voter() != seat:
                raise UserError("game.vote.not_your_turn")
            await self.steps.record(table, Vote(seat, target))
            self.timekeeper.cancel(table, TURN_DL)
            ref = table.memory.prompts.pop(seat, None)
            if ref is not None:
                await self.notifier.edit_seat(table, seat, ref, "game.vote.chosen",
                                              who=self.notifier.seat(table, target))
            await self.next_turn(table, table.turn + 1)
            await self.refresh_board(table)
            return reply("game.vote.accepted", who=self.notifier.seat(table, target))

    async def _turn_timeout(self, table: Table) -> None:
        voter = table.current_voter()
        if voter is None:
            return
        await self.steps.record(table, VoteTimeout(voter))
        ref = table.memory.prompts.pop(voter, None)
        if ref is not None:
            await self.notifier.edit_seat(table, voter, ref, "game.vote.missed")
        await self.next_turn(table, table.turn + 1)
        await self.refresh_board(table)

    def tally(self, table: Table) -> engine.Tally:
        full, _ = engine.complete_votes(table.game, table.valid_votes())
        return engine.tally_votes(full)

    async def _say_tally(self, table: Table, tally: engine.Tally) -> None:
        """The tally (and the shoot-out's draw, once made) before the verdict; the day's
        resolution then does not say it again."""
        full, _ = engine.complete_votes(table.game, table.valid_votes())
        day = table.game.current_day
        events = [engine.Event("vote_tally", EVERYONE, {
            "day": day, "votes": full, "counts": tally.counts})]
        if tally.shootout and table.fate is not None:
            events.append(engine.Event("shootout", EVERYONE, {
                "tied": list(tally.tied), "condemned": table.fate,
                "told": table.fate_by_host}))  # game.fate.host_draws said the tie
        told = {e.kind for e in events}
        await self.notifier.events(table, [e for e in events
                                           if (table.moment, e.kind) not in table.memory.told])
        table.memory.told |= {(table.moment, k) for k in told}

    async def _tell_vote(self, table: Table) -> None:
        """The tally's post: the vote's later news (the draw, the verdict) is edited into it."""
        table.memory.vote_post = await self.notifier.tell(
            table.chat_id, self.results.vote_post(table), self.results.tally_ref(table))

    async def after_votes(self, table: Table) -> None:
        tally = self.tally(table)
        if tally.shootout and table.fate is None:
            if table.fate_by_host:
                await self.steps.record(table, FateWait(
                    {FATE_DL: self.timekeeper.at(self.timekeeper.timers(table).fate)}))
                await self._say_tally(table, tally)
                await self.notifier.club(table, "game.fate.host_draws",
                                         tied=self.notifier.seat_list(table, tally.tied))
                await self._tell_vote(table)
                await self.fate_prompt(table, tally.tied)
                self.timekeeper.arm(table)
                return
            seat = engine.draw_fate(tally.tied, self.rng)
            await self.steps.record(table, Fate(seat, "bot"))
        condemned = tally.leader if tally.leader is not None else table.fate
        if condemned is not None and not tally.failed and self._lawyer_window(table):
            lawyers = engine.cancellers(table.game, condemned)
            deadline = self.timekeeper.at(self.timekeeper.timers(table).cancel)
            await self.steps.record(table, CancelWindow(tuple(lawyers), {CANCEL_DL: deadline}))
            await self._say_tally(table, tally)
            await self.notifier.club(table, "game.cancel.window",
                                     who=self.notifier.seat(table, condemned),
                                     seconds=secs(self.timekeeper.timers(table).cancel),
                                     until=table.deadlines[CANCEL_DL])
            await self._tell_vote(table)
            for lawyer in lawyers:
                await self.cancel_prompt(table, lawyer, condemned)
            self.timekeeper.arm(table)
            return
        await self._resolve_day(table, None)

    async def fate_prompt(self, table: Table, tied: Sequence[int], *, again: bool = False
                          ) -> None:
        base = message_ref(table, f"s{table.moment}", "fate")
        if again and await self.prompts.kept_prompt(table, 0, table.host_id, base):
            return  # the host has it (or will): not sent twice
        ref = self.prompts.prompt_ref(table, table.host_id, base, again)
        table.memory.prompts[0] = ref  # seat 0: the host
        await self.notifier.private(
            table.host_id, "game.fate.ask", tied=self.notifier.seat_list(table, tied), ref=ref,
            markup=lambda loc: rows([
                button(self.notifier.seat(table, s),
                       FateCb(game=table.game_id, moment=table.moment, target=s).pack())
                for s in tied], 3))

    async def cancel_prompt(self, table: Table, lawyer: int, condemned: int | None, *,
                            again: bool = False) -> None:
        offline = table.is_offline(lawyer)
        base = message_ref(table, f"s{table.moment}", "cancel", lawyer)
        if again and await self.prompts.kept_prompt(table, lawyer, table.chat_of(lawyer), base):
            return  # the Lawyer has it (or will): not sent twice
        ref = self.prompts.prompt_ref(table, table.chat_of(lawyer), base, again)
        table.memory.prompts[lawyer] = ref
        await self.notifier.to_seat(
            table, lawyer, "game.cancel.ask", ref=ref,
            who=self.notifier.seat(table, condemned) if condemned is not None else "?",
            seconds=secs(self.timekeeper.timers(table).cancel),
            markup=lambda loc: rows([button(
                self.tr.t(loc, "game.cancel.button"),
                cancel_data(table.game_id, table.moment, lawyer, offline=offline))]))

    def _lawyer_window(self, table: Table) -> bool:
        """The window opens whenever the deal has a Lawyer card (public knowledge), so that
        whether one is still alive cannot be told from the chat."""
        return any(card in LAWYER_ROLES for card in table.cards)

    async def fate(self, game_id: int, user_id: int, moment: int, target: int) -> Reply:
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            self.steps.by_host(table, user_id)
            expect(table, Stage.FATE, moment)
            if target not in self.tally(table).tied:
                raise UserError("game.rule.fate_not_tied")
            await self.steps.record(table, Fate(target, "host"))
            self.timekeeper.cancel(table, FATE_DL)
            # the draw's prompt says the lot, whether pressed there or on the panel
            await self.prompts.close_prompts(table, "game.fate.drawn",
                                          who=self.notifier.seat(table, target))
            await self.after_votes(table)
            return reply("game.fate.accepted", who=self.notifier.seat(table, target))

    async def cancel(self, game_id: int, tg_id: int, moment: int, *,
                     for_seat: int | None = None) -> Reply:
        """A Lawyer cancels the verdict (``for_seat``: the host, for an offline Lawyer)."""
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            seat = self.steps.pressing_seat(table, tg_id, for_seat)
            expect(table, Stage.CANCEL, moment)
            try:
                engine.check_cancel(table.game, seat, table.condemned())
            except RuleViolation as e:
                raise rule(e) from None
            if seat not in table.lawyers:
                raise UserError("game.stale")
            await self._resolve_day(table, seat)
            return reply("game.cancel.accepted")

    async def _resolve_day(self, table: Table, cancel_by: int | None) -> None:
        self.timekeeper.disarm(table)
        condemned = table.condemned() if table.stage is Stage.CANCEL else None
        if condemned is None:
            await self.prompts.close_prompts(table)
        elif cancel_by is None:  # the Lawyers' time ran out
            await self.prompts.close_prompts(table, "game.cancel.expired",
                                          who=self.notifier.seat(table, condemned))
        else:
            await self.prompts.close_prompts(
                table, "game.cancel.done_other", own=(table.chat_of(cancel_by), "game.cancel.done"),
                who=self.notifier.seat(table, condemned))
        result = await self.steps.record(table, DayResolved(
            dict(sorted(table.valid_votes().items())), table.fate, cancel_by))
        assert result is not None
        await self.results.announce(table, result)

    async def give_word(self, where: Where, user_id: int, seat: int, by: int | None) -> Reply:
        """``/speak SEAT [FROM]``: a jailed player gets speaking time (given by another player)."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
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
            seconds = self.timekeeper.timers(table).vote_turn
            await self.notifier.club(
                table, "game.speak.start" if by is None else "game.speak.given",
                who=self.notifier.seat(table, seat),
                by=self.notifier.seat(table, by) if by is not None else "",
                seconds=secs(seconds), until=self.timekeeper.at(seconds))
            self.timekeeper.schedule(table, f"speak_{seat}", self.timekeeper.at(seconds),
                                     partial(self._speech_over, table.game_id, seat))
            return reply("game.speak.ok", who=self.notifier.seat(table, seat))

    async def _speech_over(self, game_id: int, seat: int) -> None:
        table = self.tables.by_id.get(game_id)
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
            seat = engine.draw_fate(tally.tied, self.rng)
            await self.steps.record(table, Fate(seat, "bot"))
            await self.prompts.close_prompts(table, "game.fate.bot_drew",
                                          who=self.notifier.seat(table, seat))
            await self.after_votes(table)

    async def _cancel_over(self, table: Table) -> None:
        if table.stage is Stage.CANCEL:
            await self._resolve_day(table, None)

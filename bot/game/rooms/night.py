"""The night: prompts, the Mafia's window, choices from private buttons, the resolution."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply, secs
from bot.game.callbacks import night_data
from bot.game.guards import can_start_phase, expect, rule
from bot.game.messages.notifier import Markup, Notifier, button, message_ref, rows
from bot.game.prompts import Prompts
from bot.game.rooms.results import ResultsRoom
from bot.game.steps import Steps
from bot.game.tables import Tables, Where
from bot.game.timekeeper import Timekeeper
from engine import Phase, RuleViolation
from record.log_events import Choice, MafiaLocked, NightResolved, NightStart
from record.table import MAFIA_DL, NIGHT_DL, Stage, Table


class NightRoom:
    """A night from ``/night`` to ``night_resolved``; owns the night and Mafia deadlines."""

    def __init__(self, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 notifier: Notifier, prompts: Prompts, results: ResultsRoom) -> None:
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.notifier = notifier
        self.tr = notifier.tr
        self.prompts = prompts
        self.results = results
        timekeeper.on_time_up(NIGHT_DL, self._night_over)
        timekeeper.on_time_up(MAFIA_DL, self._mafia_window_over)

    async def start_night(self, where: Where, user_id: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            can_start_phase(table, Phase.NIGHT)
            moment = table.moment + 1
            night = table.game.night_number + 1
            timers = self.timekeeper.timers(table)
            deadlines: dict[str, datetime | None] = {NIGHT_DL: self.timekeeper.at(timers.night)}
            # the Mafia's window, when they have someone to pick (on a first night at which
            # every player holds an open immunity they have nobody: no window)
            picking = any(engine.legal_targets(table.game, s) for s in table.pickers())
            if picking:
                deadlines[MAFIA_DL] = self.timekeeper.at(min(timers.mafia_agree, timers.night))
            await self.results.end_last_word(table)  # the word's end, then the night
            await self.steps.record(table, NightStart(moment, deadlines))
            if not picking and not table.mafia_locked:
                await self.steps.record(table, MafiaLocked())
            await self.notifier.club(table, "game.night.start", night=night,
                                     seconds=secs(timers.night),
                                     until=table.deadlines[NIGHT_DL])
            # the night falls in the latest post (the deal's, the evening's), not a new one
            table.memory.last_post = await self.notifier.tell(
                table.chat_id, table.memory.last_post, message_ref(table, f"s{moment}", "night"))
            if night == 1:
                await self.notifier.events(table, [engine.mafia_roster(table.game)])
            table.memory.prompts = {}
            for seat in engine.night_actors(table.game):
                await self.prompt(table, seat)
            self.timekeeper.arm(table)
            if not table.pending_night():
                await self.resolve(table)
            return reply("game.night.started")

    def _markup(self, table: Table, seat: int) -> Markup:
        targets = engine.legal_targets(table.game, seat)
        return lambda locale: rows([
            button(self.notifier.seat(table, t),
                   night_data(table.game_id, table.moment, seat, t,
                              offline=table.is_offline(seat)))
            for t in targets], 2)

    def _kwargs(self, table: Table, seat: int) -> dict[str, Any]:
        action = table.role(seat).action
        kwargs: dict[str, Any] = {
            "night": table.game.night_number + 1,
            "action": lambda loc: self.tr.t(loc, f"game.action.{action}"),
        }
        if table.is_picker(seat):
            kwargs.update(self._mafia_kwargs(table, seat))
        return kwargs

    def _mafia_kwargs(self, table: Table, seat: int) -> dict[str, Any]:
        """The team's picks so far; while open, how long they have and who decides when they
        disagree; once closed, the target that stands (what the engine takes from these picks:
        the agreed one, else the Chief's)."""
        pickers = table.pickers()
        picks = {s: table.choices.get(s) for s in pickers}
        seat_ = self.notifier.seat
        locked = table.mafia_locked
        none = "game.night.pick_none_locked" if locked else "game.night.pick_none"

        def render(loc: str) -> str:
            return "\n".join(f"{seat_(table, s)} → {seat_(table, t)}" if t is not None
                             else f"{seat_(table, s)} — {self.tr.t(loc, none)}"
                             for s, t in picks.items())
        if not locked:
            chief = next((s for s in pickers if table.role(s) is engine.Role.MAFIA_CHIEF), None)
            key = ("game.night.agree_none" if chief is None
                   else "game.night.agree_you" if chief == seat else "game.night.agree_chief")
            timers = self.timekeeper.timers(table)
            seconds = secs(min(timers.mafia_agree, timers.night))
            return {"picks": render,
                    "agree": lambda loc: self.tr.t(loc, key, seconds=seconds)}
        made = {s: t for s, t in picks.items() if t is not None}
        target = engine.common_pick(table.game, made)
        if target is None:
            return {"picks": render, "target": lambda loc: self.tr.t(loc, "game.night.target_none")}
        key = "game.night.target" if len(set(made.values())) == 1 else "game.night.target_chief"
        return {"picks": render,
                "target": lambda loc: self.tr.t(loc, key, who=seat_(table, target))}

    async def prompt(self, table: Table, seat: int, *, again: bool = False) -> None:
        picker = table.is_picker(seat)
        key = "game.night.prompt_mafia" if picker else "game.night.prompt"
        if not engine.legal_targets(table.game, seat):
            if not again:  # (said when the night fell: not again after a restart)
                await self.notifier.to_seat(table, seat, "game.night.no_targets",
                                            night=table.game.night_number + 1)
            return
        base = self.prompt_ref(table, seat)
        if again and await self.prompts.kept_prompt(table, seat, table.chat_of(seat), base):
            return  # the player has it (or will): the same buttons are not sent twice
        ref = self.prompts.prompt_ref(table, table.chat_of(seat), base, again)
        await self.notifier.to_seat(table, seat, key, markup=self._markup(table, seat),
                                    ref=ref, **self._kwargs(table, seat))
        table.memory.prompts[seat] = ref

    def prompt_ref(self, table: Table, seat: int) -> str:
        return message_ref(table, f"s{table.moment}", "prompt", seat)

    async def _refresh_mafia(self, table: Table) -> None:
        locked = table.mafia_locked
        for seat in table.pickers():
            ref = table.memory.prompts.get(seat)
            if ref is None:
                continue  # no prompt was sent to this seat (nobody to pick): nothing to edit
            kwargs = self._kwargs(table, seat)
            markup = None if locked else self._markup(table, seat)
            key = "game.night.prompt_mafia_locked" if locked else "game.night.prompt_mafia"
            await self.notifier.edit_seat(table, seat, ref, key, markup=markup, **kwargs)
            if locked:
                table.memory.prompts.pop(seat, None)

    async def choose(self, game_id: int, tg_id: int, moment: int, target: int, *,
                     for_seat: int | None = None) -> Reply:
        """A night choice from a private button (``for_seat``: the host's, for an offline seat)."""
        table = self.tables.table(game_id)
        async with self.steps.lock(game_id):
            seat = self.steps.pressing_seat(table, tg_id, for_seat)
            expect(table, Stage.NIGHT, moment)
            try:
                engine.check_night_choice(table.game, seat, target)
            except RuleViolation as e:
                raise rule(e) from None
            if table.is_picker(seat):
                if table.mafia_locked:
                    raise UserError("game.night.mafia_locked")
                if table.choices.get(seat) == target:
                    raise UserError("game.night.same")
                await self.steps.record(table, Choice(seat, target))
                picks = {table.choices.get(s) for s in table.pickers()}
                if len(picks) == 1 and None not in picks:
                    await self.steps.record(table, MafiaLocked())
                    self.timekeeper.cancel(table, MAFIA_DL)
                await self._refresh_mafia(table)
            else:
                if seat in table.choices:
                    raise UserError("game.night.already")
                await self.steps.record(table, Choice(seat, target))
                ref = table.memory.prompts.pop(seat, None)
                if ref is not None:
                    await self.notifier.edit_seat(
                        table, seat, ref, "game.night.chosen",
                        who=self.notifier.seat(table, target))
            if not table.pending_night():
                await self.resolve(table)
            return reply("game.night.accepted", who=self.notifier.seat(table, target))

    async def resolve(self, table: Table) -> None:
        choices = table.valid_choices()
        self.timekeeper.disarm(table)
        await self.prompts.close_prompts(table, "game.night.closed")
        result = await self.steps.record(table, NightResolved(dict(sorted(choices.items()))))
        assert result is not None
        await self.results.announce(table, result)

    # ------------------------------------------------------------------ deadlines
    async def _night_over(self, table: Table) -> None:
        if table.stage is Stage.NIGHT:
            await self.resolve(table)

    async def _mafia_window_over(self, table: Table) -> None:
        if table.stage is Stage.NIGHT:
            await self.steps.record(table, MafiaLocked())
            await self._refresh_mafia(table)
            if not table.pending_night():
                await self.resolve(table)

"""The host's controls during the game: status, technical death, pause/resume/extend, /endgame;
and the host's warning when a player blocked the bot."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import engine
from bot.errors import UserError
from bot.game.answers import Reply, reply, secs
from bot.game.guards import rule
from bot.game.messages.notifier import Notifier
from bot.game.rooms.day import DayRoom
from bot.game.rooms.night import NightRoom
from bot.game.rooms.offers import end_offers
from bot.game.rooms.results import ResultsRoom
from bot.game.steps import Steps
from bot.game.tables import Tables, Where, named_table
from bot.game.timekeeper import Timekeeper
from engine import RuleViolation
from record.log_events import Aborted, DueAt, Extend, MafiaLocked, Pause, Resume, Tech, VerdictReset
from record.table import TURN_DL, Stage, Table
from storage.models import STATUS_ABORTED, STATUS_PAUSED, STATUS_RUNNING, Fine
from storage.repos.games import GameChange
from views.i18n import sex_of

MAX_EXTEND = 3600  # seconds: the most one /extend adds
# the seconds left of a table's phase now (its own end, not a shorter window inside it; paused:
# what is left when the game resumes), or None: the panel's countdown, passed in by the service
PhaseLeft = Callable[[Table, datetime], float | None]


class HostRoom:
    """What the host does to a running game besides moving it on."""

    def __init__(self, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 notifier: Notifier, results: ResultsRoom, night: NightRoom, day: DayRoom,
                 phase_left: PhaseLeft) -> None:
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.clock = timekeeper.clock
        self.notifier = notifier
        self.tr = notifier.tr
        self.results = results
        self.night = night
        self.day = day
        self.phase_left = phase_left
        self._told_blocked: set[tuple[int, int]] = set()  # (game, player) the host heard about

    async def technical_death(self, where: Where, user_id: int, seat: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if not table.started:
                raise UserError("game.deal.first")
            if seat not in table.seats:
                raise UserError("club.bad_seat", seat=seat, count=len(table.seats))
            try:
                engine.technical_death(table.game, seat)
            except RuleViolation as e:
                raise rule(e) from None
            voter = table.current_voter()
            result = await self.steps.record(table, Tech(seat))
            assert result is not None
            done = reply("game.tech.ok", who=self.notifier.seat(table, seat))
            if table.game.over:
                self.timekeeper.disarm(table)
                await self.results.announce(table, result)
                return done
            await self.results.announce(table, result)
            if table.stage is Stage.NIGHT and not table.paused:
                if not table.mafia_locked and not table.pickers():
                    await self.steps.record(table, MafiaLocked())
                if not table.pending_night():
                    await self.night.resolve(table)
            elif table.stage is Stage.VOTE and voter == seat and not table.paused:
                self.timekeeper.cancel(table, TURN_DL)
                await self.day.next_turn(table, table.turn + 1)
            elif table.stage in (Stage.FATE, Stage.CANCEL):
                # The removed player's votes no longer count: the verdict is decided again
                # (now, or when the host resumes).
                self.timekeeper.disarm(table)
                await self.steps.record(table, VerdictReset())
                if not table.paused:
                    await self.day.after_votes(table)
            return done

    async def status(self, where: Where, user_id: int) -> Reply:
        """Phase, deadline and the seats still to act (the night's only to the host)."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            left = self.phase_left(table, self.clock())
            stage = f"game.stage.{table.stage}"
            pending: list[int] = []
            if table.stage is Stage.NIGHT and user_id == table.host_id:
                # Who still has to choose tonight tells who has a night action: host only,
                # and only when the host asks (a member's /status is answered in the chat).
                await self.notifier.private(
                    table.host_id, "game.status.night_host",
                    seats=self.notifier.seat_list(table, table.pending_night()))
            elif table.stage is Stage.VOTE:
                pending = [s for s in table.order[table.turn:]
                           if s in engine.voters(table.game)]
            voters = self.notifier.seat_list(table, pending)
            said = reply(
                "game.status.text", game=table.game_id,
                stage=lambda loc: self.tr.t(loc, stage),
                paused=lambda loc: self.tr.t(loc, "game.status.paused") if table.paused else "",
                deadline=(lambda loc: self.tr.t(loc, "game.status.deadline",
                                                seconds=max(0, round(left)))
                          ) if left is not None else "—",
                # who is still to vote: a line of the vote's status only
                voters=(lambda loc: "\n" + self.notifier.t(loc, "game.status.voters",
                                                           seats=voters)
                        ) if table.stage is Stage.VOTE else "",
                alive=len(table.game.alive) if table.started else len(table.seats))
            if named_table(table) is None:
                return said
            # several tables: the answer says whose status it is
            return reply("tables.status", number=table.number, status=lambda loc: self.notifier.t(
                loc, said.key, **said.kwargs))

    async def pause(self, where: Where, user_id: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.paused:
                raise UserError("game.pause.already")
            if not table.started:
                raise UserError("game.deal.first")
            now = self.clock()
            remaining = {k: max(0.0, (at - now).total_seconds())
                         for k, at in table.deadlines.items()}
            self.timekeeper.disarm(table)
            await self.steps.record(table, Pause(remaining))
            self.steps.change_row(table, GameChange(status=STATUS_PAUSED))
            await self.notifier.club(table, "game.pause.done")
            return reply("game.pause.done")

    async def resume(self, where: Where, user_id: int) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if not table.paused:
                raise UserError("game.pause.not_paused")
            deadlines: DueAt = {k: self.timekeeper.at(v) for k, v in table.remaining.items()}
            await self.steps.record(table, Resume(deadlines))
            self.steps.change_row(table, GameChange(status=STATUS_RUNNING))
            await self.notifier.club(table, "game.pause.resumed")
            self.timekeeper.arm(table)
            if table.stage is Stage.VOTE and table.current_voter() is None:
                await self.day.after_votes(table)  # a verdict reset while paused
            return reply("game.pause.resumed")

    async def extend(self, where: Where, user_id: int, seconds: float) -> Reply:
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            if table.paused:
                raise UserError("game.paused")
            if not 0 < seconds <= MAX_EXTEND:
                raise UserError("game.extend.bad", max=MAX_EXTEND)
            if not table.deadlines:
                raise UserError("game.extend.nothing")
            deadlines: DueAt = {k: at + timedelta(seconds=seconds)
                                    for k, at in table.deadlines.items()}
            await self.steps.record(table, Extend(deadlines))
            self.timekeeper.arm(table)
            await self.notifier.club(table, "game.extend.done", seconds=secs(seconds))
            return reply("game.extend.done", seconds=secs(seconds))

    async def end_game(self, where: Where, user_id: int) -> Reply:
        """``/endgame``: abort; nobody gets points and every fine taken is given back (a
        reversing row per standing foul's fine, written with the abort: one transaction;
        the fouls stay on the record); the deal is revealed when there was one."""
        table = self.tables.in_chat(where, user_id)
        async with self.steps.lock(table.game_id):
            self.steps.by_host(table, user_id)
            self.timekeeper.disarm(table)
            await self.steps.record(table, Aborted())
            self.steps.change_row(table, GameChange(status=STATUS_ABORTED,
                                                    fines=self._returned(table)))
            await self.notifier.club(table, "game.aborted")
            if table.started:
                await self.results.reveal(table)
                await end_offers(table, self.notifier)
        # once durable: a table gone from memory is a game whose row says so already
        self.tables.drop(table.game_id)
        return reply("game.aborted_ok")

    def _returned(self, table: Table) -> tuple[Fine, ...]:
        """The fines of the fouls standing (an undone one's fine is back already)."""
        if not table.started:
            return ()
        today = self.clock().date()
        return tuple(Fine(table.tg_of(f.seat), f.points, str(engine.FineReason.GAME_ABORTED),
                          f.phase, today)
                     for f in table.game.fouls if f.points and not f.undone)

    async def refuse_blocked(self, tg_id: int) -> bool:
        """An account blocked by the administration acts in a game: True when ``tg_id`` sits
        at an open table (the action must be refused; nothing it does changes the game). The
        host is told once per game and decides (e.g. ``/tech``)."""
        table = self.tables.of_player(tg_id)
        if table is None:
            return False
        seat = table.seat_of(tg_id)
        assert seat is not None
        if (table.game_id, tg_id) not in self._told_blocked:
            self._told_blocked.add((table.game_id, tg_id))
            await self.notifier.private(table.host_id, "game.blocked_account.host",
                                        who=self.notifier.seat(table, seat), seat=seat)
        return True

    async def on_blocked(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id``: tell the host (the deadline goes on), and
        mark the seat on the host's panel (a step of the game: the panel follows it)."""
        table = self.tables.of_player(chat_id)
        if table is None or chat_id == table.host_id:
            return
        async with self.steps.lock(table.game_id):
            seat = table.seat_of(chat_id)
            if seat is None or seat in table.memory.blocked_told or not table.open:
                return  # the host is told once
            table.memory.blocked_told.add(seat)
            await self.notifier.private(table.host_id, "game.blocked_bot",
                                        who=self.notifier.seat(table, seat),
                                        sex=sex_of(table.sex(seat)))

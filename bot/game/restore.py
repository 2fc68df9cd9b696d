"""After a restart: rebuild every running game from its log, finish what the crash interrupted,
send again the open prompts that never reached their players and re-arm the deadlines."""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier, message_ref
from bot.game.rooms.day import DayRoom
from bot.game.rooms.deal import DealRoom
from bot.game.rooms.lobby import LobbyRoom
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.rooms.night import NightRoom
from bot.game.rooms.results import ResultsRoom
from bot.game.steps import Steps
from bot.game.tables import TableDefaults, Tables
from bot.game.timekeeper import Timekeeper
from record.log_events import decode
from record.table import TURN_DL, SeatInfo, Stage, Table
from storage.db import Database
from storage.models import STATUS_ABORTED

log = logging.getLogger("bot.game")


class Restorer:
    """Runs once at startup (the dispatcher's, ``bot/wiring.py``), before any update is handled."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, timekeeper: Timekeeper,
                 defaults: TableDefaults, notifier: Notifier, locales: Languages, *,
                 results: ResultsRoom, lobby: LobbyRoom, lobby_post: LobbyPost,
                 dealer: DealRoom, night: NightRoom, day: DayRoom) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.defaults = defaults  # a rebuilt table's day and timers, as at its opening
        self.notifier = notifier
        self.locales = locales
        self.results = results
        self.lobby = lobby
        self.lobby_post = lobby_post
        self.dealer = dealer
        self.night = night
        self.day = day

    async def restore(self, clubs: Collection[int] | None = None) -> list[int]:
        """Rebuild every running game (of ``clubs``: those this process took over, when
        several share the work) from its log, re-arm deadlines, send again the open prompts
        the outbox did not deliver and does not hold (one delivered or queued is the prompt
        still: ``Prompts.kept_prompt``)."""
        restored = []
        for game in await self.db.games.running(None if clubs is None else sorted(clubs)):
            if game.id in self.tables.by_id:
                continue  # this process runs it already
            try:
                table = await self.rebuild(game.id)
            except Exception:
                log.exception("cannot rebuild game %s", game.id)
                continue
            if table.stage is Stage.ABORTED:  # the crash came inside /endgame
                await self.db.games.set_status(game.id, STATUS_ABORTED)
                continue
            self.tables.add(table)
            restored.append(game.id)
            async with self.steps.lock(game.id):
                await self._resume_after_restart(table)
                self.results.rearm_last_word(table)
        return restored

    async def rebuild(self, game_id: int) -> Table:
        game = await self.db.games.get(game_id)
        club = await self.db.clubs.get(game.club_chat_id)
        table = Table(game.id, game.club_chat_id, game.host_id,
                      self.defaults.day_of(club, game.created_at),
                      number=game.table_no, thread=game.thread_id, own_topic=game.own_topic,
                      locale=club.locale if club is not None else self.locales.default,
                      timers=self.defaults.club_timers(club), opened_at=game.created_at)
        await self.locales.load_player(game.host_id)
        for seat in game.seats:
            player = await self.db.players.get(seat.tg_id)
            name = (player.nickname or player.display_name) if player else str(seat.tg_id)
            table.seats[seat.seat] = SeatInfo(seat.seat, seat.tg_id, name)
            await self.locales.load_player(seat.tg_id)
        for event in await self.db.games.events(game_id):
            table.apply(decode(event.kind, event.payload), event.seq)
        return table

    async def _resume_after_restart(self, table: Table) -> None:
        if table.stage is Stage.LOBBY:
            if not table.lobby_posted:
                # the crash came between the game's row and its post
                await self.lobby_post.post(table)
            self.lobby.arm_expiry(table)
            return
        if table.stage is not Stage.OVER and not table.game.over:
            # told once per restart (a second restart with nothing new in between says nothing)
            await self.notifier.club(table, "game.restarted",
                                     ref=message_ref(table, "restarted", table.seq))
        if not table.deal_announced:
            await self.dealer.announce_deal(table)  # the crash came right after the deal
        if table.last_result is not None and table.resolved_seq > table.announced:
            await self.results.announce(table, table.last_result)  # the crash came before it
            if not table.open or table.game.over:
                return
        if table.stage is Stage.OVER:
            await self.results.finish(table)
            return
        if table.paused:
            return
        if table.stage is Stage.NIGHT:
            if not table.pending_night():
                await self.night.resolve(table)  # the crash came after the last choice
                return
            for seat in table.pending_night():
                if table.is_picker(seat):
                    continue
                await self.night.prompt(table, seat, again=True)
            if not table.mafia_locked:
                for seat in table.pickers():
                    await self.night.prompt(table, seat, again=True)
        elif table.stage is Stage.VOTE:
            voter = table.current_voter()
            if voter is None:
                await self.day.after_votes(table)  # the crash came between the last vote and tally
                return
            if voter in table.votes or voter in table.timeouts:
                await self.day.next_turn(table, table.turn + 1)  # ... or before the next turn
                return
            if TURN_DL not in table.deadlines:
                await self.day.next_turn(table, table.turn)  # ... or before the first turn
                return
            await self.day.vote_prompt(table, voter, again=True)
        elif table.stage is Stage.CANCEL:
            condemned = table.condemned()
            for lawyer in table.lawyers:
                await self.day.cancel_prompt(table, lawyer, condemned, again=True)
        elif table.stage is Stage.FATE:
            await self.day.fate_prompt(table, self.day.tally(table).tied, again=True)
        self.timekeeper.arm(table)

"""The game service: the one object the handlers and the wiring hold (``games: GameService``).

It builds the shared core (:mod:`bot.game.core`) and the rooms of the evening on it, and answers
every action by handing it to the room it belongs to — this file is the game's table of contents:

* :mod:`bot.game.rooms.lobby` — ``/newgame``, seats, "Давай дружить" orders;
* :mod:`bot.game.rooms.guests` — tonight's signed-up players: the host's invitation, the
  check-in;
* :mod:`bot.game.rooms.deal` — ``/roles``, ``/fate``, ``/deal``, the cards, ``/myrole``;
* :mod:`bot.game.rooms.night` — ``/night``, prompts, the Mafia's window, choices, the resolution;
* :mod:`bot.game.rooms.day` — ``/day``, ``/vote``, turns, tally, fate, the Lawyers, the verdict,
  ``/speak``;
* :mod:`bot.game.rooms.results` — announcing a result, last words, the end of the game;
* :mod:`bot.game.rooms.host` — ``/status``, ``/tech``, ``/pause``, ``/resume``, ``/extend``,
``/endgame``;
* :mod:`bot.game.rooms.fouls` — ``/foul``, ``/unfoul``, fines, the offer of the technical death;
* :mod:`bot.game.panel.view` — ``host_view`` and ``host_act``: the host's table and actions
  (the private panel and the Mini App use them; each action calls its command's method);
* :mod:`bot.game.restore` — rebuilding and resuming every running game after a restart.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Collection

import engine
from bot.game.core import GameCore, MayHost, Place, Reply, Where, nobody_hosts, reply, rule
from bot.game.messages.notifier import Notifier
from bot.game.panel.live import HostPanel
from bot.game.panel.view import HostDesk, HostView, countdown
from bot.game.restore import Restorer
from bot.game.rooms.day import DayService
from bot.game.rooms.deal import DealService
from bot.game.rooms.fouls import FoulDesk
from bot.game.rooms.friends import FriendOrders
from bot.game.rooms.guests import EveningGuests
from bot.game.rooms.host import HostControls
from bot.game.rooms.lobby import LobbyService, Topics
from bot.game.rooms.night import NightService
from bot.game.rooms.results import Results
from bot.game.timers import Clock, Deadlines, utc_now
from record.table import GameTimers, Stage, Table
from storage.db import Database
from views.i18n import Translator

__all__ = ["GameService", "HostView", "Place", "Reply", "Topics", "Where", "reply", "rule"]


class GameService:
    def __init__(
        self,
        db: Database,
        notifier: Notifier,
        deadlines: Deadlines,
        translator: Translator,
        *,
        timers: GameTimers | None = None,
        may_host: MayHost = nobody_hosts,
        clock: Clock = utc_now,
        default_locale: str = "ru",
        bot_username: str = "",
        rng: random.Random | None = None,
        new_seed: Callable[[], bytes] = engine.new_seed,
        panel: bool = False,
        web_url: str | None = None,
        topics: Topics | None = None,
        pages_url: str | None = None,
        zone: str = "UTC",
        lobby_ttl: float | None = None,
    ) -> None:
        self.core = core = GameCore(
            db, notifier, deadlines, translator, timers=timers or GameTimers(),
            may_host=may_host, clock=clock, default_locale=default_locale,
            bot_username=bot_username, rng=rng or secrets.SystemRandom(), new_seed=new_seed,
            zone=zone)
        self.results = Results(core, pages_url)
        self.lobby = LobbyService(core, topics)
        self.lobby.ttl = lobby_ttl
        self.friends = FriendOrders(core)
        self.guests = EveningGuests(core, self.lobby)
        self.dealer = DealService(core, self.lobby, self.friends)
        self.night = NightService(core, self.results)
        self.day = DayService(core, self.results)
        self.host = HostControls(core, self.results, self.night, self.day,
                                 lambda table, now: countdown(core, table, now).left)
        self.whistle = FoulDesk(core, self.host)
        self.restorer = Restorer(core, self.results, self.lobby, self.dealer, self.night,
                                 self.day)
        self._background: set[asyncio.Task[None]] = set()

        # The lobby
        self.join_link = self.lobby.join_link
        self.join = self.lobby.join
        self.join_hook = self.lobby.join_hook
        self.leave = self.lobby.leave
        self.reseat = self.lobby.reseat
        self.add_offline = self.lobby.add_offline
        self.consent = self.lobby.consent
        self.host_left = self.lobby.host_left
        self.unseat = self.lobby.unseat
        self.invite = self.guests.invite
        self.invite_at = self.guests.invite_at
        self.check_in = self.guests.check_in
        self.friend_menu = self.friends.friend_menu
        self.friend_markup = self.friends.friend_markup
        self.friend_choose = self.friends.friend_choose
        self.friend_decide = self.friends.friend_decide
        # The deal
        self.parse_roles = self.dealer.parse_roles
        self.roles_text = self.dealer.roles_text
        self.composition = self.dealer.composition
        self.set_fate_mode = self.dealer.set_fate_mode
        self.deal = self.dealer.deal
        self.my_role = self.dealer.my_role
        # The night
        self.start_night = self.night.start_night
        self.choose = self.night.choose
        # The day
        self.start_day = self.day.start_day
        self.start_vote = self.day.start_vote
        self.vote = self.day.vote
        self.fate = self.day.fate
        self.cancel = self.day.cancel
        self.give_word = self.day.give_word
        # The host's controls
        self.status = self.host.status
        self.technical_death = self.host.technical_death
        self.pause = self.host.pause
        self.resume = self.host.resume
        self.extend = self.host.extend
        self.end_game = self.host.end_game
        self.refuse_blocked = self.host.refuse_blocked
        # Fouls
        self.foul = self.whistle.foul
        self.undo_foul = self.whistle.undo
        self.foul_offer = self.whistle.offer
        # The host's table (the panel, the Mini App): one read model, one action entry point
        self.desk = HostDesk(core, self)
        self.host_view = self.desk.view
        self.host_act = self.desk.act
        # The host's live panel in private (off in service tests that count the host's messages)
        self.panel = HostPanel(core, self.desk, web_url)
        if panel:
            core.after_step = self.panel.refresh

    async def restore(self, clubs: Collection[int] | None = None) -> list[int]:
        """The running games back after a restart or a takeover (:mod:`bot.game.restore`);
        a lobby's host is offered tonight's list again (its invitations are the database's)."""
        restored = await self.restorer.restore(clubs)
        for game_id in restored:
            table = self.core.tables.get(game_id)
            if table is not None:
                await self.guests.offer(table)
        return restored

    async def open_lobby(self, where: Where, title: str, user_id: int, *,
                         is_admin: bool = False) -> Table:
        """``/newgame``: a table's lobby; on the night of the club's evening its host is
        offered the signed-up players first (:mod:`bot.game.rooms.guests`)."""
        table = await self.lobby.open_lobby(where, title, user_id, is_admin=is_admin)
        await self.guests.offer(table)
        return table

    # ------------------------------------------------------------------ a supergroup
    async def on_blocked(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id`` (a 403): a player's seat is marked and the
        host told; a host's panel is no longer drawn (until ``/panel``: nothing would reach)."""
        self.panel.unreachable(chat_id)
        await self.host.on_blocked(chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The club's group became a supergroup: its tables follow; an open lobby is posted
        again in the new chat (the old lobby message cannot be edited there). The post runs
        as its own task: this hook may fire inside a step that holds the game's lock."""
        for table in self.core.move_chat(old_chat_id, new_chat_id):
            if table.stage is Stage.LOBBY:
                task = asyncio.create_task(self.lobby.repost(table))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ shared state
    @property
    def tables(self) -> dict[int, Table]:
        """The running games, by game id."""
        return self.core.tables

    @property
    def notifier(self) -> Notifier:
        return self.core.notifier

    @property
    def tr(self) -> Translator:
        return self.core.tr

    @property
    def bot_username(self) -> str:
        return self.core.bot_username

    @bot_username.setter
    def bot_username(self, name: str) -> None:  # learnt at startup (deep links)
        self.core.bot_username = name

    def locale_of(self, tg_id: int) -> str:
        return self.core.locale_of(tg_id)

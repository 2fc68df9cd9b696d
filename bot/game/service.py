"""The game service: the one object the handlers and the wiring hold (``games: GameService``).

It builds the game layer's parts, each given in its constructor only the parts it uses, in the
order they depend on each other, and answers every action by handing it to the room it belongs
to — this file is the game's table of contents. The parts every room stands on:

* :mod:`bot.game.tables` — the running tables (``Tables``) and what a new table starts from
  (``TableDefaults``);
* :mod:`bot.game.steps` — a game's step: its lock, its log events, its one write
  (``Steps``, writing through :mod:`bot.game.writes`);
* :mod:`bot.game.timekeeper` — the tables' deadlines on the scheduler (``Timekeeper``);
* :mod:`bot.game.guards` — the checks (pure functions); :mod:`bot.game.answers` — the replies;
* :mod:`bot.game.prompts` — a moment's private prompts; :mod:`bot.game.languages` — the
  players' languages.

The rooms of the evening (:mod:`bot.game.rooms`):

* :mod:`bot.game.rooms.lobby` — ``/newgame``, the lobby's end (its time up, its host gone);
  :mod:`bot.game.rooms.lobby_post` — the lobby's post;
* :mod:`bot.game.rooms.seats` — Join, Leave, ``/seat``, ``/addseat``, ``/unseat`` (a seat taken:
  :mod:`bot.game.rooms.seating`); :mod:`bot.game.rooms.consent` — the Telegram player a host's
  ``/addseat`` names is asked first; :mod:`bot.game.rooms.friends` — "Давай дружить" orders;
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

and around them:

* :mod:`bot.game.panel.view` — ``host_view`` and ``host_act``: the host's table and actions
  (the private panel and the Mini App use them; each action calls its command's method);
* :mod:`bot.game.panel.live` — the host's private panel, redrawn after every step;
* :mod:`bot.game.restore` — rebuilding and resuming every running game after a restart.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Collection, Sequence

import engine
from bot.clock import Clock, utc_now
from bot.game.answers import Reply, reply
from bot.game.guards import rule
from bot.game.languages import Languages
from bot.game.messages.notifier import Markup, Notifier
from bot.game.panel.live import HostPanel
from bot.game.panel.view import HostDesk, HostView, countdown
from bot.game.prompts import Prompts
from bot.game.restore import Restorer
from bot.game.rooms.consent import ConsentRoom
from bot.game.rooms.day import DayRoom
from bot.game.rooms.deal import DealRoom
from bot.game.rooms.fouls import FoulsRoom
from bot.game.rooms.friends import FriendsRoom
from bot.game.rooms.guests import GuestList, GuestsRoom
from bot.game.rooms.host import HostRoom
from bot.game.rooms.lobby import LobbyRoom, MayHost, Topics, nobody_hosts
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.rooms.night import NightRoom
from bot.game.rooms.results import ResultsRoom
from bot.game.rooms.seating import LobbySeating
from bot.game.rooms.seats import SeatsRoom
from bot.game.steps import Steps
from bot.game.tables import Place, TableDefaults, Tables, Where
from bot.game.timekeeper import Timekeeper
from bot.game.timers import Deadlines
from bot.game.writes import StepWriter
from engine import FoulReason, Role
from record.table import GameTimers, Stage, Table
from storage.db import Database
from storage.models import Player
from views.i18n import Translator

__all__ = ["GameService", "HostView", "MayHost", "Place", "Reply", "Topics", "Where", "reply",
           "rule"]


class GameService:
    """The facade of the game layer: its parts, built here, and one method per action."""

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
        bot_username: Callable[[], str] = lambda: "",
        rng: random.Random | None = None,
        new_seed: Callable[[], bytes] = engine.new_seed,
        panel: bool = False,
        web_url: str | None = None,
        topics: Topics | None = None,
        pages_url: str | None = None,
        zone: str = "UTC",
        lobby_ttl: float | None = None,
    ) -> None:
        self.db = db
        self.notifier = notifier  # every club post and private message leaves here
        self.tr = translator
        self.clock = clock  # the game layer's time (its deadlines' scheduler runs on it too)
        # the parts every room stands on
        self.registry = tables = Tables()  # the running games
        defaults = TableDefaults(timers or GameTimers(), zone)
        writes = StepWriter(db, lambda: notifier.sender)  # the steps' writes, after their locks
        self.steps = steps = Steps(db, tables, notifier, writes, clock,
                                   after_step=self._after_step if panel else None)
        self.timekeeper = timekeeper = Timekeeper(deadlines, clock, steps, tables, defaults,
                                                  db, notifier)
        self.locales = Languages(db, default_locale)  # the players' languages
        self.prompts = Prompts(db, notifier)  # the moments' private prompts
        # the rooms, each after the rooms it calls
        self.results = ResultsRoom(db, tables, steps, timekeeper, defaults, notifier,
                                   self.prompts, pages_url)
        self.guest_list = GuestList(db, tables, clock)  # tonight's list at the lobbies
        self.lobby_post = LobbyPost(db, steps, notifier, bot_username=bot_username)
        self.seating = LobbySeating(tables, steps, self.lobby_post)  # a seat taken, given up
        # the consent room is the ``asks`` wherever it is held (``consent`` is the answer)
        self.asks = ConsentRoom(db, tables, steps, notifier, self.locales, self.lobby_post,
                                self.seating)
        self.seats = SeatsRoom(db, tables, steps, notifier, self.locales, self.lobby_post,
                               self.seating, self.asks, hold=self.guest_list.hold)
        self.lobby = LobbyRoom(db, tables, steps, timekeeper, defaults, notifier, self.locales,
                               self.lobby_post, self.asks, may_host=may_host, topics=topics,
                               ttl=lobby_ttl)
        self.friends = FriendsRoom(db, tables, steps, notifier)
        self.guests = GuestsRoom(db, tables, steps, notifier, self.locales, self.guest_list,
                                 self.seats)
        # the deal's room is the ``dealer`` wherever it is held (``deal`` is the action)
        self.dealer = DealRoom(db, tables, steps, notifier, self.asks, self.friends, new_seed)
        self.night = NightRoom(tables, steps, timekeeper, notifier, self.prompts, self.results)
        self.day = DayRoom(tables, steps, timekeeper, notifier, self.prompts, self.results,
                           rng or secrets.SystemRandom())
        self.host = HostRoom(tables, steps, timekeeper, notifier, self.results, self.night,
                             self.day, lambda table, now: countdown(
                                 table, now, timekeeper.timers(table)).left)
        self.fouls = FoulsRoom(db, tables, steps, notifier, self.host)
        self.restorer = Restorer(db, tables, steps, timekeeper, defaults, notifier, self.locales,
                                 results=self.results, lobby=self.lobby,
                                 lobby_post=self.lobby_post, dealer=self.dealer,
                                 night=self.night, day=self.day)
        self._background: set[asyncio.Task[None]] = set()
        # The host's table (the panel, the Mini App): one read model, one action entry point
        self.desk = HostDesk(db, tables, timekeeper, seats=self.seats, guests=self.guests,
                             dealer=self.dealer, night=self.night, day=self.day, host=self.host,
                             fouls=self.fouls)
        # The host's live panel in private (off in service tests that count the host's messages)
        self.panel = HostPanel(tables, steps, timekeeper, notifier, self.locales, self.desk,
                               web_url)

    async def _after_step(self, table: Table, by_host: bool) -> None:
        """The end of every step that went through: the host's panel follows the table."""
        await self.panel.refresh(table, by_host)

    # ------------------------------------------------------------------ the lobby
    async def join(self, game_id: int, tg_id: int, account: Player | None = None) -> Reply:
        return await self.seats.join(game_id, tg_id, account)

    async def join_hook(self, tg_id: int, game_id: int, locale: str) -> bool:
        return await self.seats.join_hook(tg_id, game_id, locale)

    async def leave(self, game_id: int, tg_id: int) -> Reply:
        return await self.seats.leave(game_id, tg_id)

    async def reseat(self, where: Where, user_id: int, nick: str, position: int) -> Reply:
        return await self.seats.reseat(where, user_id, nick, position)

    async def add_offline(self, where: Where, user_id: int, nick: str, sex: str | None) -> Reply:
        return await self.seats.add_offline(where, user_id, nick, sex)

    async def consent(self, game_id: int, tg_id: int, yes: bool) -> Reply:
        return await self.asks.consent(game_id, tg_id, yes)

    async def host_left(self, chat_id: int, tg_id: int) -> None:
        return await self.lobby.host_left(chat_id, tg_id)

    async def unseat(self, where: Where, user_id: int, nick: str) -> Reply:
        return await self.seats.unseat(where, user_id, nick)

    async def invite(self, game_id: int, user_id: int) -> Reply:
        return await self.guests.invite(game_id, user_id)

    async def invite_at(self, where: Where, user_id: int) -> Reply:
        return await self.guests.invite_at(where, user_id)

    async def check_in(self, game_id: int, evening_id: int, tg_id: int,
                       account: Player | None = None) -> Reply:
        return await self.guests.check_in(game_id, evening_id, tg_id, account)

    async def friend_menu(self, tg_id: int) -> tuple[Table, list[int]]:
        return await self.friends.friend_menu(tg_id)

    def friend_markup(self, table: Table, seats: Sequence[int]) -> Markup:
        return self.friends.friend_markup(table, seats)

    async def friend_choose(self, game_id: int, tg_id: int, holder: int, announce: int) -> Reply:
        return await self.friends.friend_choose(game_id, tg_id, holder, announce)

    async def friend_decide(self, game_id: int, user_id: int, order_id: int, accept: bool) -> Reply:
        return await self.friends.friend_decide(game_id, user_id, order_id, accept)

    # ------------------------------------------------------------------ the deal
    def parse_roles(self, text: str, locale: str) -> list[Role]:
        return self.dealer.parse_roles(text, locale)

    def roles_text(self, locale: str, cards: Sequence[Role]) -> str:
        return self.dealer.roles_text(locale, cards)

    async def composition(self, where: Where, user_id: int, text: str | None) -> Reply:
        return await self.dealer.composition(where, user_id, text)

    async def set_fate_mode(self, where: Where, user_id: int, by_host: bool) -> Reply:
        return await self.dealer.set_fate_mode(where, user_id, by_host)

    async def deal(self, where: Where, user_id: int) -> Reply:
        return await self.dealer.deal(where, user_id)

    async def my_role(self, tg_id: int) -> Reply:
        return await self.dealer.my_role(tg_id)

    # ------------------------------------------------------------------ the night
    async def start_night(self, where: Where, user_id: int) -> Reply:
        return await self.night.start_night(where, user_id)

    async def choose(self, game_id: int, tg_id: int, moment: int, target: int, *,
                     for_seat: int | None = None) -> Reply:
        return await self.night.choose(game_id, tg_id, moment, target, for_seat=for_seat)

    # ------------------------------------------------------------------ the day
    async def start_day(self, where: Where, user_id: int) -> Reply:
        return await self.day.start_day(where, user_id)

    async def start_vote(self, where: Where, user_id: int) -> Reply:
        return await self.day.start_vote(where, user_id)

    async def vote(self, game_id: int, tg_id: int, moment: int, target: int, *,
                   for_seat: int | None = None) -> Reply:
        return await self.day.vote(game_id, tg_id, moment, target, for_seat=for_seat)

    async def fate(self, game_id: int, user_id: int, moment: int, target: int) -> Reply:
        return await self.day.fate(game_id, user_id, moment, target)

    async def cancel(self, game_id: int, tg_id: int, moment: int, *,
                     for_seat: int | None = None) -> Reply:
        return await self.day.cancel(game_id, tg_id, moment, for_seat=for_seat)

    async def give_word(self, where: Where, user_id: int, seat: int, by: int | None) -> Reply:
        return await self.day.give_word(where, user_id, seat, by)

    # ------------------------------------------------------------------ the host's controls
    async def status(self, where: Where, user_id: int) -> Reply:
        return await self.host.status(where, user_id)

    async def technical_death(self, where: Where, user_id: int, seat: int) -> Reply:
        return await self.host.technical_death(where, user_id, seat)

    async def pause(self, where: Where, user_id: int) -> Reply:
        return await self.host.pause(where, user_id)

    async def resume(self, where: Where, user_id: int) -> Reply:
        return await self.host.resume(where, user_id)

    async def extend(self, where: Where, user_id: int, seconds: float) -> Reply:
        return await self.host.extend(where, user_id, seconds)

    async def end_game(self, where: Where, user_id: int) -> Reply:
        return await self.host.end_game(where, user_id)

    async def refuse_blocked(self, tg_id: int) -> bool:
        return await self.host.refuse_blocked(tg_id)

    # ------------------------------------------------------------------ fouls
    async def foul(self, where: Where, user_id: int, seat: int,
                   reason: FoulReason = FoulReason.OTHER, note: str | None = None, *,
                   expect: int | None = None, confirm: bool = False) -> Reply:
        return await self.fouls.foul(where, user_id, seat, reason, note, expect=expect,
                                     confirm=confirm)

    async def undo_foul(self, where: Where, user_id: int, number: int | None = None, *,
                        confirm: bool = False) -> Reply:
        return await self.fouls.undo(where, user_id, number, confirm=confirm)

    async def foul_offer(self, game_id: int, user_id: int, number: int, accept: bool) -> Reply:
        return await self.fouls.offer(game_id, user_id, number, accept)

    # ------------------------------------------------------------------ the host's table
    async def host_view(self, game_id: int, user_id: int) -> HostView:
        """The host's table as the panel and the Mini App draw it (:mod:`bot.game.panel.view`)."""
        return await self.desk.view(game_id, user_id)

    async def host_act(self, game_id: int, user_id: int, action: str,
                       arg: int | str | None = None, *, moment: int | None = None) -> Reply:
        """One of the host's actions, by the same room method as its typed command."""
        return await self.desk.act(game_id, user_id, action, arg, moment=moment)

    # ------------------------------------------------------------------ a restart
    async def restore(self, clubs: Collection[int] | None = None) -> list[int]:
        """The running games back after a restart or a takeover (:mod:`bot.game.restore`);
        a lobby's host is offered tonight's list again (its invitations are the database's)."""
        restored = await self.restorer.restore(clubs)
        for game_id in restored:
            table = self.registry.by_id.get(game_id)
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
        for table in self.registry.move_chat(old_chat_id, new_chat_id):
            if table.stage is Stage.LOBBY:
                task = asyncio.create_task(self.lobby_post.repost(table))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ shared state
    @property
    def tables(self) -> dict[int, Table]:
        """The running games, by game id."""
        return self.registry.by_id

    def locale_of(self, tg_id: int) -> str:
        return self.locales.locale_of(tg_id)

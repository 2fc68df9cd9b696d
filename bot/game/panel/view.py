"""The host's view of a table and the host's actions on it: one read model (:class:`HostView`)
and one entry point (:meth:`HostDesk.act`) shared by the private panel (``bot/game/panel/live.py``)
and the Mini App (``web/``). An action is handed to the SAME room method its typed command
calls, so a press and a command pass the same checks; :func:`legal_actions` asks the same
predicates (:func:`bot.game.guards.can_start_phase`, the engine) to show only what may be done
now.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import engine
from bot.errors import UserError
from bot.game.answers import Reply
from bot.game.guards import can_start_phase, require_host
from bot.game.rooms.day import DayRoom
from bot.game.rooms.deal import DealRoom
from bot.game.rooms.fouls import FoulsRoom
from bot.game.rooms.guests import GuestsRoom, Tonight, tonight_of
from bot.game.rooms.host import HostRoom
from bot.game.rooms.night import NightRoom
from bot.game.rooms.seats import SeatsRoom
from bot.game.tables import Tables, named_table
from bot.game.timekeeper import Timekeeper
from engine import FoulReason, Phase
from engine.composition import MAX_PLAYERS, MIN_PLAYERS
from record.table import CANCEL_DL, FATE_DL, MAFIA_DL, NIGHT_DL, TURN_DL, GameTimers, Stage, Table
from storage.db import Database
from storage.numbers import MAX_DIGITS, read_number

EXTEND_SECONDS = 30  # the panel's "+30 s"
PRESETS = ("club", "default")  # the club's saved composition for the table's size; the bot's
DAY_STAGES = (Stage.DAY, Stage.VOTE, Stage.FATE, Stage.CANCEL)
FOUL_REASONS = tuple(r.value for r in FoulReason)  # in the order the host's pickers show them
# every action of the host's table, in the order the Mini App shows them (the panel groups them
# in rows of its own): what is legal now is :func:`legal_actions`, read by both
ACTIONS = ("invite", "deal", "preset", "seat", "unseat", "night", "day", "vote", "fate",
           "extend", "pause", "resume", "speak", "foul", "unfoul", "tech", "fate_mode", "end")
# the deadline that ends each phase (the vote's: its turns); a shorter window inside it, named
PHASE_DEADLINES = {Stage.NIGHT: NIGHT_DL, Stage.FATE: FATE_DL, Stage.CANCEL: CANCEL_DL}
WINDOWS = {Stage.NIGHT: MAFIA_DL, Stage.VOTE: TURN_DL}


@dataclass(frozen=True)
class HostSeat:
    seat: int
    name: str  # raw: escape it when it goes into HTML
    alive: bool
    jailed: bool
    offline: bool  # the host presses this seat's buttons (no Telegram)
    acted: bool  # chose tonight (night) or voted (vote); seats only, never the role
    blocked: bool = False  # the player blocked the bot: gets no prompt (the timer acts)
    fouls: int = 0  # the player's fouls in this game that stand (not undone)


@dataclass(frozen=True)
class ChoiceView:
    """A night choice so far, with the chooser's card (the host's whole truth)."""

    seat: int
    role: str
    target: int


@dataclass(frozen=True)
class FoulView:
    """A foul of this game that stands (the host may undo it)."""

    number: int
    seat: int
    reason: str  # engine.FoulReason's value
    points: int  # the fine it took


@dataclass(frozen=True)
class HostView:
    game_id: int
    chat_id: int
    stage: str  # record.table.Stage's value
    moment: int  # buttons carry it: a press from an older moment is stale
    night: int  # the night being played, or the last one (0: none yet)
    day: int  # the day being played, or the last one (0: none yet)
    paused: bool
    deadline: datetime | None  # the phase's own end (None while paused or when nothing waits)
    remaining: float | None  # seconds left of the phase when paused
    seats: tuple[HostSeat, ...]
    choices: tuple[ChoiceView, ...]  # tonight's so far (night only)
    voter: int | None  # whose turn to vote
    votes: tuple[tuple[int, int], ...]  # (voter, target) so far (public anyway)
    tied: tuple[int, ...]  # the shoot-out's candidates while the host draws
    fate_by_host: bool
    presets: dict[str, tuple[str, ...]]  # "club"/"default" -> cards, in the lobby
    composition: tuple[str, ...] | None  # the host's own composition, if set
    actions: frozenset[str]
    fouls: tuple[FoulView, ...] = ()  # the fouls that stand, in order
    next_foul: int = 1  # the number the next foul gets (a button drawn for it: once)
    # a shorter window inside the phase: its name ("mafia": the Mafia's agreement; "turn": the
    # voter's), its end (None while paused) and, paused, the seconds left of it
    window: str | None = None
    window_deadline: datetime | None = None
    window_remaining: float | None = None
    # the table's number when it goes by its name (another table shares its chat, or it plays
    # in a forum's topic): the panel and the Mini App say which table they run
    table: int | None = None
    # the lobby of the club's evening night: tonight's list (the "invite" action invites its
    # next ``more``)
    tonight: Tonight | None = None


def public_day(table: Table) -> tuple[int, int]:
    """(night, day) as the table hears them: the one being played, else the last one."""
    if not table.started:
        return 0, 0
    game = table.game
    night = game.night_number + (1 if table.stage is Stage.NIGHT else 0)
    # the engine's one day number while a day is played (a resolved day keeps its number)
    day = game.current_day if table.stage in DAY_STAGES else game.day_number
    return night, day


@dataclass(frozen=True)
class Countdown:
    """The phase's clock, in seconds left: its own end and a shorter window inside it."""

    left: float | None
    window: str | None = None  # "mafia": the Mafia's agreement; "turn": the voter's
    window_left: float | None = None


def countdown(table: Table, now: datetime, timers: GameTimers) -> Countdown:
    """The night's end (the Mafia's agreement inside it), a shoot-out's draw or the Lawyers'
    window; the vote's end: the voter's turn and every later voter's whole turn (the turn
    inside it, ``timers``: the table's). Paused: the seconds left when the game resumes
    (``Table.remaining``)."""
    if not table.started:
        return Countdown(None)
    left = dict(table.remaining) if table.paused else {
        name: (at - now).total_seconds() for name, at in table.deadlines.items()}
    window = WINDOWS.get(table.stage)
    inner = None if window is None else left.get(window)
    if table.stage is Stage.VOTE:
        if inner is None:
            return Countdown(None)
        game = table.game
        able = set(engine.voters(game))
        later = sum(1 for s in table.order[table.turn + 1:]
                    if s in able and engine.vote_candidates(game, s))
        return Countdown(inner + later * timers.vote_turn, "turn", inner)
    name = PHASE_DEADLINES.get(table.stage)
    end = None if name is None else left.get(name)
    if end is None:
        return Countdown(None)
    if window is None or inner is None or inner >= end:
        return Countdown(end)
    return Countdown(end, "mafia", inner)


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except UserError:
        return False
    return True


def legal_actions(tables: Tables, table: Table) -> frozenset[str]:
    """What the host may do now (the panel's buttons). The services check again."""
    if not table.open:
        return frozenset()
    out = {"end"}
    if table.stage in (Stage.LOBBY, Stage.DEALT):
        out.add("fate_mode")  # before the first phase (the club's next games follow it too)
    if table.stage is Stage.LOBBY:
        tonight = tonight_of(tables, table)
        if tonight is not None and tonight.more:
            out.add("invite")  # the evening's signed-up players first
        out.add("preset")
        if len(table.seats) >= 2:
            out.add("seat")
        if table.seats:
            out.add("unseat")
        if MIN_PLAYERS <= len(table.seats) <= MAX_PLAYERS:
            out.add("deal")
        return frozenset(out)
    out.add("resume" if table.paused else "pause")
    out.add("foul")  # the host's whistle, at any moment of the game, paused too
    if any(not f.undone for f in table.game.fouls):
        out.add("unfoul")
    if any(p.alive for p in table.game):
        out.add("tech")
    if any(p.alive and p.jailed for p in table.game):
        out.add("speak")  # the floor for a prisoner (/speak SEAT [FROM])
    if not table.paused:
        if table.deadlines:
            out.add("extend")
        if _ok(lambda: can_start_phase(table, Phase.NIGHT)):
            out.add("night")
        if _ok(lambda: can_start_phase(table, Phase.DAY)):
            out.add("vote")
            if table.stage is not Stage.DAY and not table.day_first:
                out.add("day")  # a game that starts with a day: its talk announced
        if table.stage is Stage.FATE and table.fate_by_host:
            out.add("fate")
    return frozenset(out)


def build_view(tables: Tables, table: Table, now: datetime, timers: GameTimers,
               presets: dict[str, tuple[str, ...]] | None = None) -> HostView:
    """The snapshot at ``now`` (pure: reads the table, writes nothing); ``timers``: the
    table's."""
    night, day = public_day(table)
    acted: set[int] = set()
    choices: tuple[ChoiceView, ...] = ()
    tied: tuple[int, ...] = ()
    # the votes of the vote under way only (a finished day's stay in the table, not here)
    voting = table.started and table.stage in (Stage.VOTE, Stage.FATE, Stage.CANCEL)
    if table.started:
        game = table.game
        if table.stage is Stage.NIGHT:
            acted = set(table.choices)  # who has chosen tonight (the Mafia: who has picked)
            choices = tuple(ChoiceView(s, str(table.role(s)), t)
                            for s, t in sorted(table.choices.items()))
        elif table.stage in (Stage.VOTE, Stage.FATE, Stage.CANCEL):
            acted = set(table.votes) | set(table.timeouts)
        if table.stage is Stage.FATE:
            full, _ = engine.complete_votes(game, table.valid_votes())
            tied = tuple(engine.tally_votes(full).tied)
    standing = tuple(FoulView(f.number, f.seat, str(f.reason), f.points)
                     for f in (table.game.fouls if table.started else ()) if not f.undone)
    seats = []
    for seat, info in sorted(table.seats.items()):
        player = table.game.players.get(seat) if table.started else None
        seats.append(HostSeat(
            seat, info.name, alive=player is None or player.alive,
            jailed=player is not None and player.jailed, offline=table.is_offline(seat),
            acted=seat in acted, blocked=seat in table.memory.blocked_told,
            fouls=sum(1 for f in standing if f.seat == seat)))
    clock = countdown(table, now, timers)

    def end(left: float | None) -> datetime | None:
        return None if left is None or table.paused else now + timedelta(seconds=left)
    return HostView(
        game_id=table.game_id, chat_id=table.chat_id, stage=str(table.stage), moment=table.moment,
        night=night, day=day, paused=table.paused, deadline=end(clock.left),
        remaining=clock.left if table.paused else None,
        seats=tuple(seats), choices=choices, voter=table.current_voter(),
        votes=tuple(sorted(table.votes.items())) if voting else (), tied=tied,
        fate_by_host=table.fate_by_host,
        presets=presets or {},
        composition=None if table.composition is None else tuple(str(r) for r in
                                                                 table.composition),
        actions=legal_actions(tables, table), fouls=standing,
        next_foul=len(table.game.fouls) + 1 if table.started else 1, window=clock.window,
        window_deadline=end(clock.window_left),
        window_remaining=clock.window_left if table.paused else None,
        table=named_table(table), tonight=tonight_of(tables, table))


class HostDesk:
    """``host_view`` and ``host_act``: the host's table, for the panel and the Mini App."""

    def __init__(self, db: Database, tables: Tables, timekeeper: Timekeeper,
                 *, seats: SeatsRoom, guests: GuestsRoom, dealer: DealRoom,
                 night: NightRoom, day: DayRoom, host: HostRoom, fouls: FoulsRoom) -> None:
        self.db = db
        self.tables = tables
        self.timekeeper = timekeeper  # the view's time and the table's timers
        self.seats, self.guests, self.dealer = seats, guests, dealer
        self.night, self.day, self.host, self.fouls = night, day, host, fouls

    async def presets(self, table: Table) -> dict[str, tuple[str, ...]]:
        """The compositions the lobby's host may pick for its current size."""
        if table.stage is not Stage.LOBBY:
            return {}
        n = len(table.seats)
        out: dict[str, tuple[str, ...]] = {}
        club = await self.db.clubs.preset(table.chat_id, n)
        if club is not None:
            out["club"] = tuple(club)
        with contextlib.suppress(engine.CompositionError):  # too few or too many seats
            out["default"] = tuple(str(r) for r in engine.default_composition(n))
        return out

    def _table(self, game_id: int, user_id: int) -> Table:
        table = self.tables.table(game_id)
        require_host(table, user_id)
        return table

    async def view(self, game_id: int, user_id: int) -> HostView:
        table = self._table(game_id, user_id)
        return self.snapshot(table, await self.presets(table))

    def snapshot(self, table: Table, presets: dict[str, tuple[str, ...]] | None = None
                 ) -> HostView:
        """The host's view of ``table`` now (:func:`build_view`)."""
        return build_view(self.tables, table, self.timekeeper.clock(),
                          self.timekeeper.timers(table), presets)

    async def act(self, game_id: int, user_id: int, action: str,
                  arg: int | str | None = None, *, moment: int | None = None) -> Reply:
        """Do ``action`` for the host. ``moment``, the one the button was drawn at, does not
        matter: an action legal now is done, one that is not is stale (the host's second
        press of "night" is refused; "pause" pressed on the panel still drawn before the
        night began pauses the night). Each action calls the room method of its typed
        command, which checks again."""
        table = self._table(game_id, user_id)
        if action not in legal_actions(self.tables, table):
            raise UserError("game.stale")
        handler = self._actions().get(action)
        if handler is None:
            raise UserError("game.stale")
        return await handler(table, user_id, arg)

    def _actions(self) -> dict[str, Callable[[Table, int, int | str | None],
                                             Awaitable[Reply]]]:
        night, day, host, dealer = self.night, self.day, self.host, self.dealer
        return {
            "night": lambda t, u, a: night.start_night(t.chat_id, u),
            "day": lambda t, u, a: day.start_day(t.chat_id, u),
            "vote": lambda t, u, a: day.start_vote(t.chat_id, u),
            "pause": lambda t, u, a: host.pause(t.chat_id, u),
            "resume": lambda t, u, a: host.resume(t.chat_id, u),
            "extend": lambda t, u, a: host.extend(t.chat_id, u, float(
                EXTEND_SECONDS if a is None else _number(a))),
            "tech": lambda t, u, a: host.technical_death(t.chat_id, u, _number(a)),
            "end": lambda t, u, a: host.end_game(t.chat_id, u),
            "fate": lambda t, u, a: day.fate(t.game_id, u, t.moment, _number(a)),
            "fate_mode": lambda t, u, a: dealer.set_fate_mode(t.chat_id, u, a == "host"),
            "deal": lambda t, u, a: dealer.deal(t.chat_id, u),
            "invite": lambda t, u, a: self.guests.invite(t.game_id, u),
            "preset": self._preset,
            "seat": self._seat,
            "unseat": self._unseat,
            "speak": self._speak,
            "foul": self._foul,
            "unfoul": lambda t, u, a: self.fouls.undo(t.chat_id, u, _number(a)),
        }

    async def _foul(self, table: Table, user_id: int, arg: int | str | None) -> Reply:
        """``arg`` "SEAT:REASON:NUMBER": a foul against SEAT for REASON, the foul NUMBER of the
        game the button was drawn for (its second press is refused: ``/foul SEAT REASON``)."""
        seat, reason, number = [*str(arg).split(":"), "", ""][:3]
        if reason not in FOUL_REASONS:
            raise UserError("game.stale")
        return await self.fouls.foul(table.chat_id, user_id, _number(seat), FoulReason(reason),
                                    expect=_number(number))

    async def _preset(self, table: Table, user_id: int, arg: int | str | None) -> Reply:
        cards = (await self.presets(table)).get(str(arg))
        if cards is None:
            raise UserError("game.stale")
        return await self.dealer.composition(table.chat_id, user_id, ", ".join(cards))

    async def _unseat(self, table: Table, user_id: int, arg: int | str | None) -> Reply:
        """``arg`` the seat: its player leaves the table before the deal (``/unseat NICK``)."""
        seat = _number(arg)
        if seat not in table.seats:
            raise UserError("game.stale")
        return await self.seats.unseat(table.chat_id, user_id, table.name(seat))

    async def _speak(self, table: Table, user_id: int, arg: int | str | None) -> Reply:
        """``arg`` "SEAT" (the floor from the host) or "SEAT:FROM" (FROM gives its time):
        ``/speak SEAT [FROM]``."""
        seat, _, by = str(arg).partition(":")
        return await self.day.give_word(table.chat_id, user_id, _number(seat),
                                        _number(by) if by else None)

    async def _seat(self, table: Table, user_id: int, arg: int | str | None) -> Reply:
        """``arg`` "FROM:TO": the player at seat FROM moves to seat TO (``/seat NICK TO``)."""
        src, _, dst = str(arg).partition(":")
        seat, to = _number(src), _number(dst)
        if seat not in table.seats:
            raise UserError("game.stale")
        return await self.seats.reseat(table.chat_id, user_id, table.name(seat), to)


def _number(arg: int | str | None) -> int:
    """A seat's or a count's number from a button or the Mini App (JSON: a number or a
    string): ASCII digits within bounds, else the press is stale."""
    if isinstance(arg, int) and not isinstance(arg, bool) and 0 <= arg < 10 ** MAX_DIGITS:
        return arg
    found = read_number(arg) if isinstance(arg, str) else None
    if found is None:
        raise UserError("game.stale")
    return found

"""One game's runtime state, rebuilt by replaying its event log through the engine.

``Table.apply(event)`` is the only way the state changes (the events are the classes of
:mod:`record.log_events`): the service appends an event to the log first and then applies it; a
restart applies the same events in the same order, so the rebuilt table is the one that was
lost. Resolutions call the engine again with the recorded choices (and the recorded fate), so
replaying is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import assert_never

import engine
from engine import (
    DayResult,
    FriendImmunity,
    GameState,
    NightResult,
    OpenImmunity,
    Phase,
    Role,
    SeatSpec,
    TechnicalDeathResult,
)
from engine.roles import COMMON_PICK_ROLES
from record.log_events import (
    Aborted,
    Announced,
    CancelWindow,
    Choice,
    Composition,
    DayResolved,
    DayStart,
    Deal,
    DealAnnounced,
    Extend,
    Fate,
    FateMode,
    FateWait,
    FoulCalled,
    FoulOfferClosed,
    FoulUndone,
    Friendly,
    LastWord,
    LastWordOver,
    LobbyMessage,
    LobbyPosted,
    LogEvent,
    MafiaLocked,
    NightResolved,
    NightStart,
    OfflineSeat,
    Pause,
    Resume,
    SeatAskClosed,
    SeatAsked,
    TableNamed,
    Tech,
    Turn,
    VerdictReset,
    Vote,
    VotesDone,
    VoteStart,
    VoteTimeout,
)
from record.posts import Post


@dataclass(frozen=True)
class GameTimers:
    """Seconds (fractions allowed, so tests run fast)."""

    night: float = 60
    mafia_agree: float = 30
    vote_turn: float = 60
    last_word: float = 30
    cancel: float = 20  # the Lawyers' window to cancel a verdict
    fate: float = 60  # the host's draw of a shoot-out; the bot draws when it runs out


class Stage(StrEnum):
    LOBBY = "lobby"  # taking seats
    DEALT = "dealt"  # cards dealt, no phase played yet
    NIGHT = "night"  # collecting night choices
    DAY = "day"  # a night was resolved: the day's talk; /vote starts the vote
    VOTE = "vote"  # voters' turns
    FATE = "fate"  # a shoot-out waits for the host's draw
    CANCEL = "cancel"  # the Lawyers may cancel the verdict
    EVENING = "evening"  # a day was resolved: /night next
    OVER = "over"
    ABORTED = "aborted"


NIGHT_DL, MAFIA_DL, TURN_DL, FATE_DL, CANCEL_DL = "night", "mafia", "turn", "fate", "cancel"

Result = NightResult | DayResult | TechnicalDeathResult


def iso(at: datetime) -> str:
    return at.isoformat()


@dataclass
class SeatInfo:
    seat: int
    tg_id: int
    name: str  # the nickname shown to everyone


@dataclass
class Memory:
    """What the process keeps of a table besides its log: not logged, so a restart starts it
    empty (the prompts are sent again, the posts found again by their outbox keys)."""

    prompts: dict[int, str] = field(default_factory=dict)  # seat -> open prompt's key
    old_prompts: list[tuple[int, str]] = field(default_factory=list)  # (chat, key): resent
    last_post: Post | None = None  # the latest outcome's club post (last words' ends go in)
    vote_post: Post | None = None  # the vote's tally post (the verdict goes in)
    told: set[tuple[int, str]] = field(default_factory=set)  # (moment, event kind) said early
    blocked_told: set[int] = field(default_factory=set)  # seats whose block the host heard of
    # the lobby list's marks by account, the club's first-day killed today, its drawn lines:
    # worked out once, not at every join
    lobby_marks: dict[int, frozenset[OpenImmunity]] = field(default_factory=dict)
    killed_today: frozenset[int] | None = None
    lobby_lines: dict[tuple[str, int, str, frozenset[str], bool], str] = field(default_factory=dict)
    # a club text that states how long its moment lasts -> (the words for once it is over, the
    # moment's end, Unix seconds): a post sent late says the latter (the latest few)
    timed: dict[str, tuple[str, float]] = field(default_factory=dict)
    # the seats by account (``Table.seat_of``): rebuilt when the seats are replaced or grow
    seat_index: tuple[dict[int, SeatInfo], int, dict[int, int]] | None = None


@dataclass
class Table:
    """A game's table. Its fields are what the log rebuilds (``apply``) and the game's row and
    club give a rebuild (its chat, number, topic, language, timers, seats in the lobby), so two
    tables are equal when a restart would rebuild one as the other; ``memory`` is the
    process's own (not compared)."""

    game_id: int
    chat_id: int
    host_id: int
    day: date  # the calendar day of the game (for "killed on the first day")
    stage: Stage = Stage.LOBBY
    moment: int = 0  # the phase's number: +1 at every night and every vote; buttons carry it
    lobby_posted: bool = False  # the lobby's post is queued (logged with it in one step)
    composition: list[Role] | None = None
    fate_by_host: bool = False
    # fixed when the lobby opens (logged): the club is not approved, no point is counted
    friendly: bool = False
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    offline: set[int] = field(default_factory=set)  # accounts whose seat the host plays
    # Telegram players the host asked to seat, not answered yet (tg_id -> name): no seat yet
    asked: dict[int, str] = field(default_factory=dict)
    opened_at: datetime | None = None  # the lobby's opening (the game's row): its expiry
    seed: bytes | None = None
    commitment: str | None = None
    deal_announced: bool = False
    day_first: bool = False  # the host opened the game with a day: its talk announced
    cards: list[Role] = field(default_factory=list)
    state: GameState | None = None
    # the night under way
    choices: dict[int, int] = field(default_factory=dict)
    mafia_locked: bool = False
    # the vote under way
    order: list[int] = field(default_factory=list)
    turn: int = 0  # index into ``order``
    votes: dict[int, int] = field(default_factory=dict)
    timeouts: list[int] = field(default_factory=list)
    fate: int | None = None
    lawyers: list[int] = field(default_factory=list)
    cancel_by: int | None = None
    # deadlines and pause
    deadlines: dict[str, datetime] = field(default_factory=dict)
    paused: bool = False
    remaining: dict[str, float] = field(default_factory=dict)
    stage_before_pause: Stage | None = None
    first_day_dead: set[int] = field(default_factory=set)
    last_result: Result | None = None
    resolved_seq: int = 0  # the log seq of the last resolution (night, day, technical death)
    announced: int = 0  # the resolution seq whose outcome was announced (see the service)
    # the table in its club chat (the game's row): its number, the forum topic it speaks in
    # (None: the chat itself), whether the bot created that topic (closed at the end)
    number: int = 1
    thread: int | None = None
    own_topic: bool = False
    named: bool = False  # its posts start with its name: another table shares its chat (logged)
    locale: str = "ru"  # the club chat's language (not logged: read from the club)
    timers: GameTimers | None = None  # the club's timers (/settings), read like its language
    # the dead speaking: (seats in order, the one speaking now, until when); re-armed at start
    last_words: tuple[list[int], int, datetime] | None = None
    seq: int = 0  # the last applied log sequence number
    foul_notes: dict[int, str] = field(default_factory=dict)  # foul number -> the host's words
    # the offers of the technical death after a foul: open (foul number -> the club's limit
    # it was offered at) and closed (foul number -> how: kept, taken, gone)
    foul_offers: dict[int, int] = field(default_factory=dict)
    foul_offers_closed: dict[int, str] = field(default_factory=dict)
    memory: Memory = field(default_factory=Memory, compare=False, repr=False)

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> GameState:
        assert self.state is not None, "no cards dealt yet"
        return self.state

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def open(self) -> bool:
        return self.stage not in (Stage.OVER, Stage.ABORTED)

    def seat_of(self, tg_id: int) -> int | None:
        # indexed, rebuilt when the seats are replaced or grow (every join asks every table)
        index = self.memory.seat_index
        if index is None or index[0] is not self.seats or index[1] != len(self.seats):
            index = (self.seats, len(self.seats),
                     {s.tg_id: s.seat for s in self.seats.values()})
            self.memory.seat_index = index
        return index[2].get(tg_id)

    def tg_of(self, seat: int) -> int:
        """The seat's account (points, marks); where its messages go is :meth:`chat_of`."""
        return self.seats[seat].tg_id

    def is_offline(self, seat: int) -> bool:
        """The seat's player has no Telegram tonight: the host plays its buttons."""
        return seat in self.seats and self.seats[seat].tg_id in self.offline

    def chat_of(self, seat: int) -> int:
        """The private chat of a seat: its player's, or the host's for an offline seat (the one
        place a seat maps to a chat: the notifier and the rooms send through it)."""
        return self.host_id if self.is_offline(seat) else self.seats[seat].tg_id

    def name(self, seat: int) -> str:
        return self.seats[seat].name if seat in self.seats else "?"

    def role(self, seat: int) -> Role:
        return self.game.player(seat).role

    def sex(self, seat: int) -> str | None:
        """The seat's sex as the deal recorded it (``m``/``f``), None when unknown or before
        the deal: the texts that agree with a player select on it."""
        if not self.started or seat not in self.game.players:
            return None
        return self.game.player(seat).sex

    def is_picker(self, seat: int) -> bool:
        """A member of the common Mafia pick (docs/rules.md#34-kills)."""
        return self.started and self.role(seat) in COMMON_PICK_ROLES

    def pickers(self) -> list[int]:
        """The Mafia of the common pick able to act tonight."""
        return [s for s in engine.night_actors(self.game) if self.is_picker(s)]

    def pending_night(self) -> list[int]:
        """Seats still to choose tonight (the Mafia count as done once their window closed)."""
        out = []
        for seat in engine.night_actors(self.game):
            if self.is_picker(seat):
                if not self.mafia_locked and engine.legal_targets(self.game, seat):
                    out.append(seat)
            elif seat not in self.choices and engine.legal_targets(self.game, seat):
                out.append(seat)  # (nobody to choose, e.g. no prisoner to buy out: done)
        return out

    def current_voter(self) -> int | None:
        return self.order[self.turn] if self.stage is Stage.VOTE and self.turn < len(
            self.order) else None

    def condemned(self) -> int | None:
        """The condemned of the vote under way, once the tally (and the fate) is known."""
        full, _ = engine.complete_votes(self.game, self.valid_votes())
        tally = engine.tally_votes(full)
        return tally.leader if tally.leader is not None else self.fate

    def valid_votes(self) -> dict[int, int]:
        """Votes the engine still accepts (a technical death may have voided some)."""
        out = {}
        for voter, target in self.votes.items():
            try:
                engine.check_vote(self.game, voter, target)
            except engine.RuleViolation:
                continue
            out[voter] = target
        return out

    def valid_choices(self) -> dict[int, int]:
        out = {}
        for actor, target in self.choices.items():
            try:
                engine.check_night_choice(self.game, actor, target)
            except engine.RuleViolation:
                continue
            out[actor] = target
        return out

    # ------------------------------------------------------------------ the reducer
    def apply(self, event: LogEvent, seq: int = 0) -> Result | None:
        """Apply one logged event; returns the engine's result for resolutions."""
        if seq:
            self.seq = seq
        result = self._apply(event)
        if result is not None:
            self.resolved_seq = self.seq
        match event:
            case NightStart() | Turn() | FateWait() | CancelWindow() | Resume() | Extend():
                deadlines = event.deadlines
            case _:
                deadlines = {}
        for name, at in deadlines.items():
            if at is None:
                self.deadlines.pop(name, None)
            else:
                self.deadlines[name] = at
        return result

    def _apply(self, event: LogEvent) -> Result | None:
        match event:
            case LobbyPosted() | LobbyMessage():
                self.lobby_posted = True
            case TableNamed():
                # another table opened in this table's chat (or topic): from now on its
                # posts say which table speaks
                self.named = True
            case Composition(roles=roles):
                self.composition = None if roles is None else list(roles)
            case Friendly():
                # a club the network has not approved: no points, no fines, counted for nothing
                self.friendly = True
            case FateMode(host=host):
                self.fate_by_host = host
            case OfflineSeat(tg_id=tg_id, seated=seated):
                if seated:
                    self.offline.add(tg_id)
                else:
                    self.offline.discard(tg_id)
            case SeatAsked(tg_id=tg_id, name=name):
                self.asked[tg_id] = name  # seated only once they say yes
            case SeatAskClosed(tg_id=tg_id):
                self.asked.pop(tg_id, None)
            case Deal():
                self._deal(event)
            case DealAnnounced():
                self.deal_announced = True
            case DayStart():
                self.day_first = True
            case NightStart(moment=moment):
                self.moment = moment
                self.stage = Stage.NIGHT
                self.choices = {}
                self.mafia_locked = not self.pickers()
            case Choice(seat=seat, target=target):
                self.choices[seat] = target
            case MafiaLocked():
                self.mafia_locked = True
                self.deadlines.pop(MAFIA_DL, None)
            case NightResolved(choices=choices):
                return self._night_resolved(choices)
            case VoteStart(moment=moment, order=order):
                self.moment = moment
                self.stage = Stage.VOTE
                self.order = list(order)
                self.turn = 0
                self.votes = {}
                self.timeouts = []
                self.fate = None
                self.lawyers = []
                self.cancel_by = None
            case Turn(turn=turn):
                self.turn = turn
            case Vote(seat=seat, target=target):
                self.votes[seat] = target
                self.deadlines.pop(TURN_DL, None)
            case VoteTimeout(seat=seat):
                self.timeouts.append(seat)
                self.deadlines.pop(TURN_DL, None)
            case VotesDone():
                self.turn = len(self.order)
                self.deadlines.pop(TURN_DL, None)
            case VerdictReset():
                # a technical death after the votes changed the tally: the fate and the
                # Lawyers' window are decided again from the new tally
                self.fate = None
                self.lawyers = []
                for name in (FATE_DL, CANCEL_DL):
                    self.deadlines.pop(name, None)
                    self.remaining.pop(name, None)
                self.stage = Stage.VOTE
            case FateWait():
                self.stage = Stage.FATE
            case Fate(seat=seat):
                self.fate = seat
                self.deadlines.pop(FATE_DL, None)
                self.stage = Stage.VOTE
            case CancelWindow(lawyers=lawyers):
                self.lawyers = list(lawyers)
                self.stage = Stage.CANCEL
            case DayResolved():
                return self._day_resolved(event)
            case Tech(seat=seat):
                state, tech = engine.technical_death(self.game, seat)
                self.state = state
                if state.over:
                    self.stage = Stage.OVER
                    self.deadlines.clear()
                self.last_result = tech
                return tech
            case FoulCalled():
                self.state, fouled = engine.foul(
                    self.game, event.seat, reason=event.reason, points=event.points,
                    during=event.phase)
                if event.note:
                    self.foul_notes[fouled.foul.number] = event.note
                if event.offer:
                    self.foul_offers[fouled.foul.number] = event.offer
            case FoulUndone(number=number):
                self.state, _ = engine.undo_foul(self.game, number)
            case FoulOfferClosed(number=number, how=how):
                self.foul_offers.pop(number, None)
                self.foul_offers_closed[number] = how
            case Pause(remaining=remaining):
                self.paused = True
                self.remaining = dict(remaining)
                self.deadlines.clear()
            case Resume():
                self.paused = False
                self.remaining = {}
            case Extend():
                pass  # the new deadlines come with it
            case Announced(seq=seq):
                self.announced = seq
            case LastWord(seats=seats, index=index, until=until):
                self.last_words = (list(seats), index, until)
            case LastWordOver(index=index):
                if self.last_words is not None and self.last_words[1] == index:
                    self.last_words = None
            case Aborted():
                self.stage = Stage.ABORTED
                self.deadlines.clear()
            case _:
                assert_never(event)
        return None

    def _deal(self, event: Deal) -> None:
        specs = []
        self.seats = {}
        self.offline = set()
        for entry in event.seats:
            self.seats[entry.seat] = SeatInfo(entry.seat, entry.tg_id, entry.name)
            if entry.offline:
                self.offline.add(entry.tg_id)
            friend = FriendImmunity(announce_by=entry.friend_by) if entry.friend else None
            specs.append(SeatSpec(seat=entry.seat, role=entry.role, sex=entry.sex,
                                  open_immunities=frozenset(entry.immunities), friend=friend))
        self.cards = list(event.cards)
        self.seed = bytes.fromhex(event.seed)
        self.commitment = event.commitment
        self.state = engine.new_game(specs)
        self.stage = Stage.DEALT

    def _night_resolved(self, choices: Mapping[int, int]) -> NightResult:
        state, result = engine.resolve_night(self.game, dict(choices))
        self.state = state
        if result.number == 1:
            self.first_day_dead |= set(result.died)
        self.choices = {}
        self.deadlines.pop(NIGHT_DL, None)
        self.deadlines.pop(MAFIA_DL, None)
        self.stage = Stage.OVER if state.over else Stage.DAY
        self.last_result = result
        return result

    def _day_resolved(self, event: DayResolved) -> DayResult:
        state, result = engine.resolve_day(self.game, dict(event.votes), fate=event.fate,
                                           cancel_by=event.cancel_by)
        self.state = state
        if result.number == 1:
            self.first_day_dead |= set(result.died)
        self.cancel_by = result.cancelled_by
        for name in (TURN_DL, FATE_DL, CANCEL_DL):
            self.deadlines.pop(name, None)
        self.stage = Stage.OVER if state.over else Stage.EVENING
        self.last_result = result
        return result

    def foul_phase(self) -> Phase | None:
        """The phase a foul now happens in: the night under way, or the day (its talk, its
        vote, its evening until the night falls; the talk of a day the game opens with); None
        before the first phase."""
        if self.stage is Stage.NIGHT:
            return Phase.NIGHT
        if self.stage in (Stage.DAY, Stage.VOTE, Stage.FATE, Stage.CANCEL, Stage.EVENING) \
                or (self.stage is Stage.DEALT and self.day_first):
            return Phase.DAY
        return None

"""The kinds of a game's log, one frozen class each: what a step writes and what ``Table.apply``
reads back.

The log keeps a kind's name and its fields as JSON (``encode``); ``decode`` reads every shape
a database holds, the older ones too: a field added later has a default that reads as the log
read it before (``sex`` of a seat dealt before the sexes were logged is unknown, an
``offline_seat`` without ``seated`` seats the account). ``encode`` writes what the steps
always wrote, so the stored JSON does not change with these classes: the phase's number of a
``night_start`` and a ``vote_start`` (their ``moment``) is the key ``step``.

``deadlines`` (the phases' timers the event sets; ``None`` stops one) come with the events that
arm a timer. Maps keyed by seat are written with the seats as strings (JSON's keys) and read
back as numbers. docs/game-flow.md's table of the log lists these classes (a test compares).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from engine import FoulReason, OpenImmunity, Phase, Role

DueAt = Mapping[str, datetime | None]  # each deadline an event sets: when it is due (None: cleared)


def _deadlines(raw: object) -> dict[str, datetime | None]:
    if not isinstance(raw, Mapping):
        return {}
    return {str(k): None if v is None else datetime.fromisoformat(str(v))
            for k, v in raw.items()}


def _iso(deadlines: DueAt) -> dict[str, str | None]:
    return {k: None if at is None else at.isoformat() for k, at in deadlines.items()}


def _seat_map(raw: object) -> dict[int, int]:
    assert isinstance(raw, Mapping), "a map of seats"
    return {int(k): int(v) for k, v in raw.items()}


def _seats_json(seats: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(seats.items())}


def _opt_int(raw: object) -> int | None:
    return None if raw is None else int(str(raw))


# ---------------------------------------------------------------------------- the lobby
@dataclass(frozen=True)
class LobbyPosted:
    """The lobby's post is queued (in the same step)."""


@dataclass(frozen=True)
class LobbyMessage:
    """Older logs' ``lobby_posted``: the post's id (its outbox key finds it; never read)."""

    message_id: int | None = None


@dataclass(frozen=True)
class TableNamed:
    """Another table opened in the table's chat (or topic): its posts carry its name."""


@dataclass(frozen=True)
class Friendly:
    """The lobby opened in a club the network has not approved: a friendly game."""


@dataclass(frozen=True)
class OfflineSeat:
    """The host seated an account without Telegram (``seated=False``: took it off)."""

    tg_id: int
    seated: bool = True


@dataclass(frozen=True)
class SeatAsked:
    """The host asked a Telegram player to be seated; no seat until they say yes."""

    tg_id: int
    name: str


@dataclass(frozen=True)
class SeatAskClosed:
    """The ask ended (``how``: yes, no, failed, deal, withdrawn, closed)."""

    tg_id: int
    how: str = ""


@dataclass(frozen=True)
class Composition:
    """The host's composition (``/roles``)."""

    roles: tuple[Role, ...] | None


@dataclass(frozen=True)
class FateMode:
    """Shoot-outs drawn by the host (``host``) or by the bot."""

    host: bool


# ---------------------------------------------------------------------------- the deal
@dataclass(frozen=True)
class DealtSeat:
    """One seat as dealt: its account, name, card and what the deal froze for it."""

    seat: int
    tg_id: int
    name: str
    role: Role
    sex: str | None = None
    immunities: tuple[OpenImmunity, ...] = ()
    friend: bool = False
    friend_by: int | None = None
    offline: bool = False


@dataclass(frozen=True)
class Deal:
    """The cards dealt: the seed (hex) and its commitment, the deck, the seats."""

    seed: str
    commitment: str
    cards: tuple[Role, ...]
    seats: tuple[DealtSeat, ...]


@dataclass(frozen=True)
class DealAnnounced:
    """Storage's copy of the deal, the commitment post and the cards were sent."""


@dataclass(frozen=True)
class DayStart:
    """``/day`` before any phase: the game opens with a day's talk."""


# ---------------------------------------------------------------------------- the night
@dataclass(frozen=True)
class NightStart:
    """A night falls: the phase's number (``moment``, the log's ``step``) and its timers."""

    moment: int
    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """A night choice (the Mafia's latest pick wins)."""

    seat: int
    target: int


@dataclass(frozen=True)
class MafiaLocked:
    """The Mafia agreed or their window closed."""


@dataclass(frozen=True)
class NightResolved:
    """``engine.resolve_night`` with these choices (actor -> target)."""

    choices: Mapping[int, int]


# ---------------------------------------------------------------------------- the day
@dataclass(frozen=True)
class VoteStart:
    """A vote begins: the phase's number (``moment``, the log's ``step``) and the voters' order."""

    moment: int
    order: tuple[int, ...]


@dataclass(frozen=True)
class Turn:
    turn: int
    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class Vote:
    seat: int
    target: int


@dataclass(frozen=True)
class VoteTimeout:
    """A missed turn (``engine.timeout_vote``)."""

    seat: int


@dataclass(frozen=True)
class VotesDone:
    """Every voter had a turn: the tally."""


@dataclass(frozen=True)
class FateWait:
    """A shoot-out waits for the host's draw."""

    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class Fate:
    """The shoot-out's drawn seat, drawn ``by`` the host or the bot."""

    seat: int
    by: str = "bot"


@dataclass(frozen=True)
class CancelWindow:
    """The Lawyers' window (``engine.cancellers``)."""

    lawyers: tuple[int, ...]
    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class DayResolved:
    """``engine.resolve_day`` with these votes (voter -> target), draw and cancel."""

    votes: Mapping[int, int]
    fate: int | None = None
    cancel_by: int | None = None


@dataclass(frozen=True)
class VerdictReset:
    """A technical death after the votes: the fate and the Lawyers' window again."""


# ---------------------------------------------------------------------------- the host
@dataclass(frozen=True)
class Tech:
    """``engine.technical_death``."""

    seat: int


@dataclass(frozen=True)
class FoulCalled:
    """The host's whistle: the fine ``points`` taken, the ``phase`` it happened in, the host's
    ``note``, the club's limit ``offer``-ed when the host was offered the technical death."""

    seat: int
    reason: FoulReason
    points: int
    offer: int | None = None
    phase: Phase | None = None
    note: str | None = None


@dataclass(frozen=True)
class FoulUndone:
    """``engine.undo_foul``: its fine comes back."""

    number: int


@dataclass(frozen=True)
class FoulOfferClosed:
    """The offer after foul ``number`` lost its buttons (``how``: kept, taken, undone, gone)."""

    number: int
    how: str


@dataclass(frozen=True)
class Pause:
    """Timers stopped: the seconds each had left."""

    remaining: Mapping[str, float]


@dataclass(frozen=True)
class Resume:
    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class Extend:
    deadlines: DueAt = field(default_factory=dict)


@dataclass(frozen=True)
class Announced:
    """The outcome of the resolution logged at ``seq`` was sent."""

    seq: int


@dataclass(frozen=True)
class LastWord:
    """The dead speaking in order: ``seats[index]`` until ``until``."""

    seats: tuple[int, ...]
    index: int
    until: datetime


@dataclass(frozen=True)
class LastWordOver:
    index: int


@dataclass(frozen=True)
class Aborted:
    """``/endgame``; a lobby closed (``why``: expired, host_left)."""

    why: str | None = None


LogEvent = (LobbyPosted | LobbyMessage | TableNamed | Friendly | OfflineSeat | SeatAsked
         | SeatAskClosed | Composition | FateMode | Deal | DealAnnounced | DayStart | NightStart
         | Choice | MafiaLocked | NightResolved | VoteStart | Turn | Vote | VoteTimeout
         | VotesDone | FateWait | Fate | CancelWindow | DayResolved | VerdictReset | Tech
         | FoulCalled | FoulUndone | FoulOfferClosed | Pause | Resume | Extend | Announced
         | LastWord | LastWordOver | Aborted)

KINDS: dict[str, type[LogEvent]] = {
    "lobby_posted": LobbyPosted, "lobby_message": LobbyMessage, "table_named": TableNamed,
    "friendly": Friendly, "offline_seat": OfflineSeat, "seat_asked": SeatAsked,
    "seat_ask_closed": SeatAskClosed, "composition": Composition, "fate_mode": FateMode,
    "deal": Deal, "deal_announced": DealAnnounced, "day_start": DayStart,
    "night_start": NightStart, "choice": Choice, "mafia_locked": MafiaLocked,
    "night_resolved": NightResolved, "vote_start": VoteStart, "turn": Turn, "vote": Vote,
    "vote_timeout": VoteTimeout, "votes_done": VotesDone, "fate_wait": FateWait, "fate": Fate,
    "cancel_window": CancelWindow, "day_resolved": DayResolved, "verdict_reset": VerdictReset,
    "tech": Tech, "foul": FoulCalled, "foul_undone": FoulUndone,
    "foul_offer_closed": FoulOfferClosed, "pause": Pause, "resume": Resume, "extend": Extend,
    "announced": Announced, "last_word": LastWord, "last_word_over": LastWordOver,
    "aborted": Aborted,
}
"""Each kind's name in the log and its class."""

KIND_OF: dict[type[LogEvent], str] = {cls: kind for kind, cls in KINDS.items()}


def kind_of(event: LogEvent) -> str:
    return KIND_OF[type(event)]


# ---------------------------------------------------------------------------- encode
def _deal_seat_json(s: DealtSeat) -> dict[str, Any]:
    return {"seat": s.seat, "tg_id": s.tg_id, "name": s.name, "role": str(s.role),
            "sex": s.sex, "immunities": [str(i) for i in s.immunities], "friend": s.friend,
            "friend_by": s.friend_by, "offline": s.offline}


def _fields_json(event: LogEvent) -> dict[str, Any]:
    """The plain kinds: each field as it is, ``deadlines`` as ISO strings."""
    out: dict[str, Any] = {}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "deadlines":
            out[f.name] = _iso(value)
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def encode(event: LogEvent) -> tuple[str, dict[str, Any]]:
    """The event's kind and its JSON body, as the log stores it."""
    kind = kind_of(event)
    body: dict[str, Any]
    match event:
        case OfflineSeat(tg_id=tg_id, seated=seated):
            body = {"tg_id": tg_id} if seated else {"tg_id": tg_id, "seated": False}
        case LobbyMessage(message_id=message_id):
            body = {} if message_id is None else {"message_id": message_id}
        case Composition(roles=roles):
            body = {"roles": None if roles is None else [str(r) for r in roles]}
        case Deal():
            body = {"seed": event.seed, "commitment": event.commitment,
                    "cards": [str(c) for c in event.cards],
                    "seats": [_deal_seat_json(s) for s in event.seats]}
        case NightStart(moment=moment, deadlines=deadlines):
            body = {"step": moment, "deadlines": _iso(deadlines)}
        case VoteStart(moment=moment, order=order):
            body = {"step": moment, "order": list(order)}
        case NightResolved(choices=choices):
            body = {"choices": _seats_json(choices)}
        case DayResolved(votes=votes, fate=fate, cancel_by=cancel_by):
            body = {"votes": _seats_json(votes), "fate": fate, "cancel_by": cancel_by}
        case FoulCalled():
            body = {"seat": event.seat, "reason": str(event.reason), "points": event.points}
            if event.offer is not None:
                body["offer"] = event.offer
            if event.phase is not None:
                body["phase"] = str(event.phase)
            if event.note is not None:
                body["note"] = event.note
        case LastWord(seats=seats, index=index, until=until):
            body = {"seats": list(seats), "index": index, "until": until.isoformat()}
        case Aborted(why=why):
            body = {} if why is None else {"why": why}
        case _:
            body = _fields_json(event)
    return kind, body


# ---------------------------------------------------------------------------- decode
def _deal_seat(e: Mapping[str, Any]) -> DealtSeat:
    return DealtSeat(
        seat=int(e["seat"]), tg_id=int(e["tg_id"]), name=str(e["name"]), role=Role(e["role"]),
        sex=None if e.get("sex") is None else str(e["sex"]),
        immunities=tuple(OpenImmunity(i) for i in e.get("immunities") or ()),
        friend=bool(e.get("friend")), friend_by=_opt_int(e.get("friend_by")),
        offline=bool(e.get("offline")))


_DECODERS: dict[str, Callable[[Mapping[str, Any]], LogEvent]] = {
    "lobby_posted": lambda p: LobbyPosted(),
    "lobby_message": lambda p: LobbyMessage(_opt_int(p.get("message_id"))),
    "table_named": lambda p: TableNamed(),
    "friendly": lambda p: Friendly(),
    "offline_seat": lambda p: OfflineSeat(int(p["tg_id"]), bool(p.get("seated", True))),
    "seat_asked": lambda p: SeatAsked(int(p["tg_id"]), str(p["name"])),
    "seat_ask_closed": lambda p: SeatAskClosed(int(p["tg_id"]), str(p.get("how", ""))),
    "composition": lambda p: Composition(
        None if p.get("roles") is None else tuple(Role(r) for r in p["roles"])),
    "fate_mode": lambda p: FateMode(bool(p["host"])),
    "deal": lambda p: Deal(seed=str(p["seed"]), commitment=str(p["commitment"]),
                           cards=tuple(Role(c) for c in p["cards"]),
                           seats=tuple(_deal_seat(e) for e in p["seats"])),
    "deal_announced": lambda p: DealAnnounced(),
    "day_start": lambda p: DayStart(),
    "night_start": lambda p: NightStart(int(p["step"]), _deadlines(p.get("deadlines"))),
    "choice": lambda p: Choice(int(p["seat"]), int(p["target"])),
    "mafia_locked": lambda p: MafiaLocked(),
    "night_resolved": lambda p: NightResolved(_seat_map(p["choices"])),
    "vote_start": lambda p: VoteStart(int(p["step"]), tuple(int(s) for s in p["order"])),
    "turn": lambda p: Turn(int(p["turn"]), _deadlines(p.get("deadlines"))),
    "vote": lambda p: Vote(int(p["seat"]), int(p["target"])),
    "vote_timeout": lambda p: VoteTimeout(int(p["seat"])),
    "votes_done": lambda p: VotesDone(),
    "fate_wait": lambda p: FateWait(_deadlines(p.get("deadlines"))),
    "fate": lambda p: Fate(int(p["seat"]), str(p.get("by", "bot"))),
    "cancel_window": lambda p: CancelWindow(tuple(int(s) for s in p["lawyers"]),
                                            _deadlines(p.get("deadlines"))),
    "day_resolved": lambda p: DayResolved(_seat_map(p["votes"]), _opt_int(p.get("fate")),
                                          _opt_int(p.get("cancel_by"))),
    "verdict_reset": lambda p: VerdictReset(),
    "tech": lambda p: Tech(int(p["seat"])),
    "foul": lambda p: FoulCalled(
        seat=int(p["seat"]), reason=FoulReason(p["reason"]), points=int(p["points"]),
        offer=_opt_int(p.get("offer")),
        phase=None if p.get("phase") is None else Phase(p["phase"]),
        note=None if p.get("note") is None else str(p["note"])),
    "foul_undone": lambda p: FoulUndone(int(p["number"])),
    "foul_offer_closed": lambda p: FoulOfferClosed(int(p["number"]), str(p["how"])),
    "pause": lambda p: Pause({str(k): float(v) for k, v in p["remaining"].items()}),
    "resume": lambda p: Resume(_deadlines(p.get("deadlines"))),
    "extend": lambda p: Extend(_deadlines(p.get("deadlines"))),
    "announced": lambda p: Announced(int(p["seq"])),
    "last_word": lambda p: LastWord(tuple(int(s) for s in p["seats"]), int(p["index"]),
                                    datetime.fromisoformat(str(p["until"]))),
    "last_word_over": lambda p: LastWordOver(int(p["index"])),
    "aborted": lambda p: Aborted(None if p.get("why") is None else str(p["why"])),
}


def decode(kind: str, payload: Mapping[str, Any]) -> LogEvent:
    """The event a log's row holds (any shape a database holds); ``ValueError`` for a kind
    no game writes."""
    decoder = _DECODERS.get(kind)
    if decoder is None:
        raise ValueError(f"unknown game event {kind!r}")
    return decoder(payload)

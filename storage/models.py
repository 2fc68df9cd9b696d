"""Frozen value types returned by the repositories."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Literal

from storage.dates import expiry_of

Sex = Literal["m", "f"]

# Ledger row kinds.
DEFAULT_FOUL_LIMIT = 4  # a new club's host is offered the technical death at a 4th foul
KIND_GAME = "game"
KIND_ADJUST = "adjust"
KIND_REDEEM = "redeem"
KIND_EXPIRY_BURN = "expiry_burn"
KIND_BLOCK_BURN = "block_burn"
LEDGER_KINDS = (KIND_GAME, KIND_ADJUST, KIND_REDEEM, KIND_EXPIRY_BURN, KIND_BLOCK_BURN)

# A club's statuses (docs/bot.md, "A club's life"): the network approves a club's points.
CLUB_PENDING = "pending"
CLUB_APPROVED = "approved"
CLUB_REFUSED = "refused"
CLUB_SUSPENDED = "suspended"
CLUB_STATUSES = (CLUB_PENDING, CLUB_APPROVED, CLUB_REFUSED, CLUB_SUSPENDED)

# Game statuses. The active ones are rebuilt after a restart (``games.running()``).
STATUS_LOBBY = "lobby"
STATUS_RUNNING = "running"
STATUS_PAUSED = "paused"
STATUS_FINISHED = "finished"
STATUS_ABORTED = "aborted"
ACTIVE_STATUSES = (STATUS_LOBBY, STATUS_RUNNING, STATUS_PAUSED)
FINAL_STATUSES = (STATUS_FINISHED, STATUS_ABORTED)
GAME_STATUSES = ACTIVE_STATUSES + FINAL_STATUSES

# Offline accounts (players without Telegram, seated by a host) get ids below every Telegram id:
# Telegram's user and chat ids have at most 52 significant bits, so an id at or below -2**52
# is never a Telegram chat, and nothing is ever sent to it (``Players.create_offline``).
OFFLINE_ID_MAX = -(1 << 52)


def is_offline_account(tg_id: int) -> bool:
    """The account has no Telegram chat."""
    return tg_id <= OFFLINE_ID_MAX


@dataclass(frozen=True, slots=True)
class Player:
    tg_id: int
    display_name: str
    nickname: str | None
    language: str | None
    sex: Sex | None
    spouse_id: int | None
    spouse_proposed_to: int | None
    first_game_date: date | None
    last_game_date: date | None
    games_played: int
    blocked: bool
    blocked_reason: str | None
    bot_blocked: bool
    expiry_warned_on: date | None

    @property
    def offline(self) -> bool:
        """An account without Telegram (seated by a host; see ``Players.create_offline``)."""
        return is_offline_account(self.tg_id)

    @property
    def expiry_date(self) -> date | None:
        """When nickname and points go if no further game is played (None: never played)."""
        return None if self.last_game_date is None else expiry_of(self.last_game_date)


@dataclass(frozen=True, slots=True)
class GamePoints:
    """One award of a finished game, for ``ledger.record_game`` / ``games.finish``."""

    tg_id: int
    points: int
    reason: str
    phase: str | None = None


@dataclass(frozen=True, slots=True)
class Fine:
    """A fine of a running game (below zero) or its reversal (above zero), written with the
    game's step that records it (``GameChange.fines``) as a ``game`` ledger row of the game.
    A fine is never more than the balance: ``InsufficientBalance``, and nothing is written."""

    tg_id: int
    points: int
    reason: str
    phase: str
    day: date


@dataclass(frozen=True, slots=True)
class LedgerRow:
    id: int
    tg_id: int
    points: int
    kind: str
    reason: str
    game_id: int | None
    phase: str | None
    admin_id: int | None
    day: date
    at: datetime | None


@dataclass(frozen=True, slots=True)
class BalanceInfo:
    points: int
    rank: int | None  # None: not on the leaderboard (no points, no nickname or blocked)
    players_ranked: int


@dataclass(frozen=True, slots=True)
class BalanceView:
    """What ``/balance`` shows: the balance, the latest ledger rows, the next expiry."""

    info: BalanceInfo
    rows: list[LedgerRow]
    expires_on: date | None
    reserved: int = 0  # points promised to open gift requests (part of ``info.points``)

    @property
    def available(self) -> int:
        """The points a new gift request, a ``/redeem`` or a fine may take now."""
        return max(0, self.info.points - self.reserved)


@dataclass(frozen=True, slots=True)
class TopEntry:
    nickname: str
    points: int
    rank: int
    tg_id: int


@dataclass(frozen=True, slots=True)
class Club:
    chat_id: int
    title: str
    locale: str
    timers: dict[str, int] = field(default_factory=dict)
    fate_by_host: bool = False  # shoot-outs drawn by the host rather than the bot
    # what a foul costs (0: a warning), from which foul in a game the host is offered the
    # technical death (0: never), and whether the club chat hears of each foul
    foul_points: int = 0
    foul_limit: int = DEFAULT_FOUL_LIMIT
    foul_public: bool = False
    # the network's trust (docs/bot.md, "A club's life"): only an approved club's games count
    status: str = CLUB_PENDING
    name: str | None = None  # the club's name as the network knows it (None: the chat's title)
    city: str | None = None
    time_zone: str | None = None  # an IANA name (None: the network's TIMEZONE)
    status_by: int | None = None  # who changed the status last (None: the migration, or nobody)
    status_at: datetime | None = None
    chat_admins_host: bool = True  # the chat's administrators may host in the approved club
    achievements_public: bool = False  # the club chat hears of a rare achievement earned here
    season_post: bool = True  # the club chat gets a closed season's board as a picture

    @property
    def approved(self) -> bool:
        """The network trusts this club's games: they count (points, games, leaderboards)."""
        return self.status == CLUB_APPROVED

    @property
    def label(self) -> str:
        """The club's name, else the chat's title."""
        return self.name or self.title


@dataclass(frozen=True, slots=True)
class StaffRoles:
    """What one account is on the network's staff (the owners, ADMIN_IDS, are not stored):
    a network admin, the clubs (chat ids) it is an admin of, the clubs it hosts in."""

    tg_id: int
    network_admin: bool = False
    club_admin_of: frozenset[int] = frozenset()
    host_of: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class FineCaps:
    """The network's bounds on fines (``/network``): one foul's fine at most (a club's price of
    a foul is never above it), and a player's fines in one game at most."""

    fine: int
    game: int


# the caps of a network whose admins set none (the migration lowers a club's fine above them)
DEFAULT_FINE_CAPS = FineCaps(fine=10, game=20)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    tg_id: int
    role: str | None


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    club_chat_id: int
    host_id: int
    created_at: datetime
    status: str
    commitment: str | None
    finished_on: date | None
    seats: tuple[Seat, ...]
    table_no: int = 1  # the table's number in its club chat ("Стол 2")
    thread_id: int | None = None  # the forum topic the table speaks in (None: the chat)
    own_topic: bool = False  # the bot created that topic (and closes it at the end)
    # a finished game taken back by a network or club admin: its ledger rows reversed, it
    # counts toward nothing (storage/repos/voids.py)
    voided_at: datetime | None = None
    voided_by: int | None = None
    void_reason: str | None = None
    # played in a club the network had not approved when its lobby opened: no ledger row
    friendly: bool = False

    @property
    def voided(self) -> bool:
        return self.voided_at is not None

    @property
    def roles(self) -> dict[int, str]:
        return {s.seat: s.role for s in self.seats if s.role is not None}

    def seat_of(self, tg_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.tg_id == tg_id), None)


# An appeal's statuses: open until an admin voids its game (any void of it closes it) or keeps
# the result.
APPEAL_OPEN = "open"
APPEAL_VOIDED = "voided"
APPEAL_KEPT = "kept"


@dataclass(frozen=True, slots=True)
class Appeal:
    """A seated player's appeal against a finished game's result."""

    id: int
    game_id: int
    tg_id: int
    reason: str
    status: str
    created_at: datetime
    closed_at: datetime | None
    closed_by: int | None

    @property
    def open(self) -> bool:
        return self.status == APPEAL_OPEN


@dataclass(frozen=True, slots=True)
class VoidLine:
    """What a void did to one counted player of the game: ``returned`` the points its reversing
    rows moved (below zero: points taken back; above: fines given back), ``short`` the points
    it could not take back (spent or promised to a gift request before the void)."""

    tg_id: int
    returned: int
    short: int


@dataclass(frozen=True, slots=True)
class Voided:
    """A void written: the game as it is now, a line per player it counted, the appeals of
    the game it closed."""

    game: Game
    lines: tuple[VoidLine, ...]
    appeals: tuple[Appeal, ...]


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game as one player saw it: its club, the day, the seat and the card."""

    game_id: int
    club_chat_id: int
    club_title: str
    finished_on: date | None
    seat: int
    role: str | None


@dataclass(frozen=True, slots=True)
class GameEvent:
    game_id: int
    seq: int
    kind: str
    payload: dict[str, object]
    at: datetime | None


@dataclass(frozen=True, slots=True)
class ImmunityOrder:
    id: int
    game_id: int
    orderer_id: int
    holder_id: int
    announce_name: bool
    accepted: bool
    used: bool


@dataclass(frozen=True, slots=True)
class Complaint:
    id: int
    from_id: int
    about_id: int
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class AdminAction:
    id: int
    admin_id: int
    action: str
    details: str
    at: datetime


# A gift request's statuses: open (its points and one item reserved), then closed once.
REQUEST_OPEN = "open"
REQUEST_HANDED_OVER = "handed_over"  # the ledger's 'redeem' row written, one item off the stock
REQUEST_CANCELLED = "cancelled"  # by an admin
REQUEST_WITHDRAWN = "withdrawn"  # by the player
REQUEST_EXPIRED = "expired"  # not handed over within GIFT_REQUEST_DAYS
REQUEST_BURNED = "burned"  # the player's points burned (two months' absence, a block)
REQUEST_STATUSES = (REQUEST_OPEN, REQUEST_HANDED_OVER, REQUEST_CANCELLED, REQUEST_WITHDRAWN,
                    REQUEST_EXPIRED, REQUEST_BURNED)


@dataclass(frozen=True, slots=True)
class Gift:
    """A gift of the network's catalogue. ``stock``: items on the shelf; ``reserved``: those
    promised to open requests (handed over, an item leaves the stock)."""

    id: int
    name: str
    price: int
    stock: int
    reserved: int
    photo: str | None  # a Telegram file_id
    active: bool

    @property
    def left(self) -> int:
        """Items a new request may still take."""
        return max(0, self.stock - self.reserved)


@dataclass(frozen=True, slots=True)
class GiftRequest:
    """A player's request for a gift: ``points`` (the price when asked) stay reserved while it
    is open."""

    id: int
    gift_id: int
    gift_name: str
    tg_id: int
    points: int
    status: str
    created_at: datetime
    closed_at: datetime | None
    closed_by: int | None  # the admin who handed it over or cancelled it
    ledger_id: int | None  # the 'redeem' row of a handed-over request
    announced: bool  # the admins were told of it
    told: bool  # its end was told (the player, the admins' notices)
    club_chat_id: int | None = None  # where it is collected: its club's admins hand it over

    @property
    def open(self) -> bool:
        return self.status == REQUEST_OPEN


@dataclass(frozen=True, slots=True)
class GiftDraft:
    """An admin's catalogue dialog waiting for a typed value (``field``) of gift ``gift_id``
    (None: a new gift, whose name and price typed so far are kept here)."""

    admin_id: int
    field: str
    gift_id: int | None
    name: str | None
    price: int | None
    at: datetime
# An evening's statuses: sign-up open, under way (sign-up closed at its start), over (its
# no-shows recorded), or called off by a host.
EVENING_OPEN = "open"
EVENING_STARTED = "started"
EVENING_CLOSED = "closed"
EVENING_CANCELLED = "cancelled"
EVENING_LIVE = (EVENING_OPEN, EVENING_STARTED)  # its timers still run
# An evening ends (its no-shows recorded) this long after its start; a game of its club opened
# from this long before its start to its end is the evening's (its lobby invites the list, and
# who sat at one came).
EVENING_HOURS = timedelta(hours=6)


@dataclass(frozen=True, slots=True)
class Evening:
    """A club's announced game evening: when, how many tables of how many seats."""

    id: int
    club_chat_id: int
    host_id: int  # who announced it
    starts_at: datetime  # UTC
    timezone: str  # the IANA zone its time was announced in (and is shown in)
    tables: int
    seats: int  # per table
    status: str
    created_at: datetime
    reminded_day: bool  # the day-before reminder was sent (or skipped)
    reminded_soon: bool  # the reminder two hours before

    @property
    def capacity(self) -> int:
        return self.tables * self.seats


@dataclass(frozen=True, slots=True)
class SignUp:
    """One player on an evening's list; ``place`` counts from 1 in sign-up order (a place
    beyond the evening's capacity is on the waitlist)."""

    tg_id: int
    name: str  # the player's nickname now
    language: str | None
    place: int
    invited_game: int | None  # the game whose lobby invited the player on the night
    checked_in: bool
    came: bool | None  # recorded at the evening's end; None before it (or waitlisted)


@dataclass(frozen=True, slots=True)
class EveningList:
    """An evening with its list, in sign-up order."""

    evening: Evening
    signups: tuple[SignUp, ...]

    @property
    def seated(self) -> tuple[SignUp, ...]:
        return self.signups[:self.evening.capacity]

    @property
    def waitlist(self) -> tuple[SignUp, ...]:
        return self.signups[self.evening.capacity:]

    def of(self, tg_id: int) -> SignUp | None:
        return next((s for s in self.signups if s.tg_id == tg_id), None)

    def waiting(self, signup: SignUp) -> int | None:
        """The place on the waitlist (from 1), or None for a seat."""
        over = signup.place - self.evening.capacity
        return over if over > 0 else None


@dataclass(frozen=True, slots=True)
class EveningChange:
    """What one sign-up, cancel or status change did: the list before and after it (the same
    when ``refused``: a stable code saying why nothing changed)."""

    before: EveningList
    after: EveningList
    refused: str | None = None
    new_chats: tuple[int, ...] = ()  # the chats given a new outbox row (to wake their workers)


@dataclass(frozen=True, slots=True)
class PlayerEvening:
    """An evening on one player's list: ``/evenings`` and ``/profile``."""

    evening: Evening
    club_title: str
    place: int
    capacity: int

    @property
    def waiting(self) -> int | None:
        over = self.place - self.capacity
        return over if over > 0 else None

"""Frozen value types returned by the repositories."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from storage.dates import expiry_of

Sex = Literal["m", "f"]

# Ledger row kinds.
KIND_GAME = "game"
KIND_ADJUST = "adjust"
KIND_REDEEM = "redeem"
KIND_EXPIRY_BURN = "expiry_burn"
KIND_BLOCK_BURN = "block_burn"
LEDGER_KINDS = (KIND_GAME, KIND_ADJUST, KIND_REDEEM, KIND_EXPIRY_BURN, KIND_BLOCK_BURN)

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

    @property
    def roles(self) -> dict[int, str]:
        return {s.seat: s.role for s in self.seats if s.role is not None}

    def seat_of(self, tg_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.tg_id == tg_id), None)


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

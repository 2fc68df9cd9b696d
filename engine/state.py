"""The game state: immutable values, replaced (never mutated) by every resolution."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from engine.points import DEFAULT_POINTS, LedgerEntry, PointsConfig
from engine.roles import Role, Team


class Phase(StrEnum):
    NIGHT = "night"
    DAY = "day"


class OpenImmunity(StrEnum):
    NEWBIE = "newbie"
    FIRST_DAY_KILLED = "first_day_killed"


class Winner(StrEnum):
    CIVILIANS = "civilians"
    MAFIA = "mafia"
    DRAW = "draw"


class FoulReason(StrEnum):
    """Why the host whistled (the club's text: speaking in another's time or at night)."""

    OUT_OF_TURN = "out_of_turn"
    AT_NIGHT = "at_night"
    GESTURE = "gesture"
    OTHER = "other"


class Foul(NamedTuple):
    """A foul the host recorded (``engine.fouls``): ``number`` counts the game's fouls from 1,
    ``points`` is the fine it took (0: a warning), ``phase`` when ("night N" / "day N")."""

    number: int
    seat: int
    reason: FoulReason
    points: int
    phase: str
    undone: bool = False


class FriendImmunity(NamedTuple):
    """'Давай дружить': saves its holder from one death; ``announce_by`` may be named."""

    announce_by: int | None = None
    used: bool = False


class PlayerState(NamedTuple):
    """One seat. A NamedTuple: immutable, and cheap to copy with ``_replace`` in hot loops."""

    seat: int
    role: Role
    sex: str | None = None
    alive: bool = True
    jailed: bool = False
    technical: bool = False  # removed by the host (docs/rules.md#6-technical-death)
    open_immunities: frozenset[OpenImmunity] = frozenset()
    friend: FriendImmunity | None = None
    luck_left: bool = True  # meaningful for the Lucky only
    lawyer_used: bool = False  # meaningful for the Lawyers only

    @property
    def team(self) -> Team:
        return self.role.team

    @property
    def is_mafia(self) -> bool:
        return self.role.is_mafia

    @property
    def able(self) -> bool:
        """Alive and not jailed: may act at night and vote by day."""
        return self.alive and not self.jailed

    @property
    def has_friend(self) -> bool:
        return self.friend is not None and not self.friend.used


@dataclass(frozen=True, slots=True)
class GameState:
    """A table at one moment. ``phase`` is the phase under way or last resolved."""

    players: Mapping[int, PlayerState]
    points: PointsConfig = DEFAULT_POINTS
    phase: Phase | None = None
    night_number: int = 0
    day_number: int = 0
    winner: Winner | None = None
    over: bool = False
    ledger: tuple[LedgerEntry, ...] = field(default=())
    fouls: tuple[Foul, ...] = field(default=())

    def __iter__(self) -> Iterator[PlayerState]:
        return iter(self.players.values())

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    @property
    def seats(self) -> list[int]:
        return sorted(self.players)

    @property
    def alive(self) -> list[int]:
        return [s for s, p in sorted(self.players.items()) if p.alive]

    @property
    def jailed(self) -> list[int]:
        return [s for s, p in sorted(self.players.items()) if p.alive and p.jailed]

    @property
    def mafia_seats(self) -> list[int]:
        return [s for s, p in sorted(self.players.items()) if p.is_mafia]

    @property
    def current_day(self) -> int:
        """The day's number as everyone reads it: the day under way or the next one
        (``day_number + 1``), and once it is resolved, that same day until a night falls.
        The one place it is derived: the vote's board, its tally, the morning and the
        pages all say it (a board edited after the verdict still names its own day)."""
        return self.day_number if self.phase is Phase.DAY else self.day_number + 1

    def next_phase(self) -> Phase:
        """Phases alternate; the first one is the host's choice (night when nothing says)."""
        if self.phase is None:
            return Phase.NIGHT
        return Phase.DAY if self.phase is Phase.NIGHT else Phase.NIGHT

    def open_immunity_active(self, seat: int, phase: Phase) -> bool:
        """Open immunities hold during the game's first night and first day only
        (docs/rules.md#51-open-immunities)."""
        number = self.night_number if phase is Phase.NIGHT else self.day_number
        # ``number`` counts resolved phases; the phase being played is number + 1.
        return number == 0 and bool(self.players[seat].open_immunities)

    def with_players(self, changed: Mapping[int, PlayerState]) -> dict[int, PlayerState]:
        players = dict(self.players)
        players.update(changed)
        return players


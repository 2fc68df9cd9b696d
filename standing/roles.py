"""Roles and rivals: a player's counted games by card and by side, each against how often that
card wins for everyone (so a card that wins often is not mistaken for skill), the players met
most, and the rating after each game (the history the graph draws).

Pure values and rules; storage keeps the rows (``storage/standing/history.py``) and sums them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import NamedTuple

from engine import Role, Team, Winner
from standing.rating import ORDINAL_Z, Side

# Fewer games with a card than this: the card's win rate is shown, but not ranked in
# ``/top role`` (a few lucky games would top it). docs/standing.md says it to players.
MIN_ROLE_GAMES = 5
RIVALS = 5  # the players met most, shown in a player's profile and page


class SeatResult(StrEnum):
    """One player's result of one counted game."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


def result_of(team: Team, winner: Winner) -> SeatResult:
    if winner is Winner.DRAW:
        return SeatResult.DRAW
    return SeatResult.WIN if str(winner) == str(team) else SeatResult.LOSS


class Record(NamedTuple):
    """Games, wins and draws of one card or one side (a player's, or everyone's)."""

    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def rate(self) -> float | None:
        """The share of games won (a draw is not a win); None without a game."""
        return None if self.games == 0 else self.wins / self.games

    def plus(self, other: Record) -> Record:
        return Record(self.games + other.games, self.wins + other.wins,
                      self.draws + other.draws)


class Compared(NamedTuple):
    """A player's record with a card (or side) beside everyone's with it."""

    name: str  # the role's or the side's value (``Role``, ``Side``)
    mine: Record
    everyone: Record

    @property
    def difference(self) -> float | None:
        """The player's win rate less everyone's with the same card, in percentage points
        (None without a game on either side)."""
        if self.mine.rate is None or self.everyone.rate is None:
            return None
        return 100 * (self.mine.rate - self.everyone.rate)

    @property
    def ranked(self) -> bool:
        """Enough games with the card to be ranked in ``/top role``."""
        return self.mine.games >= MIN_ROLE_GAMES


def side_of(role: str) -> Side:
    return Side.MAFIA if Role(role).is_mafia else Side.CIVILIANS


def by_side(records: Mapping[str, Record]) -> dict[Side, Record]:
    """Records by card summed by side (civilians, Mafia), each side present."""
    out = {Side.CIVILIANS: Record(), Side.MAFIA: Record()}
    for role, record in records.items():
        out[side_of(role)] = out[side_of(role)].plus(record)
    return out


def compare(mine: Mapping[str, Record], everyone: Mapping[str, Record]) -> list[Compared]:
    """Each card the player played, by games (most first), beside everyone's record with it."""
    return [Compared(role, record, everyone.get(role, record))
            for role, record in sorted(mine.items(), key=lambda kv: (-kv[1].games, kv[0]))]


def compare_sides(mine: Mapping[str, Record],
                  everyone: Mapping[str, Record]) -> list[Compared]:
    """The civilians' and the Mafia's records of the player beside everyone's."""
    ours, theirs = by_side(mine), by_side(everyone)
    return [Compared(str(side), ours[side], theirs[side])
            for side in (Side.CIVILIANS, Side.MAFIA)]


class Rival(NamedTuple):
    """Another player as met at counted games: on the same side and against."""

    tg_id: int
    nickname: str | None  # the nickname held now (None: none; shown as «—»)
    together: int  # games on the same side
    won_together: int  # of those, won
    against: int  # games on the other side
    won_against: int  # of those, won by the player whose rivals these are
    killed_you: int = 0  # nights this one's shot killed the player
    you_killed: int = 0  # nights the player's shot killed this one

    @property
    def games(self) -> int:
        return self.together + self.against


class Point(NamedTuple):
    """The player's overall rating after one counted game, in the order the games ended."""

    seq: int  # the game's number in ``game_outcomes`` (the order the ratings fold them)
    game_id: int
    role: str
    result: SeatResult
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_Z * self.sigma


def records_of(rows: Iterable[tuple[str, int, int, int]]) -> dict[str, Record]:
    """``(name, games, wins, draws)`` rows as records by name."""
    return {str(name): Record(int(g), int(w), int(d)) for name, g, w, d in rows}

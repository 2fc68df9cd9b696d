"""The points table, loaded from TOML (docs/rules.md#8-points), and the ledger entry type."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import NamedTuple


class Reason(StrEnum):
    SURVIVED_DAY = "survived_day"
    SURVIVED_NIGHT = "survived_night"
    VOTE_FOR_MAFIA = "vote_for_mafia"
    VOTE_FOR_CIVILIAN = "vote_for_civilian"
    LAWYER_SAVE = "lawyer_save"
    MAFIA_SHOT = "mafia_shot"
    KILLER_SHOT = "killer_shot"
    TEAM_WIN = "team_win"
    SOLE_SURVIVOR = "sole_survivor"


class FineReason(StrEnum):
    """A fine's ledger reason: the foul it punishes (``engine.fouls``), or its reversal (the
    foul undone, or the game aborted)."""

    FOUL_OUT_OF_TURN = "foul_out_of_turn"
    FOUL_AT_NIGHT = "foul_at_night"
    FOUL_GESTURE = "foul_gesture"
    FOUL_OTHER = "foul_other"
    FOUL_UNDONE = "foul_undone"
    GAME_ABORTED = "game_aborted"  # a standing foul's fine given back: the game was aborted


@dataclass(frozen=True, slots=True)
class PointsConfig:
    survived_day: int = 1
    survived_night: int = 1
    vote_for_mafia: int = 5
    vote_for_civilian: int = 2
    lawyer_save: int = 12
    mafia_shot: int = 2
    killer_shot: int = 2
    team_win: int = 6
    sole_survivor: int = 12

    def value(self, reason: Reason) -> int:
        return int(getattr(self, reason.value))

    @classmethod
    def from_toml(cls, text: str) -> PointsConfig:
        data = tomllib.loads(text)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown points keys: {', '.join(unknown)}")
        for key, value in data.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"points.{key} must be a whole number >= 0, not {value!r}")
        return cls(**data)

    @classmethod
    def load(cls, path: str | Path | None = None) -> PointsConfig:
        """The club's file at ``path``, or the packaged default ``engine/points.toml``."""
        if path is None:
            text = resources.files("engine").joinpath("points.toml").read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        return cls.from_toml(text)


DEFAULT_POINTS = PointsConfig.load()


class LedgerEntry(NamedTuple):
    """One award (or a fine, below zero): a NamedTuple, since a long game creates hundreds."""

    seat: int
    points: int
    reason: Reason | FineReason
    phase: str  # "night N", "day N" or "end"

"""The pure rules engine: state + choices -> new state + events (no I/O, no clock, no aiogram).

The public surface, re-exported here so callers never reach into modules:

May import: nothing of the project.
"""

from engine.composition import default_composition, min_mafia, validate_composition
from engine.day import (
    DayResult,
    Tally,
    cancellers,
    check_cancel,
    check_vote,
    complete_votes,
    draw_fate,
    resolve_day,
    tally_votes,
    timeout_vote,
    votable,
    vote_candidates,
    voters,
)
from engine.errors import CompositionError, EngineError, RuleViolation
from engine.events import Audience, AudienceKind, Event
from engine.fair_deal import commitment, deal_cards, new_seed, verify
from engine.fouls import FoulResult, foul, phase_label, standing_fouls, undo_foul
from engine.game import (
    SeatSpec,
    TechnicalDeathResult,
    check_friend_order,
    neighbours,
    new_game,
    open_immunities_event,
    technical_death,
)
from engine.night import (
    NightResult,
    check_night_choice,
    common_pick,
    legal_targets,
    mafia_roster,
    night_actors,
    resolve_night,
)
from engine.points import DEFAULT_POINTS, FineReason, LedgerEntry, PointsConfig, Reason
from engine.roles import Action, Role, Team
from engine.state import (
    Foul,
    FoulReason,
    FriendImmunity,
    GameState,
    OpenImmunity,
    Phase,
    PlayerState,
    Winner,
)

__all__ = [
    "DEFAULT_POINTS", "Action", "Audience", "AudienceKind", "CompositionError", "DayResult",
    "EngineError", "Event", "FineReason", "Foul", "FoulReason", "FoulResult", "FriendImmunity",
    "GameState", "LedgerEntry", "NightResult", "OpenImmunity", "Phase", "PlayerState",
    "PointsConfig", "Reason", "Role", "RuleViolation", "SeatSpec", "Tally", "Team",
    "TechnicalDeathResult", "Winner", "cancellers", "check_cancel", "check_friend_order",
    "check_night_choice", "check_vote", "commitment", "common_pick", "complete_votes",
    "deal_cards", "default_composition", "draw_fate", "foul", "legal_targets", "mafia_roster",
    "min_mafia", "neighbours", "new_game", "new_seed", "night_actors", "open_immunities_event",
    "phase_label", "resolve_day", "resolve_night", "standing_fouls", "tally_votes",
    "technical_death", "timeout_vote", "undo_foul", "validate_composition", "verify",
    "votable", "vote_candidates", "voters",
]

"""Roles, teams and the night action each role has (docs/rules.md#1-teams-and-roles)."""

from __future__ import annotations

from enum import StrEnum


class Team(StrEnum):
    MAFIA = "mafia"
    CIVILIANS = "civilians"


class Action(StrEnum):
    """What a role's night choice does; the replay protocol infers it from the role."""

    MAFIA_PICK = "mafia_pick"
    KILL = "kill"
    BLOCK = "block"
    HEAL = "heal"
    CHALLENGE = "challenge"
    JAIL = "jail"
    CHECK = "check"
    BUYOUT = "buyout"


_MAFIA_IDS = frozenset({"mafia", "mafia_chief", "mafia_killer"})
_ACTION_OF: dict[str, Action] = {
    "mafia": Action.MAFIA_PICK,
    "mafia_chief": Action.MAFIA_PICK,
    "mafia_killer": Action.KILL,
    "maniac": Action.KILL,
    "marilyn": Action.BLOCK,
    "marilyn_sister": Action.BLOCK,
    "doctor": Action.HEAL,
    "sportsman": Action.CHALLENGE,
    "judge": Action.JAIL,
    "policeman": Action.CHECK,
    "oligarch": Action.BUYOUT,
    "oligarch_brother": Action.BUYOUT,
}


class Role(StrEnum):
    # Plain attributes set once per member (not properties): the engine reads them in hot loops.
    team: Team
    is_mafia: bool
    action: Action | None

    def __init__(self, value: str) -> None:
        self.is_mafia = value in _MAFIA_IDS
        self.team = Team.MAFIA if self.is_mafia else Team.CIVILIANS
        self.action = _ACTION_OF.get(value)

    MAFIA = "mafia"
    MAFIA_CHIEF = "mafia_chief"
    MAFIA_KILLER = "mafia_killer"
    MARILYN = "marilyn"
    MARILYN_SISTER = "marilyn_sister"
    DOCTOR = "doctor"
    MANIAC = "maniac"
    SPORTSMAN = "sportsman"
    JUDGE = "judge"
    POLICEMAN = "policeman"
    LUCKY = "lucky"
    LAWYER = "lawyer"
    LAWYER_BROTHER = "lawyer_brother"
    OLIGARCH = "oligarch"
    OLIGARCH_BROTHER = "oligarch_brother"


MAFIA_ROLES: frozenset[Role] = frozenset(r for r in Role if r.is_mafia)
COMMON_PICK_ROLES: frozenset[Role] = frozenset({Role.MAFIA, Role.MAFIA_CHIEF})
LAWYER_ROLES: frozenset[Role] = frozenset({Role.LAWYER, Role.LAWYER_BROTHER})

# Civilian cards, each at most once per table (docs/rules.md#2-the-deal).
CIVILIAN_ROLES: tuple[Role, ...] = tuple(r for r in Role if not r.is_mafia)
# Mafia cards that may appear at most once.
UNIQUE_MAFIA_ROLES: frozenset[Role] = frozenset({Role.MAFIA_CHIEF, Role.MAFIA_KILLER})

# Actions that are shots: open immunities stop them
# (docs/rules.md#33-open-immunities-block-targeting).
SHOT_ACTIONS: frozenset[Action] = frozenset({Action.MAFIA_PICK, Action.KILL, Action.CHALLENGE})

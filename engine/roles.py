"""Roles, teams and the night action each role has (RULES.md section 1)."""

from __future__ import annotations

from enum import StrEnum


class Team(StrEnum):
    MAFIA = "mafia"
    CIVILIANS = "civilians"


class Role(StrEnum):
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

    @property
    def team(self) -> Team:
        return Team.MAFIA if self in MAFIA_ROLES else Team.CIVILIANS

    @property
    def is_mafia(self) -> bool:
        return self in MAFIA_ROLES

    @property
    def action(self) -> Action | None:
        return NIGHT_ACTION.get(self)


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


MAFIA_ROLES: frozenset[Role] = frozenset({Role.MAFIA, Role.MAFIA_CHIEF, Role.MAFIA_KILLER})
COMMON_PICK_ROLES: frozenset[Role] = frozenset({Role.MAFIA, Role.MAFIA_CHIEF})
LAWYER_ROLES: frozenset[Role] = frozenset({Role.LAWYER, Role.LAWYER_BROTHER})

# Civilian cards, each at most once per table (RULES.md 2).
CIVILIAN_ROLES: tuple[Role, ...] = tuple(r for r in Role if r not in MAFIA_ROLES)
# Mafia cards that may appear at most once.
UNIQUE_MAFIA_ROLES: frozenset[Role] = frozenset({Role.MAFIA_CHIEF, Role.MAFIA_KILLER})

NIGHT_ACTION: dict[Role, Action] = {
    Role.MAFIA: Action.MAFIA_PICK,
    Role.MAFIA_CHIEF: Action.MAFIA_PICK,
    Role.MAFIA_KILLER: Action.KILL,
    Role.MANIAC: Action.KILL,
    Role.MARILYN: Action.BLOCK,
    Role.MARILYN_SISTER: Action.BLOCK,
    Role.DOCTOR: Action.HEAL,
    Role.SPORTSMAN: Action.CHALLENGE,
    Role.JUDGE: Action.JAIL,
    Role.POLICEMAN: Action.CHECK,
    Role.OLIGARCH: Action.BUYOUT,
    Role.OLIGARCH_BROTHER: Action.BUYOUT,
}

# Actions that are shots: open immunities stop them (RULES.md 3.3).
SHOT_ACTIONS: frozenset[Action] = frozenset({Action.MAFIA_PICK, Action.KILL, Action.CHALLENGE})

"""Table compositions: validation and the default per table size (docs/rules.md#2-the-deal)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.errors import CompositionError
from engine.roles import CIVILIAN_ROLES, MAFIA_ROLES, UNIQUE_MAFIA_ROLES, Role

MIN_PLAYERS = 6
MAX_PLAYERS = 24
KILLER_FROM = 16

# The order in which civilian cards join the default composition as the table grows.
CIVILIAN_PRIORITY: tuple[Role, ...] = (
    Role.DOCTOR,
    Role.POLICEMAN,
    Role.MARILYN,
    Role.JUDGE,
    Role.SPORTSMAN,
    Role.LUCKY,
    Role.LAWYER,
    Role.MANIAC,
    Role.OLIGARCH,
    Role.MARILYN_SISTER,
    Role.LAWYER_BROTHER,
    Role.OLIGARCH_BROTHER,
)
assert sorted(CIVILIAN_PRIORITY) == sorted(CIVILIAN_ROLES)


def min_mafia(n: int) -> int:
    """ceil(0.3 * n) in exact integer arithmetic."""
    return (3 * n + 9) // 10


def validate_composition(roles: Iterable[Role]) -> None:
    """Raise CompositionError when the cards break the deal rules."""
    cards = list(roles)
    n = len(cards)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CompositionError(
            "table_size", f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}"
        )
    counts = Counter(cards)
    for role, count in sorted(counts.items()):
        if count > 1 and (role in CIVILIAN_ROLES or role in UNIQUE_MAFIA_ROLES):
            raise CompositionError("duplicate_card", f"the {role} card may appear only once")
    mafia = sum(count for role, count in counts.items() if role in MAFIA_ROLES)
    if mafia < min_mafia(n):
        raise CompositionError(
            "too_few_mafia",
            f"Mafia must be at least 30% of the table ({min_mafia(n)} of {n}), not {mafia}",
        )
    if mafia == n:
        raise CompositionError("no_civilians", "the table needs at least one civilian")


def default_composition(n: int) -> tuple[Role, ...]:
    """The composition the bot proposes for ``n`` players: Mafia cards first, then civilians.

    Mafia is ceil(30%) of the table, or more where the twelve civilian cards run out (n > 18).
    The Chief is always dealt; the Killer, a strong card the club deals rarely, only from
    ``KILLER_FROM`` players on.
    """
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CompositionError(
            "table_size", f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}"
        )
    mafia = max(min_mafia(n), n - len(CIVILIAN_PRIORITY))
    mafia_cards = [Role.MAFIA_CHIEF]
    if n >= KILLER_FROM:
        mafia_cards.append(Role.MAFIA_KILLER)
    mafia_cards += [Role.MAFIA] * (mafia - len(mafia_cards))
    return (*mafia_cards, *CIVILIAN_PRIORITY[: n - mafia])

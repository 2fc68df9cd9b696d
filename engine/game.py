"""Setting up a table, ordering the friend immunity, and technical death (docs/rules.md#2-the-deal,
docs/rules.md#5-immunities, docs/rules.md#6-technical-death)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from engine.composition import validate_composition
from engine.ending import release_all, settle
from engine.errors import CompositionError, RuleViolation
from engine.events import EVERYONE, Event
from engine.points import DEFAULT_POINTS, LedgerEntry, PointsConfig
from engine.roles import Role
from engine.state import FriendImmunity, GameState, OpenImmunity, PlayerState


@dataclass(frozen=True, slots=True)
class SeatSpec:
    seat: int
    role: Role
    sex: str | None = None
    open_immunities: frozenset[OpenImmunity] = frozenset()
    friend: FriendImmunity | None = None


@dataclass(frozen=True, slots=True)
class TechnicalDeathResult:
    seat: int
    died: tuple[int, ...]
    released: tuple[int, ...]
    ledger: tuple[LedgerEntry, ...]
    events: tuple[Event, ...]


def new_game(seats: Sequence[SeatSpec], points: PointsConfig = DEFAULT_POINTS) -> GameState:
    """A table ready for its first phase; raises CompositionError for an illegal table."""
    numbers = [s.seat for s in seats]
    if any(n < 1 for n in numbers):
        raise CompositionError("bad_seat", "seats are positive numbers")
    if len(set(numbers)) != len(numbers):
        raise CompositionError("duplicate_seat", "every seat appears once")
    validate_composition(s.role for s in seats)
    players = {
        s.seat: PlayerState(seat=s.seat, role=s.role, sex=s.sex, open_immunities=s.open_immunities,
                       friend=s.friend)
        for s in sorted(seats, key=lambda s: s.seat)
    }
    return GameState(players=players, points=points)


def open_immunities_event(state: GameState) -> Event:
    """Everybody knows who holds an open immunity: the bot announces them at the start."""
    holders = {s: sorted(str(i) for i in p.open_immunities)
               for s, p in sorted(state.players.items()) if p.open_immunities}
    return Event("open_immunities", EVERYONE, {"holders": holders})


def neighbours(seats: Collection[int], seat: int) -> set[int]:
    """The two seats beside ``seat``: the table is a circle."""
    order = sorted(seats)
    i = order.index(seat)
    return {order[i - 1], order[(i + 1) % len(order)]} - {seat}


def check_friend_order(
    seats: Collection[int],
    sexes: Mapping[int, str | None],
    orderer: int,
    holder: int,
    spouse_of: Mapping[int, int] | None = None,
) -> None:
    """The friend immunity goes to the opposite sex, not beside the orderer, not its spouse."""
    if orderer not in seats:
        raise RuleViolation("not_at_table", "is not at the table", orderer)
    if holder not in seats:
        raise RuleViolation("target_unknown", f"may not befriend seat {holder}: nobody sits there",
                            orderer)
    if holder == orderer:
        raise RuleViolation("friend_self", "may not order the friend immunity for itself", orderer)
    mine, theirs = sexes.get(orderer), sexes.get(holder)
    if mine is None or theirs is None:
        raise RuleViolation("friend_sex_unknown", "both players' sex must be known", orderer)
    if mine == theirs:
        raise RuleViolation("friend_same_sex",
                            f"may not befriend seat {holder}: the same sex", orderer)
    if holder in neighbours(seats, orderer):
        raise RuleViolation("friend_adjacent",
                            f"may not befriend seat {holder}: it sits next to the orderer",
                            orderer)
    if spouse_of is not None and spouse_of.get(orderer) == holder:
        raise RuleViolation("friend_spouse",
                            f"may not befriend seat {holder}: the registered spouse", orderer)


def technical_death(state: GameState, seat: int) -> tuple[GameState, TechnicalDeathResult]:
    """The host removes a player: a death without last word, and no team-win points for it."""
    if state.over:
        raise RuleViolation("game_over", "the game is over")
    player = state.players.get(seat)
    if player is None:
        raise RuleViolation("not_at_table", "is not at the table", seat)
    if not player.alive:
        raise RuleViolation("already_dead", "is already dead", seat)
    players = state.with_players(
        {seat: player._replace(alive=False, jailed=False, technical=True)}
    )
    released = release_all(players) if player.role is Role.JUDGE else []
    events = [Event("technical_death", EVERYONE, {"seat": seat})]
    if released:
        events.append(Event("released", EVERYONE, {"seats": released}))
    ledger: list[LedgerEntry] = []
    new_state = settle(state, players, ledger, events)
    result = TechnicalDeathResult(seat, (seat,), tuple(released), tuple(ledger), tuple(events))
    return new_state, result

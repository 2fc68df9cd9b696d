"""The engine functions the bot calls one choice at a time."""

from __future__ import annotations

import pytest

from engine import (
    OpenImmunity,
    RuleViolation,
    cancellers,
    check_friend_order,
    common_pick,
    complete_votes,
    legal_targets,
    neighbours,
    night_actors,
    resolve_day,
    resolve_night,
    tally_votes,
    technical_death,
    votable,
    vote_candidates,
    voters,
)
from tests.engine.conftest import T10, T12, table

NEWBIE = frozenset({OpenImmunity.NEWBIE})


def test_legal_targets_exclude_self_dead_and_immune() -> None:
    state = table(T10, s5={"open": NEWBIE})
    assert legal_targets(state, 1) == [2, 3, 4, 6, 7, 8, 9, 10]
    assert legal_targets(state, 4) == [1, 2, 3, 5, 6, 7, 8, 9, 10]  # heals are not shots
    state, _ = resolve_night(state, {1: 7, 2: 7, 3: 7})
    state, _ = resolve_day(state, {s: 8 for s in state.alive if s != 8} | {8: 1})
    assert 7 not in legal_targets(state, 4)
    assert 5 in legal_targets(state, 1)  # the immunity ended with the first day


def test_judge_and_oligarch_targets() -> None:
    state = table(T12)
    assert legal_targets(state, 9) == []  # nobody is jailed yet
    state, _ = resolve_night(state, {8: 6})
    state, _ = resolve_day(state, {s: 2 for s in voters(state) if s != 2} | {2: 1})
    assert legal_targets(state, 9) == [6]
    assert 6 not in legal_targets(state, 8)
    with pytest.raises(RuleViolation) as err:
        legal_targets(state, 6)
    assert err.value.code == "actor_jailed"


def test_night_actors_skip_role_without_action_dead_and_jailed() -> None:
    state = table(T10)
    assert night_actors(state) == [1, 2, 3, 4, 5, 6, 7, 8]
    state, _ = resolve_night(state, {7: 4, 1: 5, 2: 5, 3: 5})
    state, _ = resolve_day(state, {s: 2 for s in voters(state) if s != 2} | {2: 1})
    assert night_actors(state) == [1, 3, 6, 7, 8]


@pytest.mark.parametrize(
    ("picks", "blocked", "expected"),
    [
        ({1: 5, 2: 5, 3: 5}, frozenset(), 5),
        ({1: 5, 2: 4}, frozenset(), 5),
        ({2: 4, 3: 6}, frozenset(), None),
        ({1: 5, 2: 4, 3: 6}, frozenset({1}), None),
        ({1: 5, 2: 4, 3: 4}, frozenset({1}), 4),
        ({2: 4}, frozenset({2}), None),
        ({}, frozenset(), None),
    ],
)
def test_common_pick(picks: dict[int, int], blocked: frozenset[int], expected: int | None) -> None:
    assert common_pick(table(T10), picks, blocked) == expected


def test_resolution_never_mutates_the_old_state() -> None:
    state = table(T10)
    before = dict(state.players)
    new, _ = resolve_night(state, {1: 5, 2: 5, 3: 5})
    assert dict(state.players) == before
    assert state.night_number == 0 and new.night_number == 1
    assert state.player(5).alive and not new.player(5).alive


def test_votes_complete_with_timeouts_and_tally() -> None:
    state = table(T10, s9={"open": NEWBIE})
    full, timeouts = complete_votes(state, {1: 4})
    assert timeouts == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert 9 not in full  # an immune voter who times out casts no vote
    assert full[2] == 2
    assert 9 not in vote_candidates(state, 1)
    tally = tally_votes({1: 4, 2: 4, 3: 5, 4: 5})
    assert tally.shootout and tally.tied == (4, 5) and tally.leader is None
    assert tally_votes({}).failed


def test_a_day_when_nobody_may_be_voted_for() -> None:
    """A first day at which every player still in the game holds an open immunity: nobody may
    be voted for, so no vote is held: the table hears that (``vote_impossible``), not a tally
    of timeouts and a failed vote; nobody leaves and the day's survival points stand."""
    state = table(T10, **{f"s{s}": {"open": NEWBIE} for s in range(1, 11)})
    state, _ = resolve_night(state, {})
    assert votable(state) == [] and all(vote_candidates(state, v) == [] for v in voters(state))
    state, day = resolve_day(state, {})
    assert [e.kind for e in day.events] == ["vote_impossible", "day_summary"]
    assert day.events[0].data == {"day": 1} and day.condemned is None and not day.died
    assert len(state.alive) == 10 and len(day.ledger) == 10  # a point each for the day
    # the next day the immunities are over: a vote again
    state, _ = resolve_night(state, {})
    assert votable(state) == list(range(1, 11))


def test_cancellers() -> None:
    state = table(T12)
    assert cancellers(state, 5) == [11]
    assert cancellers(state, 11) == []


@pytest.mark.parametrize(
    ("orderer", "holder", "code"),
    [(1, 1, "friend_self"), (1, 2, "friend_adjacent"), (1, 10, "friend_adjacent"),
     (1, 3, "friend_same_sex"), (1, 12, "target_unknown"), (11, 1, "not_at_table")],
)
def test_friend_order_refusals(orderer: int, holder: int, code: str) -> None:
    seats = list(range(1, 11))
    sexes = {s: ("f" if s % 2 else "m") for s in seats}
    with pytest.raises(RuleViolation) as err:
        check_friend_order(seats, sexes, orderer, holder)
    assert err.value.code == code


def test_friend_order_spouse_and_unknown_sex() -> None:
    seats = list(range(1, 11))
    sexes: dict[int, str | None] = {s: ("f" if s % 2 else "m") for s in seats}
    check_friend_order(seats, sexes, 1, 4)
    with pytest.raises(RuleViolation) as err:
        check_friend_order(seats, sexes, 1, 4, spouse_of={1: 4, 4: 1})
    assert err.value.code == "friend_spouse"
    sexes[4] = None
    with pytest.raises(RuleViolation) as err:
        check_friend_order(seats, sexes, 1, 4)
    assert err.value.code == "friend_sex_unknown"


def test_neighbours_wrap_around_the_table() -> None:
    assert neighbours([1, 2, 3, 4, 5, 6], 1) == {2, 6}
    assert neighbours([1, 2, 3, 4, 5, 6], 6) == {1, 5}


def test_technical_death_refusals() -> None:
    state = table(T10)
    with pytest.raises(RuleViolation):
        technical_death(state, 42)
    state, result = technical_death(state, 3)
    assert result.died == (3,) and state.player(3).technical
    with pytest.raises(RuleViolation):
        technical_death(state, 3)


def test_no_phase_after_the_end() -> None:
    state = table(T10)
    for seat in (1, 2, 3):
        state, _ = technical_death(state, seat)
    assert state.over and str(state.winner) == "civilians"
    with pytest.raises(RuleViolation) as err:
        resolve_night(state, {})
    assert err.value.code == "game_over"


def test_current_day_is_one_number_through_a_day_and_its_evening() -> None:
    state = table(T10)
    assert state.current_day == 1  # a game the host starts with a day
    state, result = resolve_day(state, {s: 8 for s in state.alive if s != 8} | {8: 1})
    assert result.number == state.current_day == 1  # the evening still names day 1
    state, _ = resolve_night(state, {1: 7, 2: 7, 3: 7})
    assert state.current_day == 2  # the morning opens day 2
    state, result = resolve_day(state, {s: 9 for s in state.alive if s != 9} | {9: 1})
    assert result.number == state.current_day == 2

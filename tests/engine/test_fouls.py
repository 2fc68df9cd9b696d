"""Fouls and fines in the engine: the phase a foul is written in, the standing count, the
reversal, and (over random games) that fouls change points only, by exactly their fines."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import FoulReason, GameState, Phase, RuleViolation
from engine.replay import replay
from tests.engine.conftest import T10, table
from tests.engine.random_games import play


def test_phase_labels_follow_the_table() -> None:
    state = table(T10)
    assert engine.phase_label(state) == "night 1"  # the first phase (a night by default)
    assert engine.phase_label(state, Phase.DAY) == "day 1"  # a game that starts with a day
    state, _ = engine.resolve_night(state, {})
    assert engine.phase_label(state) == "day 1"  # the morning after night 1
    assert engine.phase_label(state, Phase.NIGHT) == "night 1"
    state, _ = engine.resolve_day(state, {})
    assert engine.phase_label(state, Phase.DAY) == "day 1"  # the evening after the verdict
    assert engine.phase_label(state) == engine.phase_label(state, Phase.NIGHT) == "night 2"


def test_standing_fouls_count_what_was_not_undone() -> None:
    state = table(T10)
    state, first = engine.foul(state, 4, reason=FoulReason.AT_NIGHT, points=1)
    state, second = engine.foul(state, 4, points=0)
    state, other = engine.foul(state, 5, reason=FoulReason.GESTURE, points=2)
    assert (first.standing, second.standing, other.standing) == (1, 2, 1)
    assert [f.number for f in state.fouls] == [1, 2, 3]
    assert second.ledger == ()  # a warning writes no row
    state, undone = engine.undo_foul(state, 1)
    assert undone.standing == 1 and undone.foul.undone
    assert engine.standing_fouls(state, 4) == 1
    assert [(e.seat, e.points, str(e.reason)) for e in state.ledger] == [
        (4, -1, "foul_at_night"), (5, -2, "foul_gesture"), (4, 1, "foul_undone")]
    # undoing a warning writes no row either, and then it no longer counts
    state, undone = engine.undo_foul(state, 2)
    assert undone.ledger == () and engine.standing_fouls(state, 4) == 0


@pytest.mark.parametrize(("number", "code"), [(0, "foul_unknown"), (3, "foul_unknown"),
                                              (1, "foul_undone")])
def test_undo_refusals(number: int, code: str) -> None:
    state = table(T10)
    state, _ = engine.foul(state, 2, points=1)
    state, _ = engine.foul(state, 3, points=1)
    state, _ = engine.undo_foul(state, 1)
    with pytest.raises(RuleViolation) as refused:
        engine.undo_foul(state, number)
    assert refused.value.code == code


def test_nothing_after_the_end() -> None:
    state = table(("mafia_chief", "mafia", "doctor", "policeman", "marilyn", "judge"))
    state, _ = engine.foul(state, 3, points=1)
    state, _ = engine.technical_death(state, 1)
    state, _ = engine.technical_death(state, 2)
    assert state.over
    refusals: list[Callable[[GameState], object]] = [lambda s: engine.foul(s, 3),
                                                     lambda s: engine.undo_foul(s, 1)]
    for refused in refusals:
        with pytest.raises(RuleViolation) as error:
            refused(state)
        assert error.value.code == "game_over"


def _with_fouls(protocol: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any],
                                                                     Counter[int]]:
    """The same game with fouls (and undoings) between its entries; what they cost per seat."""
    seats = [int(p["seat"]) for p in protocol["players"]]
    entries: list[object] = []
    fines: dict[int, tuple[int, int]] = {}  # foul number -> (seat, points), while it stands
    recorded = 0
    cost: Counter[int] = Counter()
    for index, entry in enumerate(protocol["steps"]):
        if index == 0 or rng.random() < 0.5:
            seat, points = rng.choice(seats), rng.randint(1 if index == 0 else 0, 3)
            entries.append({"foul": {"seat": seat, "points": points,
                                     "reason": rng.choice([r.value for r in FoulReason])}})
            recorded += 1
            fines[recorded] = (seat, points)
            cost[seat] -= points
        if fines and rng.random() < 0.2:
            number = rng.choice(sorted(fines))
            seat, points = fines.pop(number)
            entries.append({"undo_foul": number})
            cost[seat] += points
        entries.append(entry)
    return {**protocol, "steps": entries}, cost


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_fouls_change_points_only_by_their_fines(seed: int) -> None:
    protocol, _ = play(random.Random(seed))
    plain = replay(json.loads(json.dumps(protocol)))
    fouled, cost = _with_fouls(protocol, random.Random(seed + 1))
    result = replay(json.loads(json.dumps(fouled)))
    assert result["phases"] == plain["phases"]
    assert (result["alive"], result["winner"]) == (plain["alive"], plain["winner"])
    assert cost  # the game had fouls
    for seat, points in plain["points"].items():
        assert result["points"][seat] == points + cost[int(seat)]


def test_fouls_are_in_the_state_not_the_players() -> None:
    state: GameState = table(T10)
    after, _ = engine.foul(state, 1, points=3)
    assert after.players == state.players and after.phase == state.phase

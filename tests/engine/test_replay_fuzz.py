"""Whatever the input, the replay answers with a result or one error line: never a crash."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.replay import replay_text

ROLES = ["mafia_chief", "mafia", "mafia", "doctor", "policeman", "marilyn", "judge",
         "sportsman", "lucky", "lawyer", "maniac", "mafia_killer", "oligarch"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.text(max_size=4),
                    st.floats(allow_nan=False))
seat_maps = st.dictionaries(st.sampled_from([str(i) for i in range(0, 14)] + ["x", "-1"]),
                            st.one_of(st.integers(-1, 14), scalars), max_size=12)
entries = st.one_of(
    st.builds(lambda m: {"night": m}, seat_maps),
    st.builds(lambda m, f, c: {"day": {"votes": m, "fate": f, "cancel_by": c}}, seat_maps,
              st.one_of(st.none(), st.integers(0, 14)), st.one_of(st.none(), st.integers(0, 14))),
    st.builds(lambda s: {"technical_death": s}, st.one_of(st.integers(0, 14), scalars)),
    st.builds(lambda s, p, r, ph: {"foul": {"seat": s, "points": p, "reason": r, "phase": ph}},
              st.one_of(st.integers(0, 14), scalars), st.one_of(st.integers(-2, 5), scalars),
              st.one_of(st.sampled_from(["out_of_turn", "at_night", "gesture", "other"]),
                        scalars, st.lists(st.integers(), max_size=1)),
              st.one_of(st.sampled_from(["night", "day"]), scalars)),
    st.builds(lambda n: {"undo_foul": n}, st.one_of(st.integers(-1, 4), scalars)),
    scalars,
)
players = st.lists(
    st.fixed_dictionaries(
        {"seat": st.one_of(st.integers(0, 14), scalars), "role": st.sampled_from([*ROLES, "x"])},
        optional={"sex": st.sampled_from(["m", "f", "x"]),
                  "immunities": st.lists(st.sampled_from(
                      ["newbie", "friend", "first_day_killed", "bogus",
                       {"kind": "friend", "announce_by": 3}]), max_size=2)},
    ),
    min_size=0, max_size=14,
)
protocols = st.fixed_dictionaries(
    {"players": players, "steps": st.lists(entries, max_size=6)},
    optional={"seed": st.one_of(st.integers(), scalars)},
)


def check(outcome: Any) -> None:
    if outcome.error is None:
        assert outcome.result is not None
        json.dumps(outcome.result)
    else:
        assert outcome.result is None
        assert "\n" not in outcome.error


@settings(max_examples=400, deadline=None)
@given(protocols)
def test_random_protocols_never_crash(protocol: dict[str, Any]) -> None:
    check(replay_text(json.dumps(protocol)))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_random_text_never_crashes(text: str) -> None:
    check(replay_text(text))


VALID_TABLE = [{"seat": i, "role": role} for i, role in enumerate(ROLES, 1)]


@settings(max_examples=400, deadline=None)
@given(st.lists(entries, max_size=8), st.one_of(st.none(), st.integers()))
def test_random_entries_on_a_valid_table_never_crash(entry_list: list[Any], seed: Any) -> None:
    check(replay_text(json.dumps({"players": VALID_TABLE, "steps": entry_list, "seed": seed})))


fouls = st.one_of(
    st.builds(lambda s, p, r, ph: {"foul": {"seat": s, "points": p, "reason": r, "phase": ph}},
              st.integers(1, len(ROLES)), st.one_of(st.integers(-2, 5), scalars),
              st.one_of(st.sampled_from(["out_of_turn", "at_night", "gesture", "other"]),
                        scalars, st.lists(st.integers(), max_size=1), st.dictionaries(
                            st.text(max_size=2), st.integers(), max_size=1)),
              st.one_of(st.sampled_from(["night", "day"]), scalars,
                        st.lists(st.integers(), max_size=1))),
    st.builds(lambda n: {"undo_foul": n}, st.one_of(st.integers(-1, 4), scalars)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(fouls, entries), max_size=8))
def test_random_fouls_on_a_valid_table_never_crash(entry_list: list[Any]) -> None:
    check(replay_text(json.dumps({"players": VALID_TABLE, "steps": entry_list})))

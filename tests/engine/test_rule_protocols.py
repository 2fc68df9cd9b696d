"""Hand-written protocols, one per rule, interaction and error, with hand-computed expectations.

Each file in protocols/ holds ``rule`` (the docs/rules.md section it pins), ``protocol`` and
``expect``: a partial result (phases matched by index and key), ``ledger_contains`` /
``ledger_excludes`` rows, or ``error`` with ``step`` (the entry's index, or "players") and the
seat at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.replay import replay_text
from tests.engine.conftest import iter_json

CASES = list(iter_json("protocols"))


def assert_partial(actual: Any, expected: Any, where: str) -> None:
    if isinstance(expected, Mapping):
        assert isinstance(actual, Mapping), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing"
            assert_partial(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list) and where.endswith("phases"):
        assert len(actual) == len(expected), f"{where}: {len(actual)} phases"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_partial(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def test_there_are_many_protocols() -> None:
    assert len(CASES) >= 80


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_protocol(path: Path) -> None:
    case = json.loads(path.read_text("utf-8"))
    assert case["rule"]
    outcome = replay_text(json.dumps(case["protocol"]))
    expect = dict(case["expect"])
    if "error" in expect:
        error = expect.pop("error")
        assert outcome.result is None, f"expected an error, got {outcome.result}"
        assert outcome.error_where == error["step"], outcome.error
        if "seat" in error:
            assert outcome.error_seat == error["seat"], outcome.error
        return
    assert outcome.error is None, outcome.error
    result = outcome.result
    assert result is not None
    ledger = result["ledger"]
    for row in expect.pop("ledger_contains", []):
        assert row in ledger, f"missing ledger row {row}"
    for row in expect.pop("ledger_excludes", []):
        assert row not in ledger, f"unexpected ledger row {row}"
    assert_partial(result, expect, "result")
    assert sorted(result["points"]) == sorted(str(p["seat"]) for p in case["protocol"]["players"])
    totals: dict[str, int] = {}
    for row in ledger:
        totals[str(row["seat"])] = totals.get(str(row["seat"]), 0) + row["points"]
    assert all(result["points"][s] == totals.get(s, 0) for s in result["points"])

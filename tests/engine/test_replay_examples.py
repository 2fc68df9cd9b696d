"""Every example protocol (from the club network's scenarios) replays to its expected result."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import replay_text
from tests.engine.conftest import HERE, ledger_multiset

EXAMPLES = sorted(p for p in (HERE / "scenarios").glob("*.json")
                  if not p.name.endswith(".expected.json"))
ERROR_LINE = re.compile(r"^step (\d+): seat (\d+) \((\w+)\) .+$")


def expected_of(path: Path) -> dict[str, object]:
    expected: dict[str, object] = json.loads(
        path.with_name(path.stem + ".expected.json").read_text("utf-8"))
    return expected


def test_examples_are_present() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_expected(path: Path) -> None:
    expected = expected_of(path)
    outcome = replay_text(path.read_text("utf-8"))
    if "error" in expected:
        error = expected["error"]
        assert isinstance(error, dict)
        assert outcome.result is None
        assert (outcome.error_where, outcome.error_seat) == (error["step"], error["seat"])
        return
    assert outcome.error is None, outcome.error
    result = outcome.result
    assert result is not None
    for key in ("phases", "alive", "jailed", "winner", "points"):
        assert result[key] == expected[key], key
    ledger = expected["ledger"]
    assert isinstance(ledger, list)
    assert ledger_multiset(result["ledger"]) == ledger_multiset(ledger)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_cli_matches_contract(path: Path) -> None:
    """`python -m engine replay FILE`: JSON on stdout and exit 0, or one line on stderr and 2."""
    expected = expected_of(path)
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    if "error" in expected:
        error = expected["error"]
        assert isinstance(error, dict)
        assert proc.returncode == 2
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1
        match = ERROR_LINE.match(lines[0])
        assert match, lines[0]
        assert (int(match[1]), int(match[2])) == (error["step"], error["seat"])
    else:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["points"] == expected["points"]


def test_cli_reads_standard_input() -> None:
    text = (HERE / "scenarios" / "doctor_saves.json").read_text("utf-8")
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=text,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["phases"][0]["saved"] == [{"seat": 5, "by": "doctor"}]


def test_doctor_error_line_is_exact() -> None:
    path = HERE / "scenarios" / "doctor_heals_itself.json"
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.stderr.strip() == "step 0: seat 4 (doctor) may not heal itself"


@pytest.mark.parametrize(
    ("text", "prefix"),
    [
        ("not json", "protocol: format: not JSON"),
        ("[]", "protocol: format"),
        ('{"players": [], "steps": []}', "players: format"),
        ('{"players": 3}', "players: format"),
    ],
)
def test_cli_refuses_malformed_input(text: str, prefix: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=text,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(prefix)
    assert len(proc.stderr.strip().splitlines()) == 1


def test_cli_missing_file() -> None:
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "/nonexistent/x.json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""


def _table_json() -> str:
    players = ", ".join(
        f'{{"seat": {i}, "role": "{r}"}}'
        for i, r in enumerate(["mafia_chief", "mafia", "mafia", "doctor", "policeman", "marilyn",
                               "judge", "sportsman", "lucky", "lawyer"], 1)
    )
    return f'"players": [{players}]'


@pytest.mark.parametrize(
    ("text", "where", "seat"),
    [
        ('{' + _table_json() + ', "seed": ' + "1" * 5000 + '}', "protocol", None),
        ('{' + _table_json() + ', "steps": [{"night": {"' + "7" * 5000 + '": 2}}]}', 0, None),
        ("[" * 100_000 + "]" * 100_000, "protocol", None),
        ('{' + _table_json() + ', "steps": [{"night": {"1": 5, "1": 6}}]}', 0, 1),
        ('{' + _table_json() + ', "steps": [{"night": {}}, {"day": {"votes": {"4": 1, "4": 2}}}]}',
         1, 4),
    ],
    ids=["huge-seed", "huge-seat-key", "deep-nesting", "duplicate-actor", "duplicate-voter"],
)
def test_hostile_input_is_refused_in_one_line(text: str, where: object, seat: int | None) -> None:
    outcome = replay_text(text)
    assert outcome.result is None
    assert outcome.error is not None and "\n" not in outcome.error
    assert (outcome.error_where, outcome.error_seat) == (where, seat)


def test_unknown_keys_are_ignored() -> None:
    text = ('{' + _table_json().replace('"role": "doctor"', '"role": "doctor", "note": "x"')
            + ', "version": 2, "steps": [{"night": {"4": 5}}, {"day": {"votes": {}, "x": 1}}]}')
    outcome = replay_text(text)
    assert outcome.error is None, outcome.error

"""Every number of the points table comes from one TOML file a club can change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import DEFAULT_POINTS, PointsConfig, Reason
from engine.replay import replay
from tests.engine.conftest import HERE


def test_default_file_matches_rules_table() -> None:
    assert (DEFAULT_POINTS.survived_day, DEFAULT_POINTS.survived_night) == (1, 1)
    assert (DEFAULT_POINTS.vote_for_mafia, DEFAULT_POINTS.vote_for_civilian) == (5, 2)
    assert (DEFAULT_POINTS.lawyer_save, DEFAULT_POINTS.mafia_shot) == (12, 2)
    assert (DEFAULT_POINTS.killer_shot, DEFAULT_POINTS.team_win) == (2, 6)
    assert DEFAULT_POINTS.sole_survivor == 12
    assert {r.value for r in Reason} == set(PointsConfig.__dataclass_fields__)


def test_a_club_changes_numbers_without_code() -> None:
    config = PointsConfig.from_toml("team_win = 10\nvote_for_mafia = 0\n")
    protocol = json.loads((HERE / "scenarios" / "civilians_win.json").read_text("utf-8"))
    result = replay(protocol, config)
    reasons = {row["reason"] for row in result["ledger"]}
    assert "vote_for_mafia" not in reasons
    wins = [row["points"] for row in result["ledger"] if row["reason"] == "team_win"]
    assert wins and set(wins) == {10}


@pytest.mark.parametrize("text", ["team_win = -1", "nonsense = 3", "team_win = 'six'",
                                  "team_win = true"])
def test_bad_config_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        PointsConfig.from_toml(text)


def test_cli_takes_a_club_points_file(tmp_path: Path) -> None:
    points = tmp_path / "club.toml"
    points.write_text("survived_night = 3\n")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "--points", str(points),
         str(HERE / "scenarios" / "doctor_saves.json")],
        capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["points"]["4"] == 3

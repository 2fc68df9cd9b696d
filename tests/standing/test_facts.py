"""A finished game's facts from its log alone: hand-made logs with every kind of departure and
night event, and every replay protocol of the engine's tests written down as a log, whose
facts must agree with the engine's own replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Role, Team, Winner
from engine.replay import replay
from standing.facts import Day, Exit, Night, ShotKind, Technical, game_facts
from tests.standing.logs import TG_BASE, day, everyone, game, log_of, night, tech

ENGINE_TESTS = Path(__file__).parent.parent / "engine"
SIX = ["mafia_chief", "mafia", "doctor", "sportsman", "lucky", "marilyn"]


def test_the_sportsman_takes_a_mafia_with_him_and_the_lucky_survives_a_shot() -> None:
    log = game(SIX, night(s1=5, s2=5, s3=6, s4=2), day(everyone(1, [1, 3, 5, 6])))
    facts = game_facts(log)
    assert facts is not None
    assert facts.winner is Winner.CIVILIANS
    first = facts.phases[0]
    assert isinstance(first, Night)
    assert first.challenges == {4: 2} and first.heals == {3: 6}
    assert (5, "lucky") in first.saved and first.died == (2, 4)
    mafia_shot = next(s for s in first.shots if s.kind is ShotKind.MAFIA)
    assert mafia_shot.target == 5 and mafia_shot.by == (1, 2) and not mafia_shot.fatal
    two, four = facts.seats[2], facts.seats[4]
    assert two.left is not None and two.left.how is Exit.NIGHT and two.left.by == (4,)
    assert two.left.kinds == (ShotKind.CHALLENGE,)
    assert four.left is not None and four.left.by == (4,) and four.left.number == 1
    assert facts.kills_of(4) == (2,) and facts.killed_by(2) == (4,)
    one = facts.seats[1]
    assert one.left is not None and one.left.how is Exit.VOTE and one.left.phase == 1
    assert [s.seat for s in facts.seats.values() if s.won] == [3, 4, 5, 6]
    assert [s.seat for s in facts.seats.values() if s.survived] == [3, 5, 6]
    assert facts.seats[3].tg_id == TG_BASE + 3 and facts.seats[3].role is Role.DOCTOR
    assert facts.survivors(Team.CIVILIANS) == (3, 5, 6)


def test_a_doctors_save_a_killer_a_maniac_a_block_and_a_lawyers_cancel() -> None:
    roles = ["mafia_chief", "mafia_killer", "mafia", "doctor", "maniac", "marilyn", "lawyer",
             "policeman", "judge", "lucky"]
    log = game(
        roles,
        # the Chief's pick at 8 is healed; the Killer kills 9; Marilyn deprives the Maniac
        # of his kill; the Policeman finds the Killer
        night(s1=8, s3=8, s2=9, s4=8, s5=10, s6=5, s8=2),
        day({1: 4, 2: 4, 3: 4, 4: 1, 5: 4, 6: 4, 7: 1, 8: 1, 10: 1}, cancel_by=7),
        tech(3),
        night(s1=6, s2=5, s4=7),
        day({1: 8, 2: 1, 4: 1, 7: 1, 8: 1, 10: 1}),
        night(s2=7, s4=8, s8=2),
    )
    assert game_facts(log) is None  # the Killer still at the table: not over
    log = log + game(roles, day({2: 8, 4: 2, 8: 2, 10: 2}))[1:]
    facts = game_facts(log)
    assert facts is not None and facts.winner is Winner.CIVILIANS
    n1, d1, t, n2, d2, n3, d3 = facts.phases
    assert isinstance(n1, Night) and isinstance(d1, Day) and isinstance(t, Technical)
    assert n1.heals == {4: 8} and n1.saved == ((8, "doctor"),) and n1.died == (9,)
    assert n1.blocks == {6: 5} and n1.blocked == (5,) and 5 not in n1.challenges
    assert not any(s.kind is ShotKind.MANIAC for s in n1.shots)  # deprived of his action
    assert n1.checks == ((8, 2, True),)
    assert facts.seats[9].left is not None and facts.seats[9].left.by == (2,)
    assert facts.seats[9].left.kinds == (ShotKind.KILLER,)
    assert d1.verdict == 4 and d1.cancelled_by == 7 and d1.condemned is None and d1.died == ()
    assert facts.seats[3].left is not None and facts.seats[3].left.how is Exit.TECHNICAL
    assert facts.seats[3].technical and facts.seats[3].won is False
    assert isinstance(n2, Night) and n2.died == (5, 6)  # the Killer kills the Maniac
    assert facts.killed_by(5) == (2,) and facts.killed_by(6) == (1,)
    assert isinstance(d2, Day) and d2.died == (1,)
    assert isinstance(n3, Night) and n3.died == (7,)
    assert isinstance(d3, Day) and d3.died == (2,)
    assert facts.kills_of(2) == (5, 7, 9)


def test_the_last_mafia_standing_wins_alone() -> None:
    log = game(SIX, night(s1=5, s2=5), day({1: 4, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}),
               night(s2=3), day({2: 4, 4: 2, 5: 4, 6: 4}), night(s2=6),
               day({2: 5, 5: 2}, fate=5))
    facts = game_facts(log)
    assert facts is not None and facts.winner is Winner.MAFIA
    assert facts.survivors(Team.MAFIA) == (2,)
    assert facts.seats[2].won and facts.seats[2].survived
    assert facts.seats[1].won and not facts.seats[1].survived
    assert facts.seats[4].left is not None and facts.seats[4].left.how is Exit.VOTE
    last = facts.days[-1]
    assert last.tied == (2, 5) and last.verdict == 5 and last.died == (5,)


def test_a_game_not_over_has_no_facts() -> None:
    assert game_facts([]) is None
    assert game_facts(game(SIX)) is None
    assert game_facts(game(SIX, night(s1=3, s2=3))) is None


def test_a_friend_saves_from_the_vote_and_a_technical_death_ends_a_game() -> None:
    log = game(SIX, day({1: 3, 2: 3, 3: 1, 4: 3, 5: 3, 6: 3}), tech(1), tech(2),
               immunities={3: ["friend"]})
    facts = game_facts(log)
    assert facts is not None and facts.winner is Winner.CIVILIANS
    d1 = facts.phases[0]
    assert isinstance(d1, Day) and d1.saved == (3,) and d1.died == ()
    assert facts.seats[3].survived and facts.seats[3].left is None
    assert facts.seats[2].left is not None and facts.seats[2].left.phase == 2


def _protocols() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((ENGINE_TESTS / "protocols").glob("*.json")):
        case = json.loads(path.read_text("utf-8"))
        if "error" not in case["expect"]:
            out.append((path.stem, case["protocol"]))
    for path in sorted((ENGINE_TESTS / "scenarios").glob("*.json")):
        expected = path.with_name(f"{path.stem}.expected.json")
        if not path.name.endswith(".expected.json") and "error" not in json.loads(
                expected.read_text("utf-8")):
            out.append((f"example-{path.stem}", json.loads(path.read_text("utf-8"))))
    return out


PROTOCOLS = _protocols()


def test_there_are_many_protocols_to_read() -> None:
    assert len(PROTOCOLS) >= 60


@pytest.mark.parametrize(("name", "protocol"), PROTOCOLS, ids=[n for n, _ in PROTOCOLS])
def test_every_engine_protocol_as_a_log_agrees_with_the_engine(
        name: str, protocol: dict[str, Any]) -> None:
    """Each phase's deaths and saves, the winner and who is alive are the engine's; every
    night death names its killers; every seat that left says how, once."""
    result = replay(protocol)
    steps = [dict(s) for s in protocol.get("steps", [])]
    for step, phase in zip([s for s in steps if "foul" not in s and "undo_foul" not in s],
                           result["phases"], strict=True):
        if "day" in step and phase["tied"] and len(phase["tied"]) <= 3:
            # the log holds the draw: the replay's own (seeded) fate
            step["day"] = dict(step["day"], fate=phase["condemned"]
                               if phase["condemned"] is not None else phase["tied"][0])
            if phase["cancelled_by"] is not None:
                pytest.skip("a cancelled shoot-out: its draw is not in the replay's output")
    facts = game_facts(log_of(dict(protocol, steps=steps)))
    if result["winner"] is None:
        assert facts is None
        return
    assert facts is not None
    assert str(facts.winner) == result["winner"]
    assert [list(p.died) if not isinstance(p, Technical) else [p.seat] for p in facts.phases] \
        == [p["died"] for p in result["phases"]]
    assert sorted(s.seat for s in facts.seats.values() if s.survived) == result["alive"]
    for index, phase in enumerate(facts.phases):
        if isinstance(phase, Night):
            assert [{"seat": s, "by": b} for s, b in phase.saved] == \
                result["phases"][index]["saved"]
            for seat in phase.died:
                left = facts.seats[seat].left
                assert left is not None and left.phase == index and left.by, name
                assert all(seat in facts.kills_of(k) or k == seat for k in left.by)
    for facts_of_seat in facts.seats.values():
        assert (facts_of_seat.left is None) == facts_of_seat.survived

"""Every achievement of the catalogue earned by a game's log, and just missed by another; the
levels crossed once each; the rebuild equals the games' ends folded one by one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from standing.achievements import (
    BY_ID,
    CATALOGUE,
    GAMES,
    LADDER,
    SEASON_TOP,
    Awards,
    Count,
    Earned,
    award,
    rebuild,
)
from standing.facts import GameFacts, game_facts
from tests.standing.logs import TG_BASE, Logged, day, game, night, tech

SIX = ["mafia_chief", "mafia", "doctor", "sportsman", "lucky", "marilyn"]
TEN = ["mafia_chief", "mafia", "mafia", "doctor", "policeman", "marilyn", "judge", "sportsman",
       "lucky", "lawyer"]
THIRTEEN = ["mafia_chief", "mafia", "mafia", "mafia", "doctor", "policeman", "marilyn",
            "judge", "sportsman", "lucky", "lawyer", "maniac", "oligarch"]
SIXTEEN = ["mafia_chief", "mafia_killer", "mafia", "mafia", "mafia", "doctor", "policeman",
           "marilyn", "judge", "sportsman", "lucky", "lawyer", "maniac", "oligarch",
           "marilyn_sister", "lawyer_brother"]
QUIET = day()  # every vote a missed turn: each seat one vote, the vote fails
END6 = (tech(1), tech(2))  # the host removes the Mafia: the civilians win
END10 = (tech(1), tech(2), tech(3))
END13 = (tech(1), tech(2), tech(3), tech(4))
END16 = tuple(tech(s) for s in range(1, 6))
MAFIA6 = tuple(tech(s) for s in range(3, 7))  # the civilians removed: the Mafia win


def six(*steps: dict[str, Any], **kw: Any) -> list[Logged]:
    return game(SIX, *steps, **kw)


def ten(*steps: dict[str, Any]) -> list[Logged]:
    return game(TEN, *steps)


def thirteen(*steps: dict[str, Any]) -> list[Logged]:
    return game(THIRTEEN, *steps)


def sixteen(*steps: dict[str, Any]) -> list[Logged]:
    return game(SIXTEEN, *steps)


def clean() -> list[Logged]:
    return six(*END6)


def fouled() -> list[Logged]:
    return six({"foul": {"seat": 4, "points": 0}}, *END6)


def twice(seat_shot: int) -> tuple[dict[str, Any], ...]:
    return (night(s1=seat_shot, s2=seat_shot), QUIET)


# (achievement, seat, the games that earn its first level, the games that just miss it)
CASES: list[tuple[str, int, list[list[Logged]], list[list[Logged]]]] = [
    ("games", 4, [six(*END6)], [six(tech(1))]),  # one step before the end: no game yet
    ("wins", 4, [six(*END6)], [six(tech(4), *END6)]),  # removed: no win
    ("civilian_wins", 4, [six(*END6)], [six(*MAFIA6)]),
    ("mafia_wins", 1, [six(*MAFIA6)], [six(*END6)]),
    ("win_streak", 4, [six(*END6)] * 3, [six(*END6), six(*MAFIA6), six(*END6), six(*END6)]),
    ("survivor", 5, [six(*END6)], [six(night(s1=3, s2=3), QUIET, night(s1=5, s2=5), QUIET,
                                       night(s1=5, s2=5), *END6)]),
    ("lone_wolf", 2,
     [six(night(s1=5, s2=5), day({1: 4, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}), night(s2=3),
          day({2: 4, 4: 2, 5: 4, 6: 4}), night(s2=6), day({2: 5, 5: 2}, fate=5))],
     [six(*MAFIA6)]),
    ("last_civilian", 6, [six(tech(3), tech(4), tech(5), *END6)],
     [six(tech(3), tech(4), *END6)]),
    ("untouched_civilians", 3, [six(*END6)], [six(tech(4), *END6)]),
    ("untouched_mafia", 2, [six(*MAFIA6)], [six(tech(1), *MAFIA6)]),
    ("first_night", 3, [six(night(s1=3, s2=3), *END6)],
     [six(night(s1=5, s2=5), QUIET, night(s1=3, s2=3), *END6)]),
    ("bulletproof", 5, [six(*twice(5), night(s1=5, s2=5, s3=5), QUIET,
                            night(s1=5, s2=5, s3=5), *END6)],
     [six(*twice(5), night(s1=5, s2=5, s3=5), *END6)]),
    ("fair_play", 4, [clean() for _ in range(10)],
     [clean() for _ in range(4)] + [fouled()] + [clean() for _ in range(9)]),
    ("shootout_survived", 4, [six(day({1: 4, 2: 4, 3: 5, 4: 5, 5: 4, 6: 5}, fate=5), *END6)],
     [six(day({1: 4, 2: 4, 3: 5, 4: 5, 5: 4, 6: 5}, fate=4), *END6)]),
    ("friend_saved", 3, [six(day({1: 3, 2: 3, 4: 3, 5: 3, 6: 3}), *END6,
                             immunities={3: ["friend"]})],
     [six(day({1: 4, 2: 4, 3: 4, 5: 4, 6: 4}), *END6, immunities={3: ["friend"]})]),
    ("vote_hunter", 4, [six(*(s for _ in range(3) for s in (day({1: 4, 4: 1}), night())),
                            *END6)],
     [six(day({1: 4, 4: 1}), night(), day({1: 4, 4: 1}), night(), day({3: 4, 4: 3}),
          *END6)]),
    ("doctor_saves", 3, [six(night(s1=6, s2=6, s3=6), *END6)],
     [six(night(s1=6, s2=6, s3=4), *END6)]),
    ("doctor_triple", 3,
     [six(*(s for _ in range(3) for s in (night(s1=6, s2=6, s3=6), QUIET)), *END6)],
     [six(night(s1=6, s2=6, s3=6), QUIET, night(s1=6, s2=6, s3=6), QUIET,
          night(s1=6, s2=6, s3=4), *END6)]),
    ("sportsman_duel", 4, [six(night(s4=2), tech(1))], [six(night(s4=3), *END6)]),
    ("sportsman_hero", 4, [six(night(s4=2), tech(1), immunities={4: ["friend"]})],
     [six(night(s4=2), tech(1))]),
    ("sportsman_tough", 4, [six(night(s1=4, s2=4), *END6)], [six(night(s1=3, s2=3), *END6)]),
    ("lucky_escape", 5, [six(night(s1=5, s2=5), *END6)],
     [six(night(s1=5, s6=1), *END6)]),  # Marilyn deprived the Chief: no pick
    ("lucky_twice", 5, [six(*twice(5), night(s1=5, s2=5, s3=5), *END6)],
     [six(*twice(5), night(s1=5, s2=5), *END6)]),
    ("lawyer_save", 10, [ten(day({s: 4 for s in range(1, 11) if s != 4} | {4: 1},
                                 cancel_by=10), *END10)],
     [ten(day({s: 1 for s in range(2, 11)} | {1: 4}, cancel_by=10), *END10)]),
    ("marilyn_mafia", 6, [ten(night(s1=4, s2=4, s6=1), *END10)],
     [ten(night(s2=4, s6=1), *END10)]),
    ("marilyn_maniac", 7, [thirteen(night(s7=12, s12=5), *END13)],
     [thirteen(night(s7=12), *END13)]),
    ("policeman_mafia", 5, [ten(night(s5=1), *END10)], [ten(night(s5=4), *END10)]),
    ("policeman_three", 5,
     [ten(night(s5=1), QUIET, night(s5=2), QUIET, night(s5=3), *END10)],
     [ten(night(s5=1), QUIET, night(s5=2), QUIET, night(s5=2), *END10)]),
    ("judge_mafia", 7, [ten(night(s7=1), tech(2), tech(3), tech(1))],
     [ten(night(s7=4), *END10)]),
    ("oligarch_bail", 13, [thirteen(night(s8=5), QUIET, night(s13=5), *END13)],
     [thirteen(night(s8=1), QUIET, night(s13=1), *END13)]),
    ("maniac_mafia", 12, [thirteen(night(s12=1), tech(2), tech(3), tech(4))],
     [thirteen(night(s12=5), *END13)]),
    ("killer_kills", 2, [sixteen(night(s2=6), *END16)],
     [sixteen(night(s2=3), tech(1), tech(2), tech(4), tech(5))]),
    ("chief_wins", 1, [six(*MAFIA6)], [six(*END6)]),
    ("policeman_hunted", 1, [ten(night(s1=5, s2=5, s3=5), *END10)],
     [ten(night(s1=5, s2=5, s3=5, s4=5), *END10)]),
]


def facts_of(log: Sequence[Logged]) -> GameFacts | None:
    return game_facts(log)


def earned_by(games: list[list[Logged]], tg_id: int, achievement: str) -> list[Earned]:
    counted = []
    for game_id, log in enumerate(games, start=1):
        facts = facts_of(log)
        if facts is not None:
            counted.append((game_id, facts))
    return [e for e in rebuild(counted).earned
            if e.tg_id == tg_id and e.achievement == achievement]


def test_the_catalogue_has_thirty_achievements_each_with_a_case() -> None:
    assert len(CATALOGUE) >= 30
    assert len(BY_ID) == len(CATALOGUE)
    assert sorted(case[0] for case in CASES) == sorted(a.id for a in GAMES)
    assert [a.id for a in CATALOGUE if a.seasonal] == ["season_top"]  # no game's: no case
    for achievement in CATALOGUE:
        assert achievement.levels == tuple(sorted(set(achievement.levels)))
        assert achievement.levels[0] >= 1 and achievement.icon


@pytest.mark.parametrize(("achievement", "seat", "earns", "misses"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_achievement_is_earned_and_just_missed(
        achievement: str, seat: int, earns: list[list[Logged]],
        misses: list[list[Logged]]) -> None:
    tg_id = TG_BASE + seat
    assert all(facts_of(log) is not None for log in earns), "every earning game ends"
    got = earned_by(earns, tg_id, achievement)
    first = BY_ID[achievement].levels[0]
    assert [(e.level, e.game_id) for e in got] == [(first, len(earns))]
    assert earned_by(misses, tg_id, achievement) == []


def test_no_game_counts_the_seasonal_one() -> None:
    """A season's top ten is read from the closed seasons' boards: a game's end and the
    rebuild never move it, however many games are won."""
    games = [log for case in CASES for log in case[2]]
    awards = rebuild([(n, f) for n, log in enumerate(games, 1)
                      if (f := facts_of(log)) is not None])
    assert awards.earned and awards.progress
    assert [e for e in awards.earned if e.achievement == SEASON_TOP.id] == []
    assert [k for k in awards.progress if k[1] == SEASON_TOP.id] == []


def test_a_ladders_levels_are_each_earned_once_in_the_game_that_reaches_them() -> None:
    one_save = facts_of(six(night(s1=6, s2=6, s3=6), *END6))
    three_saves = facts_of(six(*(s for _ in range(3) for s in (night(s1=6, s2=6, s3=6), QUIET)),
                               *END6))
    assert one_save is not None and three_saves is not None
    doctor = TG_BASE + 3
    awards = Awards()
    for game_id in range(1, 121):
        awards.add(game_id, one_save)
    levels = [(e.level, e.game_id) for e in awards.earned
              if e.tg_id == doctor and e.achievement == "doctor_saves"]
    assert levels == [(1, 1), (5, 5), (25, 25), (100, 100)]
    assert awards.progress[(doctor, "doctor_saves")] == Count(120, 120)
    games = [(e.level, e.game_id) for e in awards.earned
             if e.tg_id == doctor and e.achievement == "games"]
    assert games == [(1, 1), (10, 10), (50, 50), (100, 100)]
    # a game that adds three crosses 5 once: 3 -> 6 earns level 5 only
    awards = Awards()
    awards.add(1, three_saves)
    awards.add(2, three_saves)
    assert [(e.level, e.game_id) for e in awards.earned
            if e.tg_id == doctor and e.achievement == "doctor_saves"] == [(1, 1), (5, 2)]
    assert [(e.level, e.game_id) for e in awards.earned
            if e.tg_id == doctor and e.achievement == "doctor_triple"] == [(1, 1)]
    assert LADDER == (1, 5, 25, 100)


def test_a_streak_falls_back_and_keeps_its_best_run() -> None:
    win, loss = facts_of(six(*END6)), facts_of(six(*MAFIA6))
    assert win is not None and loss is not None
    awards = Awards()
    for game_id, facts in enumerate([win, win, win, loss, win], start=1):
        awards.add(game_id, facts)
    assert awards.progress[(TG_BASE + 4, "win_streak")] == Count(1, 3)
    assert [(e.level, e.game_id) for e in awards.earned
            if e.tg_id == TG_BASE + 4 and e.achievement == "win_streak"] == [(3, 3)]


def test_the_rebuild_equals_the_games_folded_one_by_one() -> None:
    """Random games of the cases' logs among random players: the counters and levels of the
    fold from scratch are the ones each game's end wrote over the counters it read."""
    logs = [log for case in CASES for log in case[2] + case[3]]
    rnd = random.Random(3)
    games: list[tuple[int, GameFacts]] = []
    for game_id in range(1, 301):
        facts = facts_of(rnd.choice(logs))
        if facts is None:
            continue
        # the same table sat by other accounts: seat n -> one of 20 players
        players = rnd.sample(range(1, 21), len(facts.seats))
        seats = {s: replace(f, tg_id=players[s - 1]) for s, f in facts.seats.items()}
        games.append((game_id, GameFacts(facts.winner, seats, facts.phases)))
    stored: dict[tuple[int, str], Count] = {}
    earned: list[Earned] = []
    for game_id, facts in games:
        tg_ids = {f.tg_id for f in facts.seats.values()}
        read = {k: v for k, v in stored.items() if k[0] in tg_ids}
        changed, new = award(game_id, facts, read)
        stored.update(changed)
        earned += new
    again = rebuild(games)
    assert again.progress == stored
    assert again.earned == earned
    assert len({(e.tg_id, e.achievement, e.level) for e in earned}) == len(earned)

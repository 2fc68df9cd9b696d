"""Engine benchmark: ``python -m benchmarks.bench_engine [--runs N]``.

Reports the median of many runs of: replaying a whole 24-player game, resolving one night of
24 players, and dealing 24 cards. Figures are written by hand into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import (
    GameState,
    Phase,
    SeatSpec,
    complete_votes,
    deal_cards,
    default_composition,
    legal_targets,
    new_game,
    new_seed,
    night_actors,
    resolve_day,
    resolve_night,
    tally_votes,
    vote_candidates,
    voters,
)
from engine.replay import replay
from engine.roles import COMMON_PICK_ROLES

SEATS = list(range(1, 25))


def table_24(seed: int) -> GameState:
    rng = random.Random(seed)
    deal = deal_cards(default_composition(24), SEATS, rng.randbytes(32))
    return new_game([SeatSpec(s, r, rng.choice("mf")) for s, r in deal.items()])


def night_choices(state: GameState, rng: random.Random) -> dict[int, int]:
    choices = {}
    for actor in night_actors(state):
        targets = legal_targets(state, actor)
        if targets:
            choices[actor] = rng.choice(targets)
    return choices


def typical_choices(state: GameState, rng: random.Random) -> dict[int, int]:
    """The Mafia agree on one civilian; everyone else acts as in :func:`night_choices`."""
    choices = night_choices(state, rng)
    pickers = [a for a in choices if state.player(a).role in COMMON_PICK_ROLES]
    if pickers:
        shared = set.intersection(*(set(legal_targets(state, a)) for a in pickers))
        civilians = sorted(s for s in shared if not state.player(s).is_mafia)
        if civilians:
            target = rng.choice(civilians)
            choices.update(dict.fromkeys(pickers, target))
    return choices


def typical_votes(state: GameState, rng: random.Random) -> dict[int, int]:
    """Mafia vote for civilians; a civilian finds a Mafia player half of the time."""
    votes = {}
    for voter in voters(state):
        candidates = vote_candidates(state, voter)
        mafia = [s for s in candidates if state.player(s).is_mafia]
        civilians = [s for s in candidates if not state.player(s).is_mafia and s != voter]
        if state.player(voter).is_mafia and civilians:
            votes[voter] = civilians[len(civilians) // 2]
        elif mafia and rng.random() < 0.5:
            votes[voter] = mafia[0]
        else:
            votes[voter] = rng.choice(candidates)
    return votes


def play_game(seed: int, typical: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    state = table_24(seed)
    players = [{"seat": p.seat, "role": str(p.role), "sex": p.sex} for p in state]
    entries: list[dict[str, Any]] = []
    phase = Phase.NIGHT
    while not state.over:
        if phase is Phase.NIGHT:
            choices = typical_choices(state, rng) if typical else night_choices(state, rng)
            state, _ = resolve_night(state, choices)
            entries.append({"night": {str(a): t for a, t in choices.items()}})
        else:
            if typical:
                votes = typical_votes(state, rng)
            else:
                votes = {v: rng.choice(vote_candidates(state, v)) for v in voters(state)}
            full, _ = complete_votes(state, votes)
            tally = tally_votes(full)
            day: dict[str, Any] = {"votes": {str(v): t for v, t in votes.items()}}
            if tally.shootout:
                day["fate"] = tally.tied[0]
            state, _ = resolve_day(state, votes, fate=day.get("fate"))
            entries.append({"day": day})
        phase = Phase.DAY if phase is Phase.NIGHT else Phase.NIGHT
    return {"players": players, "steps": entries}


def long_game(seed: int) -> dict[str, Any]:
    """A whole legal 24-player game of random choices: the longest of a few seeds."""
    games = [play_game(seed + attempt, typical=False) for attempt in range(20)]
    return max(games, key=lambda g: len(g["steps"]))


def median_us(fn: Callable[[], object], runs: int) -> float:
    for _ in range(max(3, runs // 20)):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()

    protocol = long_game(7)
    text = json.dumps(protocol)
    typical = play_game(7, typical=True)
    typical_text = json.dumps(typical)
    state = table_24(7)
    choices = night_choices(state, random.Random(1))
    cards = default_composition(24)
    seed = new_seed()

    rows = [
        (f"replay a typical 24-player game ({len(typical['steps'])} phases)",
         median_us(lambda: replay(json.loads(typical_text)), args.runs)),
        (f"replay a long random 24-player game ({len(protocol['steps'])} phases)",
         median_us(lambda: replay(json.loads(text)), args.runs)),
        (f"resolve one night of 24 players ({len(choices)} choices)",
         median_us(lambda: resolve_night(state, choices), args.runs)),
        ("deal 24 cards (SHA-256 stream, Fisher-Yates)",
         median_us(lambda: deal_cards(cards, SEATS, seed), args.runs)),
        ("deal 24 cards with a fresh 32-byte seed from secrets",
         median_us(lambda: deal_cards(cards, SEATS, new_seed()), args.runs)),
    ]
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"median of {args.runs} runs")
    for name, micros in rows:
        print(f"  {name:<58} {micros:9.1f} µs")


if __name__ == "__main__":
    main()

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


def long_game(seed: int) -> dict[str, Any]:
    """A whole legal 24-player game written as a protocol (the longest of a few seeds)."""
    best: dict[str, Any] = {}
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        state = table_24(seed + attempt)
        steps: list[dict[str, Any]] = []
        phase = Phase.NIGHT
        while not state.over:
            if phase is Phase.NIGHT:
                choices = night_choices(state, rng)
                state, _ = resolve_night(state, choices)
                steps.append({"night": {str(a): t for a, t in choices.items()}})
            else:
                votes = {v: rng.choice(vote_candidates(state, v)) for v in voters(state)}
                full, _ = complete_votes(state, votes)
                tally = tally_votes(full)
                day: dict[str, Any] = {"votes": {str(v): t for v, t in votes.items()}}
                if tally.shootout:
                    day["fate"] = tally.tied[0]
                state, _ = resolve_day(state, votes, fate=day.get("fate"))
                steps.append({"day": day})
            phase = Phase.DAY if phase is Phase.NIGHT else Phase.NIGHT
        players = [{"seat": p.seat, "role": str(p.role), "sex": p.sex} for p in state]
        if len(steps) > len(best.get("steps", [])):
            best = {"players": players, "steps": steps}
    return best


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
    state = table_24(7)
    choices = night_choices(state, random.Random(1))
    cards = default_composition(24)
    seed = new_seed()

    rows = [
        (f"replay a whole 24-player game ({len(protocol['steps'])} phases)",
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

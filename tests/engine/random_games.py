"""Random legal games, driven through the engine, written down as replay protocols."""

from __future__ import annotations

import random
from typing import Any

from engine import (
    Event,
    FriendImmunity,
    GameState,
    OpenImmunity,
    Phase,
    SeatSpec,
    cancellers,
    complete_votes,
    deal_cards,
    default_composition,
    legal_targets,
    mafia_roster,
    new_game,
    night_actors,
    resolve_day,
    resolve_night,
    tally_votes,
    technical_death,
    vote_candidates,
    voters,
)


def random_table(rng: random.Random) -> list[SeatSpec]:
    n = rng.randint(6, 24)
    cards = default_composition(n)
    deal = deal_cards(cards, list(range(1, n + 1)), rng.randbytes(32))
    specs = []
    for seat, role in deal.items():
        opens: set[OpenImmunity] = set()
        if rng.random() < 0.15:
            opens.add(rng.choice(list(OpenImmunity)))
        friend = FriendImmunity() if rng.random() < 0.1 else None
        specs.append(SeatSpec(seat, role, rng.choice("mf"), frozenset(opens), friend))
    return specs


def play(rng: random.Random, max_entries: int = 40) -> tuple[dict[str, Any], list[GameState]]:
    """Play a random legal game; returns its protocol and the state after every entry."""
    protocol, states, _ = play_with_events(rng, max_entries)
    return protocol, states


def play_with_events(
    rng: random.Random, max_entries: int = 40
) -> tuple[dict[str, Any], list[GameState], list[Event]]:
    """As :func:`play`, also returning every event the engine emitted."""
    events: list[Event] = []
    specs = random_table(rng)
    state = new_game(specs)
    seed = rng.randint(0, 2**31)
    fate_rng = random.Random(seed)
    protocol: dict[str, Any] = {
        "players": [
            {"seat": s.seat, "role": str(s.role), "sex": s.sex,
             "immunities": sorted(str(i) for i in s.open_immunities)
             + (["friend"] if s.friend else [])}
            for s in specs
        ],
        "seed": seed,
        "steps": [],
    }
    states = [state]
    phase = rng.choice([Phase.NIGHT, Phase.DAY])
    while not state.over and len(protocol["steps"]) < max_entries:
        if rng.random() < 0.05:
            seat = rng.choice(state.alive)
            state, tech = technical_death(state, seat)
            events += tech.events
            protocol["steps"].append({"technical_death": seat})
            states.append(state)
            continue
        if phase is Phase.NIGHT:
            choices = {}
            for actor in night_actors(state):
                targets = legal_targets(state, actor)
                if targets and rng.random() < 0.85:
                    choices[actor] = rng.choice(targets)
            if state.night_number == 0:
                events.append(mafia_roster(state))
            state, night = resolve_night(state, choices)
            events += night.events
            protocol["steps"].append({"night": {str(a): t for a, t in choices.items()}})
        else:
            votes = {}
            for voter in voters(state):
                if rng.random() < 0.9:
                    votes[voter] = rng.choice(vote_candidates(state, voter))
            full, _ = complete_votes(state, votes)
            tally = tally_votes(full)
            body: dict[str, Any] = {"votes": {str(v): t for v, t in votes.items()}}
            condemned = tally.leader
            if tally.shootout and rng.random() < 0.5:
                condemned = body["fate"] = rng.choice(tally.tied)
            lawyer = None
            if condemned is not None and rng.random() < 0.3:
                able = cancellers(state, condemned)
                if able:
                    lawyer = body["cancel_by"] = rng.choice(able)
            state, day = resolve_day(state, votes, fate=body.get("fate"), cancel_by=lawyer,
                                     rng=fate_rng)
            events += day.events
            protocol["steps"].append({"day": body})
        states.append(state)
        phase = Phase.DAY if phase is Phase.NIGHT else Phase.NIGHT
    return protocol, states, events

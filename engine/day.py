"""The day vote: turns, tally, shoot-out, the Lawyers, the friend immunity
(docs/rules.md#4-the-day-vote)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from engine.ending import (
    release_all,
    settle,
    survival_points,
)
from engine.errors import RuleViolation
from engine.events import EVERYONE, HOST, Event
from engine.night import require_phase
from engine.points import LedgerEntry, Reason
from engine.roles import LAWYER_ROLES, Role
from engine.state import GameState, Phase

SHOOTOUT_MAX = 3  # two or three tied: fate decides; four or more: the vote fails


@dataclass(frozen=True, slots=True)
class Tally:
    counts: dict[int, int]
    tied: tuple[int, ...]  # the seats tied for the most votes, when two or more are
    leader: int | None  # the one seat with the most votes, when there is one
    failed: bool  # four or more tied (or no vote at all)

    @property
    def shootout(self) -> bool:
        return bool(self.tied) and not self.failed


@dataclass(frozen=True, slots=True)
class DayResult:
    number: int
    votes: dict[int, int]  # voter -> target, timeouts included as self-votes
    timeouts: tuple[int, ...]
    tally: Tally
    verdict: int | None  # whom the vote (and the fate) condemned, before any cancel
    condemned: int | None  # None when the vote failed: four or more tied, or a Lawyer cancelled
    cancelled_by: int | None
    saved: tuple[int, ...]  # seats the friend immunity saved
    died: tuple[int, ...]
    released: tuple[int, ...]
    ledger: tuple[LedgerEntry, ...]
    events: tuple[Event, ...]


def check_voter(state: GameState, voter: int) -> None:
    player = state.players.get(voter)
    if player is None:
        raise RuleViolation("not_at_table", "is not at the table", voter)
    if not player.alive:
        raise RuleViolation("voter_dead", "is dead and may not vote", voter)
    if player.jailed:
        raise RuleViolation("voter_jailed", "is jailed and may not vote", voter)


def check_vote(state: GameState, voter: int, target: int) -> None:
    """Raise RuleViolation when ``voter`` may not vote for ``target`` today."""
    player = state.players.get(voter)
    chosen = state.players.get(target)
    if (player is not None and chosen is not None and player.alive and not player.jailed
            and chosen.alive and not state.open_immunity_active(target, Phase.DAY)):
        return
    check_voter(state, voter)
    chosen = state.players.get(target)
    if chosen is None:
        raise RuleViolation("target_unknown", f"may not vote for seat {target}: nobody sits there",
                            voter)
    if not chosen.alive:
        raise RuleViolation("target_dead", f"may not vote for seat {target}: that player is dead",
                            voter)
    if state.open_immunity_active(target, Phase.DAY):
        raise RuleViolation(
            "target_immune", f"may not vote for seat {target}: it has an open immunity", voter
        )
    raise AssertionError("the fast path refused a legal vote")  # pragma: no cover


def votable(state: GameState) -> list[int]:
    """Who may be voted for today: the living without an active open immunity
    (docs/rules.md#41-voting, docs/rules.md#51-open-immunities). Empty on a first day when
    every player still in the game holds one."""
    return [s for s in state.alive if not state.open_immunity_active(s, Phase.DAY)]


def vote_candidates(state: GameState, voter: int) -> list[int]:
    check_voter(state, voter)
    return votable(state)


def voters(state: GameState) -> list[int]:
    """Who votes today, in seat order: alive and not jailed."""
    return [p.seat for p in state if p.able]


def timeout_vote(state: GameState, voter: int) -> int | None:
    """A voter who lets its turn run out votes for itself (docs/rules.md#41-voting).

    Decision: a voter with an active open immunity cannot be voted for, so it casts no vote.
    """
    return None if state.open_immunity_active(voter, Phase.DAY) else voter


def complete_votes(state: GameState, votes: Mapping[int, int]) -> tuple[dict[int, int], list[int]]:
    """Every able voter's vote, the missing ones as timeouts; checks the cast ones."""
    for voter in sorted(votes):
        check_vote(state, voter, votes[voter])
    full = dict(votes)
    timeouts = []
    for voter in voters(state):
        if voter not in full:
            own = timeout_vote(state, voter)
            timeouts.append(voter)
            if own is not None:
                full[voter] = own
    return dict(sorted(full.items())), timeouts


def tally_votes(votes: Mapping[int, int]) -> Tally:
    counts = Counter(votes.values())
    if not counts:
        return Tally({}, (), None, True)
    top = max(counts.values())
    leaders = tuple(sorted(s for s, c in counts.items() if c == top))
    if len(leaders) == 1:
        return Tally(dict(sorted(counts.items())), (), leaders[0], False)
    return Tally(dict(sorted(counts.items())), leaders, None, len(leaders) > SHOOTOUT_MAX)


def cancellers(state: GameState, condemned: int) -> list[int]:
    """The Lawyers who may still cancel this verdict (docs/rules.md#43-saving-the-condemned)."""
    return [p.seat for p in state if p.role in LAWYER_ROLES and p.able and not p.lawyer_used
            and p.seat != condemned]


def check_cancel(state: GameState, lawyer: int, condemned: int | None) -> None:
    player = state.players.get(lawyer)
    if player is None:
        raise RuleViolation("not_at_table", "is not at the table", lawyer)
    if player.role not in LAWYER_ROLES:
        raise RuleViolation("not_a_lawyer", "is not a Lawyer and may not cancel a verdict", lawyer)
    if condemned is None:
        raise RuleViolation("nothing_to_cancel", "may not cancel: nobody was condemned", lawyer)
    if not player.alive:
        raise RuleViolation("lawyer_dead", "is dead and may not cancel the verdict", lawyer)
    if player.jailed:
        raise RuleViolation("lawyer_jailed", "is jailed and may not cancel the verdict", lawyer)
    if player.lawyer_used:
        raise RuleViolation("lawyer_used", "has already cancelled a verdict this game", lawyer)
    if lawyer == condemned:
        raise RuleViolation("lawyer_self", "may not cancel its own condemnation", lawyer)


def draw_fate(tied: tuple[int, ...], rng: random.Random) -> int:
    return rng.choice(sorted(tied))


def resolve_day(
    state: GameState,
    votes: Mapping[int, int],
    *,
    fate: int | None = None,
    cancel_by: int | None = None,
    rng: random.Random | None = None,
) -> tuple[GameState, DayResult]:
    """Resolve a day: the votes (missing ones time out), the verdict, its cancel or execution."""
    require_phase(state, Phase.DAY)
    full, timeouts = complete_votes(state, votes)
    players = state.players
    config = state.points
    number = state.current_day  # (the day is not resolved yet: day_number + 1)
    label = f"day {number}"
    ledger: list[LedgerEntry] = []
    for voter, target in full.items():
        voter_mafia, target_mafia = players[voter].is_mafia, players[target].is_mafia
        if not voter_mafia and target_mafia and config.vote_for_mafia:
            ledger.append(LedgerEntry(voter, config.vote_for_mafia, Reason.VOTE_FOR_MAFIA, label))
        elif voter_mafia and not target_mafia and config.vote_for_civilian:
            ledger.append(
                LedgerEntry(voter, config.vote_for_civilian, Reason.VOTE_FOR_CIVILIAN, label)
            )

    tally = tally_votes(full)
    events: list[Event] = [Event("vote_tally", EVERYONE, {
        "day": number, "votes": full, "timeouts": list(timeouts), "counts": tally.counts,
    })]
    if not votable(state):
        # Decision: nobody may be voted for (every player still in the game holds an open
        # immunity): no vote is held, and that is what the table hears, not a failed tally
        events = [Event("vote_impossible", EVERYONE, {"day": number})]
    condemned = tally.leader
    if tally.shootout:
        if fate is None:
            fate = draw_fate(tally.tied, rng or random.Random())
        elif fate not in tally.tied:
            tied = list(tally.tied)
            raise RuleViolation("fate_not_tied", f"fate must pick one of the tied {tied}", fate)
        condemned = fate
        events.append(Event("shootout", EVERYONE, {"tied": list(tally.tied), "condemned": fate}))
    elif fate is not None:
        raise RuleViolation("fate_without_shootout", "fate applies only to a shoot-out", fate)
    if tally.failed and votable(state):
        events.append(Event("vote_failed", EVERYONE, {"tied": list(tally.tied)}))

    changed = dict(players)
    cancelled_by: int | None = None
    saved: list[int] = []
    died: list[int] = []
    released: list[int] = []
    if cancel_by is not None:
        check_cancel(state, cancel_by, condemned)
        assert condemned is not None
        cancelled_by = cancel_by
        changed[cancel_by] = changed[cancel_by]._replace(lawyer_used=True)
        if not players[condemned].is_mafia and config.lawyer_save:
            ledger.append(LedgerEntry(cancel_by, config.lawyer_save, Reason.LAWYER_SAVE, label))
        events.append(Event("verdict_cancelled", EVERYONE, {"condemned": condemned}))
    elif condemned is not None:
        player = players[condemned]
        if player.has_friend:
            assert player.friend is not None
            changed[condemned] = player._replace(friend=player.friend._replace(used=True))
            saved.append(condemned)
            events.append(Event("friend_saved", EVERYONE,
                                {"seat": condemned, "by": player.friend.announce_by}))
        else:
            changed[condemned] = player._replace(alive=False, jailed=False)
            died.append(condemned)
            events.append(Event("condemned_died", EVERYONE, {"seat": condemned}))
            if player.role is Role.JUDGE:
                released = release_all(changed)
                if released:
                    events.append(Event("released", EVERYONE, {"seats": released}))
    events.append(Event("day_summary", HOST, {
        "day": number, "verdict": condemned, "cancelled_by": cancelled_by,
    }))

    ledger += survival_points(changed, Reason.SURVIVED_DAY, label, config)
    new_state = settle(state, changed, ledger, events, phase=Phase.DAY, day_number=number)
    result = DayResult(
        number=number,
        votes=full,
        timeouts=tuple(timeouts),
        tally=tally,
        verdict=condemned,
        condemned=None if cancelled_by is not None else condemned,
        cancelled_by=cancelled_by,
        saved=tuple(saved),
        died=tuple(died),
        released=tuple(released),
        ledger=tuple(ledger),
        events=tuple(events),
    )
    return new_state, result

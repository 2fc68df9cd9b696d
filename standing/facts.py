"""A finished game's facts, read from its event log alone: who sat where with which card,
who won, who survived and how each of the others left (killed at night and by whom, voted
out, removed by the host), and every night's and day's events that the rules define (the
Doctor's saves, Marilyn's blocks, the Sportsman's challenges, the Lucky's shots survived, the
Lawyer's cancels, the checks, the jail, the buy-outs, the friend immunity's saves).

The log is replayed through the one reducer (:meth:`record.table.Table.apply`), so every
resolution is the engine's own; what the engine keeps to itself (who fired which shot) is read
from the night's logged choices with the engine's own rules (``engine.common_pick``, the
roles' actions). Pure: the same log gives the same facts.

The achievements and the players' "killed by / killed" read these, and nothing else of a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

import engine
from engine import Action, DayResult, GameState, NightResult, Role, Team, Winner
from engine.roles import COMMON_PICK_ROLES
from record.log_events import NightResolved, decode
from record.outcome import LoggedEvent
from record.table import Table


class ShotKind(StrEnum):
    """What threatened a seat at night."""

    MAFIA = "mafia"  # the Mafia's common pick
    KILLER = "killer"  # the Mafia's Killer's own kill
    MANIAC = "maniac"  # the Maniac's kill
    # the Sportsman's challenge of a Mafia: it threatens the Mafia player and the Sportsman
    # himself (both die, docs/rules.md#35-the-sportsmans-challenge); both shots are the Sportsman's
    CHALLENGE = "challenge"


class Exit(StrEnum):
    """How a seat left the game."""

    NIGHT = "night"  # killed at night
    VOTE = "vote"  # voted out by day
    TECHNICAL = "technical"  # removed by the host


@dataclass(frozen=True, slots=True)
class Shot:
    """One threat of a night: ``by`` the seats that fired it (the common pick: each picker not
    blocked that chose this target; a challenge: the Sportsman), whether it killed."""

    target: int
    kind: ShotKind
    by: tuple[int, ...]
    fatal: bool


@dataclass(frozen=True, slots=True)
class Night:
    """One resolved night. The maps go from the acting seat to its target and hold only the
    actions that took effect (a blocked player's choice is in ``choices`` alone)."""

    number: int
    choices: Mapping[int, int]  # every logged choice, blocked ones too
    blocks: Mapping[int, int]  # Marilyn (and her Sister) -> whom she deprived of the action
    heals: Mapping[int, int]  # the Doctor -> whom
    challenges: Mapping[int, int]  # the Sportsman -> whom (a civilian: nothing happened)
    jails: Mapping[int, int]  # the Judge -> whom (jailed unless the night said otherwise)
    buyouts: Mapping[int, int]  # the Oligarch (and his Brother) -> whom
    checks: tuple[tuple[int, int, bool], ...]  # (the Policeman, target, is Mafia)
    shots: tuple[Shot, ...]
    common_target: int | None
    blocked: tuple[int, ...]
    saved: tuple[tuple[int, str], ...]  # (seat, by): doctor, sportsman, lucky, friend
    died: tuple[int, ...]
    jailed: tuple[int, ...]
    released: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Day:
    """One resolved day: the votes (a missed turn is a vote for oneself), the verdict before
    any cancel, who cancelled it, whom the friend immunity saved, who died."""

    number: int
    votes: Mapping[int, int]
    timeouts: tuple[int, ...]
    tied: tuple[int, ...]
    verdict: int | None
    cancelled_by: int | None
    saved: tuple[int, ...]
    died: tuple[int, ...]
    released: tuple[int, ...]

    @property
    def condemned(self) -> int | None:
        return None if self.cancelled_by is not None else self.verdict


@dataclass(frozen=True, slots=True)
class Technical:
    """The host removed a player."""

    seat: int
    released: tuple[int, ...]


PhaseFacts = Night | Day | Technical


@dataclass(frozen=True, slots=True)
class Departure:
    """How a seat left: ``phase`` is the index of that phase in :attr:`GameFacts.phases`;
    ``by`` the seats whose shots killed it at night (empty for a vote or a removal)."""

    how: Exit
    phase: int
    number: int  # the night's or the day's number (a removal: the phases resolved before it)
    by: tuple[int, ...] = ()
    kinds: tuple[ShotKind, ...] = ()  # the fatal shots' kinds, at night


@dataclass(frozen=True, slots=True)
class SeatFacts:
    seat: int
    tg_id: int
    name: str
    role: Role
    won: bool  # the seat's team won (a draw: nobody), a removed player's too
    survived: bool  # alive at the end (jailed counts as alive)
    left: Departure | None  # None: survived
    fouls: int  # the fouls that stood at the end

    @property
    def team(self) -> Team:
        return self.role.team

    @property
    def technical(self) -> bool:
        return self.left is not None and self.left.how is Exit.TECHNICAL


@dataclass(frozen=True, slots=True)
class GameFacts:
    winner: Winner
    seats: Mapping[int, SeatFacts]
    phases: tuple[PhaseFacts, ...]

    @property
    def nights(self) -> tuple[Night, ...]:
        return tuple(p for p in self.phases if isinstance(p, Night))

    @property
    def days(self) -> tuple[Day, ...]:
        return tuple(p for p in self.phases if isinstance(p, Day))

    def seat_of(self, tg_id: int) -> int | None:
        return next((s.seat for s in self.seats.values() if s.tg_id == tg_id), None)

    def role(self, seat: int) -> Role:
        return self.seats[seat].role

    def is_mafia(self, seat: int) -> bool:
        return self.seats[seat].role.is_mafia

    def killed_by(self, seat: int) -> tuple[int, ...]:
        """The seats whose shots killed ``seat`` at night (empty otherwise)."""
        left = self.seats[seat].left
        return left.by if left is not None else ()

    def kills_of(self, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` killed at night (its own Sportsman's death left out)."""
        return tuple(sorted({shot.target for night in self.nights for shot in night.shots
                             if shot.fatal and seat in shot.by and shot.target != seat}))

    def survivors(self, team: Team) -> tuple[int, ...]:
        return tuple(s for s, f in sorted(self.seats.items()) if f.survived and f.team is team)


def _night(before: GameState, choices: Mapping[int, int], result: NightResult) -> Night:
    """The night's facts: its result, and who fired at whom (the engine's rules on the logged
    choices, the same the resolution applied)."""
    players = before.players
    blocked = frozenset(result.blocked)

    def acting(*actions: Action) -> dict[int, int]:
        return {a: t for a, t in sorted(choices.items())
                if players[a].role.action in actions and a not in blocked}

    heals = acting(Action.HEAL)
    healed = set(heals.values())
    threats: dict[int, list[tuple[ShotKind, tuple[int, ...]]]] = {}
    common = result.common_target
    if common is not None:
        pickers = tuple(a for a, t in sorted(choices.items())
                        if players[a].role in COMMON_PICK_ROLES and a not in blocked
                        and t == common)
        threats.setdefault(common, []).append((ShotKind.MAFIA, pickers))
    for actor, target in acting(Action.KILL).items():
        kind = ShotKind.KILLER if players[actor].role is Role.MAFIA_KILLER else ShotKind.MANIAC
        threats.setdefault(target, []).append((kind, (actor,)))
    challenges = acting(Action.CHALLENGE)
    for actor, target in challenges.items():
        if players[target].is_mafia:
            threats.setdefault(target, []).append((ShotKind.CHALLENGE, (actor,)))
            threats.setdefault(actor, []).append((ShotKind.CHALLENGE, (actor,)))
    died = set(result.died)
    shots: list[Shot] = []
    for target, fired in sorted(threats.items()):
        player = players[target]
        # a kill is stopped by a heal, the Sportsman's own strength or the Lucky's luck
        # (docs/rules.md#34-kills): a target that died anyway died of the challenge alone
        stopped = (target in healed or player.role is Role.SPORTSMAN
                   or (player.role is Role.LUCKY and player.luck_left))
        for kind, by in fired:
            fatal = target in died and (kind is ShotKind.CHALLENGE or not stopped)
            shots.append(Shot(target, kind, by, fatal))
    return Night(
        number=result.number, choices=dict(sorted(choices.items())),
        # a block is never blocked (docs/rules.md#31-blocks)
        blocks={a: t for a, t in sorted(choices.items())
                if players[a].role.action is Action.BLOCK},
        heals=heals, challenges=challenges, jails=acting(Action.JAIL),
        buyouts=acting(Action.BUYOUT),
        checks=tuple((c.by, c.target, c.mafia) for c in result.checks),
        shots=tuple(shots), common_target=common, blocked=result.blocked,
        saved=tuple((s.seat, s.by) for s in result.saved), died=result.died,
        jailed=result.jailed, released=result.released,
    )


def _day(result: DayResult) -> Day:
    return Day(
        number=result.number, votes=dict(sorted(result.votes.items())),
        timeouts=result.timeouts, tied=result.tally.tied, verdict=result.verdict,
        cancelled_by=result.cancelled_by, saved=result.saved, died=result.died,
        released=result.released)


def _departures(phases: Iterable[PhaseFacts]) -> dict[int, Departure]:
    out: dict[int, Departure] = {}
    nights = days = 0
    for index, phase in enumerate(phases):
        if isinstance(phase, Night):
            nights = phase.number
            for seat in phase.died:
                fatal = [s for s in phase.shots if s.target == seat and s.fatal]
                out[seat] = Departure(
                    Exit.NIGHT, index, phase.number,
                    tuple(sorted({a for s in fatal for a in s.by})),
                    tuple(sorted({s.kind for s in fatal})))
        elif isinstance(phase, Day):
            days = phase.number
            for seat in phase.died:
                out[seat] = Departure(Exit.VOTE, index, phase.number)
        else:
            out[phase.seat] = Departure(Exit.TECHNICAL, index, nights + days)
    return out


def game_facts(events: Iterable[LoggedEvent]) -> GameFacts | None:
    """The facts of a game's log; None unless the log reaches the game's end (a game never
    dealt, aborted or still running has none). Raises whatever the table raises for a log it
    cannot replay."""
    table = Table(0, 0, 0, date.min)
    phases: list[PhaseFacts] = []
    for logged in events:
        event = decode(logged.kind, logged.payload)
        before = table.state
        result = table.apply(event, logged.seq)
        if isinstance(result, NightResult):
            assert before is not None and isinstance(event, NightResolved)
            phases.append(_night(before, dict(event.choices), result))
        elif isinstance(result, DayResult):
            phases.append(_day(result))
        elif result is not None:
            phases.append(Technical(result.seat, result.released))
    if not table.started or not table.game.over or table.game.winner is None:
        return None
    state = table.game
    winner = state.winner
    assert winner is not None
    winning = {Winner.CIVILIANS: Team.CIVILIANS, Winner.MAFIA: Team.MAFIA}.get(winner)
    left = _departures(phases)
    seats = {
        p.seat: SeatFacts(
            seat=p.seat, tg_id=table.tg_of(p.seat), name=table.name(p.seat), role=p.role,
            won=p.team is winning, survived=p.alive, left=left.get(p.seat),
            fouls=engine.standing_fouls(state, p.seat))
        for p in state
    }
    return GameFacts(winner, seats, tuple(phases))

"""The night: which choices are legal, and how they resolve together (docs/rules.md#3-the-night)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NoReturn

from engine.ending import (
    release_all,
    settle,
    survival_points,
)
from engine.errors import RuleViolation
from engine.events import EVERYONE, HOST, MAFIA, Event, to_seat
from engine.points import LedgerEntry, Reason
from engine.roles import COMMON_PICK_ROLES, SHOT_ACTIONS, Action, Role
from engine.state import GameState, Phase, PlayerState

VERB: dict[Action, str] = {
    Action.MAFIA_PICK: "pick",
    Action.KILL: "kill",
    Action.BLOCK: "block",
    Action.HEAL: "heal",
    Action.CHALLENGE: "challenge",
    Action.JAIL: "jail",
    Action.CHECK: "check",
    Action.BUYOUT: "buy out",
}


@dataclass(frozen=True, slots=True)
class Save:
    seat: int
    by: str  # doctor, sportsman, lucky or friend


@dataclass(frozen=True, slots=True)
class Check:
    by: int
    target: int
    mafia: bool


@dataclass(frozen=True, slots=True)
class NightResult:
    number: int
    died: tuple[int, ...]
    saved: tuple[Save, ...]
    blocked: tuple[int, ...]
    jailed: tuple[int, ...]
    released: tuple[int, ...]
    checks: tuple[Check, ...]
    common_target: int | None
    ledger: tuple[LedgerEntry, ...]
    events: tuple[Event, ...]


def require_phase(state: GameState, phase: Phase) -> None:
    if state.over:
        raise RuleViolation("game_over", "the game is over")
    if state.phase is phase:
        raise RuleViolation("phase_order", f"phases alternate: a {phase} may not follow a {phase}")


def check_actor(state: GameState, actor: int) -> PlayerState:
    """The actor exists, is alive, is not jailed and has a night action."""
    player = state.players.get(actor)
    if player is None:
        raise RuleViolation("not_at_table", "is not at the table", actor)
    if not player.alive:
        raise RuleViolation("actor_dead", "is dead and may not act", actor)
    if player.jailed:
        raise RuleViolation("actor_jailed", "is jailed and may not act", actor)
    if player.role.action is None:
        raise RuleViolation("no_night_action", "has no night action", actor)
    return player


def check_night_choice(state: GameState, actor: int, target: int) -> None:
    """Raise RuleViolation when ``actor`` may not choose ``target`` this night."""
    player = state.players.get(actor)
    chosen = state.players.get(target)
    # The fast path accepts; any doubt falls through to the path that names the reason.
    if (player is not None and chosen is not None and player.alive and not player.jailed
            and chosen.alive and target != actor):
        action = player.role.action
        if (action is not None
                and (action is not Action.JAIL or not chosen.jailed)
                and (action is not Action.BUYOUT or chosen.jailed)
                and (action not in SHOT_ACTIONS
                     or not state.open_immunity_active(target, Phase.NIGHT))):
            return
    _refuse_night_choice(state, actor, target)


def _refuse_night_choice(state: GameState, actor: int, target: int) -> NoReturn:
    player = check_actor(state, actor)
    action = player.role.action
    assert action is not None
    verb = VERB[action]
    chosen = state.players.get(target)
    if chosen is None:
        raise RuleViolation("target_unknown", f"may not {verb} seat {target}: nobody sits there",
                            actor)
    if target == actor:
        raise RuleViolation("target_self", f"may not {verb} itself", actor)
    if not chosen.alive:
        raise RuleViolation("target_dead", f"may not {verb} seat {target}: that player is dead",
                            actor)
    if action is Action.JAIL and chosen.jailed:
        raise RuleViolation("target_jailed", f"may not jail seat {target}: already jailed", actor)
    if action is Action.BUYOUT and not chosen.jailed:
        raise RuleViolation("target_not_jailed", f"may not buy out seat {target}: not jailed",
                            actor)
    if action in SHOT_ACTIONS and state.open_immunity_active(target, Phase.NIGHT):
        raise RuleViolation(
            "target_immune",
            f"may not {verb} seat {target}: the host does not accept the shot (open immunity)",
            actor,
        )
    raise AssertionError("the fast path refused a legal choice")  # pragma: no cover


def legal_targets(state: GameState, actor: int) -> list[int]:
    """Every seat ``actor`` may choose tonight, for the bot's buttons."""
    check_actor(state, actor)
    targets = []
    for seat in state.seats:
        try:
            check_night_choice(state, actor, seat)
        except RuleViolation:
            continue
        targets.append(seat)
    return targets


def night_actors(state: GameState) -> list[int]:
    """Seats able to act tonight: alive, not jailed, with a night action."""
    return [p.seat for p in state if p.able and p.role.action is not None]


def common_pick(state: GameState, picks: Mapping[int, int], blocked: frozenset[int] = frozenset()
                ) -> int | None:
    """The common Mafia kill (docs/rules.md#34-kills): agreement, else the Chief's pick, else
    nothing."""
    pickers = [a for a in sorted(picks) if state.players[a].role in COMMON_PICK_ROLES
               and a not in blocked]
    targets = {picks[a] for a in pickers}
    if len(targets) == 1:
        return targets.pop()
    for actor in pickers:
        if state.players[actor].role is Role.MAFIA_CHIEF:
            return picks[actor]
    return None


def mafia_roster(state: GameState) -> Event:
    """The first night: every Mafia player learns the others, roles included."""
    members = {s: str(state.players[s].role) for s in state.mafia_seats}
    return Event("mafia_team", MAFIA, {"members": members})


def resolve_night(state: GameState, choices: Mapping[int, int]) -> tuple[GameState, NightResult]:
    """Resolve one night's choices together: blocks, heals, kills, challenge, jail, checks."""
    require_phase(state, Phase.NIGHT)
    for actor in sorted(choices):
        check_night_choice(state, actor, choices[actor])

    players = state.players
    config = state.points
    number = state.night_number + 1
    label = f"night {number}"
    by_action: dict[Action, list[int]] = {}
    for actor in sorted(choices):
        action = players[actor].role.action
        assert action is not None
        by_action.setdefault(action, []).append(actor)

    # 3.1 Blocks: never blocked themselves.
    blocked = frozenset(choices[a] for a in by_action.get(Action.BLOCK, ()))

    def acting(action: Action) -> list[int]:
        return [a for a in by_action.get(action, ()) if a not in blocked]

    healed = {choices[a] for a in acting(Action.HEAL)}
    ledger: list[LedgerEntry] = []

    # 3.4 Kills: the common pick, then the Killer's and the Maniac's own.
    picks = {a: choices[a] for a in by_action.get(Action.MAFIA_PICK, ())}
    common = common_pick(state, picks, blocked)
    shots: dict[int, list[str]] = {}
    if common is not None:
        shots.setdefault(common, []).append("mafia")
        if not players[common].is_mafia and config.mafia_shot:
            ledger += [LedgerEntry(a, config.mafia_shot, Reason.MAFIA_SHOT, label)
                       for a in sorted(picks) if a not in blocked]
    for actor in acting(Action.KILL):
        target = choices[actor]
        shooter = "killer" if players[actor].role is Role.MAFIA_KILLER else "maniac"
        shots.setdefault(target, []).append(shooter)
        if shooter == "killer" and not players[target].is_mafia and config.killer_shot:
            ledger.append(LedgerEntry(actor, config.killer_shot, Reason.KILLER_SHOT, label))

    # 3.5 The Sportsman's challenge: a Mafia target takes both down; heals do not help.
    challenged: set[int] = set()
    for actor in acting(Action.CHALLENGE):
        target = choices[actor]
        if players[target].is_mafia:
            challenged |= {target, actor}

    changed: dict[int, PlayerState] = {}
    saves: list[Save] = []
    died: set[int] = set()
    for seat in sorted(shots.keys() | challenged):
        player = players[seat]
        stopped_by: str | None = None
        if seat in shots:
            lucky = player.role is Role.LUCKY and player.luck_left
            if lucky:  # Decision: luck is spent the first night it is shot at, even if healed.
                player = player._replace(luck_left=False)
            if seat in healed:
                stopped_by = "doctor"
            elif player.role is Role.SPORTSMAN:
                stopped_by = "sportsman"
            elif lucky:
                stopped_by = "lucky"
        threatened = (seat in shots and stopped_by is None) or seat in challenged
        if stopped_by is not None:
            saves.append(Save(seat, stopped_by))
        if threatened:
            if player.has_friend:
                assert player.friend is not None
                player = player._replace(friend=player.friend._replace(used=True))
                saves.append(Save(seat, "friend"))
            else:
                died.add(seat)
                player = player._replace(alive=False, jailed=False)
        changed[seat] = player
    saves = [s for s in saves if s.seat not in died]

    new_players = state.with_players(changed)
    jailed: set[int] = set()
    released: list[int] = []
    judge_died = any(p.role is Role.JUDGE for s, p in players.items() if s in died)
    if judge_died:
        # Decision: a Judge who dies this night jails nobody; everyone jailed walks free.
        released = release_all(new_players)
    else:
        for actor in acting(Action.BUYOUT):
            target = choices[actor]
            if players[target].is_mafia:
                if actor not in died:
                    jailed.add(actor)
            elif target not in died and new_players[target].jailed:
                new_players[target] = new_players[target]._replace(jailed=False)
                released.append(target)
        for actor in acting(Action.JAIL):
            target = choices[actor]
            if actor not in died and target not in died:
                jailed.add(target)
        for seat in jailed:
            new_players[seat] = new_players[seat]._replace(jailed=True)

    # 3.7 Checks.
    checks = [Check(a, choices[a], players[choices[a]].is_mafia) for a in acting(Action.CHECK)]
    no_result = [a for a in by_action.get(Action.CHECK, ()) if a in blocked]

    ledger += survival_points(new_players, Reason.SURVIVED_NIGHT, label, config)
    events: list[Event] = [
        Event("night_deaths", EVERYONE, {"night": number, "seats": sorted(died)}),
    ]
    events += [
        Event("friend_saved", EVERYONE, {"seat": s.seat, "by": _announcer(players[s.seat])})
        for s in saves if s.by == "friend"
    ]
    if jailed:
        events.append(Event("jailed", EVERYONE, {"seats": sorted(jailed)}))
    if released:
        events.append(Event("released", EVERYONE, {"seats": sorted(released)}))
    events += [Event("check_result", to_seat(c.by), {"target": c.target, "mafia": c.mafia})
               for c in checks]
    events += [Event("check_no_result", to_seat(a)) for a in no_result]
    events.append(Event("night_summary", HOST, {
        "night": number, "choices": dict(sorted(choices.items())), "blocked": sorted(blocked),
        "common_target": common, "saved": [(s.seat, s.by) for s in saves],
        "died": sorted(died), "checks": [(c.by, c.target, c.mafia) for c in checks],
    }))

    new_state = settle(state, new_players, ledger, events, phase=Phase.NIGHT,
                       night_number=number)
    result = NightResult(
        number=number,
        died=tuple(sorted(died)),
        saved=tuple(sorted(saves, key=lambda s: (s.seat, s.by))),
        blocked=tuple(sorted(blocked)),
        jailed=tuple(sorted(jailed)),
        released=tuple(sorted(released)),
        checks=tuple(sorted(checks, key=lambda c: c.by)),
        common_target=common,
        ledger=tuple(ledger),
        events=tuple(events),
    )
    return new_state, result


def _announcer(player: PlayerState) -> int | None:
    return player.friend.announce_by if player.friend is not None else None

"""The end of the game (docs/rules.md#7-end-of-the-game) and the end-of-game points
(docs/rules.md#8-points)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.events import EVERYONE, Event
from engine.points import LedgerEntry, PointsConfig, Reason
from engine.roles import Team
from engine.state import GameState, PlayerState, Winner


def settle(
    state: GameState,
    players: dict[int, PlayerState],
    ledger: list[LedgerEntry],
    events: list[Event],
    **phase: Any,
) -> GameState:
    """Close a phase or a technical death: check the end (docs/rules.md#7-end-of-the-game),
    add the end-of-game points and the reveal to ``ledger`` and ``events``, and return the new
    state."""
    winner = winner_of(players)
    if winner is not None:
        ledger += end_points(players, winner, state.points)
        events.append(game_over_event(players, winner))
    return replace(state, players=players, winner=winner, over=winner is not None,
                   ledger=state.ledger + tuple(ledger), **phase)


def winner_of(players: Mapping[int, PlayerState]) -> Winner | None:
    """Civilians win when no Mafia is alive, the Mafia when no civilian is; both gone is a draw."""
    mafia_alive = civilians_alive = False
    for p in players.values():
        if p.alive:
            if p.role.is_mafia:
                mafia_alive = True
            else:
                civilians_alive = True
    if mafia_alive and civilians_alive:
        return None
    if mafia_alive:
        return Winner.MAFIA
    if civilians_alive:
        return Winner.CIVILIANS
    return Winner.DRAW


def end_points(
    players: Mapping[int, PlayerState], winner: Winner, config: PointsConfig
) -> list[LedgerEntry]:
    """Team win for every non-technical member of the winning team; the sole survivor's bonus."""
    if winner is Winner.DRAW:
        return []
    team = Team.MAFIA if winner is Winner.MAFIA else Team.CIVILIANS
    members = [p for _, p in sorted(players.items()) if p.team is team and not p.technical]
    rows = []
    if config.team_win:
        rows = [LedgerEntry(p.seat, config.team_win, Reason.TEAM_WIN, "end") for p in members]
    survivors = [p for p in members if p.alive]
    if len(survivors) == 1 and config.sole_survivor:
        rows.append(
            LedgerEntry(survivors[0].seat, config.sole_survivor, Reason.SOLE_SURVIVOR, "end")
        )
    return rows


def game_over_event(players: Mapping[int, PlayerState], winner: Winner) -> Event:
    """Roles are revealed to everyone when the game ends."""
    return Event(
        "game_over",
        EVERYONE,
        {"winner": str(winner), "roles": {s: str(p.role) for s, p in sorted(players.items())}},
    )


def survival_points(
    players: Mapping[int, PlayerState], reason: Reason, label: str, config: PointsConfig
) -> list[LedgerEntry]:
    """One point per living player (jailed players are alive) at the end of a phase."""
    value = config.value(reason)
    if not value:
        return []
    return [LedgerEntry(s, value, reason, label) for s, p in sorted(players.items()) if p.alive]


def release_all(players: dict[int, PlayerState]) -> list[int]:
    """The Judge is gone: every jailed player is free at once
    (docs/rules.md#36-jail-and-buy-out)."""
    freed = [s for s, p in sorted(players.items()) if p.alive and p.jailed]
    for seat in freed:
        players[seat] = players[seat]._replace(jailed=False)
    return freed

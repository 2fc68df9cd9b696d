"""Replay a game protocol (docs/replay.md): a whole game as JSON in, its result as JSON out.

The protocol's entries (a night, a day, a technical death, a foul, an undoing) stand under the
format's key ``steps``, and an error line names one as ``step N``: the format's own word, kept
as it is; in the code they are entries."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.day import resolve_day
from engine.errors import CompositionError, RuleViolation
from engine.fouls import foul, undo_foul
from engine.game import SeatSpec, check_friend_order, new_game, technical_death
from engine.night import resolve_night
from engine.points import DEFAULT_POINTS, PointsConfig
from engine.roles import Role
from engine.state import FoulReason, FriendImmunity, GameState, OpenImmunity, Phase

ENTRY_KINDS = {"night", "day", "technical_death", "foul", "undo_foul"}
MAX_SEAT_DIGITS = 9

T = TypeVar("T")


class ProtocolError(Exception):
    """A protocol that breaks the format or a rule: ``where`` is an entry's index in
    ``steps``, "players" or "protocol"."""

    def __init__(self, where: int | str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.where = where
        self.message = message
        self.seat = seat

    def line(self, state: GameState | None = None) -> str:
        prefix = f"step {self.where}" if isinstance(self.where, int) else str(self.where)
        if self.seat is None:
            return f"{prefix}: {self.message}"
        player = state.players.get(self.seat) if state is not None else None
        who = f"seat {self.seat} ({player.role})" if player is not None else f"seat {self.seat}"
        return f"{prefix}: {who} {self.message}"


@dataclass(frozen=True, slots=True)
class Outcome:
    result: dict[str, Any] | None
    error: str | None
    error_where: int | str | None = None
    error_seat: int | None = None


def _int(value: object, where: int | str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(where, f"format: {what} must be a whole number, not {value!r}")
    return value


def _seat_key(key: str, where: int, what: str) -> int:
    if not (key.isascii() and key.isdigit() and len(key) <= MAX_SEAT_DIGITS):
        raise ProtocolError(where, f"format: {what} keys must be seat numbers, not {key[:20]!r}")
    return int(key)


class JSONObject(dict[str, Any]):
    """A decoded JSON object that remembers keys given twice (a seat acting or voting twice)."""

    duplicates: tuple[str, ...] = ()


def _repeats(items: Iterable[T]) -> list[T]:
    seen: set[T] = set()
    repeats = []
    for item in items:
        if item in seen:
            repeats.append(item)
        seen.add(item)
    return repeats


def _object_pairs(pairs: list[tuple[str, Any]]) -> JSONObject:
    obj = JSONObject(pairs)
    if len(obj) != len(pairs):
        obj.duplicates = tuple(_repeats(k for k, _ in pairs))
    return obj


def _seat_map(value: object, where: int, what: str) -> dict[int, int]:
    if not isinstance(value, dict):
        raise ProtocolError(where, f"format: {what} must map seats to seats")
    if all(k.isascii() and k.isdigit() and len(k) <= MAX_SEAT_DIGITS and type(v) is int
           for k, v in value.items()):  # the common case, checked in one pass
        result = {int(k): v for k, v in value.items()}
    else:
        result = {_seat_key(k, where, what): _int(v, where, f"{what} target")
                  for k, v in value.items()}
    repeated = [int(k) for k in getattr(value, "duplicates", ())]
    if len(result) != len(value):  # "01" and "1" are the same seat
        repeated += _repeats(int(k) for k in value)
    if repeated:
        raise ProtocolError(where, f"acts twice in one {what}", repeated[0])
    return result


def _parse_players(raw: object) -> tuple[list[SeatSpec], dict[int, int | None]]:
    """The table, and who ordered each friend immunity (for checking the order's conditions)."""
    if not isinstance(raw, list) or not raw:
        raise ProtocolError("players", "format: players must be a non-empty list")
    specs: list[SeatSpec] = []
    orderers: dict[int, int | None] = {}
    for entry in raw:
        if not isinstance(entry, dict):
            raise ProtocolError("players", "format: each player must be an object")
        seat = _int(entry.get("seat"), "players", "seat")
        role_name = entry.get("role")
        try:
            role = Role(str(role_name))
        except ValueError:
            raise ProtocolError("players", f"seat {seat}: unknown role {role_name!r}") from None
        sex = entry.get("sex")
        if sex not in (None, "m", "f"):
            raise ProtocolError("players", f"seat {seat}: sex must be \"m\" or \"f\"")
        opens: set[OpenImmunity] = set()
        friend: FriendImmunity | None = None
        immunities = entry.get("immunities", [])
        if not isinstance(immunities, list):
            raise ProtocolError("players", f"seat {seat}: immunities must be a list")
        for item in immunities:
            if item == "friend" or (isinstance(item, dict) and item.get("kind") == "friend"):
                if friend is not None:
                    raise ProtocolError("players", f"seat {seat}: the friend immunity twice")
                by = None
                if isinstance(item, dict) and item.get("announce_by") is not None:
                    by = _int(item["announce_by"], "players", "announce_by")
                friend = FriendImmunity(announce_by=by)
                orderers[seat] = by
            elif item in ("newbie", "first_day_killed"):
                opens.add(OpenImmunity(item))
            else:
                raise ProtocolError("players", f"seat {seat}: unknown immunity {item!r}")
        specs.append(SeatSpec(seat, role, sex, frozenset(opens), friend))
    return specs, orderers


def _check_friend_orders(specs: list[SeatSpec], orderers: Mapping[int, int | None]) -> None:
    seats = [s.seat for s in specs]
    sexes = {s.seat: s.sex for s in specs}
    for holder, orderer in sorted(orderers.items()):
        if orderer is None:
            continue  # an anonymous order: the host already checked it
        try:
            check_friend_order(seats, sexes, orderer, holder)
        except RuleViolation as err:
            if err.code == "friend_sex_unknown":
                continue  # sex is optional in a protocol: check only what is known
            raise ProtocolError("players", f"friend immunity of seat {holder}: seat {orderer} "
                                f"{err.message}") from None


def _foul(state: GameState, body: object, where: int) -> GameState:
    """A ``foul`` entry: ``{"seat", "points" (0), "reason" ("other"), "phase" (optional)}``."""
    if not isinstance(body, dict):
        raise ProtocolError(where, "format: foul holds seat, points, reason and phase")
    seat = _int(body.get("seat"), where, "foul seat")
    points = _int(body.get("points", 0), where, "foul points")
    raw = body.get("reason", "other")
    if not isinstance(raw, str) or raw not in FoulReason.__members__.values():
        raise ProtocolError(where, f"format: unknown foul reason {str(raw)[:20]!r}")
    reason = FoulReason(raw)
    during = body.get("phase")
    if during not in (None, "night", "day"):
        raise ProtocolError(where, "format: a foul's phase is night or day,"
                            f" not {str(during)[:20]!r}")
    state, _ = foul(state, seat, reason=reason, points=points,
                    during=None if during is None else Phase(during))
    return state


def phase_json(kind: str, result: Any) -> dict[str, Any]:
    if kind == "night":
        return {
            "phase": "night", "number": result.number, "died": list(result.died),
            "saved": [{"seat": s.seat, "by": s.by} for s in result.saved],
            "blocked": list(result.blocked), "jailed": list(result.jailed),
            "released": list(result.released),
            "checks": [{"by": c.by, "target": c.target, "mafia": c.mafia} for c in result.checks],
        }
    if kind == "day":
        return {
            "phase": "day", "number": result.number,
            "tally": {str(s): c for s, c in result.tally.counts.items()},
            "tied": list(result.tally.tied), "condemned": result.condemned,
            "cancelled_by": result.cancelled_by,
            "saved": [{"seat": s, "by": "friend"} for s in result.saved],
            "died": list(result.died), "released": list(result.released),
        }
    return {"phase": "technical_death", "seat": result.seat, "died": list(result.died),
            "released": list(result.released)}


def replay(protocol: object, points: PointsConfig = DEFAULT_POINTS) -> dict[str, Any]:
    """Replay a parsed protocol; raises ProtocolError naming the entry and the seat at fault."""
    if not isinstance(protocol, dict):
        raise ProtocolError("protocol", "format: the protocol must be a JSON object")
    specs, orderers = _parse_players(protocol.get("players"))
    try:
        state = new_game(specs, points)
    except CompositionError as err:
        raise ProtocolError("players", err.message) from None
    _check_friend_orders(specs, orderers)
    seed = protocol.get("seed")
    rng = random.Random(0 if seed is None else _int(seed, "protocol", "seed"))
    entries = protocol.get("steps", [])
    if not isinstance(entries, list):
        raise ProtocolError("protocol", "format: steps must be a list")

    phases: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or len(entry) != 1 or next(iter(entry)) not in ENTRY_KINDS:
            raise ProtocolError(index, "format: an entry of steps is one of night, day,"
                                " technical_death, foul, undo_foul")
        kind, body = next(iter(entry.items()))
        try:
            if state.over:
                raise RuleViolation("game_over", "nothing may follow the end of the game")
            if kind == "night":
                state, night = resolve_night(state, _seat_map(body, index, "night"))
                phases.append(phase_json("night", night))
            elif kind == "day":
                if not isinstance(body, dict):
                    raise ProtocolError(index, "format: day holds votes, fate and cancel_by")
                votes = _seat_map(body.get("votes", {}), index, "votes")
                fate = body.get("fate")
                cancel = body.get("cancel_by")
                state, day = resolve_day(
                    state, votes,
                    fate=None if fate is None else _int(fate, index, "fate"),
                    cancel_by=None if cancel is None else _int(cancel, index, "cancel_by"),
                    rng=rng,
                )
                phases.append(phase_json("day", day))
            elif kind == "technical_death":
                state, tech = technical_death(state, _int(body, index, "technical_death"))
                phases.append(phase_json("technical_death", tech))
            elif kind == "foul":
                state = _foul(state, body, index)
            else:
                state, _ = undo_foul(state, _int(body, index, "undo_foul"))
        except RuleViolation as err:
            error = ProtocolError(index, err.message, err.seat)
            raise ProtocolErrorWithState(error, state) from None

    totals = dict.fromkeys(state.seats, 0)
    for row in state.ledger:
        totals[row.seat] += row.points
    return {
        "phases": phases,
        "alive": state.alive,
        "jailed": state.jailed,
        "winner": None if state.winner is None else str(state.winner),
        "points": {str(s): p for s, p in totals.items()},
        "ledger": [{"seat": r.seat, "points": r.points, "reason": r.reason.value, "phase": r.phase}
                   for r in state.ledger],
        "fouls": [{"number": f.number, "seat": f.seat, "reason": f.reason.value,
                   "points": f.points, "phase": f.phase, "undone": f.undone}
                  for f in state.fouls],
    }


class ProtocolErrorWithState(ProtocolError):
    """A rule broken at an entry: keeps the state so the message can name the seat's role."""

    def __init__(self, error: ProtocolError, state: GameState) -> None:
        super().__init__(error.where, error.message, error.seat)
        self.state = state

    def line(self, state: GameState | None = None) -> str:
        return super().line(state or self.state)


def replay_text(text: str, points: PointsConfig = DEFAULT_POINTS) -> Outcome:
    """Parse and replay; never raises for a bad protocol."""
    try:
        protocol = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as err:
        return Outcome(None, f"protocol: format: not JSON ({err.msg}, line {err.lineno})",
                       "protocol")
    except (ValueError, RecursionError) as err:  # a number too long, nesting too deep
        return Outcome(None, f"protocol: format: not readable JSON ({type(err).__name__})",
                       "protocol")
    try:
        return Outcome(replay(protocol, points), None)
    except ProtocolError as err:
        return Outcome(None, err.line(), err.where, err.seat)

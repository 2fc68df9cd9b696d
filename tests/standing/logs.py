"""Hand-made game logs: a replay protocol (docs/replay.md) written down as the event log the
bot stores (``deal``, ``night_resolved``, ``day_resolved``, ``tech``, ``foul``,
``foul_undone``), so the standing's tests read a game exactly as the bot logged it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TG_BASE = 100  # seat N sits account TG_BASE + N


@dataclass(frozen=True)
class Logged:
    """One event of a log (what ``record.outcome.LoggedEvent`` reads)."""

    seq: int
    kind: str
    payload: Mapping[str, object] = field(default_factory=dict)


def _seat(entry: Mapping[str, Any], tg_base: int) -> dict[str, Any]:
    immunities = [i for i in entry.get("immunities", []) if i in ("newbie", "first_day_killed")]
    friend = next((i for i in entry.get("immunities", [])
                   if i == "friend" or (isinstance(i, dict) and i.get("kind") == "friend")),
                  None)
    seat = int(entry["seat"])
    return {"seat": seat, "tg_id": tg_base + seat, "name": entry.get("name", f"P{seat}"),
            "role": entry["role"], "sex": entry.get("sex"), "immunities": immunities,
            "friend": friend is not None,
            "friend_by": friend.get("announce_by") if isinstance(friend, dict) else None,
            "offline": False}


def log_of(protocol: Mapping[str, Any], *, tg_base: int = TG_BASE,
           friendly: bool = False) -> list[Logged]:
    """The log of a protocol's game (a day in a shoot-out needs its ``fate``: the log holds
    the draw)."""
    kinds: list[tuple[str, dict[str, object]]] = []
    if friendly:
        kinds.append(("friendly", {}))
    seats = [_seat(e, tg_base) for e in protocol["players"]]
    kinds.append(("deal", {"seed": "00" * 32, "commitment": "c",
                           "cards": [s["role"] for s in seats], "seats": seats}))
    step_no = 0
    for step in protocol.get("steps", []):
        (kind, body), = step.items()
        if kind == "night":
            step_no += 1
            kinds.append(("night_start", {"step": step_no}))
            kinds.append(("night_resolved", {"choices": {str(k): v for k, v in body.items()}}))
        elif kind == "day":
            step_no += 1
            kinds.append(("vote_start", {"step": step_no, "order": []}))
            day: dict[str, object] = {"votes": dict(body.get("votes", {}))}
            for key in ("fate", "cancel_by"):
                day[key] = body.get(key)
            kinds.append(("day_resolved", day))
        elif kind == "technical_death":
            kinds.append(("tech", {"seat": body}))
        elif kind == "foul":
            kinds.append(("foul", {"seat": body["seat"], "reason": body.get("reason", "other"),
                                   "points": body.get("points", 0),
                                   "phase": body.get("phase")}))
        elif kind == "undo_foul":
            kinds.append(("foul_undone", {"number": body}))
        else:
            raise ValueError(kind)
    return [Logged(seq, kind, payload) for seq, (kind, payload) in enumerate(kinds, start=1)]


def game(roles: Sequence[str], *steps: Mapping[str, Any], tg_base: int = TG_BASE,
         immunities: Mapping[int, Sequence[Any]] | None = None,
         friendly: bool = False) -> list[Logged]:
    """The log of a table dealt ``roles`` (seat 1 first) and played through ``steps``."""
    players = [{"seat": n, "role": r, "immunities": list((immunities or {}).get(n, ()))}
               for n, r in enumerate(roles, start=1)]
    return log_of({"players": players, "steps": list(steps)}, tg_base=tg_base,
                  friendly=friendly)


def night(**choices: int) -> dict[str, Any]:
    """``night(s8=2)``: seat 8 chooses seat 2."""
    return {"night": {k.removeprefix("s"): v for k, v in choices.items()}}


def day(votes: Mapping[int, int] | None = None, *, fate: int | None = None,
        cancel_by: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"votes": {str(k): v for k, v in (votes or {}).items()}}
    if fate is not None:
        body["fate"] = fate
    if cancel_by is not None:
        body["cancel_by"] = cancel_by
    return {"day": body}


def everyone(target: int, seats: Sequence[int]) -> dict[int, int]:
    """Every seat of ``seats`` but the target votes for ``target`` (the target for another)."""
    return {s: target if s != target else next(x for x in seats if x != target) for s in seats}


def tech(seat: int) -> dict[str, Any]:
    return {"technical_death": seat}

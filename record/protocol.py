"""A game's event log written down as a replay protocol (docs/replay.md): the table as dealt,
then each resolution, technical death, foul and undone foul with the inputs the log holds, so
``python -m engine replay`` settles a dispute about a game the bot ran ("why these points?")
and gives the points its ledger holds, fines included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from record.outcome import LoggedEvent


def _player(entry: Mapping[str, Any]) -> dict[str, Any]:
    immunities: list[Any] = list(entry.get("immunities", []))
    if entry.get("friend"):
        by = entry.get("friend_by")
        immunities.append("friend" if by is None else {"kind": "friend", "announce_by": by})
    player = {"seat": int(entry["seat"]), "name": str(entry["name"]), "role": entry["role"]}
    if entry.get("sex") is not None:
        player["sex"] = entry["sex"]
    if immunities:
        player["immunities"] = immunities
    return player


def protocol_of(events: Sequence[LoggedEvent]) -> dict[str, Any] | None:
    """The replay protocol of a game's log; None for a game never dealt."""
    players: list[dict[str, Any]] | None = None
    steps: list[dict[str, Any]] = []
    friendly = False
    for event in events:
        p: Mapping[str, Any] = event.payload  # the log's JSON as written
        if event.kind == "friendly":
            friendly = True
        elif event.kind == "deal":
            players = [_player(e) for e in p["seats"]]
            steps = []
        elif event.kind == "night_resolved":
            steps.append({"night": {str(k): int(v) for k, v in p["choices"].items()}})
        elif event.kind == "day_resolved":
            day: dict[str, Any] = {"votes": {str(k): int(v) for k, v in p["votes"].items()}}
            for key in ("fate", "cancel_by"):
                if p.get(key) is not None:
                    day[key] = int(p[key])
            steps.append({"day": day})
        elif event.kind == "tech":
            steps.append({"technical_death": int(p["seat"])})
        elif event.kind == "foul":
            foul = {"seat": int(p["seat"]), "points": int(p["points"]), "reason": p["reason"]}
            if p.get("phase") is not None:
                foul["phase"] = p["phase"]
            steps.append({"foul": foul})
        elif event.kind == "foul_undone":
            steps.append({"undo_foul": int(p["number"])})
    if players is None:
        return None
    protocol: dict[str, Any] = {"players": sorted(players, key=lambda x: x["seat"]),
                                "steps": steps}
    if friendly:  # the replay's points were never counted (the replay reads no such key)
        protocol["friendly"] = True
    return protocol

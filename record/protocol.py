"""A game's event log written down as a replay protocol (docs/replay.md): the table as dealt,
then each resolution, technical death, foul and undone foul with the inputs the log holds, so
``python -m engine replay`` settles a dispute about a game the bot ran ("why these points?")
and gives the points its ledger holds, fines included."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from record.log_events import (
    DayResolved,
    Deal,
    DealtSeat,
    FoulCalled,
    FoulUndone,
    Friendly,
    NightResolved,
    Tech,
    decode,
)
from record.outcome import LoggedEvent


def _player(entry: DealtSeat) -> dict[str, Any]:
    immunities: list[Any] = [str(i) for i in entry.immunities]
    if entry.friend:
        by = entry.friend_by
        immunities.append("friend" if by is None else {"kind": "friend", "announce_by": by})
    player: dict[str, Any] = {"seat": entry.seat, "name": entry.name, "role": str(entry.role)}
    if entry.sex is not None:
        player["sex"] = entry.sex
    if immunities:
        player["immunities"] = immunities
    return player


def protocol_of(events: Sequence[LoggedEvent]) -> dict[str, Any] | None:
    """The replay protocol of a game's log; None for a game never dealt."""
    players: list[dict[str, Any]] | None = None
    entries: list[dict[str, Any]] = []  # under the format's key "steps"
    friendly = False
    for logged in events:
        match decode(logged.kind, logged.payload):
            case Friendly():
                friendly = True
            case Deal(seats=seats):
                players = [_player(e) for e in seats]
                entries = []
            case NightResolved(choices=choices):
                entries.append({"night": {str(k): v for k, v in choices.items()}})
            case DayResolved(votes=votes, fate=fate, cancel_by=cancel_by):
                day: dict[str, Any] = {"votes": {str(k): v for k, v in votes.items()}}
                if fate is not None:
                    day["fate"] = fate
                if cancel_by is not None:
                    day["cancel_by"] = cancel_by
                entries.append({"day": day})
            case Tech(seat=seat):
                entries.append({"technical_death": seat})
            case FoulCalled() as foul:
                whistle: dict[str, Any] = {"seat": foul.seat, "points": foul.points,
                                           "reason": str(foul.reason)}
                if foul.phase is not None:
                    whistle["phase"] = str(foul.phase)
                entries.append({"foul": whistle})
            case FoulUndone(number=number):
                entries.append({"undo_foul": number})
    if players is None:
        return None
    protocol: dict[str, Any] = {"players": sorted(players, key=lambda x: x["seat"]),
                                "steps": entries}
    if friendly:  # the replay's points were never counted (the replay reads no such key)
        protocol["friendly"] = True
    return protocol

"""Events the engine emits, each tagged with who may see it.

Only the bot's notifier maps an audience to chats, so a test over every event of a game can prove
that nothing secret reaches the club chat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class AudienceKind(StrEnum):
    EVERYONE = "everyone"  # the club chat
    SEAT = "seat"  # one player, in private
    MAFIA = "mafia"  # every living Mafia player, in private
    HOST = "host"  # the host, in private: the whole truth of the table


@dataclass(frozen=True, slots=True)
class Audience:
    kind: AudienceKind
    seat: int | None = None

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.kind is AudienceKind.SEAT else self.kind.value


EVERYONE = Audience(AudienceKind.EVERYONE)
MAFIA = Audience(AudienceKind.MAFIA)
HOST = Audience(AudienceKind.HOST)


def to_seat(seat: int) -> Audience:
    return Audience(AudienceKind.SEAT, seat)


@dataclass(frozen=True, slots=True)
class Event:
    """``kind`` names what happened (the bot has a text per kind); ``data`` holds seats."""

    kind: str
    audience: Audience
    data: Mapping[str, Any] = field(default_factory=dict)


# Event kinds that only ever go to the public, so they may carry nothing secret.
PUBLIC_KINDS: frozenset[str] = frozenset(
    {
        "open_immunities",
        "night_deaths",
        "friend_saved",
        "jailed",
        "released",
        "vote_tally",
        "shootout",
        "vote_failed",
        "vote_impossible",
        "verdict_cancelled",
        "condemned_died",
        "technical_death",
        "game_over",
    }
)

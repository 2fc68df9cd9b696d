"""What the game answers the user: a :class:`Reply` (a locale key and its arguments: the
callback's answer or a message) and the durations its texts show (:func:`secs`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What the service answers (a callback answer or a message): a locale key."""

    key: str
    kwargs: dict[str, Any]


def reply(key: str, **kwargs: Any) -> Reply:
    return Reply(key, kwargs)


def secs(seconds: float) -> int | float:
    """A duration for the texts: whole seconds (a number, so the texts pick its plural form)."""
    if seconds >= 10 or seconds == int(seconds):
        return round(seconds)
    return float(f"{seconds:g}")

"""A late post says what is true when it arrives.

A club chat shares Telegram's 20 posts a minute among its tables, so a post may go out well after
it was queued. A text that states how long its moment lasts ("the night lasts 30 seconds") is
queued with its words for once the moment is over and the moment's end, both rendered by the game
layer (``Notifier.timed``, from ``locales/``); the worker only chooses, by the time it sends.
Pure.
"""

from __future__ import annotations

from typing import Any

# a club row's texts that state how long their moment lasts: [[as said, as said once the moment
# is over, the moment's end (Unix seconds)], ...] (``Notifier.timed``)
LATE = "late"


def as_of(payload: dict[str, Any], now: float) -> dict[str, Any]:
    """The row's payload as it goes out at ``now``: each timed text whose moment ended before
    then in its words for once it is over (both rendered when the row was queued: the worker
    only chooses), so a post the chat's budget held back says what is true when it arrives."""
    late = payload.get(LATE)
    if not late:
        return payload
    out = dict(payload)
    for said, over, until in late:
        if now <= until:
            continue
        for field in ("text", "caption"):
            body = out.get(field)
            if isinstance(body, str):
                out[field] = body.replace(said, over)
    return out

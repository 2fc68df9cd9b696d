"""A late post says what is true when it arrives.

A club chat shares Telegram's 20 posts a minute among its tables, so a post may go out well after
it was queued. A text that states how long its moment lasts ("the night lasts 30 seconds") is
queued with its words for once the moment is over and the moment's end, both rendered by the game
layer (``Notifier.timed``, from ``locales/``); the worker only chooses, by the time it sends.
Pure.
"""

from __future__ import annotations

from dataclasses import replace

from bot.delivery.payload import Caption, Payload, Picture, Text, late_of


def as_of(payload: Payload, now: float) -> Payload:
    """The row's payload as it goes out at ``now``: each timed text whose moment ended before
    then in its words for once it is over (both rendered when the row was queued: the worker
    only chooses), so a post the chat's budget held back says what is true when it arrives."""
    late = late_of(payload)
    for said, over, until in late:
        if now <= until:
            continue
        if isinstance(payload, Text):
            payload = replace(payload, text=payload.text.replace(said, over))
        elif isinstance(payload, Caption | Picture):
            payload = replace(payload, caption=payload.caption.replace(said, over))
    return payload

"""A group chat behind its budget: the posts still queued go out as one.

Telegram takes 20 posts a minute in a group. When a club's post has to wait for that budget
(or for a 429), whatever its table queued meanwhile would follow one post a slot, and with
short timers the chat would fall behind by whole phases. So when the head post's turn comes
after such a wait, the texts queued behind it (of the same table, or of no table) are merged
into it, and the queued edits of any of them are folded in: the chat is late by at most one
post. The post remembers its parts (``storage.repos.outbox.MergedPost``), so that a later edit of
one of them edits that part of the post and keeps the others. Pictures, posts with buttons and
edits of other messages are never merged (a picture takes its own caption's edits), and
nothing passes an edit of another message that is due (the table's order) but a live list's
redraw (:data:`bot.delivery.payload.REDRAW`), which goes after the chat's announcements anyway.
Another table's rows of the same chat (its lane) are passed over: the tables take turns, each in
its own order; a post of another topic or under another table's name is never merged in. Pure:
the worker (:mod:`bot.delivery.worker`) reads and marks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.delivery.late import as_of
from bot.delivery.payload import Caption, Payload, Picture, Text, body_of, decode
from record.posts import units
from storage.repos.outbox import EDIT, SEND, OutboxRow

# UTF-16 units: what a merged post may hold when it is made (Telegram takes 4096; each part
# may still grow by the edits of its own post: the last words' ends, the next night's fall)
MERGED_LIMIT = 2500
TEXT_MAX = 4096  # Telegram's limit of a message's text: a longer part leaves the merged post
_TABLE = re.compile(r"g(\d+):")  # a game's messages' keys: docs/delivery.md


def redraw(row: OutboxRow) -> bool:
    """Whether ``row`` only redraws a live list (:data:`bot.delivery.payload.REDRAW`)."""
    if row.method != EDIT:
        return False
    payload = decode(row.payload)
    return isinstance(payload, Text) and payload.redraw


def table_of(row: OutboxRow) -> str | None:
    """The table a row belongs to (its lane; a row queued without one: its key's game), or
    None for a row of the chat alone."""
    if row.lane is not None:
        return str(row.lane)
    found = _TABLE.match(row.key or "")
    return None if found is None else found.group(1)


def _placed(payload: Payload) -> tuple[int | None, str | None]:
    """Where a post goes in its chat and the name it opens with (a table's forum topic and
    label: docs/delivery.md, "Several tables in one club chat")."""
    return payload.thread, payload.label


def joined(parts: Sequence[tuple[str | None, str]]) -> str:
    return "\n\n".join(text for _, text in parts)


def _said(payload: Payload, picture: bool) -> str | None:
    """What a row says that a merged post takes: a plain text's words, or a picture's caption
    (an edit of it) when the post is a picture; None: nothing it may take."""
    if picture:
        return payload.caption if isinstance(payload, Caption) and payload.markup is None \
            else None
    return payload.text if isinstance(payload, Text) and payload.markup is None else None


@dataclass(frozen=True)
class Merged:
    """The post the head goes out as: its parts (key, text) in order and the rows taken into
    it (the sends appended, the edits of its parts folded in)."""

    parts: tuple[tuple[str | None, str], ...]
    taken: tuple[OutboxRow, ...]
    picture: bool = False  # a picture with its caption's edits folded in (one part)

    @property
    def text(self) -> str:
        return joined(self.parts)


def merge(head: OutboxRow, rows: Sequence[OutboxRow], now: float,
          told: float | None = None) -> Merged | None:
    """What goes out with ``head`` (a send whose turn came after a wait for the chat's budget)
    from ``rows``, the chat's queue as read ``now`` (oldest first); None: nothing to merge. A
    picture takes only its own caption's edits. ``told``: the game's time, against which a
    timed text's moment is over or not (:func:`bot.delivery.late.as_of`; ``now`` if None)."""
    told = now if told is None else told
    payload = as_of(decode(head.payload), told)
    picture = isinstance(payload, Picture)
    if head.method != SEND or not (
            picture or (isinstance(payload, Text) and payload.plain)):
        return None
    parts: list[tuple[str | None, str]] = [(head.key, body_of(payload))]
    table = table_of(head)
    taken: list[OutboxRow] = []
    for row in rows:
        if row.id <= head.id:
            continue
        if row.lane is not None and head.lane is not None and row.lane != head.lane:
            continue  # another table's row: the tables of a chat take turns, each in order
        body = as_of(decode(row.payload), told)
        if row.method == EDIT:
            at = next((i for i, (k, _) in enumerate(parts) if k == row.key), None)
            said = _said(body, picture)
            if at is not None and said is not None:
                parts[at] = (row.key, said)
                taken.append(row)
                continue
            if row.attempts == 0 and row.next_at > now:
                continue  # a throttled edit waiting for its slot holds nothing up
            if redraw(row):
                continue  # a live list's redraw goes after the chat's announcements
            break  # an edit of another message is due: it goes first
        if picture or not (isinstance(body, Text) and body.plain):
            break
        mine = table_of(row)
        if (mine is not None and table is not None and mine != table) or (
                _placed(body) != _placed(payload)):
            break  # another table's post (several tables in one chat), or another topic's
        if units(joined([*parts, (row.key, body.text)])) > MERGED_LIMIT:
            break
        table = table or mine
        parts.append((row.key, body.text))
        taken.append(row)
    if not taken:
        return None
    return Merged(tuple(parts), tuple(taken), picture)

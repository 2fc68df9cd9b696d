"""A group chat behind its budget: the posts still queued go out as one.

Telegram takes 20 posts a minute in a group. When a club's post has to wait for that budget
(or for a 429), whatever its table queued meanwhile would follow one post a slot, and with
short timers the chat would fall behind by whole phases. So when the head post's turn comes
after such a wait, the texts queued behind it (of the same table, or of no table) are merged
into it, and the queued edits of any of them are folded in: the chat is late by at most one
post. The post remembers its parts (``storage.repos.outbox.Shared``), so that a later edit of
one of them edits that part of the post and keeps the others. Pictures, posts with buttons and
edits of other messages are never merged (a picture takes its own caption's edits), and
nothing passes an edit of another message that is due (the table's order) but a live list's
redraw (:data:`REDRAW`), which goes after the chat's announcements anyway. Another table's
rows of the same chat (its lane) are passed over: the tables take turns, each in its own order;
a post of another topic or under another table's name is never merged in. Pure: the worker
(:mod:`bot.delivery.worker`) reads and marks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.delivery.late import as_of
from record.posts import units
from storage.repos.outbox import EDIT, SEND, OutboxRow

# UTF-16 units: what a merged post may hold when it is made (Telegram takes 4096; each part
# may still grow by the edits of its own post: the last words' ends, the next night's fall)
MERGED_LIMIT = 2500
TEXT_MAX = 4096  # Telegram's limit of a message's text: a longer part leaves the merged post
_TABLE = re.compile(r"g(\d+):")  # a game's messages' keys: docs/delivery.md


# an edit that only redraws a live list (a lobby's seats, an evening's list, a vote's board):
# the chat's announcements (its new posts, and the edits that tell: the night's fall, a verdict)
# go before it, each table's in its order (``Delivery._head``)
REDRAW = "redraw"


def redraw(row: OutboxRow) -> bool:
    """Whether ``row`` only redraws a live list (:data:`REDRAW`)."""
    return row.method == EDIT and row.payload.get(REDRAW) is True


def table_of(row: OutboxRow) -> str | None:
    """The table a row belongs to (its lane; a row queued without one: its key's game), or
    None for a row of the chat alone."""
    if row.lane is not None:
        return str(row.lane)
    found = _TABLE.match(row.key or "")
    return None if found is None else found.group(1)


def _placed(payload: dict[str, object]) -> tuple[object, object]:
    """Where a post goes in its chat and the name it opens with (a table's forum topic and
    label: docs/delivery.md, "Several tables in one club chat")."""
    return payload.get("thread"), payload.get("label")


def joined(parts: Sequence[tuple[str | None, str]]) -> str:
    return "\n\n".join(text for _, text in parts)


def _plain(payload: dict[str, object]) -> bool:
    """A text without buttons or a picture: what may be merged."""
    return isinstance(payload.get("text"), str) and not (
        {"markup", "picture", "photo", "caption", "protect"} & set(payload))


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
    payload = as_of(head.payload, told)
    picture = "picture" in payload or "photo" in payload
    if head.method != SEND or not (picture or _plain(payload)):
        return None
    field = "caption" if picture else "text"
    parts: list[tuple[str | None, str]] = [(head.key, str(payload[field]))]
    table = table_of(head)
    taken: list[OutboxRow] = []
    for row in rows:
        if row.id <= head.id:
            continue
        if row.lane is not None and head.lane is not None and row.lane != head.lane:
            continue  # another table's row: the tables of a chat take turns, each in order
        body = as_of(row.payload, told)
        if row.method == EDIT:
            at = next((i for i, (k, _) in enumerate(parts) if k == row.key), None)
            if at is not None and isinstance(body.get(field), str) and "markup" not in body:
                parts[at] = (row.key, str(body[field]))
                taken.append(row)
                continue
            if row.attempts == 0 and row.next_at > now:
                continue  # a throttled edit waiting for its slot holds nothing up
            if redraw(row):
                continue  # a live list's redraw goes after the chat's announcements
            break  # an edit of another message is due: it goes first
        if picture or not _plain(body):
            break
        mine = table_of(row)
        if (mine is not None and table is not None and mine != table) or (
                _placed(body) != _placed(payload)):
            break  # another table's post (several tables in one chat), or another topic's
        if units(joined([*parts, (row.key, str(body["text"]))])) > MERGED_LIMIT:
            break
        table = table or mine
        parts.append((row.key, str(body["text"])))
        taken.append(row)
    if not taken:
        return None
    return Merged(tuple(parts), tuple(taken), picture)

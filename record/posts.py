"""Club posts that later facts are told in by an edit, not by a new post (say it once).

* the outcome of a resolution: the last words' ends are edited into it;
* the morning: the day's picture, its caption the night's news and the day's start;
* the vote's tally (posted when the votes are done, before the Lawyers' window or the host's
  draw): the verdict and the evening are edited into it.

A :class:`Post` is what the bot knows of such a post: its outbox key and its whole text (an
edit replaces the text, so it is sent whole). Kept in memory only: after a restart the next
fact is a new post.
"""

from __future__ import annotations

from typing import NamedTuple

# Telegram's 1,024 for a picture's caption, less room for a table's name ("<b>Стол 12</b>",
# put before it when several tables share a chat: bot/delivery/calls.py)
CAPTION_LIMIT = 1024 - 24
TEXT_LIMIT = 3500  # a post stays well under Telegram's 4096 (lengths in UTF-16 units: units())


def units(text: str) -> int:
    """A text's length as Telegram counts it: UTF-16 code units (an emoji in a nickname is
    two). The HTML tags are counted too, so the figure errs on the safe side."""
    return len(text.encode("utf-16-le")) // 2


class Post(NamedTuple):
    ref: str  # the outbox key the edits name
    text: str
    caption: bool = False  # a picture's caption (editMessageCaption), not a message's text

    def room(self) -> int:
        """How many characters may still be added (the blank line between included)."""
        return (CAPTION_LIMIT if self.caption else TEXT_LIMIT) - units(self.text) - 2

    def plus(self, more: str) -> Post:
        return self._replace(text=f"{self.text}\n\n{more}")

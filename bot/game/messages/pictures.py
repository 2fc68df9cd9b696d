"""The table's picture in the club chat: with the day's first post, and with every card at the
end. What may be drawn is decided by ``views.picture.table_view`` alone (cards only once
the engine says the game is over); this module only feeds it the table and the texts."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from record.table import Table
from views.i18n import Translator

if TYPE_CHECKING:  # Pillow is imported on the first picture, not at the bot's start
    from views.picture import TableView

log = logging.getLogger("bot.game")


def view_of(table: Table, tr: Translator, key: str, **kwargs: object) -> TableView:
    """What the picture of ``table`` shows now, in the club's language; ``key`` its title."""
    locale = table.locale

    def label(name: str) -> str:
        prefix = "stats.pic." if name.startswith("seat.") else "game."
        return tr.t(locale, prefix + name)

    from views.picture import table_view

    names = {seat: info.name for seat, info in table.seats.items()}
    return table_view(table.game, names, title=tr.t(locale, key, **kwargs), label=label)


def table_picture(table: Table, tr: Translator, key: str, **kwargs: object) -> TableView | None:
    """What the post's picture shows (the sender draws it: ``views/drawing.py``); None when it
    cannot be said (the post then goes out as text: a picture never holds the game up)."""
    try:
        return view_of(table, tr, key, **kwargs)
    except Exception:
        log.exception("cannot draw the table of game %s", table.game_id)
        return None

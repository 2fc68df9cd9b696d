"""The table's picture in the club chat: with the day's first post, and with every card at the
end. What may be drawn is decided by ``bot.services.picture.table_view`` alone (cards only once
the engine says the game is over); this module only feeds it the table and the texts."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from bot.game.table import Table
from bot.i18n import Translator

if TYPE_CHECKING:  # Pillow is imported on the first picture, not at the bot's start
    from bot.services.picture import TableView

log = logging.getLogger("bot.game")
# One picture at a time, off the event loop: a render is 50-120 ms of CPU (mostly zlib, which
# releases the GIL), and the mornings of many tables come at once; six of asyncio's default
# threads then took both cores from the loop (it ran 165 ms late with ten at once, answering
# nobody). Queued here, the loop keeps a core.
_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")


def view_of(table: Table, tr: Translator, key: str, **kwargs: object) -> TableView:
    """What the picture of ``table`` shows now, in the club's language; ``key`` its title."""
    locale = table.locale

    def label(name: str) -> str:
        prefix = "stats.pic." if name.startswith("seat.") else "game."
        return tr.t(locale, prefix + name)

    from bot.services.picture import table_view

    names = {seat: info.name for seat, info in table.seats.items()}
    return table_view(table.game, names, title=tr.t(locale, key, **kwargs), label=label)


async def table_png(table: Table, tr: Translator, key: str, **kwargs: object) -> bytes | None:
    """The PNG (rendered off the event loop); None when it cannot be drawn (the post then goes
    out as text: a picture never holds the game up)."""
    try:
        from bot.services import picture

        view = view_of(table, tr, key, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(
            _RENDERER, picture.render_table, view)
    except Exception:
        log.exception("cannot draw the table of game %s", table.game_id)
        return None

"""The table's picture is drawn by the sender, when its post's turn comes
(``bot/delivery/calls.py``): the game step keeps only what to draw
(:class:`views.picture.TableView`), so no press waits for a picture and an outbox row holds about a
kilobyte instead of the PNG. A player's charts under ``/profile`` (:mod:`views.charts`) go the
same way."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from views.picture import TableView

# One picture at a time, off the event loop: a render takes milliseconds of CPU (mostly zlib,
# which releases the GIL) and the mornings of many tables come at once; on asyncio's default
# threads several renders would take every core from the loop. Queued here, the loop keeps one.
_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")
# The pages' pictures (a finished game's, web/app.py) queue on a thread of their own: a crawl
# of every game's page never puts a running game's morning behind its drawings.
_PAGES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="page-picture")


async def draw(view: Mapping[str, Any]) -> bytes:
    """The JPEG of a view kept as JSON (:meth:`TableView.to_json`) for Telegram, which makes
    every photo a JPEG anyway. Pillow is imported on the first picture, not at the bot's
    start."""
    from views.picture import TableView

    if "chart" in view:  # a player's picture (``views/charts.py``), not a table's
        return await draw_chart(view, jpeg=True)
    return await draw_view(TableView.from_json(view), jpeg=True)


async def draw_chart(view: Mapping[str, Any], *, jpeg: bool = False,
                     page: bool = False) -> bytes:
    """A player's chart kept as JSON, drawn on the pictures' thread (``page``: on the pages'
    own, as a page's picture is)."""
    from views import charts

    return await asyncio.get_running_loop().run_in_executor(
        _PAGES if page else _RENDERER,
        partial(charts.render_chart, charts.chart_of(view), jpeg=jpeg))


async def draw_view(view: TableView, *, jpeg: bool = False) -> bytes:
    """The PNG (or JPEG) of ``view``, drawn on the games' pictures' thread."""
    from views import picture

    return await asyncio.get_running_loop().run_in_executor(
        _RENDERER, partial(picture.render_table, view, jpeg=jpeg))


async def draw_page_view(view: TableView) -> bytes:
    """The PNG of a finished game's ``view`` for its page, drawn on the pages' own thread
    (the pages are served by the bot's event loop too)."""
    from views import picture

    return await asyncio.get_running_loop().run_in_executor(
        _PAGES, partial(picture.render_table, view))

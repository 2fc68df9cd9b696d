"""The read-only web pages: leaderboards, players, finished games (aiohttp + Jinja2), and the
templates and static files of the host's Mini App (served by :mod:`bot.miniapp.server`).

Run by the bot's process when ``WEB_PORT`` is set, or alone with ``python -m web``.

Start with ``app.py``.

May import: ``views``, ``storage``, ``record``, ``engine`` (never ``bot``: the bot serves
these pages, not the other way round).
"""

from web.app import create_web_app, start_web

__all__ = ["create_web_app", "start_web"]

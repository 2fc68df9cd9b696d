"""The read-only web pages: leaderboards, players, finished games (aiohttp + Jinja2); and, in
the bot's process only, the host's Mini App (:mod:`web.host_app`).

Run by the bot's process when ``WEB_PORT`` is set, or alone with ``python -m web``.
"""

from web.app import create_web_app, start_web

__all__ = ["create_web_app", "start_web"]

"""The Telegram bot (aiogram 3): the application and everything that talks to Telegram.

``bot/app.py`` is the application's lifecycle (the same one ``python -m bot`` and the flow
tests run); ``bot/wiring.py`` builds every part of it once (``build``, the ``Container``);
``bot/jobs.py`` holds the network's scheduled jobs, ``bot/observability.py`` the metrics and
the operators' alerts; the rest are folders, top down:
``handlers`` (routers by audience), ``miniapp`` (the host's Mini App), ``cluster`` (several
processes on one PostgreSQL), ``game`` (the game layer), ``telegram`` (aiogram's plumbing),
``services`` (the logic behind the handlers), ``delivery`` (every message out), and the base
modules ``config``, ``errors``, ``logs``, ``startup``, ``memory``, ``locks``, ``metrics``,
``clock``.
Start with ``wiring.py``.

May import: ``web``, ``views``, ``storage``, ``record``, ``engine``, ``locales``; inside, a
folder imports only the folders below it (tests/test_layout.py names the order).
"""

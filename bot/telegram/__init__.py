"""aiogram's plumbing: the HTTP session to the Bot API (:mod:`bot.telegram.session`), the
raw ``getUpdates`` (:mod:`bot.telegram.updates`), the outer middlewares (who is talking, in
which language) and the handlers still running at a stop.
Start with ``middlewares.py``.

May import: ``bot.services``, ``bot.delivery``, ``bot.errors``, ``bot.config`` and the layers
below ``bot`` (``views``, ``storage``, ``record``, ``engine``).
"""

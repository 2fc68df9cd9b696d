"""The game layer: a table's evening through the bot, "log first, then apply".

:class:`bot.game.service.GameService` is the one object the handlers hold, a facade over the
rooms (:mod:`bot.game.rooms`, one per part of the evening), which it builds, each given only
the parts it uses: the running tables (:mod:`bot.game.tables`), a game's step — its lock, its
log events, its one write — (:mod:`bot.game.steps`, written by :mod:`bot.game.writes`), the
tables' deadlines (:mod:`bot.game.timekeeper`, on the scheduler of :mod:`bot.game.timers`),
the checks (:mod:`bot.game.guards`), the answers (:mod:`bot.game.answers`), the moments'
prompts (:mod:`bot.game.prompts`) and the players' languages (:mod:`bot.game.languages`);
everything is said through :mod:`bot.game.messages`. The host's panel and the Mini App's view
are :mod:`bot.game.panel`, a restart is :mod:`bot.game.restore`. Start with ``service.py``.

May import: ``bot.delivery``, ``bot.services``, the base modules of ``bot`` and the layers
below ``bot``.
"""

"""The game layer: a table's evening through the bot, "log first, then apply".

:class:`bot.game.service.GameService` is the one object the handlers hold, a facade over the
rooms; every step runs in :mod:`bot.game.core` under the game's lock, is written by
:mod:`bot.game.writes` and told by :mod:`bot.game.messages`. The phases are the rooms
(:mod:`bot.game.rooms`), the running tables :mod:`bot.game.tables`, the moments' prompts
:mod:`bot.game.prompts`, the players' languages :mod:`bot.game.languages`; the host's panel and
the Mini App's view are :mod:`bot.game.panel`, a restart is :mod:`bot.game.restore`. Start
with ``service.py``.

May import: ``bot.delivery``, ``bot.services``, the base modules of ``bot`` and the layers
below ``bot``.
"""

"""aiogram's plumbing: the HTTP session to the Bot API (:mod:`bot.telegram.session`), the
raw ``getUpdates`` and the reading of each update alone (:mod:`bot.telegram.updates`), long
polling (:mod:`bot.telegram.polling`) and the webhook's handler (:mod:`bot.telegram.webhook`),
which skip a malformed update instead of stopping on it, the outer middlewares (who is
talking, in which language) and the handlers still running at a stop; ``Handler`` is what
every middleware of the bot is given: the next handler of an update (here, so that
``bot/metrics.py`` and ``bot/cluster/`` take the same one). Start with ``middlewares.py``.

May import: ``bot.services``, ``bot.delivery``, ``bot.errors``, ``bot.config`` and the layers
below ``bot`` (``views``, ``storage``, ``record``, ``engine``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.types import TelegramObject

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]

"""``python -m tests.game.relaxed_bot``: ``python -m bot`` (the same ``main``) with the outbox's
rate limits relaxed, for the kill -9 games: the fake Bot API enforces no limits, and a club's 20
posts a minute would make two games in a row wait more than a minute for the group's window.
The limiter keeps no state across a restart, so nothing the test checks depends on it."""

from __future__ import annotations

import sys
from typing import Any

import bot.app
from bot.__main__ import main
from bot.config import Settings
from bot.delivery.sender import Limits

RELAXED = Limits(global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
                 group_per_minute=1_000_000)

_create_app = bot.app.create_app


async def create_app(settings: Settings, **kwargs: Any) -> bot.app.App:
    kwargs.setdefault("limits", RELAXED)
    return await _create_app(settings, **kwargs)


if __name__ == "__main__":
    bot.app.create_app = create_app
    sys.exit(main())

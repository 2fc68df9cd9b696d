"""The HTTP session to the Bot API: aiogram's, with two fixes that matter under load."""

from __future__ import annotations

from typing import Any

import aiogram.methods
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods.base import Response, TelegramMethod
from aiohttp import ClientSession

from bot.telegram.updates import GetUpdatesAsSent


def _response_types() -> dict[Any, type[Any]]:
    """``Response[T]`` for every return type of the Bot API's methods, held for the life of
    the process. aiogram builds ``Response[method.__returning__]`` for every answer, and
    pydantic caches a generic model only weakly: without a strong reference each answer built
    the class again, a cost that shows under load."""
    kept: dict[Any, type[Any]] = {}
    for method in [*(getattr(aiogram.methods, name) for name in aiogram.methods.__all__),
                   GetUpdatesAsSent]:
        if isinstance(method, type) and issubclass(method, TelegramMethod) \
                and method is not TelegramMethod:
            returning = method.__returning__
            if returning not in kept:
                kept[returning] = Response[returning]  # type: ignore[valid-type]
    return kept


RESPONSE_TYPES = _response_types()


class BotSession(AiohttpSession):
    """aiogram's session; closing skips the 250 ms grace period that only TLS needs.

    The HTTP client is kept from the public ``create_session`` (aiogram's own attribute for it
    is private), so that a plain-HTTP close can close it without aiogram's sleep."""

    client: ClientSession | None = None

    async def create_session(self) -> ClientSession:
        self.client = await super().create_session()
        return self.client

    async def close(self) -> None:
        if self.api.base.startswith("https://"):
            await super().close()
        elif self.client is not None and not self.client.closed:
            await self.client.close()

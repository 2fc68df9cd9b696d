"""``getUpdates`` with the updates left as Telegram sent them (JSON objects): the poller
routes and stores them, and only the process that handles an update parses it."""

from __future__ import annotations

from typing import Any

from aiogram.methods.base import TelegramMethod

RawUpdate = dict[str, Any]
"""An update as Telegram sends it (its JSON object): routed and stored as it came; only the
process that handles it parses it (aiogram's ``Update``), once."""


class GetRawUpdates(TelegramMethod[list[RawUpdate]]):
    """``getUpdates`` (aiogram's ``GetUpdates``) whose updates are left as Telegram sent
    them: the poller routes and stores every update of the network, most of them handled by
    other processes, and parsing each into aiogram's objects there (then again where it is
    handled) would cost it much of its CPU under load (docs/scaling.md)."""

    __returning__ = list[RawUpdate]
    __api_method__ = "getUpdates"

    offset: int | None = None
    limit: int | None = None
    timeout: int | None = None
    allowed_updates: list[str] | None = None

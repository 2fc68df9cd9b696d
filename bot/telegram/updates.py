"""``getUpdates`` with the updates left as Telegram sent them (JSON objects), and the reading of
each one alone into aiogram's ``Update``: one update aiogram cannot validate is skipped (logged,
counted), never the batch it came in, nor the updates after it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods.base import TelegramMethod
from aiogram.types import Update
from pydantic import ValidationError

log = logging.getLogger("bot.updates")

RawUpdate = dict[str, Any]
"""An update as Telegram sends it (its JSON object): routed and stored as it came; only the
process that handles it parses it (aiogram's ``Update``), once."""

MAX_REASON = 300  # characters of a validation error kept in the log line


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


class GetUpdatesAsSent(TelegramMethod[list[Any]]):
    """``getUpdates`` whose answer is only checked to be a list: long polling
    (:mod:`bot.telegram.polling`) reads each item alone (:class:`UpdateReader`), so that no
    item, not even one that is no JSON object, fails the decoding of its whole batch (aiogram's
    ``GetUpdates`` does: the offset then never moves past it)."""

    __returning__ = list[Any]
    __api_method__ = "getUpdates"

    offset: int | None = None
    limit: int | None = None
    timeout: int | None = None
    allowed_updates: list[str] | None = None


def update_id_of(raw: object) -> int | None:
    """The ``update_id`` of an update as sent, when it has a usable one."""
    if isinstance(raw, dict):
        value = raw.get("update_id")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def next_offset(batch: Iterable[object], offset: int | None) -> int | None:
    """The ``offset`` confirming ``batch`` (every item of it, readable or not)."""
    ids = [i for i in map(update_id_of, batch) if i is not None]
    if not ids:
        return offset
    after = max(ids) + 1
    return after if offset is None else max(offset, after)


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        parts = [f"{'.'.join(map(str, e['loc'])) or 'update'}: {e['msg']}"
                 for e in error.errors(include_url=False)]
        text = "; ".join(parts)
    else:
        text = f"{type(error).__name__}: {error}"
    return text[:MAX_REASON]


class UpdateReader:
    """Telegram's JSON into aiogram's ``Update``, one update at a time (long polling and the
    webhook alike). An update aiogram cannot validate (a ``channel_post`` without its
    ``message_id`` from a Bot API emulator, say) is skipped: one WARNING line with its
    ``update_id`` and the reason, and :attr:`skipped` counts it."""

    def __init__(self) -> None:
        self.skipped = 0
        self.on_skip: Callable[[], None] = lambda: None  # the metrics' counter

    def read(self, raw: object, bot: Bot) -> Update | None:
        try:
            return Update.model_validate(raw, context={"bot": bot})
        except Exception as e:  # whatever it is, it is one update: the others go on
            self.skip(update_id_of(raw), _reason(e))
            return None

    def skip(self, update_id: int | None, reason: str) -> None:
        self.skipped += 1
        self.on_skip()
        log.warning("malformed update skipped",
                    extra={"update_id": update_id, "reason": reason, "skipped": self.skipped})


async def handle_update(dispatcher: Dispatcher, bot: Bot, update: Update) -> None:
    """One update through the dispatcher, as aiogram's polling does it: a method the handler
    returns is called, a failure is logged (the next updates are handled all the same)."""
    try:
        result = await dispatcher.feed_update(bot, update)
        if isinstance(result, TelegramMethod):
            await dispatcher.silent_call_request(bot, result)
    except Exception:
        log.exception("update failed", extra={"update_id": update.update_id})


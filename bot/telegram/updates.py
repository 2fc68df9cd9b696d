"""``getUpdates`` with the updates left as Telegram sent them (JSON objects), and the reading of
each one alone into aiogram's ``Update``: one update aiogram cannot validate, or of a kind no
handler takes, is skipped (logged, counted), never the batch it came in, nor the updates after
it."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Iterable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods.base import TelegramMethod
from aiogram.types import Update
from aiogram.types.update import UpdateTypeLookupError
from pydantic import ValidationError

log = logging.getLogger("bot.updates")

RawUpdate = dict[str, Any]
"""An update as Telegram sends it (its JSON object): routed and stored as it came; only the
process that handles it parses it (aiogram's ``Update``), once: the poller routes and stores
every update of the network, most of them handled by other processes, and parsing each there
too would cost it much of its CPU under load (docs/scaling.md)."""

MAX_REASON = 300  # characters of a validation error kept in the log line
MAX_SHOWN = 500  # characters of a skipped update's JSON kept in the log line
MALFORMED = "malformed"  # why an update is skipped: aiogram cannot read it
NO_HANDLER = "no_handler"  # ... or no handler takes its kind


class GetUpdatesAsSent(TelegramMethod[list[Any]]):
    """``getUpdates`` whose answer is only checked to be a list, its updates left as Telegram
    sent them: long polling (:mod:`bot.telegram.polling`) reads each item alone
    (:class:`UpdateReader`), and the network's poller (bot/cluster/sharing.py) stores each
    where it is handled, so that no item, not even one that is no JSON object, fails the
    decoding of its whole batch (aiogram's ``GetUpdates`` does: the offset then never moves
    past it)."""

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


def shown(raw: object) -> str:
    """An update as it came, cut short for a log line."""
    try:
        text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False,
                                                           default=repr)
    except ValueError:  # (a circular structure cannot come from JSON; be safe all the same)
        text = repr(raw)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


class UpdateReader:
    """Telegram's JSON into aiogram's ``Update``, one update at a time (long polling, the
    webhook, the inbox alike). An update aiogram cannot validate (a ``channel_post`` without
    its ``message_id`` from a Bot API emulator, say), or of a kind that none of ``kinds`` names
    (a kind Telegram added before aiogram knew it, one no handler takes), is skipped: one
    WARNING line with its ``update_id``, the reason and its JSON cut short, and :attr:`skipped`
    counts it. ``kinds``: the update kinds the dispatcher's handlers take (None: any)."""

    def __init__(self, kinds: Collection[str] | None = None, *,
                 on_skip: Callable[[str], None] = lambda why: None) -> None:
        self.kinds = kinds
        self.skipped = 0
        self.on_skip = on_skip  # the metrics' counter

    def read(self, raw: object, bot: Bot) -> Update | None:
        try:
            update = Update.model_validate(raw, context={"bot": bot})
        except Exception as e:  # whatever it is, it is one update: the others go on
            self.skip(update_id_of(raw), MALFORMED, _reason(e), raw)
            return None
        try:
            kind = update.event_type
        except UpdateTypeLookupError:
            kind = None
        if kind is None or (self.kinds is not None and kind not in self.kinds):
            found = [k for k in raw if k != "update_id"] if isinstance(raw, dict) else []
            self.skip(update.update_id, NO_HANDLER,
                      f"no handler takes {kind or ', '.join(map(str, found)) or 'nothing'}",
                      raw)
            return None
        return update

    def parse(self, body: bytes) -> tuple[bool, object]:
        """A POSTed body's JSON: (True, it), or (False, None) when it is no JSON (skipped)."""
        try:
            return True, json.loads(body)
        except ValueError as e:  # (a UnicodeDecodeError is one too)
            self.skip(None, MALFORMED, f"not JSON: {e}"[:MAX_REASON],
                      body.decode("utf-8", "replace"))
            return False, None

    def skip(self, update_id: int | None, why: str, reason: str, raw: object = None) -> None:
        self.skipped += 1
        self.on_skip(why)
        log.warning("update skipped", extra={"update_id": update_id, "why": why,
                                             "reason": reason, "update": shown(raw),
                                             "skipped": self.skipped})


async def handle_update(dispatcher: Dispatcher, bot: Bot, update: Update) -> None:
    """One update through the dispatcher, as aiogram's polling does it: a method the handler
    returns is called, a failure is logged (the next updates are handled all the same)."""
    try:
        result = await dispatcher.feed_update(bot, update)
        if isinstance(result, TelegramMethod):
            await dispatcher.silent_call_request(bot, result)
    except Exception:
        log.exception("update failed", extra={"update_id": update.update_id})


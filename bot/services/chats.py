"""A group upgraded to a supergroup (Telegram's ``migrate_to_chat_id``): everything the bot keeps
under the old chat id moves to the new one, and the game goes on there."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from storage.db import Database

log = logging.getLogger("bot.chats")

MovedHook = Callable[[int, int], Awaitable[None]]


class ChatMoves:
    """Storage first (``db.clubs.move_chat``: one transaction), then the in-memory state
    (the game layer's running tables) through the hooks. Idempotent: Telegram tells the bot
    up to three times (the service message in the old group, the one in the new supergroup,
    and a 400 ``migrate_to_chat_id`` answer to a send)."""

    def __init__(self, db: Database, *, on_moved: Sequence[MovedHook] = ()) -> None:
        self.db = db
        self._hooks = tuple(on_moved)  # each called (old_chat_id, new_chat_id), storage moved

    async def move(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Returns True when this call moved a club (False: nothing under the old id)."""
        if old_chat_id == new_chat_id:
            return False
        club = await self.db.clubs.move_chat(old_chat_id, new_chat_id)
        for hook in self._hooks:
            await hook(old_chat_id, new_chat_id)
        if club is not None:
            log.info("club moved to a supergroup",
                     extra={"chat_id": old_chat_id, "new_chat_id": new_chat_id})
        return club is not None

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        """The outbox's hook (a send answered 400 ``migrate_to_chat_id``)."""
        await self.move(old_chat_id, new_chat_id)

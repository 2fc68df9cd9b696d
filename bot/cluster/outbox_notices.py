"""The outbox's sender told of the rows this process queued (PostgreSQL, several processes:
docs/scaling.md, "Telegram's limits across all processes").

A process that does not send the outbox queues rows all the same (its games' steps); its
delivery (``bot/delivery/worker.py``, not running) hands each chat to :meth:`OutboxNotices.tell`,
and :meth:`OutboxNotices.run` sends the chats gathered meanwhile in one ``NOTIFY mafia_outbox``
on the share connection. The sender wakes those chats' workers on receipt; a notice lost (the
server restarting) costs its next look at the pending chats, within a second.
"""

from __future__ import annotations

import asyncio
import contextlib

from bot.cluster.share import ShareConnection
from storage.backends import DatabaseUnavailable


class OutboxNotices:
    def __init__(self, conn: ShareConnection) -> None:
        self.conn = conn
        self._noticed: set[int] = set()  # chats whose outbox rows the sender must be told of
        self._notice = asyncio.Event()

    def tell(self, chat_id: int) -> None:
        """Rows were queued for ``chat_id`` (the delivery's ``remote``): told at :meth:`run`'s
        next turn."""
        self._noticed.add(chat_id)
        self._notice.set()

    async def run(self) -> None:
        """Until cancelled: the chats told, sent to the sender as they come."""
        while True:
            await self._notice.wait()
            self._notice.clear()
            chats, self._noticed = self._noticed, set()
            # the server restarting: the sender finds them by its look at the pending chats
            with contextlib.suppress(DatabaseUnavailable):
                await self.conn.notify_outbox(chats)

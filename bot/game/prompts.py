"""A moment's prompts: the private messages with buttons that a moment of the game opens (a
night choice, a vote, the host's draw, a Lawyer's cancel), kept per seat on the table, sent
again after a restart only when the first never arrived, and closed when the moment ends."""

from __future__ import annotations

from typing import Any

from bot.game.messages.notifier import Notifier, message_ref
from record.table import Table
from storage.db import Database


class Prompts:
    """The prompts' bookkeeping; the rooms whose moments prompt (night, day) and the results
    (which name the host's typed commands when the panel never arrived) hold one."""

    def __init__(self, db: Database, notifier: Notifier) -> None:
        self.db = db
        self.notifier = notifier

    async def host_types(self, table: Table) -> bool:
        """Whether the host runs the table by typed commands: the host's panel could not be
        delivered (a host who never started the bot in private, or blocked it). The club's
        posts then name the command that moves the game on; with a panel they say who does."""
        return await self.db.outbox.refused(table.host_id, message_ref(table, "panel") + ":")

    async def kept_prompt(self, table: Table, seat: int, chat_id: int, ref: str) -> bool:
        """After a restart (another process's takeover too): whether the moment's prompt under
        ``ref`` reached ``chat_id`` or is still queued (the outbox knows; after an earlier
        restart, the one sent again). It is then the seat's open prompt, not sent again (a
        player never gets the same buttons twice); False: send it again."""
        kept = await self.db.outbox.kept_send(chat_id, ref)
        if kept is None:
            return False
        table.memory.prompts[seat] = kept
        return True

    @staticmethod
    def prompt_ref(table: Table, chat_id: int, ref: str, again: bool) -> str:
        """A prompt's key; ``again`` (after a restart, when the old one never arrived: see
        :meth:`kept_prompt`): a fresh one, and the old prompt is remembered so it loses its
        buttons with the moment (its buttons work till then)."""
        if not again:
            return ref
        table.memory.old_prompts.append((chat_id, ref))
        return f"{ref}:r{table.seq}"

    async def close_prompts(self, table: Table, key: str = "game.prompt_closed", *,
                            own: tuple[int, str] | None = None, **kwargs: Any) -> None:
        """The moment is over: every prompt still open loses its buttons and says what was
        done (``key``); ``own``, a (chat, key): the prompts of the chat whose press ended the
        moment say that instead («Вы отменили приговор»)."""
        prompts = [(table.host_id if seat == 0 else table.chat_of(seat), ref)
                   for seat, ref in sorted(table.memory.prompts.items())]
        for chat, ref in [*prompts, *table.memory.old_prompts]:
            said = own[1] if own is not None and chat == own[0] else key
            await self.notifier.edit_private(chat, ref, said, **kwargs)
        table.memory.prompts, table.memory.old_prompts = {}, []

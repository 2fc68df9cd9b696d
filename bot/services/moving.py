"""Moving a club in (``/import``, ``/link``), honest nicknames (``/nick``, ``/lookalikes``).

The file's forms (.xlsx, CSV), the expiry decision and idempotency are described in
``storage/repos/imports.py``, ``storage/spreadsheets/files.py`` and docs/bot.md ("Moving a club
in").
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import UserError, explain
from bot.services.accounts import Accounts
from storage.errors import StorageError
from storage.repos.imports import ImportReport, LinkResult
from storage.spreadsheets.files import MAX_FILE_BYTES

__all__ = ["MAX_FILE_BYTES", "Moving", "NickOutcome"]


@dataclass(frozen=True)
class NickOutcome:
    """``/nick``: set (``changed``), linked to an imported record (``link``), or waiting for
    an admin (``claimed``: the imported nickname)."""

    nickname: str
    changed: bool = False
    link: LinkResult | None = None
    claimed: bool = False


class Moving:
    def __init__(self, accounts: Accounts, admin_ids: frozenset[int]) -> None:
        self.accounts = accounts
        self.db = accounts.db
        self.admin_ids = admin_ids

    def _require_admin(self, admin_id: int) -> None:
        if admin_id not in self.admin_ids:
            raise UserError("admin.denied")

    async def run_import(self, admin_id: int, data: bytes, *, apply: bool,
                         sheet: str | None = None) -> ImportReport:
        """The file as sent (.xlsx or CSV; ``sheet``: an .xlsx sheet other than the first);
        a file refused as a whole comes back as ``report.file_error``, nothing written."""
        self._require_admin(admin_id)
        if len(data) > MAX_FILE_BYTES:
            raise UserError("club.import.too_big", size=MAX_FILE_BYTES // 1024)
        return await self.db.imports.run(data, admin_id=admin_id, now=self.accounts.clock(),
                                         apply=apply, sheet=sheet)

    async def link_on_start(self, tg_id: int, username: str | None) -> LinkResult | None:
        """At /start: an imported record naming this account's id or username is applied."""
        record = await self.db.imports.matching(tg_id, username)
        player = await self.db.players.get(tg_id)
        if record is None or player is None or player.nickname is not None:
            return None
        return await self.db.imports.link(record.id, tg_id, now=self.accounts.clock())

    async def set_nickname(self, tg_id: int, username: str | None, nick: str) -> NickOutcome:
        await self.accounts.require(tg_id, active=True)
        record = await self.db.imports.by_nickname(nick)
        if record is None:
            player, changed = await self.accounts.set_nickname(tg_id, nick)
            assert player.nickname is not None
            return NickOutcome(player.nickname, changed=changed)
        named = record.link_tg_id == tg_id or (
            username is not None and record.link_username == username.lower())
        if named:
            link = await self.db.imports.link(record.id, tg_id, now=self.accounts.clock())
            return NickOutcome(record.nickname, changed=True, link=link)
        await self.db.imports.claim(record.id, tg_id)
        return NickOutcome(record.nickname, claimed=True)

    async def admin_link(self, admin_id: int, nick: str) -> tuple[LinkResult, int]:
        """An admin confirms a player's claim of an imported nickname: (result, player)."""
        self._require_admin(admin_id)
        if not nick.strip():
            raise UserError("club.link.usage")
        record = await self.db.imports.by_nickname(nick)
        if record is None:
            raise UserError("club.link.not_found", nick=nick)
        if record.claim_tg_id is None:
            raise UserError("club.link.no_claim", nick=record.nickname)
        try:
            result = await self.db.imports.link(
                record.id, record.claim_tg_id, now=self.accounts.clock(), admin_id=admin_id)
        except StorageError as e:
            raise explain(e) from e
        return result, record.claim_tg_id

    async def lookalikes(self, admin_id: int) -> list[list[str]]:
        self._require_admin(admin_id)
        return await self.db.players.lookalikes()

"""Moving a club in (``/import``, ``/link``), honest nicknames (``/nick``, ``/lookalikes``).

The file's forms (.xlsx, CSV), the expiry decision and idempotency are described in
``storage/repos/imports.py``, ``storage/spreadsheets/files.py`` and docs/bot.md ("Moving a club
in").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import UserError, explain
from bot.services.accounts import Accounts
from bot.services.permissions import Permissions, Power
from storage.errors import StorageError
from storage.models import Player
from storage.repos.imports import Claim, ImportedRecord, ImportReport, LinkResult
from storage.spreadsheets.files import MAX_FILE_BYTES

__all__ = ["MAX_FILE_BYTES", "Moving", "NickOutcome", "StartOutcome"]


@dataclass(frozen=True)
class NickOutcome:
    """``/nick``: set (``changed``), linked to an imported record (``link``), waiting for an
    admin (``claimed``: the imported nickname; ``tell_admins`` on its first claim only), or
    claimed by another account first (``taken``: nothing changed)."""

    nickname: str
    changed: bool = False
    link: LinkResult | None = None
    claimed: bool = False
    tell_admins: bool = False
    taken: bool = False


@dataclass(frozen=True)
class StartOutcome:
    """``/start`` and the imported records: linked by the record's ``telegram_id`` (``link``),
    or claimed for an admin to confirm because its ``username`` matched (``claimed``;
    ``tell_admins`` on the first claim only)."""

    link: LinkResult | None = None
    claimed: ImportedRecord | None = None
    tell_admins: bool = False


_ACCOUNT_ID = re.compile(r"[0-9]{1,16}")


class Moving:
    def __init__(self, accounts: Accounts, permissions: Permissions) -> None:
        self.accounts = accounts
        self.db = accounts.db
        self.permissions = permissions

    async def _require_admin(self, admin_id: int) -> None:
        """The import moves points: the network's admins only."""
        await self.permissions.require(admin_id, Power.MOVE_POINTS)

    async def run_import(self, admin_id: int, data: bytes, *, apply: bool,
                         sheet: str | None = None) -> ImportReport:
        """The file as sent (.xlsx or CSV; ``sheet``: an .xlsx sheet other than the first);
        a file refused as a whole comes back as ``report.file_error``, nothing written."""
        await self._require_admin(admin_id)
        if len(data) > MAX_FILE_BYTES:
            raise UserError("club.import.too_big", size=MAX_FILE_BYTES // 1024)
        return await self.db.imports.run(data, admin_id=admin_id, now=self.accounts.clock(),
                                         apply=apply, sheet=sheet)

    async def link_on_start(self, tg_id: int, username: str | None) -> StartOutcome | None:
        """At /start, for an account without a nickname: the imported record naming this
        account's Telegram id is applied; one naming its username only is claimed for an
        admin to confirm (a username changes hands: whoever takes one listed in the club's
        old sheet must not get that player's points)."""
        player = await self.db.players.get(tg_id)
        if player is None or player.nickname is not None:
            return None
        record = await self.db.imports.by_tg_id(tg_id)
        if record is not None:
            return StartOutcome(link=await self.db.imports.link(
                record.id, tg_id, now=self.accounts.clock()))
        if username is None:
            return None
        record = await self.db.imports.by_username(username)
        if record is None or record.link_tg_id not in (None, tg_id):
            return None  # the row names another account by its id: not this one's
        claim = await self.db.imports.claim(record.id, tg_id)
        if claim not in (Claim.FIRST, Claim.AGAIN):
            return None
        return StartOutcome(claimed=record, tell_admins=claim is Claim.FIRST)

    async def set_nickname(self, tg_id: int, username: str | None, nick: str) -> NickOutcome:
        await self.accounts.require(tg_id, active=True)
        record = await self.db.imports.by_nickname(nick)
        if record is None:
            player, changed = await self.accounts.set_nickname(tg_id, nick)
            assert player.nickname is not None
            return NickOutcome(player.nickname, changed=changed)
        if record.link_tg_id == tg_id:
            link = await self.db.imports.link(record.id, tg_id, now=self.accounts.clock())
            return NickOutcome(record.nickname, changed=True, link=link)
        claim = await self.db.imports.claim(record.id, tg_id)
        if claim in (Claim.TAKEN, Claim.GONE):
            return NickOutcome(record.nickname, taken=True)
        return NickOutcome(record.nickname, claimed=True, tell_admins=claim is Claim.FIRST)

    async def admin_link(self, admin_id: int, args: str) -> tuple[LinkResult, Player]:
        """``/link NICK`` links the account that claimed the imported nickname first;
        ``/link NICK ID`` the account ``ID`` (the admin names it: a claimant who is not the
        record's player is passed over). Returns the result and the account linked, which
        the answer names."""
        await self._require_admin(admin_id)
        nick, named = args.strip(), None
        if not nick:
            raise UserError("club.link.usage")
        record = await self.db.imports.by_nickname(nick)
        words = nick.rsplit(maxsplit=1)
        if record is None and len(words) == 2 and _ACCOUNT_ID.fullmatch(words[1]):
            nick, named = words[0], int(words[1])
            record = await self.db.imports.by_nickname(nick)
        if record is None:
            raise UserError("club.link.not_found", nick=nick)
        tg_id = named if named is not None else record.claim_tg_id
        if tg_id is None:
            raise UserError("club.link.no_claim", nick=record.nickname)
        player = await self.db.players.get(tg_id)
        if player is None:
            raise UserError("club.link.no_account", id=str(tg_id))
        try:
            result = await self.db.imports.link(
                record.id, tg_id, now=self.accounts.clock(), admin_id=admin_id)
        except StorageError as e:
            raise explain(e) from e
        return result, player

    async def lookalikes(self, admin_id: int) -> list[list[str]]:
        await self._require_admin(admin_id)
        return await self.db.players.lookalikes()

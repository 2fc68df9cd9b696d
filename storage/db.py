"""The Database: the facade over one backend's transactions and the repositories."""

from __future__ import annotations

from pathlib import Path

from storage.backends import Backend, is_url
from storage.backends.sqlite import BUSY_TIMEOUT_MS, CACHE_KIB, SqliteBackend, backup_file
from storage.core.transactions import GROUP_MAX, GroupRolledBack, Transactions
from storage.repos.account_cache import AccountCache
from storage.repos.clubs import Clubs, club_cache
from storage.repos.deal_reads import DealReads
from storage.repos.expiry import SWEEP_CACHE_KIB, Expiry
from storage.repos.games import Games
from storage.repos.imports import Imports
from storage.repos.inbox import Inbox
from storage.repos.ledger import Ledger
from storage.repos.outbox import Outbox
from storage.repos.players import Players, backfill_skeletons
from storage.repos.records import AdminLog, Complaints, FirstDayKilled, Immunity
from storage.repos.stats import Stats

__all__ = ["BUSY_TIMEOUT_MS", "CACHE_KIB", "GROUP_MAX", "SWEEP_CACHE_KIB", "Database",
           "GroupRolledBack", "backup_file"]


class Database(Transactions):
    """The club network's memory. Create with ``await Database.open(path_or_url)``: a file
    path (SQLite, the default) or ``postgresql://user:password@host:port/dbname``.

    Transactions: see :class:`storage.core.transactions.Transactions`; the repositories are its
    attributes (``db.players``, ``db.ledger``, ...).
    """

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.backend = backend.name
        self.path: Path | None = backend.path
        # the accounts read on every update (storage/repos/account_cache.py); on PostgreSQL every
        # account's write also tells the other processes sharing the database
        self.accounts = AccountCache(announce=backend.name == "postgresql")
        self.players = Players(self, self.accounts)
        self.ledger = Ledger(self, self.accounts)
        self.expiry = Expiry(self, self.accounts)
        # the clubs read on every group update, kept and announced as the accounts are
        self.clubs = Clubs(self, club_cache(announce=backend.name == "postgresql"))
        self.games = Games(self, self.accounts)
        self.immunity = Immunity(self)
        self.first_day_killed = FirstDayKilled(self)
        self.complaints = Complaints(self)
        self.admin_log = AdminLog(self)
        self.stats = Stats(self)
        self.imports = Imports(self, self.accounts)
        self.outbox = Outbox(self)
        self.inbox = Inbox(self)
        self.deal_reads = DealReads(self)

    @classmethod
    async def open(cls, target: str | Path) -> Database:
        """Open and apply pending migrations: a SQLite file (created with its parent
        directory) or a PostgreSQL URL (the database must exist)."""
        backend: Backend
        if is_url(target):
            from storage.backends.postgres import PgBackend

            backend = await PgBackend.open(str(target))
        else:
            backend = await SqliteBackend.open(Path(target))
        db = cls(backend)
        try:
            # Look-alike keys of nicknames written without one (a one-off after the migration).
            async with db.transaction() as conn:
                await backfill_skeletons(conn)
        except BaseException:
            await backend.close()
            raise
        return db

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def backup(self, out_path: str | Path) -> Path:
        """Online backup to ``out_path`` (written to a temporary name, then renamed). SQLite
        only: on PostgreSQL it raises, naming ``pg_dump`` (docs/storage.md)."""
        async with self._exclusive():
            return await self._backend.backup(Path(out_path))

"""The Database: the facade over one backend's transactions and the repositories."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from storage.backends import is_url
from storage.backends.sqlite import BUSY_TIMEOUT_MS, CACHE_KIB, SqliteBackend, backup_file
from storage.network import Network
from storage.repos.account_cache import AccountCache
from storage.repos.clubs import Clubs, club_cache
from storage.repos.deal_reads import DealReads
from storage.repos.evenings import Evenings
from storage.repos.expiry import SWEEP_CACHE_KIB, Expiry
from storage.repos.games import Games
from storage.repos.imports import Imports
from storage.repos.inbox import Inbox
from storage.repos.ledger import Ledger
from storage.repos.outbox import Outbox
from storage.repos.players import Players, backfill_skeletons
from storage.repos.records import AdminLog, Complaints, FirstDayKilled, Immunity, Voids
from storage.repos.stats import Stats
from storage.shop.gifts import Gifts
from storage.shop.requests import GiftRequests
from storage.sql import Connection, Row
from storage.staff import Staff, roles_cache
from storage.standing.achievements import Achievements
from storage.standing.history import History
from storage.standing.kills import Kills
from storage.standing.ratings import Ratings
from storage.standing.seasons import Seasons
from storage.txn.pool import PoolTransactions, WriteConflict
from storage.txn.transactions import GROUP_MAX, GroupRolledBack, Transactions

__all__ = ["BUSY_TIMEOUT_MS", "CACHE_KIB", "GROUP_MAX", "SWEEP_CACHE_KIB", "Database",
           "GroupRolledBack", "WriteConflict", "backup_file"]

T = TypeVar("T")
AnyTransactions = Transactions | PoolTransactions


class Database:
    """The club network's memory. Create with ``await Database.open(path_or_url)``: a file
    path (SQLite, the default) or ``postgresql://user:password@host:port/dbname``.

    Transactions run on the backend's transaction runner (``transactions``): on SQLite one
    writer, group-committed (:class:`storage.txn.transactions.Transactions`); on PostgreSQL a
    pool of connections side by side (:class:`storage.txn.pool.PoolTransactions`). The
    repositories are its attributes (``db.players``, ``db.ledger``, ...).
    """

    def __init__(self, transactions: AnyTransactions, backend: str, path: Path | None) -> None:
        self.transactions = transactions
        self.backend = backend
        self.path = path
        announce = backend == "postgresql"
        # the accounts read on every update (storage/repos/account_cache.py); on PostgreSQL every
        # account's write also tells the other processes sharing the database
        self.accounts = AccountCache(announce=announce)
        self.players = Players(self, self.accounts)
        self.ledger = Ledger(self, self.accounts)
        self.expiry = Expiry(self, self.accounts)
        # the staff's roles (storage/staff.py), read for every permission check, and the clubs
        # read on every group update, each kept and announced as the accounts are
        self.staff = Staff(self, roles_cache(announce=announce))
        self.clubs = Clubs(self, club_cache(announce=announce), self.staff.roles)
        self.network = Network(self, self.clubs.cache)  # the caps on fines (/network)
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
        self.gifts = Gifts(self)  # the gift shop (storage/shop/)
        self.gift_requests = GiftRequests(self)
        self.evenings = Evenings(self)
        self.voids = Voids(self, self.accounts)  # voided games, appeals
        self.ratings = Ratings(self)  # the players' skill ratings (storage/standing/)
        self.history = History(self)  # their counted games: the graph, cards, rivals
        self.kills = Kills(self)  # who killed whom at night in the counted games
        self.achievements = Achievements(self)  # their achievements (storage/standing/)
        self.seasons = Seasons(self)  # the seasons' boards and Hall of Fame

    @classmethod
    async def open(cls, target: str | Path, *, pool_size: int | None = None) -> Database:
        """Open and apply pending migrations: a SQLite file (created with its parent
        directory) or a PostgreSQL URL (the database must exist; ``pool_size``: its
        connections in this process)."""
        transactions: AnyTransactions
        if is_url(target):
            from storage.backends.postgres import PgBackend

            pg = await PgBackend.open(str(target), pool_size)
            transactions, name, path = PoolTransactions(pg), pg.name, pg.path
        else:
            sqlite = await SqliteBackend.open(Path(target))
            transactions, name, path = Transactions(sqlite), sqlite.name, sqlite.path
        db = cls(transactions, name, path)
        try:
            # Look-alike keys of nicknames written without one (a one-off after the migration).
            async with db.transaction() as conn:
                await backfill_skeletons(conn)
        except BaseException:
            await transactions.close()
            raise
        return db

    def transaction(self, *, background: bool = False
                    ) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A write transaction (the runner's ``transaction()``)."""
        return self.transactions.transaction(background=background)

    async def write(self, body: Callable[[Connection], Awaitable[T]], *,
                    background: bool = False) -> T:
        return await self.transactions.write(body, background=background)

    def read(self, *, background: bool = False
             ) -> contextlib.AbstractAsyncContextManager[Connection]:
        return self.transactions.read(background=background)

    async def query(self, sql: str, params: Sequence[Any] = (), *,
                    background: bool = False) -> list[Row]:
        return await self.transactions.query(sql, params, background=background)

    async def snapshot(self, body: Callable[[Connection], Awaitable[T]], *,
                       background: bool = False) -> T:
        return await self.transactions.snapshot(body, background=background)

    async def set_cache(self, kib: int | None) -> None:
        await self.transactions.set_cache(kib)

    async def schema_version(self) -> int:
        return await self.transactions.schema_version()

    async def close(self) -> None:
        await self.transactions.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def backup(self, out_path: str | Path) -> Path:
        """Online backup to ``out_path`` (written to a temporary name, then renamed). SQLite
        only: on PostgreSQL it raises, naming ``pg_dump`` (docs/storage.md)."""
        return await self.transactions.backup(Path(out_path))

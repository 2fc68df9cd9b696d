"""Storage: SQLite (the standard library's sqlite3, a thread per connection) or PostgreSQL
(asyncpg). ``db = await Database.open(path_or_url)``; see docs/storage.md.

The parts, bottom up: ``schema``, ``backends``, ``txn``, ``spreadsheets``, ``standing``
(the ratings, the history, the achievements), ``repos``, ``staff.py`` (the network's admins,
the clubs' admins and hosts), ``shop`` (the gift shop), ``network.py`` (the network's
settings), ``tools``; ``db.py`` is the facade over them, ``models.py`` and ``errors.py`` what
callers get back.
Start with ``db.py``.

May import: ``engine``, ``record`` and ``standing`` (never ``views``, ``bot`` or ``web``).
"""

from storage.backends import DatabaseUnavailable, DatabaseUrlError
from storage.db import Database, backup_file
from storage.errors import (
    FriendlyGame,
    GameClosed,
    ImmunityAlreadyUsed,
    InsufficientBalance,
    InvalidAmount,
    InvalidNickname,
    InvalidOrder,
    InvalidValue,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
    SpouseError,
    StorageError,
    UnknownClub,
    UnknownGame,
    UnknownOrder,
    UnknownPlayer,
)
from storage.models import (
    AdminAction,
    BalanceInfo,
    Club,
    Complaint,
    Fine,
    Game,
    GameEvent,
    GamePoints,
    ImmunityOrder,
    LedgerRow,
    PlayedGame,
    Player,
    Seat,
    TopEntry,
)

Order = ImmunityOrder

__all__ = [
    "AdminAction",
    "BalanceInfo",
    "Club",
    "Complaint",
    "Database",
    "DatabaseUnavailable",
    "DatabaseUrlError",
    "Fine",
    "FriendlyGame",
    "Game",
    "GameClosed",
    "GameEvent",
    "GamePoints",
    "ImmunityAlreadyUsed",
    "ImmunityOrder",
    "InsufficientBalance",
    "InvalidAmount",
    "InvalidNickname",
    "InvalidOrder",
    "InvalidValue",
    "LedgerRow",
    "LookalikeNickname",
    "NicknameReserved",
    "NicknameTaken",
    "Order",
    "PlayedGame",
    "Player",
    "Seat",
    "SpouseError",
    "StorageError",
    "TopEntry",
    "UnknownClub",
    "UnknownGame",
    "UnknownOrder",
    "UnknownPlayer",
    "backup_file",
]

"""The accounts read on every update, kept in memory (``Players.cached``).

Every write of an account through storage forgets it here once the write is committed, and a
read that began before that forgetting is not kept: in one process a cached account is never
older than the last committed write (storage/repos/keyed_cache.py says how). Other processes'
writes: on PostgreSQL the writing transaction also ``NOTIFY``s the ids on
:data:`ACCOUNTS_CHANNEL` (delivered at its commit), which the sharing processes listen to
(``bot/cluster/share.py``); what nobody announces (a command-line tool's write) is
seen within :data:`TTL_S`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from storage.models import Player
from storage.repos.keyed_cache import ALL, MAX_ENTRIES, TTL_S, KeyedCache

__all__ = ["ACCOUNTS_CHANNEL", "ALL", "MAX_ENTRIES", "TTL_S", "AccountCache"]

ACCOUNTS_CHANNEL = "mafia_accounts"


def _tg_id(player: Player) -> int:
    return player.tg_id


class AccountCache(KeyedCache[Player]):
    def __init__(self, *, ttl: float = TTL_S, announce: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(ACCOUNTS_CHANNEL, _tg_id, rows=("players", "tg_id"), ttl=ttl,
                         announce=announce, clock=clock)

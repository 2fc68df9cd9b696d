"""What the deal reads (``/deal``), in one snapshot: the club's composition for the table's
size, the seated accounts, the club's first-day kills of the day and the game's friend orders.

Four reads one after another would queue four times on the reading connection behind the
other tables' reads, with the game's lock held; one snapshot waits for the connection once.
It is also one trip to SQLite's reading thread (``db.snapshot``): as a ``db.read()`` its
statements, BEGIN and ROLLBACK would be twelve trips, each waiting for a turn of a busy loop,
with every other read (the joins' accounts, the delivery's queues) queued behind them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from storage.models import ImmunityOrder, Player
from storage.repos.clubs import read_preset, require_club
from storage.repos.players import fetch_many
from storage.repos.records import killed_on, orders_of_game
from storage.sql import Connection, Store


@dataclass(frozen=True)
class DealInputs:
    preset: list[str] | None  # the club's saved composition for this many players
    players: dict[int, Player]  # the seated accounts that exist, by Telegram id
    killed_today: set[int]  # killed on the first day in this club today
    orders: list[ImmunityOrder]  # the game's friend orders, in order


class DealReads:
    def __init__(self, db: Store) -> None:
        self._db = db

    async def read(self, *, chat_id: int, game_id: int, tg_ids: Iterable[int],
                   day: date, preset_size: int | None) -> DealInputs:
        """``preset_size``: the table's size when the host set no composition (else no
        preset is read). Raises UnknownClub, UnknownGame."""
        ids = list(tg_ids)

        async def body(conn: Connection) -> DealInputs:
            await require_club(conn, chat_id)
            preset = (None if preset_size is None
                      else await read_preset(conn, chat_id, preset_size))
            players = await fetch_many(conn, ids)
            killed = await killed_on(conn, chat_id, day)
            orders = await orders_of_game(conn, game_id)  # UnknownGame
            return DealInputs(preset, players, killed, orders)

        return await self._db.snapshot(body)

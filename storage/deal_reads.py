"""What the deal reads (``/deal``), in one snapshot: the club's composition for the table's
size, the seated accounts, the club's first-day kills of the day and the game's friend orders.

Four reads one after another queued four times on the reading connection behind the other
tables' reads (ten deals in the same second: 180-250 ms each, the game's lock held); one
snapshot waits for the connection once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from storage import _ops, _rows
from storage.errors import UnknownClub
from storage.models import ImmunityOrder, Player
from storage.sql import Store

_ORDER_COLUMNS = "id, game_id, orderer_id, holder_id, announce_name, accepted, used"


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
        ids = sorted(set(tg_ids))
        async with self._db.read() as conn:
            clubs = list(await conn.execute_fetchall(
                "SELECT 1 FROM clubs WHERE chat_id = ?", (chat_id,)))
            if not clubs:
                raise UnknownClub(chat_id)
            await _ops.game_status(conn, game_id)
            preset = None
            if preset_size is not None:
                rows = list(await conn.execute_fetchall(
                    "SELECT roles FROM club_presets WHERE chat_id = ? AND size = ?",
                    (chat_id, preset_size)))
                if rows:
                    preset = [str(r) for r in json.loads(rows[0][0])]
            players = {} if not ids else {p.tg_id: p for p in map(_rows.player, (
                await conn.execute_fetchall(
                    f"SELECT {_rows.PLAYER_COLUMNS} FROM players"
                    f" WHERE tg_id IN ({','.join('?' * len(ids))})", ids)))}
            killed = {int(r[0]) for r in await conn.execute_fetchall(
                "SELECT tg_id FROM first_day_killed WHERE club_chat_id = ? AND day = ?",
                (chat_id, day.isoformat()))}
            orders = [_rows.order(r) for r in await conn.execute_fetchall(
                f"SELECT {_ORDER_COLUMNS} FROM immunity_orders WHERE game_id = ? ORDER BY id",
                (game_id,))]
        return DealInputs(preset, players, killed, orders)

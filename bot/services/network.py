"""The network's settings (``/network``, network admins only): the caps on one foul's fine and on
a player's fines in one game. Every change asks :class:`Permissions` first and is written to
the admin log by storage (``db.network``), with the clubs whose fine a lowered cap lowered."""

from __future__ import annotations

from bot.errors import UserError
from bot.services.accounts import Clock, utc_now
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.models import FineCaps
from storage.network import CAPS, CapChange

STEPS = {"fine_cap": 1, "game_fine_cap": 5}  # a button's step of each cap


class NetworkSettings:
    def __init__(self, db: Database, permissions: Permissions, *,
                 clock: Clock = utc_now) -> None:
        self.db = db
        self.permissions = permissions
        self.clock = clock

    async def caps(self, admin_id: int) -> FineCaps:
        await self.permissions.require(admin_id, Power.NETWORK_SETTINGS)
        return await self.db.network.fine_caps()

    async def set_cap(self, admin_id: int, name: str, value: int) -> CapChange:
        """One cap set to ``value`` (0 up to its top, else a refusal naming the range)."""
        await self.permissions.require(admin_id, Power.NETWORK_SETTINGS)
        top = CAPS.get(name)
        if top is None:
            raise UserError("network.usage")
        if not 0 <= value <= top:
            raise UserError("network.range", top=top)
        return await self.db.network.set_cap(name, value, admin_id=admin_id, now=self.clock())

    async def step(self, admin_id: int, name: str, sign: int) -> CapChange:
        """A dialog's button: one cap a step up or down."""
        if name not in STEPS or sign not in (-1, 1):
            raise UserError("misc.stale_button")
        caps = await self.caps(admin_id)
        current = caps.fine if name == "fine_cap" else caps.game
        return await self.set_cap(admin_id, name, current + sign * STEPS[name])

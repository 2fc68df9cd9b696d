"""The network's settings (``/network``, network admins only): the caps on one foul's fine and on
a player's fines in one game, and the seasons of the network's own dates. Every change asks
:class:`Permissions` first and is written to the admin log by storage (``db.network``), with
the clubs whose fine a lowered cap lowered."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from bot.clock import Clock, utc_now
from bot.errors import UserError
from bot.services.permissions import Permissions, Power
from standing.seasons import LONGEST_DAYS, NAME_MOST, Custom, Season
from storage.dates import local_day, zone_of
from storage.db import Database
from storage.models import FineCaps
from storage.network import CAPS, CapChange
from views.seasons import season_dates

CAP_INCREMENTS = {"fine_cap": 1, "game_fine_cap": 5}  # what a button nudges each cap by
# a season of the network's dates starts this many days after today on the network's calendar
# at the earliest: no club, in any time zone, can have ended a game on its first day yet
SEASON_LEAD_DAYS = 2


def read_day(text: str) -> date | None:
    """A typed day: ``2026-06-01`` or ``01.06.2026`` (None: neither)."""
    for shape in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, shape).date()
        except ValueError:
            continue
    return None


class NetworkSettings:
    def __init__(self, db: Database, permissions: Permissions, *,
                 clock: Clock = utc_now, zone: str = "UTC") -> None:
        self.db = db
        self.permissions = permissions
        self.clock = clock
        self.zone = zone  # the network's TIMEZONE: its calendar

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

    async def nudge(self, admin_id: int, name: str, sign: int) -> CapChange:
        """A dialog's button: one cap nudged up or down by its increment."""
        if name not in CAP_INCREMENTS or sign not in (-1, 1):
            raise UserError("misc.stale_button")
        caps = await self.caps(admin_id)
        current = caps.fine if name == "fine_cap" else caps.game
        return await self.set_cap(admin_id, name, current + sign * CAP_INCREMENTS[name])

    async def seasons(self, admin_id: int) -> list[Custom]:
        """The seasons of the network's own dates, oldest first."""
        await self.permissions.require(admin_id, Power.NETWORK_SETTINGS)
        return await self.db.seasons.customs()

    def earliest_start(self) -> date:
        return local_day(self.clock(), zone_of(None, self.zone)) + timedelta(
            days=SEASON_LEAD_DAYS)

    async def set_season(self, admin_id: int, start: date, end: date, name: str) -> Custom:
        """A season of the network's own dates (it moves no point: it only groups games);
        refused, naming why, when it starts before :meth:`earliest_start`, ends before it
        starts, is too long, or overlaps another."""
        await self.permissions.require(admin_id, Power.NETWORK_SETTINGS)
        custom = Custom(start, end, name.strip())
        earliest = self.earliest_start()
        why = await self.db.network.set_season(custom, admin_id=admin_id, now=self.clock(),
                                               earliest=earliest)
        if why is not None:
            raise UserError(f"network.season.refused.{why}", earliest=f"{earliest:%d.%m.%Y}",
                            most=NAME_MOST, days=LONGEST_DAYS)
        return custom

    async def delete_season(self, admin_id: int, start: date) -> Custom:
        """The season of the network's own dates that starts on ``start`` deleted (its days
        are in their quarters again; it moves no point), in the admin log; refused, naming
        why, when no such season starts that day, or it has started: it starts before
        :meth:`earliest_start`, so a game anywhere may have ended in it, and a game keeps
        its season."""
        await self.permissions.require(admin_id, Power.NETWORK_SETTINGS)
        earliest = self.earliest_start()
        found, why = await self.db.network.delete_season(start, admin_id=admin_id,
                                                         now=self.clock(), earliest=earliest)
        if found is None:
            raise UserError("network.season.delete.unknown", start=f"{start:%d.%m.%Y}")
        if why is not None:
            raise UserError("network.season.delete.started", dates=season_dates(Season(*found)),
                            name=found.name, earliest=f"{earliest:%d.%m.%Y}")
        return found

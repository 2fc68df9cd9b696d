"""Club settings (``/settings`` in the club chat): language, timers, hosts, shoot-out mode,
saved compositions, what a foul costs (up to the network's cap, ``/network``). Who may change
them: ``Power.MANAGE_CLUB`` (bot/services/permissions.py: the club's admins and the network's;
the chat's administrators while no club admin manages the club)."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from bot.clock import Clock, utc_now
from bot.config import Settings
from bot.errors import UserError
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import FineAboveCap
from storage.models import Club
from storage.repos.clubs import MAX_FOUL_LIMIT
from views.i18n import SUPPORTED

log = logging.getLogger("bot.settings")
TIMERS = ("night", "mafia_agree", "vote_turn", "last_word")
TIMER_INCREMENT = 15  # the seconds a button nudges a timer by
MIN_SECONDS = 15
MAX_SECONDS = 600


@dataclass(frozen=True)
class SettingsView:
    club: Club
    timers: dict[str, int]
    hosts: list[tuple[int, str]]  # (tg_id, name)
    presets: dict[int, list[str]]
    fine_cap: int  # the network's cap on one foul's fine (/network)


class ClubSettings:
    def __init__(self, db: Database, settings: Settings, permissions: Permissions, *,
                 clock: Clock = utc_now) -> None:
        self.db = db
        self.settings = settings
        self.permissions = permissions
        self.clock = clock

    async def may_change(self, chat_id: int, user_id: int) -> bool:
        return await self.permissions.may(user_id, Power.MANAGE_CLUB, club_id=chat_id)

    async def require(self, chat_id: int, user_id: int) -> None:
        if not await self.may_change(chat_id, user_id):
            raise UserError("club.settings.denied")

    def default_seconds(self, name: str) -> int:
        return max(1, math.ceil(float(getattr(self.settings.timers, name))))

    async def view(self, chat_id: int) -> SettingsView:
        club = await self.db.clubs.get(chat_id)
        if club is None:
            raise UserError("misc.error")
        timers = {n: int(club.timers.get(n, self.default_seconds(n))) for n in TIMERS}
        hosts = []
        for tg_id in await self.db.staff.hosts(chat_id):
            player = await self.db.players.get(tg_id)
            name = (player.nickname or player.display_name) if player else str(tg_id)
            hosts.append((tg_id, name))
        return SettingsView(club, timers, hosts, await self.db.clubs.presets(chat_id),
                            (await self.db.network.fine_caps()).fine)

    async def set_locale(self, chat_id: int, code: str) -> None:
        if code not in SUPPORTED:
            raise UserError("misc.error")
        await self.db.clubs.set_locale(chat_id, code)

    async def nudge_timer(self, chat_id: int, name: str, sign: int) -> int:
        if name not in TIMERS or sign not in (-1, 1):
            raise UserError("misc.error")
        current = (await self.view(chat_id)).timers[name]
        value = current + sign * TIMER_INCREMENT
        if not MIN_SECONDS <= value <= MAX_SECONDS:
            raise UserError("club.settings.timer_range", min=MIN_SECONDS, max=MAX_SECONDS)
        await self.db.clubs.set_timers(chat_id, **{name: value})
        return value

    async def toggle_fate(self, chat_id: int) -> bool:
        club = await self.db.clubs.get(chat_id)
        if club is None:
            raise UserError("misc.error")
        await self.db.clubs.set_fate_by_host(chat_id, not club.fate_by_host)
        return not club.fate_by_host

    async def nudge_fouls(self, chat_id: int, name: str, sign: int, *, by: int) -> int:
        """A foul's fine (``points``) or the foul that offers the technical death (``limit``)
        one up or down; the new value."""
        if name not in ("points", "limit") or sign not in (-1, 1):
            raise UserError("misc.error")
        club = (await self.view(chat_id)).club
        if name == "points":
            return await self.set_fine(chat_id, club.foul_points + sign, by=by)
        value = club.foul_limit + sign
        if not 0 <= value <= MAX_FOUL_LIMIT:
            raise UserError("club.settings.foul_range", limit=MAX_FOUL_LIMIT)
        await self.db.clubs.set_fouls(chat_id, limit=value)
        return value

    async def set_fine(self, chat_id: int, value: int, *, by: int) -> int:
        """What a foul costs in this club: 0 (a warning) up to the network's cap on one foul's
        fine, which storage checks again under the club's lock (a cap lowered meanwhile); the
        power asked here too (a fine is points) and the change in the admin log."""
        await self.require(chat_id, by)
        cap = (await self.db.network.fine_caps()).fine
        if not 0 <= value <= cap:
            raise UserError("club.settings.fine_cap", cap=cap)
        try:
            await self.db.clubs.set_fouls(chat_id, points=value, by=by, now=self.clock())
        except FineAboveCap as e:
            raise UserError("club.settings.fine_cap", cap=e.cap) from None
        return value

    async def toggle_foul_public(self, chat_id: int) -> bool:
        """Whether the club chat hears of each foul, switched."""
        club = (await self.view(chat_id)).club
        await self.db.clubs.set_fouls(chat_id, public=not club.foul_public)
        return not club.foul_public

    async def toggle_achievements_public(self, chat_id: int) -> bool:
        """Whether the club chat hears of the rare achievements earned at its tables,
        switched."""
        club = (await self.view(chat_id)).club
        await self.db.clubs.set_achievements_public(chat_id, not club.achievements_public)
        return not club.achievements_public

    async def toggle_season_post(self, chat_id: int) -> bool:
        """Whether the club chat gets a closed season's board as a picture, switched."""
        club = (await self.view(chat_id)).club
        await self.db.clubs.set_season_post(chat_id, not club.season_post)
        return not club.season_post

    async def add_host(self, chat_id: int, tg_id: int, *, by: int) -> None:
        """A host named from the settings: the power to name hosts, and the admin log's
        line, as /staff's (a second press finds it done and writes nothing)."""
        await self.permissions.require(by, Power.GRANT_HOST, club_id=chat_id)
        await self.db.staff.grant_host(chat_id, tg_id, by=by, now=self.clock())

    async def remove_host(self, chat_id: int, tg_id: int, *, by: int) -> None:
        await self.permissions.require(by, Power.GRANT_HOST, club_id=chat_id)
        if not await self.db.staff.revoke_host(chat_id, tg_id, by=by, now=self.clock()):
            raise UserError("club.settings.no_such_host")

    async def delete_preset(self, chat_id: int, size: int) -> None:
        if not await self.db.clubs.delete_preset(chat_id, size):
            raise UserError("club.settings.no_such_preset")

"""Services: the logic behind the handlers, and ``Services``, the typed bundle of them that
every handler may ask for by name.

May import: ``bot.delivery``, the base modules of ``bot`` (``config``, ``errors``) and the
layers below ``bot``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: importing the package loads none of its modules
    from bot.config import Settings
    from bot.delivery.replies import Replies
    from bot.delivery.sender import TelegramSender
    from bot.delivery.worker import Delivery
    from bot.services.accounts import Accounts
    from bot.services.admin import Admin
    from bot.services.catalogue import Catalogue
    from bot.services.chats import ChatMoves
    from bot.services.club_life import ClubLife
    from bot.services.club_settings import ClubSettings
    from bot.services.moving import Moving
    from bot.services.network import NetworkSettings
    from bot.services.permissions import Permissions
    from bot.services.seasons import SeasonEnds
    from bot.services.shop import Shop
    from bot.services.staff import StaffDesk
    from bot.services.status import Status
    from bot.services.voids import VoidService
    from storage.db import Database
    from views.i18n import Translator
    from views.stats import StatsService

# join_lobby(user_id, game_id, locale) -> True if the player joined (the game layer answers)
JoinLobby = Callable[[int, int, str], Awaitable[bool]]


@dataclass(frozen=True)
class Services:
    """Everything the handlers use, built once by ``bot/wiring.py`` (``build``), each given its
    collaborators there. Each field reaches the handlers by its own name through aiogram's
    workflow data (:meth:`as_kwargs`): declare ``accounts: Accounts`` or ``shop: Shop`` in a
    handler, or ``services: Services`` for the whole bundle."""

    settings: Settings
    db: Database
    sender: TelegramSender  # answers a button press at once
    translator: Translator
    delivery: Delivery  # the durable outbox's worker (bot/delivery/worker.py)
    # the handlers' answers, through the outbox (bot/delivery/replies.py)
    replies: Replies
    accounts: Accounts
    permissions: Permissions  # every permission decision (bot/services/permissions.py)
    admin: Admin
    chat_moves: ChatMoves  # a group became a supergroup (bot/services/chats.py)
    stats: StatsService
    moving: Moving
    club_settings: ClubSettings
    club_life: ClubLife
    shop: Shop
    catalogue: Catalogue
    voids: VoidService
    network: NetworkSettings
    season_ends: SeasonEnds  # a closed season's picture to each club's chat (the hourly job)
    staff: StaffDesk
    status: Status  # /status (bot/services/status.py)
    # ``/start join_<id>``: the game layer's lobby (``GameService.join_hook``)
    join_lobby: JoinLobby

    def as_kwargs(self) -> dict[str, object]:
        """The handlers' workflow data: ``services`` and each field by its name."""
        return {"services": self, **{f.name: getattr(self, f.name) for f in fields(self)}}

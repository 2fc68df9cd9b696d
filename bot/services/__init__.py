"""Services: the logic behind the handlers, and the container handed to the Dispatcher.

May import: ``bot.delivery``, the base modules of ``bot`` (``config``, ``errors``) and the
layers below ``bot``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.services.accounts import Accounts
from bot.services.admin import Admin
from bot.services.chats import ChatMoves
from bot.services.permissions import Permissions
from bot.services.status import Status
from storage.db import Database
from views.i18n import Translator

if TYPE_CHECKING:  # bot.delivery.sender imports aiogram: the web's pages import services without it
    from bot.delivery.replies import Replies
    from bot.delivery.sender import TelegramSender

# join_lobby(user_id, game_id, locale) -> True if the player joined (the game layer answers)
JoinLobby = Callable[[int, int, str], Awaitable[bool]]


async def no_lobbies(user_id: int, game_id: int, locale: str) -> bool:
    """Default join hook until the game layer installs its own: no lobby exists."""
    return False


@dataclass
class Services:
    """Everything handlers need. Each field also reaches handlers by its own name
    (``Dispatcher(**services.as_kwargs())``): declare ``accounts: Accounts`` in a handler.

    The game layer adds its services to ``extra`` (e.g. ``extra["games"] = games``) before the
    dispatcher is built, and replaces ``join_lobby`` to route ``/start join_<id>`` deep links.
    """

    settings: Settings
    db: Database
    sender: TelegramSender
    translator: Translator
    accounts: Accounts
    admin: Admin
    # the handlers' answers, through the outbox (bot/delivery/replies.py); ``sender`` answers
    # button presses at once
    replies: Replies
    # every permission decision (bot/services/permissions.py)
    permissions: Permissions
    join_lobby: JoinLobby = no_lobbies
    chat_moves: ChatMoves | None = None  # a group became a supergroup (bot/services/chats.py)
    status: Status | None = None  # /status (bot/services/status.py), given by the application
    extra: dict[str, Any] = field(default_factory=dict)

    def as_kwargs(self) -> dict[str, Any]:
        return {
            "services": self,
            "settings": self.settings,
            "db": self.db,
            "sender": self.sender,
            "replies": self.replies,
            "translator": self.translator,
            "accounts": self.accounts,
            "admin": self.admin,
            "permissions": self.permissions,
            **self.extra,
        }

"""Club (group) chat: help, and the bot added to a group (a pending club: the network's admins
are told). The game's own commands live in ``bot/handlers/game_club.py``.

Handlers receive ``club`` (storage Club) and ``locale`` (the club's) from ContextMiddleware,
plus every service by name (``services``, ``outbox``, ``translator``, ``settings``, ...).
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import JOIN_TRANSITION, ChatMemberUpdatedFilter, Command
from aiogram.types import ChatMemberUpdated, Message

from bot.services import Services
from bot.services.club_life import ClubLife

log = logging.getLogger("bot.handlers.club")

# The club-chat commands (BOT.md), registered with set_my_commands (bot/handlers/menus.py).
GAME_COMMANDS = ("newgame", "roles", "deal", "night", "day", "vote", "status", "tech",
                 "pause", "resume", "extend", "endgame", "seat", "addseat", "unseat", "fate",
                 "speak", "evening", "invite", "foul", "unfoul")

# Game commands players use in private chat (handled in bot/handlers/game_private.py).
PLAYER_GAME_COMMANDS = ("myrole", "friend", "panel")


async def help_(message: Message, services: Services, locale: str) -> None:
    await services.replies.answer(message, services.translator.t(locale, "help.group"))


async def added(event: ChatMemberUpdated, bot: Bot, club_life: ClubLife,
                services: Services) -> None:
    """The bot joined a group: its club (pending unless known) and, if pending, the network's
    owners and admins told once, with who added the bot and how many members the chat has."""
    members: int | None
    try:
        members = await bot.get_chat_member_count(event.chat.id)
    except Exception:  # the count is a courtesy: the notice goes without it
        log.warning("getChatMemberCount failed", extra={"chat_id": event.chat.id})
        members = None
    user = event.from_user
    by = f"{user.full_name} (id {user.id})" if user is not None else None
    await club_life.arrived(event.chat.id, event.chat.title or str(event.chat.id),
                            locale=services.settings.default_locale, by=by, members=members)


def create_router() -> Router:
    router = Router(name="club")
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(help_, Command("help", "start"))
    router.my_chat_member.filter(F.chat.type.in_({"group", "supergroup"}))
    router.my_chat_member.register(added, ChatMemberUpdatedFilter(JOIN_TRANSITION))
    return router

"""Club (group) chat: help. The game's own commands live in ``bot/handlers/game_club.py``.

Handlers receive ``club`` (storage Club) and ``locale`` (the club's) from ContextMiddleware,
plus every service by name (``services``, ``outbox``, ``translator``, ``settings``, ...).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.services import Services

# The club-chat commands (BOT.md), registered with set_my_commands (bot/handlers/menus.py).
GAME_COMMANDS = ("newgame", "roles", "deal", "night", "day", "vote", "status", "tech",
                 "pause", "resume", "extend", "endgame", "seat", "addseat", "unseat", "fate",
                 "speak", "evening", "invite", "foul", "unfoul")

# Game commands players use in private chat (handled in bot/handlers/game_private.py).
PLAYER_GAME_COMMANDS = ("myrole", "friend", "panel")


async def help_(message: Message, services: Services, locale: str) -> None:
    await services.replies.answer(message, services.translator.t(locale, "help.group"))


def create_router() -> Router:
    router = Router(name="club")
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(help_, Command("help", "start"))
    return router

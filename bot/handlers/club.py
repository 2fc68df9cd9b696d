"""Club (group) chat. Placeholder for the game layer: /newgame, /deal, /night... go here.

Handlers receive ``club`` (storage Club) and ``locale`` (the club's) from ContextMiddleware,
plus every service by name (``services``, ``outbox``, ``translator``, ``settings``, ...).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.services import Services

# The club-chat commands of BOT.md, registered with set_my_commands (bot/commands.py).
GAME_COMMANDS = ("newgame", "roles", "deal", "night", "day", "vote", "status", "tech",
                 "pause", "resume", "extend", "endgame", "seat", "fate", "speak")


async def help_(message: Message, services: Services, locale: str) -> None:
    await services.outbox.send_text(message.chat.id, services.translator.t(locale, "help.group"))


async def not_ready(message: Message, services: Services, locale: str) -> None:
    """Until the game layer lands: say so instead of silence."""
    text = services.translator.t(locale, "club.not_ready")
    await services.outbox.send_text(message.chat.id, text)


# Game commands players use in private chat (the game layer replaces these too).
PLAYER_GAME_COMMANDS = ("myrole", "friend")


async def player_not_ready(message: Message, services: Services, locale: str) -> None:
    text = services.translator.t(locale, "club.not_ready")
    await services.outbox.send_text(message.chat.id, text)


def create_router() -> Router:
    router = Router(name="club")
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))

    router.message.register(help_, Command("help", "start"))
    router.message.register(not_ready, Command(*GAME_COMMANDS))
    return router


def create_player_router() -> Router:
    player_router = Router(name="game_private")
    player_router.message.filter(F.chat.type == "private")

    player_router.message.register(player_not_ready, Command(*PLAYER_GAME_COMMANDS))
    return player_router

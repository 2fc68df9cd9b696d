"""Command menus per scope and language (set_my_commands)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from bot.handlers.club import GAME_COMMANDS, PLAYER_GAME_COMMANDS
from bot.i18n import SUPPORTED, Translator

PRIVATE_COMMANDS = ("start", "help", "nick", "profile", "lang", "sex", "spouse", "divorce",
                    "balance", "top", "stats", "complain", *PLAYER_GAME_COMMANDS)
GROUP_COMMANDS = ("help", "top", *GAME_COMMANDS)


def menu(translator: Translator, locale: str, names: tuple[str, ...]) -> list[BotCommand]:
    return [BotCommand(command=n, description=translator.t(locale, f"commands.{n}"))
            for n in names]


async def register_commands(bot: Bot, translator: Translator, default_locale: str) -> None:
    """Private and group menus in every language, plus the default-language fallbacks."""
    for locale in SUPPORTED:
        await bot.set_my_commands(menu(translator, locale, PRIVATE_COMMANDS),
                                  scope=BotCommandScopeAllPrivateChats(), language_code=locale)
        await bot.set_my_commands(menu(translator, locale, GROUP_COMMANDS),
                                  scope=BotCommandScopeAllGroupChats(), language_code=locale)
    await bot.set_my_commands(menu(translator, default_locale, PRIVATE_COMMANDS),
                              scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(menu(translator, default_locale, GROUP_COMMANDS),
                              scope=BotCommandScopeAllGroupChats())
    await bot.set_my_commands(menu(translator, default_locale, ("start", "help")),
                              scope=BotCommandScopeDefault())

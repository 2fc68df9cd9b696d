"""Command menus per scope and language (set_my_commands): what each person sees.

* private chats: the player's commands;
* group members: ``/help`` only (they join with the lobby's button);
* group administrators: help, the leaderboard, ``/settings`` and the host's game commands;
* each owner's and network admin's private chat (``BotCommandScopeChat``): the player's
  commands plus the admin's; set at the start for every one of them, and for one account when
  it is named a network admin (``staff_menu``; removed at its revoke, so its chat falls back
  to the players' menu).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    MenuButtonDefault,
    MenuButtonWebApp,
    WebAppInfo,
)

from bot.handlers.club import GAME_COMMANDS, PLAYER_GAME_COMMANDS
from views.i18n import SUPPORTED, Translator

PRIVATE_COMMANDS = ("start", "help", "nick", "profile", "lang", "sex", "spouse", "divorce",
                    "balance", "gifts", "top", "season", "stats", "complain", "evenings",
                    *PLAYER_GAME_COMMANDS)
MEMBER_COMMANDS = ("help",)
GROUP_ADMIN_COMMANDS = ("help", "top", "season", "settings", *GAME_COMMANDS)
ADMIN_COMMANDS = ("redeem", "adjust", "block", "unblock", "export", "import", "link",
                  "lookalikes", "complaints", "status", "shop", "gift_requests", "gift_add",
                  "gift_edit", "gift_photo", "gift_retire", "gift_restore", "network", "clubs",
                  "club", "staff")
# a command whose menu line in a private chat is not its club chat's (/status: the bot's, not
# the game's)
PRIVATE_KEYS = {"status": "commands.bot_status"}


log = logging.getLogger(__name__)

Scope = (BotCommandScopeAllPrivateChats | BotCommandScopeAllGroupChats
         | BotCommandScopeAllChatAdministrators | BotCommandScopeChat)


def menu(translator: Translator, locale: str, names: tuple[str, ...],
         keys: Mapping[str, str] | None = None) -> list[BotCommand]:
    """The menu of ``names``; ``keys``: a command's text key where it is not ``commands.NAME``."""
    keys = keys or {}
    return [BotCommand(command=n, description=translator.t(locale, keys.get(n, f"commands.{n}")))
            for n in names]


async def register_commands(bot: Bot, translator: Translator, default_locale: str,
                            network_staff: Iterable[int] = ()) -> None:
    """Every scope in every language, plus the default-language fallbacks; the admins' menu
    for each of ``network_staff`` (the owners and network admins: ``Permissions``)."""
    scopes: list[tuple[Scope, tuple[str, ...]]] = [
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        (BotCommandScopeAllGroupChats(), MEMBER_COMMANDS),
        (BotCommandScopeAllChatAdministrators(), GROUP_ADMIN_COMMANDS),
    ]
    scopes += [(BotCommandScopeChat(chat_id=admin_id), (*PRIVATE_COMMANDS, *ADMIN_COMMANDS))
               for admin_id in sorted(set(network_staff))]
    for scope, names in scopes:
        await _set(bot, translator, default_locale, scope, names)
    await bot.set_my_commands(menu(translator, default_locale, ("start", "help")),
                              scope=BotCommandScopeDefault())


async def _set(bot: Bot, translator: Translator, default_locale: str, scope: Scope,
               names: tuple[str, ...]) -> None:
    """One scope's menu in every language, and its fallback in the default one."""
    keys = PRIVATE_KEYS if isinstance(scope, BotCommandScopeChat) else None
    for locale in SUPPORTED:
        await bot.set_my_commands(menu(translator, locale, names, keys), scope=scope,
                                  language_code=locale)
    await bot.set_my_commands(menu(translator, default_locale, names, keys), scope=scope)


async def staff_menu(bot: Bot, translator: Translator, default_locale: str, tg_id: int, *,
                     admin: bool) -> None:
    """One account's private menu at once, after it was named a network admin (``admin``:
    the player's commands plus the admin's) or removed (its own menu deleted in every
    language: the players' again). A convenience, as at the start: a refusal by Telegram (a
    chat the bot may not write to) is logged, and the change stands."""
    scope = BotCommandScopeChat(chat_id=tg_id)
    try:
        if admin:
            await _set(bot, translator, default_locale, scope,
                       (*PRIVATE_COMMANDS, *ADMIN_COMMANDS))
            return
        for locale in SUPPORTED:
            await bot.delete_my_commands(scope=scope, language_code=locale)
        await bot.delete_my_commands(scope=scope)
    except TelegramAPIError as e:
        log.warning("could not set an admin's menu", extra={"error": str(e)})


async def register_menu_button(bot: Bot, translator: Translator, default_locale: str,
                               url: str | None) -> None:
    """The private chats' menu button: the player's Mini App at ``url`` (one button for every
    player: the app knows who opened it), or Telegram's list of commands when it is not
    served (None), so no button opens an address nobody answers."""
    if url is None:
        await bot.set_chat_menu_button(menu_button=MenuButtonDefault())
        return
    await bot.set_chat_menu_button(menu_button=MenuButtonWebApp(
        text=translator.t(default_locale, "miniapp.player.menu"), web_app=WebAppInfo(url=url)))

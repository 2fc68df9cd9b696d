"""Which club an update belongs to, so the process holding that club handles it
(docs/scaling.md, "Routing")."""

from __future__ import annotations

import re

from aiogram.types import Chat, Update, User

from storage.inbox import Inbox

GROUPS = ("group", "supergroup")
GAME_PRESS = re.compile(r"^g[a-z]*:(\d+):")  # bot/game/callbacks.py: every game button
JOIN_LINK = re.compile(r"^/start(?:@\w+)?\s+join_(\d+)\b")  # bot/game/lobby.py's deep link


def _chat_and_user(update: Update) -> tuple[Chat | None, User | None]:
    message = (update.message or update.edited_message or update.channel_post
               or update.edited_channel_post)
    if message is not None:
        return message.chat, message.from_user
    member = update.my_chat_member or update.chat_member
    if member is not None:
        return member.chat, member.from_user
    query = update.callback_query
    if query is not None:
        chat = query.message.chat if query.message is not None else None
        return chat, query.from_user
    return None, None


async def club_of(update: Update, inbox: Inbox) -> int | None:
    """The club chat whose holder must handle ``update``: the group's own; for a private
    game button or a lobby's deep link, its game's club; for anything else a player in a
    running game sends in private, that game's club; None: any process may."""
    chat, user = _chat_and_user(update)
    if chat is not None and chat.type in GROUPS:
        return chat.id
    query = update.callback_query
    if query is not None and query.data:
        press = GAME_PRESS.match(query.data)
        if press is not None:
            return await inbox.club_of_game(int(press.group(1)))
    message = update.message
    if message is not None and message.text:
        link = JOIN_LINK.match(message.text)
        if link is not None:
            return await inbox.club_of_game(int(link.group(1)))
    if user is not None:
        return await inbox.club_of_player(user.id)
    return None

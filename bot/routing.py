"""Which club an update belongs to, so the process holding that club handles it
(docs/scaling.md, "Routing")."""

from __future__ import annotations

import re
from collections.abc import Sequence

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


def _wants(update: Update) -> tuple[str, int] | None:
    """What decides the club: ("club", chat), ("game", id) or ("player", tg_id); None: any
    process may handle it."""
    chat, user = _chat_and_user(update)
    if chat is not None and chat.type in GROUPS:
        return "club", chat.id
    query = update.callback_query
    if query is not None and query.data:
        press = GAME_PRESS.match(query.data)
        if press is not None:
            return "game", int(press.group(1))
    message = update.message
    if message is not None and message.text:
        link = JOIN_LINK.match(message.text)
        if link is not None:
            return "game", int(link.group(1))
    if user is not None:
        return "player", user.id
    return None


async def club_of(update: Update, inbox: Inbox) -> int | None:
    """The club chat whose holder must handle ``update``: the group's own; for a private
    game button or a lobby's deep link, its game's club; for anything else a player in a
    running game sends in private, that game's club; None: any process may."""
    return (await clubs_of([update], inbox))[0]


async def clubs_of(updates: Sequence[Update], inbox: Inbox) -> list[int | None]:
    """:func:`club_of` of each update, with two reads for the whole batch (the games', the
    players'), not one or two an update: the poller asks for the next batch only once this
    one is written, and each read waits its turn on the reading connection."""
    wants = [_wants(u) for u in updates]
    found = {
        "club": {},
        "game": await inbox.clubs_of_games(w[1] for w in wants if w and w[0] == "game"),
        "player": await inbox.clubs_of_players(w[1] for w in wants if w and w[0] == "player"),
    }
    return [None if w is None else w[1] if w[0] == "club" else found[w[0]].get(w[1])
            for w in wants]

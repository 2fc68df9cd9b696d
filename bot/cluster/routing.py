"""Which club an update belongs to, so the process holding that club handles it
(docs/scaling.md, "Routing")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.telegram.updates import RawUpdate
from storage.repos.inbox import Inbox

GROUPS = ("group", "supergroup")
GAME_PRESS = re.compile(r"^g[a-z]*:(\d+):")  # bot/game/callbacks.py: every game button
JOIN_LINK = re.compile(r"^/start(?:@\w+)?\s+join_(\d+)\b")  # bot/game/rooms/lobby.py's deep link


def _chat_and_user(update: RawUpdate) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    message = (update.get("message") or update.get("edited_message")
               or update.get("channel_post") or update.get("edited_channel_post"))
    if message is not None:
        return message.get("chat"), message.get("from")
    member = update.get("my_chat_member") or update.get("chat_member")
    if member is not None:
        return member.get("chat"), member.get("from")
    query = update.get("callback_query")
    if query is not None:
        pressed = query.get("message")
        return (pressed.get("chat") if pressed else None), query.get("from")
    return None, None


def sender_of(update: RawUpdate) -> int | None:
    """Who sent or pressed it (the account the handler reads first)."""
    user = _chat_and_user(update)[1]
    return None if user is None else int(user["id"])


def _wants(update: RawUpdate) -> tuple[str, int] | None:
    """What decides the club: ("club", chat), ("game", id) or ("player", tg_id); None: any
    process may handle it."""
    chat, user = _chat_and_user(update)
    if chat is not None and chat.get("type") in GROUPS:
        return "club", int(chat["id"])
    query = update.get("callback_query")
    if query is not None and query.get("data"):
        press = GAME_PRESS.match(query["data"])
        if press is not None:
            return "game", int(press.group(1))
    message = update.get("message")
    if message is not None and message.get("text"):
        link = JOIN_LINK.match(message["text"])
        if link is not None:
            return "game", int(link.group(1))
    if user is not None:
        return "player", int(user["id"])
    return None


async def club_of(update: RawUpdate, inbox: Inbox) -> int | None:
    """The club chat whose holder must handle ``update``: the group's own; for a private
    game button or a lobby's deep link, its game's club; for anything else a player in a
    running game sends in private, that game's club; None: any process may."""
    return (await clubs_of([update], inbox))[0]


async def clubs_of(updates: Sequence[RawUpdate], inbox: Inbox) -> list[int | None]:
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

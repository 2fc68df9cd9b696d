"""Which club an update belongs to, so the process holding that club handles it
(docs/scaling.md, "Routing")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.telegram.updates import RawUpdate
from storage.repos.inbox import Inbox

GROUPS = ("group", "supergroup")
GAME_PRESS = re.compile(r"^g[a-z]*:([0-9]{1,18}):")  # bot/game/callbacks.py: every game button
# bot/game/rooms/lobby_post.py's deep link
JOIN_LINK = re.compile(r"^/start(?:@\w+)?\s+join_([0-9]{1,18})\b")


def _object(value: object) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _id(value: dict[str, Any] | None) -> int | None:
    found = None if value is None else value.get("id")
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _chat_and_user(update: RawUpdate) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The update's chat and sender as sent; None where a field is missing or no JSON object
    (a malformed update is routed to any process, whose reader skips it: nothing here
    raises)."""
    message = next(filter(None, map(_object, (update.get(k) for k in (
        "message", "edited_message", "channel_post", "edited_channel_post")))), None)
    if message is not None:
        return _object(message.get("chat")), _object(message.get("from"))
    member = _object(update.get("my_chat_member")) or _object(update.get("chat_member"))
    if member is not None:
        return _object(member.get("chat")), _object(member.get("from"))
    query = _object(update.get("callback_query"))
    if query is not None:
        pressed = _object(query.get("message"))
        return (_object(pressed.get("chat")) if pressed else None), _object(query.get("from"))
    return None, None


def sender_of(update: RawUpdate) -> int | None:
    """Who sent or pressed it (the account the handler reads first)."""
    return _id(_chat_and_user(update)[1])


def _wants(update: RawUpdate) -> tuple[str, int] | None:
    """What decides the club: ("club", chat), ("game", id) or ("player", tg_id); None: any
    process may handle it."""
    chat, user = _chat_and_user(update)
    if chat is not None and chat.get("type") in GROUPS and _id(chat) is not None:
        return "club", int(chat["id"])
    query = _object(update.get("callback_query"))
    data = None if query is None else query.get("data")
    if isinstance(data, str):
        press = GAME_PRESS.match(data)
        if press is not None:
            return "game", int(press.group(1))
    message = _object(update.get("message"))
    text = None if message is None else message.get("text")
    if isinstance(text, str):
        link = JOIN_LINK.match(text)
        if link is not None:
            return "game", int(link.group(1))
    user_id = _id(user)
    return None if user_id is None else ("player", user_id)


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

"""The host's offers of the technical death (``bot/game/rooms/fouls.py``: from a player's Nth
foul the bot proposes, the host decides): the key of an offer's message, and the end of the
offers still open when the game ends (``/endgame``, its last result)."""

from __future__ import annotations

from bot.game.messages.notifier import Notifier, message_ref
from record.table import Table


def offer_ref(table: Table, number: int) -> str:
    """The key of the host's offer of the technical death after foul ``number``."""
    return message_ref(table, f"foul{number}", "offer")


async def end_offers(table: Table, notifier: Notifier) -> None:
    """The game is over: its open offers of the technical death lose their buttons."""
    for number in sorted(table.foul_offers):
        seat = table.game.fouls[number - 1].seat
        await notifier.edit_private(table.host_id, offer_ref(table, number),
                                    "foul.offer.over", who=notifier.seat(table, seat))

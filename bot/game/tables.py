"""The running tables: the registry of the games this process runs, by game id, how a command
finds its table (by its number, the forum topic, the chat's one table, the sender's), and what
a table starts from (:class:`TableDefaults`: the bot's timers and time zone, its club's own
over them)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields, replace
from datetime import date, datetime

from bot.errors import UserError
from record.table import GameTimers, Table
from storage.dates import local_day, zone_of
from storage.models import Club, EveningList

log = logging.getLogger("bot.game")


@dataclass(frozen=True)
class Place:
    """Where in a club chat a command was typed: the chat and, in a forum (a supergroup with
    topics, ``forum``), the topic (``thread``; None: the chat itself or a forum's General);
    ``number``: the table the command named by its number (``/status 2``), if any."""

    chat_id: int
    thread: int | None = None
    forum: bool = False
    number: int | None = None


def named_table(table: Table) -> int | None:
    """The number a table goes by (another table opened in its chat, or it plays in a forum's
    topic): its host's panel, the Mini App and a ``/status`` name it; None for a lone table."""
    return table.number if table.named or table.thread is not None else None


Where = int | Place
"""A club chat's id (its one table, or the sender's) or the place in it a command came from."""


@dataclass(frozen=True)
class TableDefaults:
    """What a table starts from: the bot's timers (``timers``, the settings') and the network's
    time zone (``zone``, its TIMEZONE); a club's own settings (``/settings``, its time zone)
    go over them."""

    timers: GameTimers
    zone: str = "UTC"

    def day_of(self, club: Club | None, at: datetime) -> date:
        """The game's date: the day ``at`` falls on in the club's time zone (else the
        network's), so a game played at 01:00 is dated that day, not the UTC day before."""
        return local_day(at, zone_of(club.time_zone if club is not None else None, self.zone))

    def club_timers(self, club: Club | None) -> GameTimers:
        """The bot's timers with the club's own settings (``/settings``) over them."""
        if club is None or not club.timers:
            return self.timers
        known = {f.name for f in fields(GameTimers)}
        return replace(self.timers, **{name: float(seconds)
                                       for name, seconds in club.timers.items()
                                       if name in known and seconds > 0})

    def timers_of(self, table: Table) -> GameTimers:
        """The table's timers: its club's (``/settings``), else the bot's."""
        return table.timers or self.timers


class Tables:
    """The running games (:attr:`by_id`) and tonight's evening list as last read for a
    lobby's game (:attr:`tonight`: its host's panel offers the list,
    ``bot/game/rooms/guests.py``). Every room holds it; a game leaves it when it ends."""

    def __init__(self) -> None:
        self.by_id: dict[int, Table] = {}
        self.tonight: dict[int, EveningList] = {}

    def add(self, table: Table) -> None:
        self.by_id[table.game_id] = table

    def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[Table]:
        """The club became a supergroup (storage moved already): its games go on there."""
        moved = [t for t in self.by_id.values() if t.chat_id == old_chat_id]
        for table in moved:
            if table.chat_id == old_chat_id:
                table.chat_id = new_chat_id
                log.info("game %s moved to chat %s", table.game_id, new_chat_id)
        return moved

    def drop(self, game_id: int) -> None:
        """The game is over or aborted: it leaves the registry (its log stays)."""
        self.by_id.pop(game_id, None)
        self.tonight.pop(game_id, None)

    def table(self, game_id: int) -> Table:
        table = self.by_id.get(game_id)
        if table is None or not table.open:
            raise UserError("game.not_found")
        return table

    def in_chat(self, where: Where, user_id: int) -> Table:
        """The table a command typed at ``where`` by ``user_id`` is for: the one it named by
        its number; else the chat's one open table; with several, the topic's own (a forum
        topic), else the one ``user_id`` hosts (a host runs one table); when none of them is
        the sender's, the answer names them."""
        place = where if isinstance(where, Place) else Place(where)
        here = self.tables_in(place.chat_id)
        if not here:
            raise UserError("game.none_in_chat")
        if place.number is not None:
            named = [t for t in here if t.number == place.number]
            if not named:
                raise UserError("tables.no_such", number=place.number,
                                numbers=", ".join(str(t.number) for t in here))
            return named[0]
        if place.thread is not None:
            topic = [t for t in here if t.thread == place.thread]
            here = topic or here
        if len(here) == 1:
            return here[0]
        for table in here:
            if table.host_id == user_id:
                return table
        raise UserError("tables.which", numbers=", ".join(str(t.number) for t in here),
                        example=here[-1].number)

    def tables_in(self, chat_id: int) -> list[Table]:
        """The club chat's open tables, by number."""
        return sorted((t for t in self.by_id.values() if t.chat_id == chat_id and t.open),
                      key=lambda t: t.number)

    def hosted_by(self, tg_id: int, chat_id: int | None = None) -> Table | None:
        """The open table ``tg_id`` hosts (in ``chat_id``, when given)."""
        for table in self.by_id.values():
            if (table.open and table.host_id == tg_id
                    and (chat_id is None or table.chat_id == chat_id)):
                return table
        return None

    def of_player(self, tg_id: int) -> Table | None:
        for table in self.by_id.values():
            if table.open and table.seat_of(tg_id) is not None:
                return table
        return None

"""The lobby's seating as it changes: a seat taken (one open game per player), the new order
kept for the step's write, a seat the host plays. The seats' commands use it
(:mod:`.seats`), and so does an asked player's "Yes, seat me" (:mod:`.consent`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.errors import UserError
from bot.game.rooms.lobby_post import LobbyPost
from bot.game.steps import Steps
from bot.game.tables import Tables
from record.log_events import OfflineSeat
from record.table import SeatInfo, Table


class LobbySeating:
    """The seats of a table before the deal, changed under the game's lock (``post``: the
    lobby's post, drawn again after a seat the host plays)."""

    def __init__(self, tables: Tables, steps: Steps, post: LobbyPost) -> None:
        self.tables = tables
        self.steps = steps
        self.post = post

    def save(self, table: Table, order: Sequence[SeatInfo]) -> None:
        """The new seating in memory; written with the step (:meth:`Steps.seats_changed`)."""
        before = table.seats
        table.seats = {i: SeatInfo(i, info.tg_id, info.name) for i, info in enumerate(order, 1)}
        self.steps.seats_changed(table, before)

    def take(self, table: Table, info: SeatInfo, other_game: Callable[[int], UserError],
             other_table: Callable[[Table], UserError]) -> None:
        """Seat ``info`` last at ``table`` (its game's lock held). One open game per player is
        checked and the seat taken in memory with no ``await`` between them, so no other
        table's join runs in between and no lock is needed (a lock shared by every table
        would make every join wait behind the other lobbies' openings, which write); the seats are
        written with the step's own transaction, after the game's lock. Another table of the
        same club is named in the refusal; so is the table its host runs (a host does not
        play)."""
        hosted = self.tables.hosted_by(info.tg_id, table.chat_id)
        if hosted is not None:
            raise UserError("tables.join.hosting", number=hosted.number, game=hosted.game_id)
        other = self.tables.of_player(info.tg_id)
        if other is not None:
            if other.chat_id == table.chat_id:
                raise other_table(other)
            raise other_game(other.game_id)
        self.save(table, [*sorted(table.seats.values(), key=lambda s: s.seat), info])

    async def for_host(self, table: Table, tg_id: int, name: str,
                       other_game: Callable[[int], UserError]) -> None:
        """Seat ``tg_id`` last, its buttons pressed by the host (the game's lock held)."""
        self.take(table, SeatInfo(0, tg_id, name), other_game,
                  lambda other: UserError("tables.add.other", nick=name,
                                          number=other.number, game=other.game_id))
        await self.steps.record(table, OfflineSeat(tg_id))
        await self.post.refresh(table)

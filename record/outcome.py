"""A finished game's outcome worked out again from its event log alone: the log replayed through
the engine (the same :meth:`Table.apply` a restart uses), then the winner and the ledger rows the
end of the game writes (``ResultsRoom.finish``). ``python -m storage copy`` checks a copied game's
stored points against it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import NamedTuple, Protocol

from record.log_events import decode
from record.table import Table


class LoggedGame(Protocol):
    """What the replay reads of a game (``storage.models.Game`` has it)."""

    @property
    def id(self) -> int: ...
    @property
    def club_chat_id(self) -> int: ...
    @property
    def host_id(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def finished_on(self) -> date | None: ...


class LoggedEvent(Protocol):
    """One event of a game's log (``storage.models.GameEvent`` is one)."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> Mapping[str, object]: ...


class Replayed(NamedTuple):
    """A game's outcome worked out from its log: the winner (None: the game is not over) and
    its ledger rows ``(tg_id, points, reason, phase)``, sorted."""

    winner: str | None
    points: tuple[tuple[int, int, str, str | None], ...]


def replay_outcome(game: LoggedGame, events: Sequence[LoggedEvent]) -> Replayed:
    """The winner (None if the replayed game is not over) and the game's ledger rows
    ``(tg_id, points, reason, phase)``, as many as ``ResultsRoom.finish`` writes (none of 0
    points), sorted. Raises whatever the engine or the table raises for a log it cannot
    replay."""
    table = Table(game.id, game.club_chat_id, game.host_id,
                  game.finished_on or game.created_at.date())
    for event in events:
        table.apply(decode(event.kind, event.payload), event.seq)
    if not table.started:
        return Replayed(None, ())
    state = table.game
    rows = sorted((table.tg_of(e.seat), e.points, str(e.reason), e.phase)
                  for e in state.ledger if e.points != 0)
    return Replayed(None if not state.over or state.winner is None else str(state.winner),
                    tuple(rows))

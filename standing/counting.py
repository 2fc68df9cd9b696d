"""Which games count toward a player's standing (the rating, and what is built on it)."""

from __future__ import annotations

from typing import Protocol

from engine import Winner

WINNERS = frozenset(str(w) for w in Winner)


class CountedGame(Protocol):
    """What the rule reads of a game."""

    @property
    def status(self) -> str: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def voided_at(self) -> object | None: ...
    @property
    def friendly(self) -> bool: ...


def counts_for_standing(game: CountedGame) -> bool:
    """A game counts once it finished with a winner, while it is not voided, unless it is
    friendly (its club not approved when its lobby opened); an aborted or running game never
    does. The one place the rule lives: every rating path asks it."""
    return (game.status == "finished" and game.winner in WINNERS and game.voided_at is None
            and not game.friendly)

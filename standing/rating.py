"""The skill rating: OpenSkill's Plackett–Luce model over a finished game's two teams (the
civilians and the Mafia, as the engine's winner decides), kept per player overall and per side.

A player's rating is a belief about their skill: ``mu`` (the estimate) and ``sigma`` (how
unsure it still is); what players see is the ordinal ``mu - 3 sigma``, a figure their true
skill is very likely above, so a new player starts at 0 and climbs as the games make the
estimate surer. Points never enter it and it never changes points.

Plackett–Luce rather than Thurstone–Mosteller: with two teams it is the logistic
(Bradley–Terry) model, its update has no draw margin to tune (a draw is rare at a Mafia table
and is rated as a tie), and it is OpenSkill's default, the best tested of its models.

A Mafia team is smaller than the civilians' (3 against 7 at ten seats) and OpenSkill adds the
members' skills into a team's, so on its own it would expect the civilians to win nearly
always and pay the Mafia a fortune for every win. The smaller team is therefore rated with
one more, virtual member standing for the missing seats at the table's average skill (and
no uncertainty of its own): two teams of equal players are then even, and only skill moves
the expectation. The virtual member's own update is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from engine import Team, Winner

# OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001.
MODEL = PlackettLuce()
ORDINAL_Z = 3.0  # the shown figure: mu - 3 sigma
PROVISIONAL_GAMES = 10  # fewer rated games than this: the rating is marked provisional
FILLER_SIGMA = 0.0  # the virtual member's own uncertainty (OpenSkill adds tau to it)


class Side(StrEnum):
    """Which rating of a player: over every game, or over the games on one side."""

    ALL = "all"
    CIVILIANS = "civilians"
    MAFIA = "mafia"


class Rating(NamedTuple):
    """One rating of a player: the model's ``mu`` and ``sigma``, the rated games and wins."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_Z * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Rating()

Key = tuple[int, Side]  # (tg_id, side)


class RatedGame(NamedTuple):
    """A finished game as the rating reads it: each seated account with its team (the card's
    team, dealt), and the engine's winner."""

    game_id: int
    seats: tuple[tuple[int, Team], ...]
    winner: Winner


def ranks_of(winner: Winner) -> list[float]:
    """OpenSkill's ranks of (civilians, Mafia): the winner first, a draw a tie."""
    if winner is Winner.CIVILIANS:
        return [0.0, 1.0]
    if winner is Winner.MAFIA:
        return [1.0, 0.0]
    return [0.0, 0.0]


def rate_game(game: RatedGame, ratings: Mapping[Key, Rating]) -> dict[Key, Rating]:
    """The game's players' new ratings, overall and on the side each played; a key missing
    from ``ratings`` is a first rated game. A game without both teams rates nobody."""
    def current(key: Key) -> Held:
        r = ratings.get(key, NEW)
        return Held(MODEL.rating(mu=r.mu, sigma=r.sigma), r.games, r.wins)

    return {key: held.rating for key, held in _rate(game, current).items()}


class Held(NamedTuple):
    """A rating as the model holds it while games are folded (no conversion between games)."""

    model: PlackettLuceRating
    games: int
    wins: int

    @property
    def rating(self) -> Rating:
        return Rating(self.model.mu, self.model.sigma, self.games, self.wins)


def _rate(game: RatedGame, current: Callable[[Key], Held], *,
          sides: bool = True) -> dict[Key, Held]:
    civilians = [tg for tg, team in game.seats if team is Team.CIVILIANS]
    mafia = [tg for tg, team in game.seats if team is Team.MAFIA]
    if not civilians or not mafia:
        return {}
    ranks = ranks_of(game.winner)
    won = (game.winner is Winner.CIVILIANS, game.winner is Winner.MAFIA)
    out: dict[Key, Held] = {}
    for overall in (True, False) if sides else (True,):
        civ, maf = (Side.ALL, Side.ALL) if overall else (Side.CIVILIANS, Side.MAFIA)
        keys = ([(tg, civ) for tg in civilians], [(tg, maf) for tg in mafia])
        held = [[current(key) for key in team] for team in keys]
        model = [[h.model for h in team] for team in held]
        sizes = (len(civilians), len(mafia))
        if sizes[0] != sizes[1]:
            average = sum(h.model.mu for team in held for h in team) / (sizes[0] + sizes[1])
            smaller = model[0] if sizes[0] < sizes[1] else model[1]
            smaller.append(MODEL.rating(mu=abs(sizes[0] - sizes[1]) * average,
                                        sigma=FILLER_SIGMA))
        rated = MODEL.rate(model, ranks=ranks)
        for index, team in enumerate(keys):
            for key, before, after in zip(team, held[index], rated[index], strict=False):
                out[key] = Held(after, before.games + 1, before.wins + int(won[index]))
    return out


class Standings:
    """Ratings folded game after game (``rerate``'s loop): each stays the model's own object
    between games, so a long fold converts nothing. ``sides``: False keeps the overall
    ratings alone (a season's)."""

    def __init__(self, *, sides: bool = True) -> None:
        self.held: dict[Key, Held] = {}
        self.sides = sides

    def _current(self, key: Key) -> Held:
        found = self.held.get(key)
        return found if found is not None else Held(MODEL.rating(), 0, 0)

    def add(self, game: RatedGame) -> dict[Key, Held]:
        """Fold one game; returns its players' ratings after it (their history's rows), as
        the model holds them."""
        moved = _rate(game, self._current, sides=self.sides)
        self.held.update(moved)
        return moved

    def ratings(self) -> dict[Key, Rating]:
        return {key: held.rating for key, held in self.held.items()}


def rerate(games: Iterable[RatedGame]) -> dict[Key, Rating]:
    """Every rating from scratch: the games folded in their order, as their ends did."""
    standings = Standings()
    for game in games:
        standings.add(game)
    return standings.ratings()

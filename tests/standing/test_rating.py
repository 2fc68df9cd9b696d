"""The skill rating against OpenSkill's Plackett–Luce formula worked out by hand here (never by
calling openskill for the expected value), and the fold ``rerate`` against the incremental
updates a game's end makes."""

from __future__ import annotations

import math
import random
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Team, Winner
from standing.counting import counts_for_standing
from standing.rating import (
    NEW,
    PROVISIONAL_GAMES,
    Key,
    RatedGame,
    Rating,
    Side,
    rate_game,
    rerate,
)

# OpenSkill's defaults (Weng & Lin 2011, Algorithm 4, as the package implements it)
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 0.0001

C, M = Team.CIVILIANS, Team.MAFIA


def by_hand(teams: list[list[tuple[float, float]]], ranks: list[int]
            ) -> list[list[tuple[float, float]]]:
    """Plackett–Luce for two teams, written out. Every sigma first grows by tau:
    s' = sqrt(s^2 + tau^2). A team's mu is the sum of its members' mu, its variance the sum
    of their s'^2; c = sqrt(sum over teams of (variance + beta^2)). For team i:
    p(i, q) = exp(mu_i / c) / sum of exp(mu_s / c) over the teams s ranked no better than q;
    A_q = how many teams share q's rank;
    omega_i = sum over the teams q ranked no worse than i of [(q == i) - p(i, q)] / A_q, times
    var_i / c;
    delta_i = sum over the same q of p(i, q) (1 - p(i, q)) / A_q, times var_i / c^2, times
    gamma = sqrt(var_i) / c. A member: mu += s'^2 / var_i * omega_i and
    s = s' * sqrt(max(1 - s'^2 / var_i * delta_i, kappa)). (OpenSkill then averages the mu
    changes of tied teams, measured against the ratings it has already updated: a no-op.)"""
    grown = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in team] for team in teams]
    mus = [sum(mu for mu, _ in team) for team in grown]
    var = [sum(s * s for _, s in team) for team in grown]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(m / c) for m in mus]
    sum_q = [sum(e[s] for s in range(2) if ranks[s] >= ranks[q]) for q in range(2)]
    a = [sum(1 for s in range(2) if ranks[s] == ranks[q]) for q in range(2)]
    out = []
    for i in range(2):
        omega = delta = 0.0
        for q in range(2):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        omega *= var[i] / c
        delta *= var[i] / c ** 2 * (math.sqrt(var[i]) / c)
        out.append([(mu + s * s / var[i] * omega,
                     s * math.sqrt(max(1 - s * s / var[i] * delta, KAPPA)))
                    for mu, s in grown[i]])
    return out


def close(got: Rating, want: tuple[float, float]) -> bool:
    return math.isclose(got.mu, want[0], rel_tol=1e-12) and \
        math.isclose(got.sigma, want[1], rel_tol=1e-12)


def test_two_new_players_a_side_the_winners_gain_what_the_losers_lose() -> None:
    game = RatedGame(1, ((1, C), (2, C), (3, M), (4, M)), Winner.CIVILIANS)
    new = rate_game(game, {})
    grown = math.sqrt(SIGMA ** 2 + TAU ** 2)
    c = math.sqrt(2 * (2 * grown ** 2 + BETA ** 2))
    # equal teams: p = 1/2, each winner gains s'^2 / c / 2 (1.964...), each loser loses it
    assert new[(1, Side.ALL)].mu == pytest.approx(MU + grown ** 2 / c / 2, rel=1e-12)
    assert new[(3, Side.ALL)].mu == pytest.approx(MU - grown ** 2 / c / 2, rel=1e-12)
    assert round(new[(1, Side.ALL)].mu, 4) == 26.9643
    want = by_hand([[(MU, SIGMA)] * 2, [(MU, SIGMA)] * 2], [0, 1])
    for tg, (team, index) in {1: (0, 0), 2: (0, 1), 3: (1, 0), 4: (1, 1)}.items():
        assert close(new[(tg, Side.ALL)], want[team][index])
    # the side ratings start from scratch too, so the first game moves them alike
    assert new[(1, Side.CIVILIANS)][:2] == new[(1, Side.ALL)][:2]
    assert new[(3, Side.MAFIA)][:2] == new[(3, Side.ALL)][:2]
    assert (1, Side.MAFIA) not in new and (3, Side.CIVILIANS) not in new
    assert new[(1, Side.ALL)].games == 1 and new[(1, Side.ALL)].wins == 1
    assert new[(3, Side.ALL)].games == 1 and new[(3, Side.ALL)].wins == 0


def test_a_smaller_mafia_is_rated_with_the_missing_seats_at_the_tables_average() -> None:
    """3 Mafia against 7 civilians of known ratings, the Mafia win: the Mafia team gets a
    virtual member of mu = 4 x the table's average mu and sigma 0 (tau after growing)."""
    civ = [(30.0, 5.0), (20.0, 7.0), (25.0, 8.0), (27.5, 3.0), (22.0, 6.5), (25.0, 8.3),
           (18.0, 4.0)]
    maf = [(33.0, 4.5), (21.0, 6.0), (26.0, 7.5)]
    ratings: dict[Key, Rating] = {}
    for tg, (mu, s) in enumerate(civ + maf, start=1):
        ratings[(tg, Side.ALL)] = Rating(mu, s, 12, 6)
    game = RatedGame(7, tuple((tg, C if tg <= 7 else M) for tg in range(1, 11)), Winner.MAFIA)
    new = rate_game(game, ratings)
    average = sum(mu for mu, _ in civ + maf) / 10
    want = by_hand([civ, [*maf, (4 * average, 0.0)]], [1, 0])
    for tg in range(1, 8):
        assert close(new[(tg, Side.ALL)], want[0][tg - 1])
        assert new[(tg, Side.ALL)].games == 13 and new[(tg, Side.ALL)].wins == 6
    for tg in range(8, 11):
        assert close(new[(tg, Side.ALL)], want[1][tg - 8])
        assert new[(tg, Side.ALL)].wins == 7
    assert len([k for k in new if k[1] is Side.ALL]) == 10  # the virtual member is nobody
    # without the virtual member the civilians would be expected to win nearly always
    # (sums 167.5 against 80), and the Mafia's win would pay them far more
    unfair = by_hand([civ, maf], [1, 0])
    assert unfair[1][0][0] - maf[0][0] > 2 * (want[1][0][0] - maf[0][0])


def test_a_draw_is_a_tie_the_stronger_team_loses_a_little() -> None:
    ratings = {(1, Side.ALL): Rating(28.0, 6.0, 3, 2), (2, Side.ALL): Rating(24.0, 7.0, 3, 1)}
    game = RatedGame(2, ((1, C), (3, C), (2, M), (4, M)), Winner.DRAW)
    new = rate_game(game, ratings)
    want = by_hand([[(28.0, 6.0), (MU, SIGMA)], [(24.0, 7.0), (MU, SIGMA)]], [0, 0])
    assert close(new[(1, Side.ALL)], want[0][0]) and close(new[(4, Side.ALL)], want[1][1])
    # the stronger team (53 against 49) was expected to win: a draw costs it
    assert new[(1, Side.ALL)].mu < 28.0 and new[(4, Side.ALL)].mu > MU
    assert all(r.wins == ratings.get(k, NEW).wins for k, r in new.items())


def test_a_side_rating_moves_only_in_the_games_on_that_side() -> None:
    first = RatedGame(1, ((1, C), (2, M)), Winner.CIVILIANS)
    second = RatedGame(2, ((1, M), (2, C)), Winner.CIVILIANS)
    after = rerate([first, second])
    assert after[(1, Side.ALL)].games == 2 and after[(1, Side.ALL)].wins == 1
    assert after[(1, Side.CIVILIANS)] == rate_game(first, {})[(1, Side.CIVILIANS)]
    assert after[(1, Side.MAFIA)].games == 1 and after[(1, Side.MAFIA)].wins == 0
    # player 1's Mafia rating started new in game 2, against player 2's new civilian one
    mafia_side = by_hand([[(MU, SIGMA)], [(MU, SIGMA)]], [1, 0])
    assert close(after[(1, Side.MAFIA)], mafia_side[0][0])


def test_provisional_until_the_documented_number_of_games() -> None:
    assert PROVISIONAL_GAMES == 10
    assert Rating(games=9).provisional and not Rating(games=10).provisional
    assert NEW.ordinal == pytest.approx(0.0)  # mu - 3 sigma of a new player


def test_a_game_without_both_teams_rates_nobody() -> None:
    assert rate_game(RatedGame(1, ((1, C), (2, C)), Winner.CIVILIANS), {}) == {}


class OutcomeRow(NamedTuple):
    status: str
    winner: str | None
    voided_at: str | None = None
    friendly: bool = False


def test_only_a_finished_game_with_a_winner_neither_voided_nor_friendly_counts() -> None:
    assert counts_for_standing(OutcomeRow("finished", "mafia"))
    assert counts_for_standing(OutcomeRow("finished", "draw"))
    assert not counts_for_standing(OutcomeRow("aborted", "mafia"))
    assert not counts_for_standing(OutcomeRow("running", None))
    assert not counts_for_standing(OutcomeRow("finished", None))
    assert not counts_for_standing(OutcomeRow("finished", "mafia", "2026-03-11T10:00:00+00:00"))
    assert not counts_for_standing(OutcomeRow("finished", "mafia", friendly=True))


games_strategy = st.lists(
    st.tuples(st.permutations(list(range(1, 9))), st.integers(1, 4), st.integers(4, 8),
              st.sampled_from(list(Winner))),
    min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(games_strategy, st.randoms(use_true_random=False))
def test_rerate_equals_the_incremental_updates_in_any_order(
        drawn: list[tuple[list[int], int, int, Winner]], rnd: random.Random) -> None:
    """Whatever games, in whatever order: the ratings each game's end writes (read back as
    stored, game after game) are the ratings ``rerate`` folds in that order."""
    games = [RatedGame(i, tuple((tg, M if n < mafia else C) for n, tg in enumerate(seats[:size])),
                       winner)
             for i, (seats, mafia, size, winner) in enumerate(drawn)]
    order = list(games)
    rnd.shuffle(order)
    stored: dict[Key, Rating] = {}
    for game in order:
        stored.update(rate_game(game, dict(stored)))
    assert stored == rerate(order)

"""The deal rules (docs/rules.md#2-the-deal) and the default composition per table size."""

from __future__ import annotations

import pytest

from engine import CompositionError, Role, default_composition, min_mafia, validate_composition
from engine.composition import CIVILIAN_PRIORITY
from engine.roles import CIVILIAN_ROLES

R = Role


@pytest.mark.parametrize(("n", "expected"), [(6, 2), (7, 3), (10, 3), (11, 4), (14, 5), (20, 6),
                                             (24, 8)])
def test_min_mafia_is_ceil_30_percent(n: int, expected: int) -> None:
    assert min_mafia(n) == expected


@pytest.mark.parametrize("n", range(6, 25))
def test_default_composition_is_valid(n: int) -> None:
    cards = default_composition(n)
    assert len(cards) == n
    validate_composition(cards)
    mafia = [c for c in cards if c.is_mafia]
    assert len(mafia) == max(min_mafia(n), n - 12)
    assert cards.count(R.MAFIA_CHIEF) == 1


@pytest.mark.parametrize("n", range(19, 25))
def test_extra_cards_are_mafia_when_civilian_cards_run_out(n: int) -> None:
    cards = default_composition(n)
    assert set(CIVILIAN_ROLES) <= set(cards)
    assert sum(1 for c in cards if not c.is_mafia) == 12
    assert cards.count(R.MAFIA) == n - 12 - 2


def test_twelve_civilian_cards() -> None:
    assert len(CIVILIAN_ROLES) == 12 == len(set(CIVILIAN_PRIORITY))


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ([R.MAFIA_CHIEF, R.MAFIA, R.DOCTOR, R.POLICEMAN, R.MARILYN], "table_size"),
        ([R.MAFIA] * 9 + [R.DOCTOR] * 16, "table_size"),
        ([R.MAFIA_CHIEF, R.DOCTOR, R.POLICEMAN, R.MARILYN, R.JUDGE, R.LUCKY], "too_few_mafia"),
        ([R.MAFIA_CHIEF, R.MAFIA, R.DOCTOR, R.DOCTOR, R.JUDGE, R.LUCKY], "duplicate_card"),
        ([R.MAFIA_CHIEF, R.MAFIA_CHIEF, R.DOCTOR, R.POLICEMAN, R.JUDGE, R.LUCKY],
         "duplicate_card"),
        ([R.MAFIA_KILLER, R.MAFIA_KILLER, R.DOCTOR, R.POLICEMAN, R.JUDGE, R.LUCKY],
         "duplicate_card"),
        ([R.MAFIA] * 6, "no_civilians"),
    ],
)
def test_invalid_compositions(cards: list[Role], code: str) -> None:
    with pytest.raises(CompositionError) as err:
        validate_composition(cards)
    assert err.value.code == code


def test_plain_mafia_may_repeat_and_chief_is_optional() -> None:
    validate_composition([R.MAFIA, R.MAFIA, R.MAFIA, R.DOCTOR, R.POLICEMAN, R.JUDGE, R.LUCKY,
                          R.MARILYN, R.LAWYER, R.SPORTSMAN])


def test_exactly_30_percent_is_enough() -> None:
    validate_composition([R.MAFIA_CHIEF, R.MAFIA, R.MAFIA, R.DOCTOR, R.POLICEMAN, R.JUDGE,
                          R.LUCKY, R.MARILYN, R.LAWYER, R.SPORTSMAN])

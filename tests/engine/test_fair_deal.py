"""The deal: uniform, cryptographically seeded, and verifiable through its commitment."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Role, commitment, deal_cards, default_composition, new_seed, verify
from engine.fair_deal import SEED_BYTES, SeedStream


def test_seeds_are_fresh_and_long() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert all(len(s) == SEED_BYTES for s in seeds)


def test_deal_is_a_permutation_of_the_cards() -> None:
    cards = default_composition(16)
    deal = deal_cards(cards, list(range(1, 17)), new_seed())
    assert sorted(deal) == list(range(1, 17))
    assert Counter(deal.values()) == Counter(cards)


def test_same_seed_same_deal_and_different_seed_differs() -> None:
    cards = default_composition(12)
    seats = list(range(1, 13))
    seed = b"x" * 32
    assert deal_cards(cards, seats, seed) == deal_cards(cards, seats, seed)
    deals = {tuple(deal_cards(cards, seats, bytes([i]) * 32).values()) for i in range(20)}
    assert len(deals) > 15


def test_commitment_verifies_only_the_true_deal() -> None:
    cards = default_composition(10)
    seats = list(range(1, 11))
    seed = new_seed()
    published = commitment(seed, deal_cards(cards, seats, seed))
    assert verify(seed, cards, seats, published)
    assert not verify(new_seed(), cards, seats, published)
    swapped = list(cards)
    swapped[0], swapped[-1] = swapped[-1], swapped[0]
    other = dict(deal_cards(cards, seats, seed))
    other[1], other[2] = other[2], other[1]
    if other != deal_cards(cards, seats, seed):
        assert commitment(seed, other) != published


def test_randbelow_stays_in_range_and_covers_it() -> None:
    stream = SeedStream(b"k" * 32)
    values = [stream.randbelow(7) for _ in range(2000)]
    assert set(values) == set(range(7))
    counts = Counter(values)
    assert min(counts.values()) > 2000 / 7 * 0.7
    with pytest.raises(ValueError):
        stream.randbelow(0)


def test_each_seat_gets_mafia_about_as_often() -> None:
    """Uniformity: over many deals, every seat is Mafia about 30% of the time."""
    cards = default_composition(10)
    seats = list(range(1, 11))
    mafia_count = Counter[int]()
    runs = 3000
    for i in range(runs):
        deal = deal_cards(cards, seats, i.to_bytes(32, "big"))
        mafia_count.update(s for s, r in deal.items() if r.is_mafia)
    share = sum(1 for c in cards if c.is_mafia) / len(cards)
    for seat in seats:
        assert abs(mafia_count[seat] / runs - share) < 0.05, seat


def test_one_card_per_seat() -> None:
    with pytest.raises(ValueError):
        deal_cards([Role.MAFIA], [1, 2], new_seed())

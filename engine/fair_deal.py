"""A verifiable, cryptographically strong deal.

The bot draws a 32-byte seed from ``secrets``, deals with a SHA-256 counter-mode stream keyed by
that seed, and publishes ``commitment(seed, deal)`` before the first night. At the end it reveals
the seed: anyone can re-run :func:`deal_cards` and check the hash, so the host could not have
swapped cards after seeing the table.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence

from engine.roles import Role

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


class SeedStream:
    """Deterministic uniform integers from a secret seed (HMAC-SHA256 in counter mode)."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(self._seed, self._counter.to_bytes(8, "big"), hashlib.sha256)
            self._buffer += block.digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def randbelow(self, n: int) -> int:
        """Uniform in [0, n) by rejection sampling, so no value is favoured."""
        if n <= 0:
            raise ValueError("n must be positive")
        bits = n.bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value


def deal_cards(cards: Sequence[Role], seats: Sequence[int], seed: bytes) -> dict[int, Role]:
    """Fisher-Yates shuffle of ``cards`` onto ``seats`` driven by ``seed``."""
    if len(cards) != len(seats):
        raise ValueError("one card per seat")
    deck = list(cards)
    stream = SeedStream(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return dict(zip(seats, deck, strict=True))


def commitment(seed: bytes, deal: Mapping[int, Role]) -> str:
    """SHA-256 over the seed and the seat -> role map, as published before the first night."""
    body = json.dumps({str(s): str(r) for s, r in sorted(deal.items())}, sort_keys=True)
    return hashlib.sha256(seed + body.encode()).hexdigest()


def verify(seed: bytes, cards: Sequence[Role], seats: Sequence[int], published: str) -> bool:
    """True when re-dealing with the revealed seed gives the deal the commitment was made for."""
    return hmac.compare_digest(commitment(seed, deal_cards(cards, seats, seed)), published)

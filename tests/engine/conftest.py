from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import GameState, Role, SeatSpec, new_game

HERE = Path(__file__).parent

T10 = ("mafia_chief mafia mafia doctor policeman marilyn judge sportsman lucky lawyer").split()
T12 = ("mafia_chief mafia mafia_killer mafia doctor policeman maniac judge oligarch marilyn "
       "lawyer lucky").split()


def table(roles: list[str] | tuple[str, ...], **specs: Any) -> GameState:
    """A table with seats 1..n; ``specs`` maps "s5" to SeatSpec keyword changes."""
    seats = []
    for i, role in enumerate(roles, 1):
        extra = specs.get(f"s{i}", {})
        seats.append(SeatSpec(i, Role(role), sex=extra.get("sex", "f" if i % 2 else "m"),
                              open_immunities=extra.get("open", frozenset()),
                              friend=extra.get("friend")))
    return new_game(seats)


def ledger_multiset(rows: list[dict[str, Any]]) -> Counter[str]:
    return Counter(json.dumps(r, sort_keys=True) for r in rows)


def iter_json(folder: str) -> Iterator[Path]:
    yield from sorted((HERE / folder).glob("*.json"))


@pytest.fixture
def t10() -> GameState:
    return table(T10)


@pytest.fixture
def t12() -> GameState:
    return table(T12)

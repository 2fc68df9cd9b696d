"""The fair share of clubs (bot/cluster/sharing.py ``fair_share``): the roles a process holds count
as a part of the clubs; whoever holds what, the shares add up to at least the clubs."""

from __future__ import annotations

import itertools

from bot.cluster.share import ProcessRole
from bot.cluster.sharing import ROLE_WEIGHT, fair_share, role_cost

BOTH = [ProcessRole.POLLER, ProcessRole.SENDER]


def test_a_role_counts_as_a_quarter_of_the_clubs() -> None:
    assert ROLE_WEIGHT[ProcessRole.EXPIRY] == 0
    assert role_cost(BOTH, 100) == 50
    assert role_cost([ProcessRole.EXPIRY], 100) == 0
    assert role_cost(BOTH, 3) == 0  # rounded down: a few clubs, no difference
    # two processes, 100 clubs, one holding both: (100 + 50) / 2 = 75, less its 50
    assert fair_share(100, 2, BOTH, BOTH) == 25
    assert fair_share(100, 2, BOTH, []) == 75
    # the roles on two processes: 50 each
    assert fair_share(100, 2, BOTH, [ProcessRole.POLLER]) == 50
    # alone: all
    assert fair_share(100, 1, [*BOTH, ProcessRole.EXPIRY], [*BOTH, ProcessRole.EXPIRY]) == 100
    assert fair_share(10, 3, BOTH, BOTH) == 1
    assert fair_share(10, 3, BOTH, []) == 5
    assert fair_share(0, 2, BOTH, BOTH) == 0
    assert fair_share(8, 4, BOTH, BOTH) == 0  # 3 less 4: never below none


def test_the_shares_always_cover_every_club() -> None:
    roles = list(ProcessRole)
    for clubs, members in itertools.product(range(0, 60), range(1, 6)):
        # every way of spreading the roles over the members (some held by nobody)
        for owners in itertools.product(range(-1, members), repeat=len(roles)):
            held = [r for r, o in zip(roles, owners, strict=True) if o >= 0]
            shares = [fair_share(clubs, members, held,
                                 [r for r, o in zip(roles, owners, strict=True) if o == m])
                      for m in range(members)]
            assert sum(shares) >= clubs, (clubs, members, owners, shares)

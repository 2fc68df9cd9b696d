"""Club calls' waiting side without a server (bot/cluster/club_calls.py): an answer heard before the
caller has read back its call's id still wakes it at once; the answers of other processes'
calls (every process hears them all) are kept only up to a bound."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from bot.cluster.club_calls import EARLY_KEPT, RECHECK_S, CallsHeard, ClubCalls


class Conn:
    """A share connection whose holder answers before the insert's reply is read."""

    def __init__(self, on_answer: Callable[[int], None]) -> None:
        self.on_answer = on_answer
        self.answered: set[int] = set()

    async def add_call(self, club: int, kind: str, request: str, now: float) -> int:
        self.answered.add(7)
        self.on_answer(7)  # the NOTIFY of the answer, heard first
        return 7

    async def take_answer(self, call_id: int) -> tuple[bool, str | None]:
        return (True, '{"ok": 1}') if call_id in self.answered else (False, None)


async def test_an_answer_heard_before_the_caller_waits_wakes_it_at_once() -> None:
    heard = CallsHeard()
    calls = ClubCalls(cast(Any, Conn(heard.answered)), heard)
    began = time.monotonic()
    assert await calls.call(-1, "echo", {}, within=5) == {"ok": 1}
    assert time.monotonic() - began < RECHECK_S / 2  # not found by the once-a-second recheck
    assert not heard._early


def test_answers_nobody_here_waits_for_are_kept_up_to_a_bound() -> None:
    heard = CallsHeard()
    for call_id in range(EARLY_KEPT + 50):
        heard.answered(call_id)
    assert list(heard._early) == list(range(50, EARLY_KEPT + 50))

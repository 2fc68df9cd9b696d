"""Unit tests without the server: limiter properties, argument parsing, log lines."""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.delivery.sender import Limits, RateLimiter
from bot.logs import KeyValueFormatter, setup_logging
from bot.services.accounts import Accounts, parse_start_payload
from bot.services.admin import Admin
from bot.services.permissions import Permissions
from storage import Database

LIMITS = Limits(global_per_second=30, chat_per_second=1, chat_burst=3, group_per_minute=20)


def _allowed(capacity: float, rate: float, stamps: list[float]) -> bool:
    """A token bucket never lets more than capacity + rate * window through in any window."""
    stamps = sorted(stamps)
    for i in range(len(stamps)):
        for j in range(i, len(stamps)):
            if j - i + 1 > capacity + rate * (stamps[j] - stamps[i]) + 1e-6:
                return False
    return True


@settings(max_examples=60, deadline=None)
@given(
    chats=st.lists(st.sampled_from([1, 2, 3, -100, -200]), min_size=1, max_size=60),
    gaps=st.lists(st.floats(min_value=0, max_value=2), min_size=60, max_size=60),
)
def test_limiter_never_exceeds_telegram_limits(chats: list[int], gaps: list[float]) -> None:
    now = [0.0]

    async def sleep(delay: float) -> None:
        now[0] += delay

    async def run() -> dict[int, list[float]]:
        limiter = RateLimiter(LIMITS, lambda: now[0], sleep)
        sent: dict[int, list[float]] = defaultdict(list)
        for chat, gap in zip(chats, gaps, strict=False):
            now[0] += gap
            await limiter.acquire(chat)
            sent[chat].append(now[0])
        return sent

    sent = asyncio.run(run())
    everything = [t for stamps in sent.values() for t in stamps]
    assert _allowed(30, 30, everything)
    for chat, stamps in sent.items():
        assert _allowed(3, 1, stamps)
        if chat < 0:
            assert _allowed(20, 20 / 60, stamps)


def test_start_payloads() -> None:
    assert parse_start_payload(None) == (None, False)
    assert parse_start_payload("join_12") == (12, False)
    assert parse_start_payload("join_x") == (None, True)
    assert parse_start_payload("ref_1") == (None, True)


async def test_points_arguments_with_spaces_and_digits_in_nicknames(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "db.sqlite3")
    try:
        accounts = Accounts(db, default_locale="ru")
        admin = Admin(db, accounts, Permissions(db, owners={1}))
        for uid, nick in ((10, "Agent 007"), (11, "Agent")):
            await db.players.register(uid, display_name=nick)
            await db.players.set_nickname(uid, nick)
        player, points, reason = await admin.parse_points_args("agent 007 5 new mug", "u")
        assert (player.tg_id, points, reason) == (10, 5, "new mug")
        player, points, reason = await admin.parse_points_args("Agent -2 typo", "u")
        assert (player.tg_id, points, reason) == (11, -2, "typo")
        player, points, reason = await admin.parse_points_args('"Agent 007" +3 x', "u")
        assert (player.tg_id, points, reason) == (10, 3, "x")
        player, rest = await accounts.split_nick("Agent 007 was rude")
        assert (player.tg_id, rest) == (10, "was rude")
    finally:
        await db.close()


def test_log_lines_are_key_value() -> None:
    stream = io.StringIO()
    setup_logging(stream=stream)
    try:
        logging.getLogger("bot.test").info(
            "sent message", extra={"chat_id": -100, "text": 'a "b"\nc'}
        )
    finally:
        setup_logging()
    line = stream.getvalue().strip()
    assert "\n" not in line
    assert 'level=INFO logger=bot.test msg="sent message" chat_id=-100' in line
    assert 'text="a \\"b\\"\\nc"' in line
    assert line.startswith("ts=")
    assert isinstance(logging.getLogger().handlers[0].formatter, KeyValueFormatter)

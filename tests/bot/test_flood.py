"""One user flooding the bot (bot/telegram/flood.py): past the burst, the updates are dropped
before any handler, the user hears one "slow down", and everyone else is answered as before."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.flood import FloodGuard
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import running, wait_until


def test_the_bucket_refills_and_a_flood_ends_when_it_is_full() -> None:
    now = [0.0]

    async def tell(_update: object) -> None:
        return None

    guard = FloodGuard(3, 1.0, tell, clock=lambda: now[0])
    assert [guard.take(7) for _ in range(5)] == [True, True, True, False, False]
    assert guard.take(8)  # another user has a bucket of their own
    now[0] = 1.0
    assert guard.take(7) and not guard.take(7)  # one more a second
    guard.buckets[7].warned = True
    now[0] = 10.0
    assert guard.take(7)
    assert not guard.buckets[7].warned  # full again: the next flood is told again


async def test_a_flooding_user_is_told_once_and_holds_nobody(fake: FakeTelegram,
                                                            tmp_path: Path) -> None:
    async with running(fake, tmp_path, flood_burst=5, flood_per_second=0.01,
                       default_locale="en") as app:
        flooder = fake.user(601, "Flood", language_code="en")
        calm = fake.user(602, "Calm", language_code="en")
        for _ in range(1000):
            await fake.send(flooder, "/help")
        await fake.send(calm, "/help")
        assert "/nick" in (await fake.next_message(calm.id, timeout=20)).body
        await wait_until(lambda: app.flood.dropped == 995, 30, "the flood dropped")
        await fake.settled()
        bodies = [m.body for m in fake.messages(flooder.id)]
        assert len(bodies) == 6  # the burst's five answers and one "slow down"
        assert sum(b.startswith("Too many messages at once") for b in bodies) == 1
        assert app.metrics.total(app.metrics.flood_dropped) == 995

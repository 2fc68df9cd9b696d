"""A club chat behind Telegram's 20 posts a minute: what its table queued meanwhile goes out as
one post (and a later edit of one part keeps the others); a throttled edit keeps its gap even
when a newer text came while it was in flight. Over the fake Bot API, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.delivery.merge import MERGED_LIMIT
from bot.delivery.payload import picture_payload
from bot.delivery.sender import Limits, TelegramSender
from bot.delivery.worker import Delivery
from storage.db import Database
from storage.repos.outbox import EDIT, SEND, Queued
from tests.bot.test_delivery import GROUP, VIEW, edit, make_bot, send
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import wait_until
from tests.sqlite_template import migrated

# one post to a group a minute, on a virtual clock (a wait for the group's slot passes at
# once; the test's own steps take far less than the minute, so what they queue waits)
TIGHT = Limits(global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
               group_per_minute=1, group_span=61, backoff_start=0.01, backoff_max=0.05,
               request_timeout=5)
OPEN = Limits(global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
              group_per_minute=1_000_000, backoff_start=0.01, backoff_max=0.05,
              request_timeout=5)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        server.group(GROUP, "Club")
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    target: str | Path
    if request.param == "postgresql":
        target = await request.getfixturevalue("pg").new_database()
    else:
        target = migrated(tmp_path / "merge.sqlite3")
    database = await Database.open(target)
    yield database
    await database.close()


@asynccontextmanager
async def delivery_with(fake: FakeTelegram, db: Database, limits: Limits, *,
                        waits: VirtualClock | None = None
                        ) -> AsyncIterator[tuple[Delivery, TelegramSender]]:
    """A delivery and its sender (its rate limiter on a virtual clock); ``waits``: the
    delivery's own waits on that clock too (a retry's passes at once)."""
    bot = make_bot(fake)
    clock = VirtualClock()
    sender = TelegramSender(bot, limits=limits, clock=clock.monotonic, sleep=clock.sleep)
    delivery = (Delivery(db, sender) if waits is None else
                Delivery(db, sender, wall=waits.wall, sleep=waits.sleep, wait=waits.wait))
    await delivery.start()
    try:
        yield delivery, sender
    finally:
        await delivery.stop()
        await bot.session.close()


@pytest.fixture
async def tight(fake: FakeTelegram, db: Database
                ) -> AsyncIterator[tuple[Delivery, TelegramSender]]:
    async with delivery_with(fake, db, TIGHT) as pair:
        yield pair


def club_calls(fake: FakeTelegram) -> list[str]:
    return [m for m, p in fake.calls if p.get("chat_id") == GROUP]


async def test_posts_queued_behind_the_groups_budget_go_out_as_one(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    """The evening's post takes the group's slot; the night's fall (an edit of it), the
    morning's news and a pause queue behind it: at the next slot they go out as ONE post, in
    order, the edit folded into its part. Later edits of one part keep the others."""
    delivery, _ = tight
    await delivery.enqueue([send(GROUP, "🗳 Votes, day 1", "g1:s2:tally")])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    # the group's budget is spent: all of these wait for the next slot
    await delivery.enqueue([send(GROUP, "☀️ Day 2", "g1:r9"),
                            edit(GROUP, "g1:r9", "☀️ Day 2\n\n№3 Ann: last word"),
                            send(GROUP, "⏸ Paused"),
                            send(GROUP, "🌙 Night 3", "g1:s3:night")])
    assert await delivery.idle(10)
    assert club_calls(fake) == ["sendMessage", "sendMessage"]
    first, merged = fake.messages(GROUP)
    assert first.body == "🗳 Votes, day 1"
    assert merged.body == "☀️ Day 2\n\n№3 Ann: last word\n\n⏸ Paused\n\n🌙 Night 3"
    assert {r["status"] for r in await db.outbox.rows(GROUP)} == {"sent"}
    # an edit of the middle part: the others stay as they were
    await delivery.enqueue([edit(GROUP, "g1:r9", "☀️ Day 2\n\n№3 Ann: last word is over")])
    assert await delivery.idle(10)
    assert merged.body == ("☀️ Day 2\n\n№3 Ann: last word is over\n\n⏸ Paused\n\n🌙 Night 3")
    await delivery.enqueue([edit(GROUP, "g1:s3:night", "🌙 Night 3 is over")])
    assert await delivery.idle(10)
    assert merged.body == ("☀️ Day 2\n\n№3 Ann: last word is over\n\n⏸ Paused\n\n"
                           "🌙 Night 3 is over")
    assert club_calls(fake) == ["sendMessage", "sendMessage", "editMessageText",
                                "editMessageText"]
    # a part that outgrows the post: it goes out alone, and its later edits go there
    long = "🌙 Night 3 " + "x" * 4040
    await delivery.enqueue([edit(GROUP, "g1:s3:night", long)])
    assert await delivery.idle(10)
    alone = fake.messages(GROUP)[-1]
    assert alone.body == long and len(fake.messages(GROUP)) == 3
    await delivery.enqueue([edit(GROUP, "g1:s3:night", "🌙 Night 3, short again")])
    await delivery.enqueue([edit(GROUP, "g1:r9", "☀️ Day 2.")])
    assert await delivery.idle(10)
    assert alone.body == "🌙 Night 3, short again"
    assert merged.body == "☀️ Day 2.\n\n⏸ Paused"


async def test_what_is_never_merged(fake: FakeTelegram, db: Database,
                                    tight: tuple[Delivery, TelegramSender]) -> None:
    """Behind the budget too: a picture, a post with buttons, another table's post and a due
    edit of another message each stop the merge (the chat's order is kept)."""
    delivery, _ = tight
    await delivery.enqueue([send(GROUP, "lobby", "g1:lobby")])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([
        send(GROUP, "a", "g1:a"), send(GROUP, "b", "g1:b"),
        Queued(GROUP, SEND, picture_payload(VIEW, "🌅 Morning"), "g1:pic"),
        send(GROUP, "c", "g1:c"), send(GROUP, "other table", "g2:x"),
        send(GROUP, "d", "g2:d"), edit(GROUP, "g1:lobby", "lobby, closed"),
        send(GROUP, "e", "g1:e")])
    assert await delivery.idle(30)
    bodies = [m.body for m in fake.messages(GROUP)]
    assert bodies == ["lobby, closed", "a\n\nb", "🌅 Morning", "c", "other table\n\nd", "e"]
    assert club_calls(fake) == ["sendMessage", "sendMessage", "sendPhoto", "sendMessage",
                                "sendMessage", "editMessageText", "sendMessage"]


async def test_a_post_too_long_to_merge_goes_alone(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    delivery, _ = tight
    await delivery.enqueue([send(GROUP, "first", "g1:a")])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    big = "y" * (MERGED_LIMIT - 5)
    await delivery.enqueue([send(GROUP, "short", "g1:b"), send(GROUP, big, "g1:c")])
    assert await delivery.idle(10)
    assert [m.body for m in fake.messages(GROUP)] == ["first", "short", big]


async def test_posts_are_not_merged_while_the_group_has_budget(
        fake: FakeTelegram, db: Database) -> None:
    async with delivery_with(fake, db, OPEN) as (delivery, _):
        await delivery.enqueue([send(GROUP, "a", "g1:a"), send(GROUP, "b", "g1:b"),
                                send(GROUP, "c")])
        assert await delivery.idle(10)
        assert [m.body for m in fake.messages(GROUP)] == ["a", "b", "c"]


async def test_a_throttled_edit_coalesced_in_flight_keeps_its_gap(
        fake: FakeTelegram, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The vote board's edit waits for the group's slot; a newer text comes while it does (in
    flight: its old text is the one sent). The newer one then waits for the board's whole gap,
    not going out a second later."""
    gap = 1.0
    async with delivery_with(fake, db, OPEN) as (delivery, sender):
        await delivery.enqueue([send(GROUP, "board", "g1:board")])
        assert await delivery.idle(10)
        await delivery.enqueue([edit(GROUP, "g1:board", "board 1", throttle=gap)])
        assert await delivery.idle(10)
        acquire = sender.limiter.acquire
        coalesced = asyncio.Event()

        async def slow_turn(chat_id: int, *, urgent: bool = True) -> None:
            if not coalesced.is_set():  # a vote comes while the edit waits for its turn
                coalesced.set()
                await delivery.enqueue([edit(GROUP, "g1:board", "board 3", throttle=gap)])
            await acquire(chat_id, urgent=urgent)

        monkeypatch.setattr(sender.limiter, "acquire", slow_turn)
        await delivery.enqueue([edit(GROUP, "g1:board", "board 2", throttle=gap)])
        assert await delivery.idle(20)
        board = fake.messages(GROUP)[0]
        assert board.body == "board 3" and board.history[-1] == "board 2"
        edits = [r.at for r in fake.log if r.method == "editMessageText"]
        assert len(edits) == 3
        assert edits[2] - edits[1] >= gap - 0.05  # (the fake's clock: when each arrived)
        assert edits[1] - edits[0] >= gap - 0.05


async def test_posts_queued_behind_a_429_go_out_as_one(fake: FakeTelegram, db: Database) -> None:
    """Telegram says "too many requests" for the club's post: what its table queued behind it
    goes with it after the wait (and a private chat's posts are never merged)."""
    # the retry's wait passes at once
    async with delivery_with(fake, db, OPEN, waits=VirtualClock()) as (delivery, _):
        fake.user(42, "Ann")
        fake.fail_next(1, status=429, retry_after=5, methods={"sendMessage"})
        await delivery.enqueue([send(GROUP, "☀️ Day 2", "g1:r9"), send(GROUP, "🗳 Vote", "g1:b")])
        assert await delivery.idle(10)
        assert [m.body for m in fake.messages(GROUP)] == ["☀️ Day 2\n\n🗳 Vote"]
        fake.fail_next(1, status=429, retry_after=5, methods={"sendMessage"})
        await delivery.enqueue([send(42, "one", "g1:p"), send(42, "two")])
        assert await delivery.idle(10)
        assert [m.body for m in fake.messages(42)] == ["one", "two"]


async def test_a_pictures_caption_edits_queued_behind_the_budget_go_with_it(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    """The morning's picture waits for the group's slot while the last words' ends are edited
    into its caption: it goes out once, with the caption as it reads now; later caption edits
    are its own."""
    delivery, _ = tight
    await delivery.enqueue([send(GROUP, "🗳 Votes, day 1", "g1:s2:tally")])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([
        Queued(GROUP, SEND, picture_payload(VIEW, "🌅 Morning"), "g1:r5"),
        Queued(GROUP, EDIT, {"caption": "🌅 Morning\n\n№3: last word is over"}, "g1:r5"),
        send(GROUP, "after the picture", "g1:x")])
    assert await delivery.idle(10)
    _, picture, after = fake.messages(GROUP)
    assert picture.photo_bytes is not None
    assert picture.caption == "🌅 Morning\n\n№3: last word is over" and picture.history == []
    assert after.body == "after the picture"
    await delivery.enqueue([Queued(GROUP, EDIT, {"caption": "🌅 Morning, again"}, "g1:r5")])
    assert await delivery.idle(10)
    assert picture.caption == "🌅 Morning, again"
    assert club_calls(fake) == ["sendMessage", "sendPhoto", "sendMessage", "editMessageCaption"]

"""A club chat's 20 posts a minute are the chat's, shared by its tables: when several tables
have posts queued, they take turns (one table's burst never holds another's morning), each
table's posts in order; a merged post of a table keeps its topic and opens with its name once.
Over the fake Bot API, on both backends (docs/delivery.md, "Several tables in one club
chat")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.payload import REDRAW, send_payload
from bot.delivery.sender import TelegramSender
from bot.delivery.worker import Delivery
from storage.db import Database
from storage.repos.outbox import EDIT, SEND, Queued
from tests.bot.test_delivery import GROUP, make_bot
from tests.bot.test_delivery_merge import TIGHT, delivery_with
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import wait_until
from tests.sqlite_template import migrated

BUTTON = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="I play",
                                                                     callback_data="x")]])


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        server.group(GROUP, "Club", forum=True)
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    target: str | Path
    if request.param == "postgresql":
        target = await request.getfixturevalue("pg").new_database()
    else:
        target = migrated(tmp_path / "tables.sqlite3")
    database = await Database.open(target)
    yield database
    await database.close()


@pytest.fixture
async def tight(fake: FakeTelegram, db: Database
                ) -> AsyncIterator[tuple[Delivery, TelegramSender]]:
    async with delivery_with(fake, db, TIGHT) as pair:
        yield pair


def post(text: str, table: int, key: str | None = None, *, buttons: bool = False,
         **placed: object) -> Queued:
    """A table's club post (with buttons: never merged), as ``Notifier.placed`` makes it."""
    payload = {**send_payload(text, BUTTON if buttons else None), **placed}
    return Queued(GROUP, SEND, payload, key, lane=table)


async def test_a_tables_burst_never_holds_another_tables_morning(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    """One post a minute (a virtual clock): table 1 queued five posts before table 2's
    morning; the morning goes out at the chat's next turn, not after all five."""
    delivery, _ = tight
    await delivery.enqueue([post("1: lobby", 1, "g1:lobby", buttons=True)])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([*(post(f"1: post {n}", 1, f"g1:p{n}", buttons=True)
                              for n in range(5)),
                            post("2: morning", 2, "g2:r1", buttons=True)])
    assert await delivery.idle(30)
    assert [m.body for m in fake.messages(GROUP)] == [
        "1: lobby", "2: morning", "1: post 0", "1: post 1", "1: post 2", "1: post 3",
        "1: post 4"]


async def test_two_tables_bursting_take_turns_each_in_order(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    delivery, _ = tight
    await delivery.enqueue([post("1: lobby", 1, "g1:lobby", buttons=True)])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([*(post(f"1{c}", 1, f"g1:{c}", buttons=True) for c in "abc"),
                            *(post(f"2{c}", 2, f"g2:{c}", buttons=True) for c in "xyz")])
    assert await delivery.idle(30)
    assert [m.body for m in fake.messages(GROUP)] == [
        "1: lobby", "2x", "1a", "2y", "1b", "2z", "1c"]


async def test_a_tables_merged_post_keeps_its_topic_and_name_once(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    """Behind the budget a table's posts go out as one, in its topic, its name once on top;
    another table's post (another topic) is never merged in, and an edit of one part keeps
    the name and the other parts."""
    delivery, _ = tight
    one, two = fake.topic(GROUP, "Table 1"), fake.topic(GROUP, "Table 2")
    label1, label2 = "<b>Table 1</b>", "<b>Table 2</b>"
    await delivery.enqueue([post("deal", 1, "g1:deal", thread=one, label=label1)])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([post("Night 1.", 1, "g1:n1", thread=one, label=label1),
                            post("Table 2: deal", 2, "g2:deal", thread=two, label=label2),
                            post("paused", 1, None, thread=one, label=label1),
                            post("resumed", 1, "g1:r", thread=one, label=label1)])
    assert await delivery.idle(30)
    first, second, third = fake.messages(GROUP)
    assert (first.thread, second.thread, third.thread) == (one, two, one)
    assert second.body == "<b>Table 2</b>\nTable 2: deal"
    assert third.body == "<b>Table 1</b>\nNight 1.\n\npaused\n\nresumed"
    await delivery.enqueue([Queued(GROUP, EDIT, {**send_payload("Night 1 is over."),
                                                 "thread": one, "label": label1},
                                   "g1:n1", lane=1)])
    assert await delivery.idle(30)
    assert third.body == "<b>Table 1</b>\nNight 1 is over.\n\npaused\n\nresumed"
    sends = [r for r in fake.log if r.method == "sendMessage"]
    assert [r.params.get("message_thread_id") for r in sends] == [one, two, one]


async def test_the_chats_own_rows_keep_their_place(
        fake: FakeTelegram, db: Database, tight: tuple[Delivery, TelegramSender]) -> None:
    """Rows without a lane (a lone table's, queued before a second table opened) keep the
    chat's order; the tables' lanes take turns after them."""
    delivery, _ = tight
    await delivery.enqueue([Queued(GROUP, SEND, send_payload("notice", BUTTON), "n")])
    await wait_until(lambda: len(fake.messages(GROUP)) == 1, 10, "the first post")
    await delivery.enqueue([Queued(GROUP, SEND, send_payload("1a", BUTTON), "g1:a"),
                            Queued(GROUP, SEND, send_payload("1b", BUTTON), "g1:b"),
                            post("2x", 2, "g2:x", buttons=True),
                            post("1c", 1, "g1:c", buttons=True),
                            post("2y", 2, "g2:y", buttons=True)])
    assert await delivery.idle(30)
    assert [m.body for m in fake.messages(GROUP)] == ["notice", "1a", "1b", "2x", "1c", "2y"]


async def test_a_tables_announcement_goes_before_the_chats_redraws_and_says_what_is_true(
        fake: FakeTelegram, db: Database) -> None:
    """Two tables in one forum chat, one post a minute, on a virtual clock (the game's time
    too; ``late``: :data:`bot.delivery.late.LATE`): table 1's lobby and table 2's vote board
    are redrawn, and then table 2's night falls ("the night lasts 14 seconds"), all while the
    chat waits for its minute. The night goes out first, before the redraws queued ahead of
    it; and as it goes out a minute later, after its night ended, it says the night without
    its length."""
    clock = VirtualClock()
    bot = make_bot(fake)
    sender = TelegramSender(bot, limits=TIGHT, clock=clock.monotonic, sleep=clock.sleep)
    delivery = Delivery(db, sender, wall=clock.wall, sleep=clock.sleep, wait=clock.wait,
                        game_clock=clock.wall)
    await delivery.start()
    try:
        one, two = fake.topic(GROUP, "Table 1"), fake.topic(GROUP, "Table 2")
        where1: dict[str, Any] = {"thread": one, "label": "<b>Table 1</b>"}
        where2: dict[str, Any] = {"thread": two, "label": "<b>Table 2</b>"}
        await delivery.enqueue([post("1: seats: 1", 1, "g1:lobby", buttons=True, **where1),
                                post("2: board: №1 votes", 2, "g2:board", **where2)])
        assert await delivery.idle(30)
        said = "Night 1. The town falls asleep; the night lasts 14 seconds."
        over = "Night 1. The town falls asleep."
        redraw: dict[str, Any] = {REDRAW: True}
        await delivery.enqueue([
            Queued(GROUP, EDIT, {**send_payload("1: seats: 1, 2", BUTTON), **redraw, **where1},
                   "g1:lobby", lane=1),
            Queued(GROUP, EDIT, {**send_payload("2: board: №1 → №2"), **redraw, **where2},
                   "g2:board", 6.0, lane=2),
            post(said, 2, "g2:night", **where2, late=[[said, over, clock.wall() + 14]])])
        assert await delivery.idle(30)
    finally:
        await delivery.stop()
        await bot.session.close()
    calls = [(m, p.get("text", "")) for m, p in fake.calls if p.get("chat_id") == GROUP]
    assert calls == [
        ("sendMessage", "<b>Table 1</b>\n1: seats: 1"),
        ("sendMessage", "<b>Table 2</b>\n2: board: №1 votes"),
        ("sendMessage", f"<b>Table 2</b>\n{over}"),
        ("editMessageText", "<b>Table 1</b>\n1: seats: 1, 2"),
        ("editMessageText", "<b>Table 2</b>\n2: board: №1 → №2")]

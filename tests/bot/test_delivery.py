"""The durable outbox and its worker against the fake Bot API misbehaving like Telegram."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

import views.picture
from bot.delivery.calls import call_for
from bot.delivery.payload import Payload, picture_payload, send_payload
from bot.delivery.sender import Limits, TelegramSender
from bot.delivery.worker import Delivery
from bot.telegram.session import BotSession
from storage.db import Database
from storage.repos.outbox import EDIT, SEND, Queued
from tests.fakes.telegram_server import DEFAULT_TOKEN, FAULT_KINDS, FakeTelegram
from tests.fakes.virtual_clock import ManualClock
from tests.game.flow import wait_until
from tests.sqlite_template import migrated
from views.picture import SeatState, SeatView, TableView, render_table

LIMITS = Limits(global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
                group_per_minute=1_000_000, backoff_start=0.01, backoff_max=0.05,
                request_timeout=1)
USER = 42
GROUP = -100500


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        server.user(USER, "Ann")
        server.group(GROUP, "Club")
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """The durable outbox on each backend."""
    target: str | Path
    if request.param == "postgresql":
        target = await request.getfixturevalue("pg").new_database()
    else:
        target = migrated(tmp_path / "sender.sqlite3")
    database = await Database.open(target)
    yield database
    await database.close()


def make_bot(fake: FakeTelegram) -> Bot:
    from aiogram.client.telegram import TelegramAPIServer
    return Bot(DEFAULT_TOKEN, session=BotSession(api=TelegramAPIServer.from_base(fake.base_url)))


@pytest.fixture
async def sender(fake: FakeTelegram) -> AsyncIterator[TelegramSender]:
    bot = make_bot(fake)
    yield TelegramSender(bot, limits=LIMITS)
    await bot.session.close()


def send(chat: int, text: str, key: str | None = None) -> Queued:
    return Queued(chat, SEND, send_payload(text), key)


def edit(chat: int, key: str, text: str, throttle: float = 0) -> Queued:
    return Queued(chat, EDIT, send_payload(text), key, throttle)


def count_reads(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The chats whose queue the workers read from now on, in order."""
    reads: list[int] = []
    pending = db.outbox.pending

    async def counted(chat_id: int, limit: int = 50, **options: Any) -> Any:
        reads.append(chat_id)
        return await pending(chat_id, limit=limit, **options)

    monkeypatch.setattr(db.outbox, "pending", counted)
    return reads


def on_clock(db: Database, sender: TelegramSender, clock: ManualClock) -> Delivery:
    """A delivery whose waits end only when the test moves ``clock``: a throttled edit's
    slot comes when the test says, however slow the machine is meanwhile."""
    return Delivery(db, sender, wall=clock.wall, sleep=clock.sleep, wait=clock.wait)


async def board_edited_once(delivery: Delivery) -> None:
    """The club's board sent, and its first throttled edit (1 s apart) gone at once: the
    next edit of it waits for its slot."""
    await delivery.enqueue([send(GROUP, "board", "b")])
    assert await delivery.idle(10)
    await delivery.enqueue([edit(GROUP, "b", "board 1", throttle=1)])
    assert await delivery.idle(10)


async def test_edits_of_a_queued_key_are_coalesced(db: Database) -> None:
    await db.outbox.enqueue([send(GROUP, "board", "g1:board")], 0)
    for i in range(10):
        await db.outbox.enqueue([edit(GROUP, "g1:board", f"board {i}")], 0)
    rows = await db.outbox.rows(GROUP)
    assert [(r["method"], r["status"]) for r in rows] == [("send", "pending"),
                                                          ("edit", "pending")]
    assert '"board 9"' in rows[1]["payload"]
    # a second send under the same key is ignored (a step repeated after a restart)
    await db.outbox.enqueue([send(GROUP, "board again", "g1:board")], 0)
    assert len(await db.outbox.rows(GROUP)) == 2


@pytest.mark.parametrize("kind", FAULT_KINDS)
async def test_a_transient_fault_is_retried_and_delivered_once(
        fake: FakeTelegram, db: Database, sender: TelegramSender, kind: str) -> None:
    fake.fault("sendMessage", 1, kind, hang=2)
    fake.fault("editMessageText", 1, kind, hang=2)
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([send(USER, "one", "k1"), send(USER, "two"),
                            edit(USER, "k1", "one, edited")])
    assert await delivery.idle(30)
    bodies = [m.body for m in fake.messages(USER)]
    assert bodies == ["one, edited", "two"]  # in order, each once, the edit found its message
    rows = await db.outbox.rows(USER)
    assert [r["status"] for r in rows] == ["sent"] * 3
    assert rows[0]["message_id"] == fake.messages(USER)[0].message_id
    assert rows[0]["attempts"] == 2 and "Error" in (rows[0]["error"] or "Error")
    assert ("sendMessage", 1, kind) in fake.faults_hit
    if kind == "429":  # the real clock by default: retry_after (1 s) waited out before a retry
        sends = [r for r in fake.log if r.method == "sendMessage"]
        assert sends[0].status == 429 and sends[1].at - sends[0].at >= 1.0
    await delivery.stop()


async def test_permanent_refusals_are_recorded_not_retried(
        fake: FakeTelegram, db: Database, sender: TelegramSender) -> None:
    told: list[int] = []

    async def hook(chat_id: int) -> None:
        told.append(chat_id)
    sender.on_blocked(hook)
    fake.block_bot(USER)
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([send(USER, "card", "card"), edit(USER, "card", "x"),
                            send(-999, "nowhere")])
    assert await delivery.idle(10)
    rows = await db.outbox.rows()
    assert [r["status"] for r in rows] == ["failed"] * 3
    assert "blocked" in rows[0]["error"] and "no message to edit" in rows[1]["error"]
    assert sorted(told) == [-999, USER]  # the blocked hooks ran once per refused send
    assert sum(1 for m, _ in fake.calls if m == "sendMessage") == 2  # never retried
    await delivery.stop()


async def test_a_restart_resumes_the_queue(fake: FakeTelegram, db: Database,
                                           sender: TelegramSender) -> None:
    fake.fail_next(1000, status=502, methods={"sendMessage"})
    first = Delivery(db, sender)
    await first.start()
    await first.enqueue([send(GROUP, f"post {i}") for i in range(3)])
    assert not await first.idle(0.3)
    await first.stop()  # as if the process stopped: nothing was delivered
    await fake.settled()  # a request it had under way is answered (a 502) before the change
    assert not fake.messages(GROUP)
    fake.clear_failures()
    second = Delivery(db, sender)
    await second.start()
    assert await second.idle(10)
    assert [m.body for m in fake.messages(GROUP)] == ["post 0", "post 1", "post 2"]
    await second.stop()


async def test_a_throttled_edit_does_not_hold_the_chat(fake: FakeTelegram, db: Database,
                                                       sender: TelegramSender) -> None:
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([send(GROUP, "board", "b")])
    assert await delivery.idle(10)
    await delivery.enqueue([edit(GROUP, "b", "board 1", throttle=60)])  # first edit: at once
    assert await delivery.idle(10)
    await delivery.enqueue([edit(GROUP, "b", "board 2", throttle=60)])  # waits for its slot
    await delivery.enqueue([send(GROUP, "verdict")])
    await wait_until(lambda: any(m.body == "verdict" for m in fake.messages(GROUP)), 10)
    assert fake.messages(GROUP)[0].body == "board 1"
    for _ in range(1000):  # Telegram has the verdict; its row is marked sent right after
        statuses = [r["status"] for r in await db.outbox.rows(GROUP)]
        if statuses[-1] == "sent":
            break
        await asyncio.sleep(0.01)
    assert statuses[-2:] == ["pending", "sent"]
    await delivery.stop()


async def test_prompt_clean_up_edits_are_not_urgent(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Within the overall limit a club post, a private send, and an edit queued before a send
    are urgent; an edit alone in a private chat (a closed prompt) is not."""
    other = 43
    fake.user(other, "Bob")
    asked: list[tuple[int, bool]] = []
    acquire = sender.limiter.acquire

    async def record(chat_id: int, *, urgent: bool = True) -> None:
        asked.append((chat_id, urgent))
        await acquire(chat_id, urgent=urgent)

    monkeypatch.setattr(sender.limiter, "acquire", record)
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([send(GROUP, "post", "g1:post"), send(USER, "prompt", "g1:p"),
                            send(other, "prompt", "g1:q")])
    assert await delivery.idle(10)
    asked.clear()
    await delivery.enqueue([edit(GROUP, "g1:post", "post!"), edit(USER, "g1:p", "chosen"),
                            edit(other, "g1:q", "chosen"), send(other, "next prompt")])
    assert await delivery.idle(10)
    await delivery.stop()
    assert sorted(asked) == sorted([(GROUP, True), (USER, False), (other, True), (other, True)])


VIEW = TableView("☀️ Day 1", (SeatView(1, "Ann", SeatState.ALIVE),
                               SeatView(2, "<b>Bob</b>", SeatState.DEAD)),
                 {s: str(s) for s in SeatState})


def cannot_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every picture fails to draw (as with no fonts at all)."""
    def broken(view: TableView, **kwargs: Any) -> bytes:
        raise OSError("no fonts")
    monkeypatch.setattr(views.picture, "render_table", broken)


async def deliver_a_morning_and_its_last_word(db: Database, sender: TelegramSender) -> None:
    """The morning's picture, the last word's end edited into its caption, the vote's board."""
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([
        Queued(GROUP, SEND, picture_payload(VIEW, "🌅 Morning"), "g1:r5"),
        Queued(GROUP, EDIT, {"caption": "🌅 Morning\n\nthe last word is over"}, "g1:r5"),
        send(GROUP, "🗳 board")])
    assert await delivery.idle(10)
    await delivery.stop()


async def test_a_picture_is_drawn_when_its_turn_comes_and_sent_once(
        fake: FakeTelegram, db: Database, sender: TelegramSender) -> None:
    """The row keeps what to draw (a kilobyte, not the PNG); the sender draws it."""
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([Queued(GROUP, SEND, picture_payload(VIEW, "☀️ Day 1"), "g1:pic")])
    assert await delivery.idle(10)
    await delivery.stop()
    [sent] = [m for m in fake.messages(GROUP) if m.photo_bytes is not None]
    assert sent.photo_bytes == render_table(VIEW, jpeg=True) and "Day 1" in sent.body
    [row] = await db.outbox.rows(GROUP)
    payload = json.loads(row["payload"])
    assert row["status"] == "sent" and payload["caption"] == "☀️ Day 1"
    assert TableView.from_json(payload["picture"]) == VIEW and len(row["payload"]) < 1000


async def test_a_picture_queued_with_its_png_is_sent_and_its_bytes_not_kept(
        fake: FakeTelegram, db: Database, sender: TelegramSender) -> None:
    """A row queued before the sender drew the pictures (an upgrade with posts in the queue)
    holds its PNG, base64: it is sent as it is, and the bytes go once it is."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    photo = {"photo": base64.b64encode(png).decode("ascii"), "caption": "☀️ Day 1"}
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([Queued(GROUP, SEND, photo, "g1:pic")])
    assert await delivery.idle(10)
    await delivery.stop()
    [sent] = [m for m in fake.messages(GROUP) if m.photo_bytes is not None]
    assert sent.photo_bytes == png and "Day 1" in sent.body
    [row] = await db.outbox.rows(GROUP)
    assert row["status"] == "sent" and "photo" not in json.loads(row["payload"])
    assert json.loads(row["payload"])["caption"] == "☀️ Day 1"


async def test_a_picture_that_cannot_be_drawn_goes_out_as_its_caption(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cannot_draw(monkeypatch)
    delivery = Delivery(db, sender)
    await delivery.start()
    await delivery.enqueue([Queued(GROUP, SEND, picture_payload(VIEW, "☀️ Day 1"), "g1:pic"),
                            send(GROUP, "next")])
    assert await delivery.idle(10)
    await delivery.stop()
    assert [(m.body, m.photo_bytes) for m in fake.messages(GROUP)] == [
        ("☀️ Day 1", None), ("next", None)]
    assert all(r["status"] == "sent" for r in await db.outbox.rows(GROUP))


async def test_the_caption_of_a_picture_sent_as_text_is_edited_as_text(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The morning's picture could not be drawn, so its caption went out as a text; the last
    words' ends edited into its caption reach that text (Telegram refuses a caption's edit of
    a message without one)."""
    cannot_draw(monkeypatch)
    await deliver_a_morning_and_its_last_word(db, sender)
    morning, board = fake.messages(GROUP)
    assert morning.photo_bytes is None and morning.caption is None
    assert morning.text == "🌅 Morning\n\nthe last word is over" and board.body == "🗳 board"
    methods = [call for call, p in fake.calls if p.get("chat_id") == GROUP]
    assert methods == ["sendMessage", "editMessageCaption", "editMessageText", "sendMessage"]
    assert all(r["status"] == "sent" for r in await db.outbox.rows(GROUP))


async def test_a_pictures_caption_is_edited_in_place(
        fake: FakeTelegram, db: Database, sender: TelegramSender) -> None:
    """The morning's picture: the last words' ends are edited into its caption
    (``editMessageCaption``), in order with the chat's other posts."""
    await deliver_a_morning_and_its_last_word(db, sender)
    picture, board = fake.messages(GROUP)
    assert picture.photo_bytes == render_table(VIEW, jpeg=True) and picture.text is None
    assert picture.caption == "🌅 Morning\n\nthe last word is over"
    assert picture.history == ["🌅 Morning"] and board.body == "🗳 board"
    methods = [call for call, p in fake.calls if p.get("chat_id") == GROUP]
    assert methods == ["sendPhoto", "editMessageCaption", "sendMessage"]
    assert all(r["status"] == "sent" for r in await db.outbox.rows(GROUP))


async def test_a_request_is_built_once_its_turn_came(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A chat waiting for its turn holds its row, not the request's models (2,400 private chats
    wait at once at N = 200); an edit with nothing to edit fails without taking a turn."""
    steps: list[tuple[str, int]] = []
    acquire = sender.limiter.acquire

    async def record(chat_id: int, *, urgent: bool = True) -> None:
        steps.append(("turn", chat_id))
        await acquire(chat_id, urgent=urgent)

    monkeypatch.setattr(sender.limiter, "acquire", record)

    def built(chat_id: int, payload: Payload, **request: Any) -> TelegramMethod[Any]:
        steps.append(("built", chat_id))
        return call_for(chat_id, payload, **request)

    monkeypatch.setattr("bot.delivery.worker.call_for", built)
    delivery = Delivery(db, sender)
    await delivery.start()
    markup = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text="Ann", callback_data="g:1:n:1")]])
    await delivery.enqueue([Queued(USER, SEND, send_payload("prompt", markup), "g1:p"),
                            edit(GROUP, "g1:gone", "nothing to edit")])
    assert await delivery.idle(10)
    await delivery.stop()
    assert steps == [("turn", USER), ("built", USER)]
    [message] = fake.messages(USER)
    assert message.body == "prompt" and "Ann" in json.dumps(message.reply_markup)
    [row] = await db.outbox.rows(GROUP)
    assert row["status"] == "failed" and "no message to edit" in row["error"]


async def test_a_chats_only_row_is_read_once_and_a_row_queued_meanwhile_goes_too(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker of a chat whose one queued row was sent ends without reading the queue
    again (a row queued since would have woken it); one queued while it was in flight does
    wake it, and is sent."""
    delivery = Delivery(db, sender)
    await delivery.start()
    reads = count_reads(db, monkeypatch)
    await delivery.enqueue([send(USER, "one")])
    assert await delivery.idle(30)
    assert reads == [USER]
    plain_send = delivery._send
    queued_meanwhile = False

    async def send_and_queue(row: Any, *, urgent: bool = True) -> bool:
        nonlocal queued_meanwhile
        if not queued_meanwhile:
            queued_meanwhile = True
            await delivery.enqueue([send(USER, "three")])  # while "two" is in flight
        return await plain_send(row, urgent=urgent)

    monkeypatch.setattr(delivery, "_send", send_and_queue)
    await delivery.enqueue([send(USER, "two")])
    assert await delivery.idle(30)
    assert [m.body for m in fake.messages(USER)] == ["one", "two", "three"]
    assert [r["status"] for r in await db.outbox.rows(USER)] == ["sent"] * 3
    await delivery.stop()


async def test_a_chats_sends_go_from_one_read_and_an_edit_is_read_again(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Queued sends never change: the rows of one read are sent one after another (a read
    that found fewer rows than it asked for was the whole queue: the worker then ends). An
    edit's row takes later texts in place, so it is read again before it goes: a text
    coalesced into it while the sends went out (no wake) is the one sent."""
    await db.outbox.enqueue([send(USER, "one", "k1"), send(USER, "two"), send(USER, "three"),
                             edit(USER, "k1", "one, edited")], now=1.0)
    reads = count_reads(db, monkeypatch)
    delivery = Delivery(db, sender)
    plain_send = delivery._send

    async def send_and_coalesce(row: Any, *, urgent: bool = True) -> bool:
        if json.loads(row.payload_json)["text"] == "two":  # behind the worker's back
            await db.outbox.enqueue([edit(USER, "k1", "one, edited twice")], now=2.0)
        return await plain_send(row, urgent=urgent)

    monkeypatch.setattr(delivery, "_send", send_and_coalesce)
    await delivery.start()
    assert await delivery.idle(30)
    assert reads == [USER, USER]  # the sends' read, and the edit's
    assert [m.body for m in fake.messages(USER)] == ["one, edited twice", "two", "three"]
    assert [r["status"] for r in await db.outbox.rows(USER)] == ["sent"] * 4
    await delivery.stop()


async def test_a_text_coalesced_into_a_waiting_edit_wakes_nobody(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A throttled edit waits for its slot; later texts go into its row (a lobby's joins): its
    worker is not woken to read the queue for each, and at the slot it sends the last."""
    clock = ManualClock()
    delivery = on_clock(db, sender, clock)
    await delivery.start()
    await board_edited_once(delivery)
    reads = count_reads(db, monkeypatch)
    await delivery.enqueue([edit(GROUP, "b", "board 2", throttle=1)])  # waits for its slot
    await wait_until(lambda: reads == [GROUP] and clock.waiting == 1, 10)  # read it, waits
    reads.clear()
    for n in (3, 4, 5):
        await delivery.enqueue([edit(GROUP, "b", f"board {n}", throttle=1)])
    assert reads == []
    assert fake.messages(GROUP)[0].body == "board 1"
    clock.advance(1)  # the slot
    assert await delivery.idle(10)
    assert reads == [GROUP]  # once, at the slot
    assert fake.messages(GROUP)[0].body == "board 5"
    assert [(r["method"], r["status"]) for r in await db.outbox.rows(GROUP)] == [
        ("send", "sent"), ("edit", "sent"), ("edit", "sent")]
    await delivery.stop()


async def test_the_look_at_queued_chats_starts_missing_workers_and_leaves_others_be(
        fake: FakeTelegram, db: Database, sender: TelegramSender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sender's look at every chat with queued rows (a missed wake's safety net) starts a
    worker where there is none; a worker already on its chat is not made to read again."""
    clock = ManualClock()
    delivery = on_clock(db, sender, clock)
    await delivery.start()
    await board_edited_once(delivery)
    reads = count_reads(db, monkeypatch)
    await delivery.enqueue([edit(GROUP, "b", "board 2", throttle=1)])  # waits for its slot
    await wait_until(lambda: reads == [GROUP] and clock.waiting == 1, 10)
    await db.outbox.enqueue([send(USER, "missed")], now=clock.now)  # queued with no wake
    delivery.resume(await db.outbox.pending_chats())
    await wait_until(lambda: any(m.body == "missed" for m in fake.messages(USER)), 10)
    assert reads.count(GROUP) == 1  # the waiting worker was left alone
    clock.advance(1)  # the board's slot
    assert await delivery.idle(10)
    assert fake.messages(GROUP)[0].body == "board 2"
    await delivery.stop()

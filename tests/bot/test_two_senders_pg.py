"""Two senders at once on PostgreSQL (one taking over the sender role while the other has not
yet noticed it lost it): each chat's queue is claimed by one live sender
(``outbox_senders``, bot/cluster/share.py), so every row goes out once and none is lost; a
sender gone (its session's member lock released) leaves its chats to the other."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from bot.cluster.share import ShareConnection
from bot.delivery.sender import TelegramSender
from bot.delivery.worker import Delivery
from storage.db import Database
from storage.repos.outbox import SEND, Queued
from tests.bot.test_delivery import LIMITS, make_bot
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import wait_until
from tests.pg_cluster import Cluster

CHATS = [-100501, -100502, 601, 602, 603]
ROUNDS = 5


@dataclass
class Process:
    db: Database
    conn: ShareConnection
    delivery: Delivery


@asynccontextmanager
async def process(url: str, fake: FakeTelegram) -> AsyncIterator[Process]:
    db = await Database.open(url)
    conn = ShareConnection(url, lambda: None)
    await conn.join()
    bot = make_bot(fake)
    delivery = Delivery(db, TelegramSender(bot, limits=LIMITS), claims=conn)
    try:
        yield Process(db, conn, delivery)
    finally:
        await delivery.stop()
        await conn.close()
        await bot.session.close()
        await db.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        for chat in CHATS:
            if chat < 0:
                server.group(chat, f"Club {chat}")
            else:
                server.user(chat, f"U{chat}")
        yield server


def _texts(fake: FakeTelegram) -> Counter[str]:
    return Counter(m.body for chat in CHATS for m in fake.messages(chat))


async def test_two_senders_at_once_send_every_row_once(pg: Cluster, fake: FakeTelegram) -> None:
    url = await pg.new_database()
    async with process(url, fake) as a, process(url, fake) as b:
        await a.delivery.start()
        await b.delivery.start()
        expected: list[str] = []
        for round_ in range(ROUNDS):
            batch = [Queued(chat, SEND, {"text": f"r{round_} c{chat} m{i}"})
                     for chat in CHATS for i in range(4)]
            expected += [m.payload["text"] for m in batch]
            new = await a.db.outbox.enqueue(batch, now=1.0)
            # both senders are told of every row (each thinks it sends)
            a.delivery.queued(batch, new)
            b.delivery.queued(batch, new)
            want = len(expected)
            await wait_until(lambda want=want: sum(_texts(fake).values()) >= want, 30,
                             "every row sent")
        assert await a.delivery.idle(30) and await b.delivery.idle(30)
        await fake.settled()
        sent = _texts(fake)
        assert sent == Counter(expected)  # each once: nothing doubled, nothing lost
        for chat in CHATS:  # and in order per chat
            bodies = [m.body for m in fake.messages(chat)]
            assert bodies == [t for t in expected if f" c{chat} " in t]
        assert await a.db.outbox.pending_chats() == []


async def test_a_sender_gone_leaves_its_chats_to_the_other(pg: Cluster,
                                                          fake: FakeTelegram) -> None:
    url = await pg.new_database()
    async with process(url, fake) as b:
        async with process(url, fake) as a:
            await a.delivery.start()
            first = [Queued(chat, SEND, {"text": f"first {chat}"}) for chat in CHATS]
            a.delivery.queued(first, await a.db.outbox.enqueue(first, now=1.0))
            assert await a.delivery.idle(30)
            # killed: its session gone before its delivery stops, its claims never given
            # back, its member lock gone with the session
            await a.conn.close()
        await b.delivery.start()
        second = [Queued(chat, SEND, {"text": f"second {chat}"}) for chat in CHATS]
        b.delivery.queued(second, await b.db.outbox.enqueue(second, now=2.0))
        assert await b.delivery.idle(30)
        await fake.settled()
        assert _texts(fake) == Counter(
            [f"first {c}" for c in CHATS] + [f"second {c}" for c in CHATS])


async def test_a_live_senders_chat_waits_for_it(pg: Cluster, fake: FakeTelegram) -> None:
    """While the first sender lives, the second sends none of its chats' rows; once it is
    gone, the second sends them."""
    url = await pg.new_database()
    async with process(url, fake) as b:
        async with process(url, fake) as a:
            assert await a.conn.claim_chat(CHATS[0])
            await b.delivery.start()
            rows = [Queued(CHATS[0], SEND, {"text": "held"})]
            b.delivery.queued(rows, await b.db.outbox.enqueue(rows, now=1.0))
            assert await b.delivery.idle(30)  # b's worker tried, and left the row queued
            assert not fake.messages(CHATS[0])
            assert not await b.conn.claim_chat(CHATS[0])
        # a's session ended: b's next look at the queues (bot/cluster/sharing.py) takes it
        b.delivery.resume(await b.db.outbox.pending_chats())
        assert await b.delivery.idle(30)
        assert [m.body for m in fake.messages(CHATS[0])] == ["held"]

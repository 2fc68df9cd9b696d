"""One user cannot make the bot deaf (bot/telegram/flood.py, bot/delivery/replies.py).

Replies go through the outbox, so a handler never waits in its update slot for its chat's send
budget; past a burst a user's updates are dropped with one "slow down", a game's own buttons
always handled; in a club chat the answers to members who do not host share a small budget.
The sends here keep Telegram's per-chat pace (slower, even), as the deafness needed them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from bot.delivery.rate_limit import Limits
from bot.metrics import Metrics
from bot.telegram.flood import (
    MEMBER_BURST,
    MEMBER_EVERY_S,
    MEMBERS_BURST,
    MEMBERS_EVERY_S,
    ClubAnswers,
    FloodGuard,
)
from record.table import Stage
from tests.bot.conftest import ADMIN_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, running, wait_until

# a private chat's answers at one every five seconds (Telegram: one a second): a reply that
# waited for its chat's turn in its handler would hold the slot for minutes
SLOW_CHATS = Limits(global_per_second=10_000, chat_per_second=0.2, chat_burst=1,
                    group_per_minute=20, backoff_start=0.01, backoff_max=0.05)
FLOOD = 300  # more than the update slots (UPDATES_IN_FLIGHT, 200)


def _in_flight(metrics: Metrics) -> float:
    return next(s.value for f in metrics.in_flight.collect() for s in f.samples)


def test_the_bucket_refills_and_a_flood_ends_when_it_is_full() -> None:
    now = [0.0]

    async def tell(_update: object, _user: object, _chat: object) -> None:
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


async def test_no_handler_holds_its_slot_while_its_reply_waits(fake: FakeTelegram,
                                                               tmp_path: Path) -> None:
    """The per-user bound off: 300 /help from one user are handled at once (their replies
    queued in his chat), and another player's press and another user's /balance are answered
    while nearly all of them still wait for their turn."""
    async with running(fake, tmp_path, limits=SLOW_CHATS, flood_burst=0,
                       default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        await flow.lobby(6)
        flooder = fake.user(601, "Flood", language_code="en")
        reader = fake.user(602, "Reader", language_code="en")
        for user in (flooder, reader):
            await fake.send(user, "/start")
            await fake.next_message(user.id)
        handled = Metrics.total(app.metrics.updates)
        for _ in range(FLOOD):
            await fake.send(flooder, "/help")
        player = flow.players[0]
        await fake.send(reader, "/balance")
        lobby = await flow.prompt(CLUB, "gl:")
        assert await flow.press(player, lobby, f"gl:{flow.game_id}:leave")
        assert "balance" in (await fake.next_message(reader.id, timeout=30)).body.lower()
        assert flow.table.seat_of(player) is None
        # every update handled and no handler left: the replies wait in the outbox, not in a
        # slot
        await wait_until(lambda: Metrics.total(app.metrics.updates) >= handled + FLOOD + 2
                         and _in_flight(app.metrics) == 0, 60, "the flood handled")
        waiting = await app.services.db.outbox.pending(flooder.id, limit=1000)
        assert len(waiting) > FLOOD - 100  # sent at one every five seconds
        assert len(fake.messages(flooder.id)) < 100


async def test_a_flooding_player_is_told_once_and_still_plays(fake: FakeTelegram,
                                                              tmp_path: Path) -> None:
    """Past the burst a user's messages are dropped with one "slow down"; the same player's
    night choice, pressed after 200 messages, is taken; the others are answered."""
    async with running(fake, tmp_path, flood_burst=8, flood_per_second=0.01,
                       default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        await flow.lobby(6)
        await flow.deal()
        await flow.start("/night", Stage.NIGHT)
        table = flow.table
        seat = next(s for s in engine.night_actors(table.game)
                    if not table.is_picker(s) and engine.legal_targets(table.game, s))
        uid, prefix = flow.presser(seat, "n")
        prompt = await flow.prompt(uid, prefix)
        before = len(fake.messages(uid))
        dropped = app.container.flood.dropped
        for _ in range(200):
            await fake.send(uid, "/help")
        target = engine.legal_targets(table.game, seat)[0]
        assert await flow.press(uid, prompt, prefix + str(target))
        assert table.choices.get(seat) == target or table.stage is not Stage.NIGHT
        calm = fake.user(603, "Calm", language_code="en")
        await fake.send(calm, "/help")
        assert "/nick" in (await fake.next_message(calm.id, timeout=20)).body
        await wait_until(lambda: app.container.flood.dropped - dropped >= 190, 30,
                         "the flood dropped")
        await flow.delivered()
        said = [m.body for m in fake.messages(uid)[before:] if m.body.startswith("<b>")
                or m.body.startswith("Too many")]
        assert sum(b.startswith("Too many messages at once") for b in said) == 1
        # the two /start and /nick of the registration spent two of the burst's eight
        assert len(said) - 1 == 200 - (app.container.flood.dropped - dropped)
        assert Metrics.total(app.metrics.updates, outcome="dropped") == app.container.flood.dropped
        assert Metrics.total(app.metrics.flood_dropped) == app.container.flood.dropped


async def test_a_member_s_commands_do_not_push_the_table_s_posts_back(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """30 /status from one member in the club chat: the member's few answered, the rest
    withheld; an admin's answer and the table's posts go out as if he had said nothing. The
    budget's clock stands still (however long the 31 take here, none of its time passes),
    and the host deals once they are handled (handled side by side, an answer still being
    queued would otherwise race the deal's post)."""
    limits = Limits(global_per_second=10_000, chat_per_second=10_000, chat_burst=10_000,
                    group_per_minute=20, backoff_start=0.01, backoff_max=0.05)
    async with running(fake, tmp_path, limits=limits, default_locale="en") as app:
        budget = app.services.replies.budget
        assert isinstance(budget, ClubAnswers)
        budget.clock = lambda: 0.0
        flow = Flow(fake, app, lang="en")
        await flow.lobby(6)
        await flow.delivered()
        start = len(fake.messages(CLUB))
        await wait_until(lambda: not fake.pending_updates() and not _in_flight(app.metrics),
                         10, "the lobby's updates handled")
        handled = Metrics.total(app.metrics.updates)
        for _ in range(30):
            await fake.send(flow.players[0], "/status", chat_id=CLUB)
        await fake.send(ADMIN_ID, "/status", chat_id=CLUB)  # a network admin: a host here
        await wait_until(lambda: Metrics.total(app.metrics.updates) >= handled + 31
                         and _in_flight(app.metrics) == 0, 60, "the 31 handled")
        await flow.host("/deal")
        await wait_until(lambda: flow.table.started, 10, "the deal")
        await flow.delivered(within=120)
        # the answers, not the posts, are counted: texts queued behind the group's budget go
        # out in one post (docs/delivery.md)
        said = "\n\n".join(m.body for m in fake.messages(CLUB)[start:])
        before_deal = said[:said.index("<b>Cards dealt")]
        answers = before_deal.count(f"<b>Game #{flow.game_id}</b>")
        assert answers == MEMBER_BURST + 1  # the member's burst and the admin's
        assert Metrics.total(app.metrics.answers_withheld) == 30 - MEMBER_BURST


async def test_a_club_chat_s_budget_for_members() -> None:
    now = [0.0]
    hosts = {(CLUB, HOST)}

    async def is_host(chat: int, user: int) -> bool:
        return (chat, user) in hosts

    budget = ClubAnswers(is_host, clock=lambda: now[0])
    assert all([await budget.may_answer(CLUB, HOST) for _ in range(50)])
    members = [await budget.may_answer(CLUB, u) for u in range(1, 9)]
    assert members == [True] * MEMBERS_BURST + [False] * (8 - MEMBERS_BURST)
    assert await budget.may_answer(CLUB - 1, 1)  # another club's budget
    now[0] = MEMBERS_EVERY_S  # one more for the chat's members
    assert await budget.may_answer(CLUB, 8) and not await budget.may_answer(CLUB, 7)
    now[0] = 1000.0  # the chat's burst again, and a member's own
    assert [await budget.may_answer(CLUB, 7) for _ in range(MEMBER_BURST + 1)] \
        == [True] * MEMBER_BURST + [False]
    assert await budget.may_answer(CLUB, 6)  # (the chat's budget had one more)
    now[0] += max(MEMBER_EVERY_S, MEMBERS_EVERY_S)  # one more again
    assert await budget.may_answer(CLUB, 7) and not await budget.may_answer(CLUB, 7)


def test_no_handler_sends_from_its_update_slot() -> None:
    """Every handler answers through the outbox (``replies``); only a button's answer goes
    straight to Telegram (``sender.answer``: answerCallbackQuery spends no chat's budget). A
    handler added with a direct send would hold its slot again."""
    import bot.handlers
    import bot.telegram.middlewares

    direct = re.compile(r"\bsender\.(?!answer\()\w+\(")
    files = [*sorted(Path(bot.handlers.__file__).parent.glob("*.py")),
             Path(bot.telegram.middlewares.__file__)]
    found = [f"{path.name}:{number}: {line.strip()}" for path in files
             for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if direct.search(line)]
    assert found == []


async def test_the_lobby_s_buttons_are_bound_as_any_update(
        fake: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Join and Leave pressed again and again, "another table" and hostile numbers typed in
    the club chat count against the presser's bound (each press writes and redraws the
    lobby); the host's panel is never dropped, and a dropped update changes nothing."""
    import logging

    caplog.set_level(logging.INFO)
    async with running(fake, tmp_path, flood_burst=8, flood_per_second=0.01,
                       default_locale="en") as app:
        flow = Flow(fake, app, lang="en")
        await flow.lobby(5)
        presser = flow.players[0]
        lobby = await flow.prompt(CLUB, "gl:")
        dropped = app.container.flood.dropped
        for i in range(40):
            action = ("leave", "join", "table")[i % 3]
            await fake.press(presser, lobby, f"gl:{flow.game_id}:{action}")
        for text in ("/tech ²", "/seat Player1 ²", "/speak " + "1" * 4000):
            for _ in range(5):
                await fake.send(presser, text, chat_id=CLUB)
        # the registration's /start and /nick spent two of the burst's eight
        await wait_until(lambda: app.container.flood.dropped - dropped >= 40 + 15 - 6, 30,
                         "the presses over the bound dropped")
        # the host's panel presses pass, however many
        panel = await flow.prompt(HOST, f"gh:{flow.game_id}:")
        before = app.container.flood.dropped
        for _ in range(20):
            await fake.press(HOST, panel, f"gh:{flow.game_id}:{flow.table.moment}:menu:main")
        await flow.delivered()
        assert app.container.flood.dropped == before
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        assert len(flow.table.seats) in (4, 5)  # the presser's last kept press: in or out

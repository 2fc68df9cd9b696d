"""Two tables in one club chat over HTTP, two hosts, whole games played at the same time: in a
forum each table speaks in its own topic (created by the bot and closed at the end); in a chat
without topics every post of a table starts with its name (docs/game-flow.md, "Several tables
in one club")."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.miniapp.server import state_answer
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.flow import CLUB, HOST, Flow, running, wait_until
from tests.game.harness import approve_club

HOST2 = 801  # a chat administrator: hosts the second table
PLAYERS = 6


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def start_hosts(fake: FakeTelegram, *hosts: int) -> None:
    for host in hosts:
        fake.user(host, f"Host{host}", language_code="en")
        await fake.send(host, "/start")
        await fake.next_message(host)


def lobby_of(messages: list[SentMessage], game_id: int | None = None) -> SentMessage | None:
    for message in messages:
        data = [d for _, d in message.buttons() if d.startswith("gl:")]
        if data and (game_id is None or data[0].startswith(f"gl:{game_id}:")):
            return message
    return None


def game_of(lobby: SentMessage) -> int:
    return int(lobby.buttons()[0][1].split(":")[1])


async def seat_all(flow: Flow, lobby: SentMessage) -> None:
    for uid in flow.players:
        answer = await flow.press(uid, lobby, f"gl:{flow.game_id}:join")
        assert answer.startswith("You are at the table"), answer
    await wait_until(lambda: len(flow.table.seats) == len(flow.players), 10, "all seated")


async def finish_both(one: Flow, two: Flow) -> None:
    await asyncio.gather(one.deal(), two.deal())
    await asyncio.gather(one.play_to_end(), two.play_to_end())
    await one.delivered()
    db = one.app.services.db
    for flow in (one, two):
        assert (await db.games.get(flow.game_id)).status == "finished"
    # the club's history and leaderboard hold both tables' games and points
    assert {g.game_id for g in await db.stats.finished_games(CLUB)} == {one.game_id, two.game_id}
    rows = [row for flow in (one, two) for row in await db.stats.game_points(flow.game_id)]
    day = rows[0].day
    top = {e.tg_id for e in await db.stats.club_top(CLUB, since=day, until=day, limit=50)}
    winners = {row.tg_id for row in rows if row.points > 0}
    assert winners and top == winners
    assert winners & set(one.players) and winners & set(two.players)


async def test_two_tables_in_a_forum_play_whole_games_each_in_its_own_topic(
        fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(CLUB, "Club", forum=True)
    fake.allow_topics(CLUB)
    fake.set_admins(CLUB, [HOST2])
    async with running(fake, tmp_path, default_locale="en") as app:
        await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(app.services.db, CLUB)  # its games count
        await start_hosts(fake, HOST, HOST2)
        one = Flow(fake, app, "en")
        two = Flow(fake, app, "en", host_id=HOST2)
        await one.register(PLAYERS, first=3001)
        await two.register(PLAYERS, first=3101, nick="Guest")
        # /newgame in the forum's General topic: the bot opens the table's own topic
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: lobby_of(fake.messages(CLUB)) is not None, 10, "lobby 1")
        lobby1 = lobby_of(fake.messages(CLUB))
        assert lobby1 is not None and lobby1.thread is not None
        topic1 = fake.topics[CLUB][lobby1.thread]
        assert topic1.by_bot and topic1.name == "Table 1"
        one.game_id, one.thread = game_of(lobby1), lobby1.thread
        # the second host opens table 2 from the lobby's button: a topic of its own
        query = await fake.press(HOST2, lobby1, f"gl:{one.game_id}:table")
        answer = await fake.callback_answer(query)
        assert answer["text"].startswith("Table 2 is open"), answer
        await fake.wait_for(lambda: len(fake.topics[CLUB]) == 2
                            and lobby_of(fake.in_topic(CLUB, max(fake.topics[CLUB]))),
                            10, "lobby 2")
        thread2 = max(fake.topics[CLUB])
        lobby2 = lobby_of(fake.in_topic(CLUB, thread2))
        assert lobby2 is not None and fake.topics[CLUB][thread2].name == "Table 2"
        two.game_id, two.thread = game_of(lobby2), thread2
        assert two.table.host_id == HOST2 and one.table.host_id == HOST
        await seat_all(one, lobby1)
        await seat_all(two, lobby2)
        # a player of table 1 is refused at table 2, told which table they sit at
        refused = await one.press(one.players[0], lobby2, f"gl:{two.game_id}:join")
        assert refused == (f"You already sit at another table: Table 1, game #{one.game_id}.")
        assert two.table.seat_of(one.players[0]) is None
        # each host runs its own table from its own panel
        for flow, other in ((one, two), (two, one)):
            await flow.prompt(flow.host_id, f"gh:{flow.game_id}:")
            assert flow.latest_with(flow.host_id, f"gh:{other.game_id}:") is None
        # a host's typed command in its topic reaches its table only
        await fake.send(HOST, "/status", chat_id=CLUB, thread=one.thread)
        await fake.wait_for(lambda: any(f"Game #{one.game_id}" in m.body
                                        for m in fake.in_topic(CLUB, one.thread)
                                        if "gl:" not in str(m.buttons())),
                            10, "table 1's status in its topic")
        await finish_both(one, two)
        # every post of each table went to its own topic; nothing outside them
        assert fake.in_topic(CLUB, None) == []
        for (flow, nick), (other, others) in (((one, "Player"), (two, "Guest")),
                                               ((two, "Guest"), (one, "Player"))):
            posts = fake.in_topic(CLUB, flow.thread)
            assert len(posts) > 5
            assert not any(re.search(rf"[Gg]ame #{other.game_id}\b|{others}\d", m.body)
                           for m in posts)
            assert any(re.search(rf"[Gg]ame #{flow.game_id}\b", m.body) for m in posts)
            assert any(re.search(rf"{nick}\d", m.body) for m in posts)
        # every send to the forum named its topic (the pictures too)
        sends = [r for r in fake.log if r.chat_id == CLUB
                 and r.method in ("sendMessage", "sendPhoto")]
        assert sends and all(r.params.get("message_thread_id") in (one.thread, two.thread)
                             for r in sends)
        assert any(r.method == "sendPhoto" for r in sends)
        # both topics were the bot's: closed once their table's last post was out
        assert topic1.closed and fake.topics[CLUB][thread2].closed
        closes = [r for r in fake.log if r.method == "closeForumTopic"]
        assert sorted(r.params["message_thread_id"] for r in closes) == sorted(
            [one.thread, two.thread])
        for r in closes:  # after the last post of its table
            thread = r.params["message_thread_id"]
            last = max(s.at for s in sends if s.params.get("message_thread_id") == thread)
            assert r.at >= last


async def test_two_tables_in_a_chat_without_topics_name_themselves_in_every_post(
        fake: FakeTelegram, tmp_path: Path) -> None:
    fake.set_admins(CLUB, [HOST2])
    async with running(fake, tmp_path, default_locale="en") as app:
        one = Flow(fake, app, "en")
        await one.lobby(PLAYERS)  # table 1, alone: its lobby has no name
        lobby = lobby_of(fake.messages(CLUB), one.game_id)
        assert lobby is not None and not lobby.body.startswith("<b>Table")
        await start_hosts(fake, HOST2)
        two = Flow(fake, app, "en", host_id=HOST2)
        await two.register(PLAYERS, first=3101, nick="Guest")
        before = len(fake.messages(CLUB))
        # a second host's /newgame opens table 2 in the same chat
        await fake.send(HOST2, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: lobby_of(fake.messages(CLUB)[before:]) is not None, 10,
                            "lobby 2")
        lobby2 = lobby_of(fake.messages(CLUB)[before:])
        assert lobby2 is not None and lobby2.body.startswith("<b>Table 2</b>\n")
        two.game_id = game_of(lobby2)
        await seat_all(two, lobby2)
        # the first host's second /newgame: one host, one table
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: any(f"#{one.game_id} is already open" in m.body
                                        for m in fake.messages(CLUB)), 10, "the refusal")
        # a member's /status with two tables open: which table? the answer names them
        await fake.send(one.players[0], "/status", chat_id=CLUB)
        await fake.wait_for(lambda: any("Tables 1, 2 are open" in m.body
                                        for m in fake.messages(CLUB)), 10, "tables named")
        await finish_both(one, two)
        posts = [m for m in fake.messages(CLUB)[before:] if m.reply_markup is not None
                 or m.photo_bytes is not None or "№" in m.body]
        game_posts = {flow.game_id: [m for m in fake.messages(CLUB)
                                     if m.body.startswith(f"<b>Table {n}</b>\n")]
                      for n, flow in ((1, one), (2, two))}
        # every post of a game after table 2 opened says which table speaks
        replies = ("is already open", "are open in this chat")
        for message in fake.messages(CLUB)[before:]:
            if any(r in message.body for r in replies):
                continue  # the answers to the commands above
            assert message.body.startswith(("<b>Table 1</b>\n", "<b>Table 2</b>\n")), \
                message.body[:80]
        assert posts
        for flow, (other, others) in ((one, (two, "Guest")), (two, (one, "Player"))):
            mine = game_posts[flow.game_id]
            assert mine and not any(re.search(rf"[Gg]ame #{other.game_id}\b|{others}\d",
                                              m.body) for m in mine)
            # within today's budget: about two posts per player per game
            assert len(mine) <= 2.5 * PLAYERS, [m.body[:40] for m in mine]


async def test_a_topic_made_for_a_table_whose_game_could_not_be_written_is_closed(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """createForumTopic comes before the game's row: when that write fails, the empty topic
    is closed at once, and the host's next /newgame opens the table in a topic of its own."""
    fake.group(CLUB, "Club", forum=True)
    fake.allow_topics(CLUB)
    async with running(fake, tmp_path, default_locale="en") as app:
        await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(app.services.db, CLUB)  # its games count
        await start_hosts(fake, HOST)
        games = app.services.db.games
        create = games.create
        failed: list[int] = []

        async def fails_once(*args: Any, **kwargs: Any) -> int:
            if not failed:
                failed.append(1)
                raise RuntimeError("the disk is full")
            return await create(*args, **kwargs)
        monkeypatch.setattr(games, "create", fails_once)
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: any(r.method == "closeForumTopic" for r in fake.log), 10,
                            "the empty topic closed")
        [made] = fake.topics[CLUB].values()
        assert made.by_bot and made.closed
        assert fake.in_topic(CLUB, made.thread) == []
        assert not app.container.games.tables
        # the next /newgame: a table in a new topic, which stays open
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: lobby_of(fake.messages(CLUB)) is not None, 10, "the lobby")
        lobby = lobby_of(fake.messages(CLUB))
        assert lobby is not None and lobby.thread not in (None, made.thread)
        assert not fake.topics[CLUB][lobby.thread].closed


async def test_each_hosts_panel_and_mini_app_name_the_table_once_another_opens(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """A lone table's panel says its game; once a second table opens in the chat (or a table
    plays in a forum's topic) the panel's header and the Mini App's title name the table."""
    fake.set_admins(CLUB, [HOST2])
    async with running(fake, tmp_path, default_locale="en") as app:
        one = Flow(fake, app, "en")
        await one.lobby(PLAYERS)
        games = one.games
        panel1 = await one.prompt(HOST, f"gh:{one.game_id}:")
        assert panel1.body.startswith(f"🎩 <b>Game #{one.game_id}</b>"), panel1.body[:60]
        _, alone = await state_answer(games, one.game_id, HOST, "en")
        assert alone["title"] == f"Game #{one.game_id}: the host's table"
        await start_hosts(fake, HOST2)
        two = Flow(fake, app, "en", host_id=HOST2)
        await fake.send(HOST2, "/newgame", chat_id=CLUB)
        await wait_until(lambda: len(games.tables) == 2, 10, "table 2")
        two.game_id = max(games.tables)
        panel2 = await two.prompt(HOST2, f"gh:{two.game_id}:")
        await fake.wait_for(lambda: panel1.body.startswith("<b>Table 1</b>\n"), 10,
                            "table 1's panel named")
        assert panel1.body.startswith(f"<b>Table 1</b>\n🎩 <b>Game #{one.game_id}</b>")
        assert panel2.body.startswith(f"<b>Table 2</b>\n🎩 <b>Game #{two.game_id}</b>")
        for flow, number in ((one, 1), (two, 2)):
            status, state = await state_answer(games, flow.game_id, flow.host_id, "en")
            assert status == 200 and state["title"] == f"Table {number} · game #{flow.game_id}"
        _, russian = await state_answer(games, two.game_id, HOST2, "ru")
        assert russian["title"] == f"Стол 2 · игра №{two.game_id}"


async def test_a_forum_tables_panel_names_it(fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(CLUB, "Club", forum=True)
    fake.allow_topics(CLUB)
    async with running(fake, tmp_path, default_locale="en") as app:
        await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(app.services.db, CLUB)  # its games count
        await start_hosts(fake, HOST)
        flow = Flow(fake, app, "en")
        await fake.send(HOST, "/newgame", chat_id=CLUB)
        await fake.wait_for(lambda: lobby_of(fake.messages(CLUB)) is not None, 10, "lobby")
        lobby = lobby_of(fake.messages(CLUB))
        assert lobby is not None
        flow.game_id = game_of(lobby)
        panel = await flow.prompt(HOST, f"gh:{flow.game_id}:")
        assert panel.body.startswith(f"<b>Table 1</b>\n🎩 <b>Game #{flow.game_id}</b>")
        _, state = await state_answer(flow.games, flow.game_id, HOST, "en")
        assert state["title"] == f"Table 1 · game #{flow.game_id}"


async def test_a_command_names_its_table_by_number_in_a_chat_with_two(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """Table 2 opened from the lobby's "another table" button in a chat without topics;
    ``/status 2`` (anyone) and a host's ``/deal 2``, ``/pause 2``… name their table; a
    number no table has, or a word instead of one, is answered and changes nothing; a host
    still runs only the table it hosts. (Members' answers in a club chat share a small
    budget, bot/telegram/flood.py: most questions here are the hosts'.)"""
    fake.set_admins(CLUB, [HOST2])
    async with running(fake, tmp_path, default_locale="en") as app:
        one = Flow(fake, app, "en")
        await one.lobby(PLAYERS)
        # a lone table: its number is accepted too, and its status has no name to open with
        alone = await one.host_says_as(one.players[0], "/status 1", f"Game #{one.game_id}")
        assert alone.startswith(f"<b>Game #{one.game_id}</b>: taking seats"), alone
        await start_hosts(fake, HOST2)
        two = Flow(fake, app, "en", host_id=HOST2)
        await two.register(PLAYERS, first=3101, nick="Guest")
        # the second host opens table 2 from the lobby's "another table" button
        lobby1 = await one.prompt(CLUB, f"gl:{one.game_id}:")
        assert await one.press(HOST2, lobby1, f"gl:{one.game_id}:table") == (
            f"Table 2 is open: game #{one.game_id + 1}. You are its host.")
        await wait_until(lambda: len(one.games.tables) == 2, 10, "table 2")
        two.game_id = max(one.games.tables)
        lobby2 = await two.prompt(CLUB, f"gl:{two.game_id}:")
        assert lobby2.body.startswith("<b>Table 2</b>\n")
        await seat_all(two, lobby2)
        # a member's bare /status: which table? the answer says how to name one
        which = await one.host_says_as(one.players[1], "/status", "are open in this chat")
        assert which == ("Tables 1, 2 are open in this chat. Name one by its number: "
                         "/status 2. A table's commands come from its host.")
        # a member names table 2: its status, opening with its name
        said = await one.host_says_as(one.players[2], "/status 2", f"Game #{two.game_id}")
        assert said.startswith(f"<b>Table 2</b>\n<b>Game #{two.game_id}</b>: taking seats"), \
            said
        assert f"Alive: {PLAYERS}" in said
        # table 1's host asks about its own table, by its number and without one
        said = await one.host_says_as(HOST, "/status №1", f"Game #{one.game_id}")
        assert said.startswith(f"<b>Table 1</b>\n<b>Game #{one.game_id}</b>"), said
        # a number no table has, a word instead of a number
        assert await one.host_says_as(HOST, "/status 3", "no Table 3") == (
            "There is no Table 3 in this chat. Open: 1, 2.")
        assert await one.host_says_as(HOST, "/status two", "only a table's number") == (
            "After /status only a table's number may follow, e.g. /status 2.")
        # the host of table 1 naming table 2 is refused: a table's commands are its host's
        refused = await one.host_says_as(HOST, "/deal 2", "host may do that")
        assert refused == "Only this game's host may do that."
        assert not two.table.started and not one.table.started
        # table 2's host names its table from the chat: dealt, paused, resumed, ended
        await fake.send(HOST2, "/deal 2", chat_id=CLUB)
        await wait_until(lambda: two.table.started, 10, "table 2 dealt")
        assert not one.table.started
        await fake.send(HOST2, "/pause 2", chat_id=CLUB)
        await wait_until(lambda: two.table.paused, 10, "table 2 paused")
        paused = await one.host_says_as(HOST, "/status 2", "(paused)")
        assert paused.startswith(f"<b>Table 2</b>\n<b>Game #{two.game_id}</b>: cards dealt"
                                 " (paused)"), paused
        await fake.send(HOST2, "/resume 2", chat_id=CLUB)
        await wait_until(lambda: not two.table.paused, 10, "table 2 resumed")
        await fake.send(HOST2, "/endgame 2", chat_id=CLUB)
        await wait_until(lambda: two.over, 10, "table 2 ended")
        assert not one.over and not one.table.started
        # the number of a table that has ended names none
        gone = await one.host_says_as(HOST, "/status 2", "no Table 2")
        assert gone == "There is no Table 2 in this chat. Open: 1."

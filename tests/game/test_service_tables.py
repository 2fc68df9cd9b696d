"""Several tables in one club chat, in process: numbers, hosts, routing of typed commands,
one table per player, labels in a chat without topics, a forum's topics (created and closed),
and a restart (docs/game-flow.md, "Several tables in one club")."""

from __future__ import annotations

from pathlib import Path

from bot.game.tables import Place
from record.table import Stage
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness, stage_now
from views.i18n import Translator

HOST2 = 600  # a chat administrator (is_admin=True): the second table's host


async def seat(h: Harness, game_id: int, ids: list[int]) -> None:
    for tg in ids:
        assert (await h.service.join(game_id, tg)).key == "game.join.ok"


async def test_a_second_host_opens_table_2_and_commands_reach_the_senders_table(
        h: Harness) -> None:
    first = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    # one host, one table: a second /newgame of the same host is refused
    assert await h.refused(h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)) \
        == "game.already_open"
    second = await h.service.open_lobby(CHAT, "Club", HOST2, is_admin=True)
    assert (first.number, second.number) == (1, 2)
    assert (await h.db.games.get(second.game_id)).table_no == 2
    ids = await h.players(14)
    await seat(h, first.game_id, ids[:7])
    await seat(h, second.game_id, ids[7:])
    # each host's typed command reaches that host's table
    await h.service.deal(CHAT, HOST2)
    assert second.stage is Stage.DEALT and first.stage is Stage.LOBBY
    await h.service.deal(CHAT, HOST)
    await h.service.start_night(CHAT, HOST)
    assert stage_now(first) is Stage.NIGHT and second.stage is Stage.DEALT
    # a member's command is ambiguous: the answer names the tables
    try:
        await h.service.status(CHAT, ids[0])
    except Exception as e:
        assert getattr(e, "key", None) == "tables.which"
        assert getattr(e, "kwargs", {}) == {"numbers": "1, 2", "example": 2}
    else:
        raise AssertionError("a member's /status was not refused")
    # a number names the table whoever asks: table 1 has no topic, so its name opens it
    named = await h.service.status(Place(CHAT, number=1), ids[0])
    assert (named.key, named.kwargs["number"]) == ("tables.status", 1)
    assert await h.refused(h.service.status(Place(CHAT, number=3), ids[0])) == "tables.no_such"
    # one table left open: every command is its own again (it keeps its name)
    await h.service.end_game(CHAT, HOST)
    left = await h.service.status(CHAT, ids[0])
    assert (left.key, left.kwargs["number"]) == ("tables.status", 2)
    # the host of the ended table may open a new one: the next number after the open ones
    third = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    assert third.number == 3


async def test_a_player_sits_at_one_table_at_a_time_and_a_host_does_not_play(
        h: Harness) -> None:
    first = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    second = await h.service.open_lobby(CHAT, "Club", HOST2, is_admin=True)
    (player,) = await h.players(1)
    await seat(h, first.game_id, [player])
    try:
        await h.service.join(second.game_id, player)
    except Exception as e:
        assert getattr(e, "key", None) == "tables.join.other"
        assert getattr(e, "kwargs", {}) == {"number": 1, "game": first.game_id}
    else:
        raise AssertionError("seated at two tables")
    assert second.seat_of(player) is None
    # the host of table 1 does not sit at table 2
    await h.db.players.register(HOST, display_name="Host", language="ru")
    await h.db.players.set_nickname(HOST, "Host")
    assert await h.refused(h.service.join(second.game_id, HOST)) == "tables.join.hosting"
    # a seated player does not host a table
    assert await h.refused(h.service.open_lobby(CHAT, "Club", player, is_admin=True)) \
        == "tables.host.seated"
    # the host of table 2 cannot seat table 1's player by nickname either
    nick = first.seats[1].name
    assert await h.refused(h.service.add_offline(CHAT, HOST2, nick, None)) == "tables.add.other"


async def test_in_a_chat_without_topics_every_post_names_its_table_once_two_are_open(
        h: Harness) -> None:
    first = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    before = len(h.club())
    assert not first.named and not h.club()[0].text.startswith("<b>Стол")
    second = await h.service.open_lobby(CHAT, "Club", HOST2, is_admin=True)
    assert first.named and second.named
    ids = await h.players(14)
    await seat(h, first.game_id, ids[:7])
    await seat(h, second.game_id, ids[7:])
    await h.service.deal(CHAT, HOST)
    await h.service.deal(CHAT, HOST2)
    posts = h.club()[before:]
    labels = {first.game_id: "<b>Стол 1</b>\n", second.game_id: "<b>Стол 2</b>\n"}
    for sent in posts:  # nothing in the club chat without its table's name
        assert sent.text.startswith(tuple(labels.values())), sent.text[:60]
        game = int((sent.key or "g0:").split(":")[0][1:])
        if game:
            assert sent.text.startswith(labels[game]), (sent.key, sent.text[:60])
    for game, label in labels.items():  # each table spoke, under its own name
        assert any(s.text.startswith(label) and (s.key or "").startswith(f"g{game}:")
                   for s in posts)
    # the label is logged: a restart keeps it
    assert "table_named" in [e.kind for e in await h.db.games.events(first.game_id)]


class ForumTopics(list[tuple[int, str]]):
    """The Bot API's createForumTopic, as a forum where the bot may create topics."""

    def __init__(self, allowed: bool = True) -> None:
        super().__init__()
        self.allowed = allowed
        self.closed: list[tuple[int, int]] = []  # closed at once: a table could not open

    async def create_topic(self, chat_id: int, name: str) -> int | None:
        if not self.allowed:
            return None
        self.append((chat_id, name))
        return 100 + len(self)

    async def close_topic(self, chat_id: int, thread: int) -> None:
        self.closed.append((chat_id, thread))


def forum_harness(db: Database, clock: FakeClock, translator: Translator, tmp_path: Path,
                  topics: ForumTopics) -> Harness:
    return make_harness(db, clock, translator, tmp_path, topics=topics)


async def test_a_forum_table_speaks_in_its_topic_and_closes_it_at_the_end(
        db: Database, fake_clock: FakeClock, translator: Translator, tmp_path: Path) -> None:
    topics = ForumTopics()
    h = forum_harness(db, fake_clock, translator, tmp_path, topics)
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    # /newgame in the forum's General topic: the bot creates the table's topic
    first = await h.service.open_lobby(Place(CHAT, None, forum=True), "Club", HOST,
                                       is_admin=False)
    assert topics == [(CHAT, "Стол 1")] and first.thread == 101 and first.own_topic
    # /newgame in a topic of the host's own: that topic is the table's
    second = await h.service.open_lobby(Place(CHAT, 55, forum=True), "Club", HOST2,
                                        is_admin=True)
    assert second.thread == 55 and not second.own_topic and len(topics) == 1
    assert not first.named and not second.named  # a topic each: no names needed
    ids = await h.players(14)
    await seat(h, first.game_id, ids[:7])
    await seat(h, second.game_id, ids[7:])
    # a command typed in a topic is that topic's table's, whoever sends it
    # (a topic's table goes by its name: its status opens with it)
    said = await h.service.status(Place(CHAT, 55, forum=True), ids[0])
    assert (said.key, said.kwargs["number"]) == ("tables.status", second.number)
    assert await h.refused(h.service.deal(Place(CHAT, 101, forum=True), HOST2)) \
        == "game.not_host"
    await h.service.deal(Place(CHAT, 101, forum=True), HOST)
    h.game_id = first.game_id
    await h.play_to_end()
    club = h.club()
    mine = [s for s in club if s.thread == 101]
    assert mine and [(s.text[:50], s.key) for s in club if s.thread not in (101, 55)] == []
    # the end: the bot's own topic is closed after the table's last post
    assert mine[-1].closes_topic and sum(s.closes_topic for s in club) == 1
    # the other table's topic is the host's: never closed by the bot
    await h.service.end_game(Place(CHAT, 55, forum=True), HOST2)
    assert sum(s.closes_topic for s in h.club()) == 1


async def test_without_the_right_to_create_topics_tables_share_the_place_named(
        db: Database, fake_clock: FakeClock, translator: Translator, tmp_path: Path) -> None:
    h = forum_harness(db, fake_clock, translator, tmp_path, ForumTopics(allowed=False))
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    first = await h.service.open_lobby(Place(CHAT, None, forum=True), "Club", HOST,
                                       is_admin=False)
    second = await h.service.open_lobby(Place(CHAT, None, forum=True), "Club", HOST2,
                                        is_admin=True)
    assert first.thread is None and second.thread is None
    assert first.named and second.named
    assert h.club()[-1].text.startswith("<b>Table 2</b>\n")


async def test_a_restart_keeps_each_tables_number_topic_and_name(
        db: Database, fake_clock: FakeClock, translator: Translator, tmp_path: Path) -> None:
    h = forum_harness(db, fake_clock, translator, tmp_path, ForumTopics())
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    first = await h.service.open_lobby(Place(CHAT, None, forum=True), "Club", HOST,
                                       is_admin=False)
    second = await h.service.open_lobby(Place(CHAT, 101, forum=True), "Club", HOST2,
                                        is_admin=True)
    assert second.thread == 102 and first.thread == 101  # asked in table 1's topic: its own
    again = make_harness(db, fake_clock, translator, tmp_path)
    await again.service.restore()
    tables = again.service.tables
    assert (tables[first.game_id].number, tables[first.game_id].thread,
            tables[first.game_id].own_topic) == (1, 101, True)
    assert (tables[second.game_id].number, tables[second.game_id].thread) == (2, 102)
    assert not tables[first.game_id].named

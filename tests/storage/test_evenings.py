"""A club's evenings in storage, on both backends: the list and its waitlist, the refusals that
write nothing, the messages queued with each change, sign-ups racing for the last seat, each
reminder marked once, and the no-shows written at the end."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta

from storage import Database
from storage.models import EveningChange
from storage.repos.evenings import Compose
from storage.repos.outbox import SEND, Queued
from tests.storage.conftest import CLUB, NOW, add_players

START = NOW + timedelta(days=2)
WALL = 1_000.0


def nothing(change: EveningChange) -> Sequence[Queued]:
    return []


def post(change: EveningChange) -> Sequence[Queued]:
    """One private line to every player who moved from the waitlist onto a seat."""
    before = {s.tg_id for s in change.before.seated}
    return [Queued(s.tg_id, SEND, {"text": f"seat {s.place}"})
            for s in change.after.seated if s.tg_id not in before]


async def announced(db: Database, *, tables: int = 2, seats: int = 2) -> int:
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    change = await db.evenings.announce(
        CLUB, 800, START, "Europe/Moscow", tables, seats, now=NOW, wall=WALL,
        compose=lambda c: [Queued(CLUB, SEND, {"text": "evening"}, f"e{c.after.evening.id}")])
    assert change is not None and change.refused is None
    assert change.new_chats == (CLUB,)
    return change.after.evening.id


async def sign(db: Database, evening: int, tg_id: int, *,
               compose: Compose = nothing) -> EveningChange:
    change = await db.evenings.sign_up(evening, tg_id, now=NOW, wall=WALL, compose=compose)
    assert change is not None
    return change


async def test_four_seats_six_sign_ups_two_wait_and_a_cancel_moves_the_first_up(
        db: Database) -> None:
    evening = await announced(db)
    players = list(range(11, 17))
    await add_players(db, *players)
    for tg_id in players:
        assert (await sign(db, evening, tg_id)).refused is None
    listed = await db.evenings.get(evening)
    assert listed is not None and listed.evening.capacity == 4
    assert [s.tg_id for s in listed.seated] == [11, 12, 13, 14]
    assert [s.tg_id for s in listed.waitlist] == [15, 16]
    assert [listed.waiting(s) for s in listed.waitlist] == [1, 2]
    change = await db.evenings.leave(evening, 12, now=NOW, wall=WALL, compose=post)
    assert change is not None and change.refused is None
    assert [s.tg_id for s in change.after.seated] == [11, 13, 14, 15]
    assert change.new_chats == (15,)  # the promoted one is told, in the same transaction
    queued = await db.query("SELECT chat_id, payload FROM outbox WHERE chat_id = 15")
    assert [(r[0], r[1]) for r in queued] == [(15, '{"text": "seat 4"}')]
    mine = await db.evenings.of_player(16)
    assert [(m.place, m.waiting, m.club_title) for m in mine] == [(5, 1, "Club")]


async def test_refusals_change_nothing(db: Database) -> None:
    evening = await announced(db)
    await add_players(db, 11, 12)
    await sign(db, evening, 11)
    assert (await sign(db, evening, 11)).refused == "already"
    left = await db.evenings.leave(evening, 12, now=NOW, wall=WALL, compose=post)
    assert left is not None and left.refused == "not_listed"
    late = await db.evenings.sign_up(evening, 12, now=START, wall=WALL, compose=nothing)
    assert late is not None and late.refused == "started"
    listed = await db.evenings.get(evening)
    assert listed is not None and [s.tg_id for s in listed.signups] == [11]
    assert await db.evenings.sign_up(999, 12, now=NOW, wall=WALL, compose=nothing) is None
    again = await db.evenings.announce(CLUB, 800, START, "Europe/Moscow", 1, 10, now=NOW,
                                       wall=WALL, compose=nothing)
    assert again is None  # one evening of the club at a time
    cancelled = await db.evenings.cancel(evening, wall=WALL, compose=nothing)
    assert cancelled is not None and cancelled.refused is None
    assert (await sign(db, evening, 12)).refused == "cancelled"
    twice = await db.evenings.cancel(evening, wall=WALL, compose=nothing)
    assert twice is not None and twice.refused == "cancelled"
    assert await db.evenings.live() == []


async def test_presses_for_the_last_seat_at_once_give_it_to_one(db: Database) -> None:
    evening = await announced(db, tables=1, seats=4)
    players = list(range(21, 29))
    await add_players(db, *players)
    for tg_id in players[:3]:
        await sign(db, evening, tg_id)
    racing = players[3:]
    changes = await asyncio.gather(*(sign(db, evening, p) for p in racing),
                                   *(sign(db, evening, p) for p in racing))
    assert sorted(c.refused or "" for c in changes) == [""] * 5 + ["already"] * 5
    listed = await db.evenings.get(evening)
    assert listed is not None
    assert [s.place for s in listed.signups] == list(range(1, 9))
    assert len(listed.seated) == 4 and len({s.tg_id for s in listed.signups}) == 8
    # each press was answered with the place it got, the one seat to exactly one of them
    got = {mine.place for c in changes if c.refused is None
           for p in racing if c.before.of(p) is None and (mine := c.after.of(p)) is not None}
    assert got == {4, 5, 6, 7, 8}


async def test_a_reminder_is_marked_once_whoever_sends_it(db: Database) -> None:
    evening = await announced(db)
    await add_players(db, 11, 12)
    for tg_id in (11, 12):
        await sign(db, evening, tg_id)

    def remind(change: EveningChange) -> Sequence[Queued]:
        return [Queued(s.tg_id, SEND, {"text": "tomorrow"}) for s in change.after.signups]

    sent = await asyncio.gather(*(db.evenings.remind(evening, "day", now=NOW, wall=WALL,
                                                     compose=remind) for _ in range(4)))
    assert sorted(c.refused or "" for c in sent if c is not None) == ["", "done", "done", "done"]
    rows = await db.query("SELECT chat_id FROM outbox WHERE chat_id > 0 ORDER BY chat_id")
    assert [r[0] for r in rows] == [11, 12]
    listed = await db.evenings.get(evening)
    assert listed is not None and listed.evening.reminded_day
    assert not listed.evening.reminded_soon


async def test_the_end_records_who_came_and_who_did_not(db: Database) -> None:
    evening = await announced(db, tables=1, seats=3)
    await add_players(db, 11, 12, 13, 14, 15)
    for tg_id in (11, 12, 13, 14, 15):
        await sign(db, evening, tg_id)
    game = await db.games.create(CLUB, 800, created_at=START - timedelta(hours=1))
    await db.evenings.invite(evening, game, [11, 12])
    assert await db.evenings.check_in(evening, 11, game)
    assert not await db.evenings.check_in(evening, 13, game)  # never invited there
    await db.games.set_seats(game, [(1, 11), (2, 12), (3, 15)])  # 12 walked in, 15 waitlisted
    earlier = await db.games.create(CLUB, 800, created_at=START - timedelta(days=3))
    await db.games.set_seats(earlier, [(1, 13)])  # another day: not this evening
    await db.evenings.begin(evening, wall=WALL, compose=nothing)
    assert (await sign(db, evening, 16)).refused == "started"
    end = await db.evenings.end(evening, now=START + timedelta(hours=6),
                                since=START - timedelta(hours=6),
                                until=START + timedelta(hours=6), wall=WALL, compose=nothing)
    assert end is not None and end.refused is None
    came = {s.tg_id: s.came for s in end.after.signups}
    assert came == {11: True, 12: True, 13: False, 14: None, 15: True}
    assert [await db.evenings.no_shows(p) for p in (11, 12, 13, 14, 15)] == [0, 0, 1, 0, 0]
    again = await db.evenings.end(evening, now=START, since=START, until=START, wall=WALL,
                                  compose=nothing)
    assert again is not None and again.refused == "done"


async def test_moving_the_club_to_a_supergroup_moves_its_evenings(db: Database) -> None:
    evening = await announced(db)
    await db.clubs.move_chat(CLUB, CLUB - 1)
    listed = await db.evenings.get(evening)
    assert listed is not None and listed.evening.club_chat_id == CLUB - 1
    assert [e.id for e in await db.evenings.live([CLUB - 1])] == [evening]


async def test_two_lobbies_never_invite_one_player_twice(db: Database) -> None:
    evening = await announced(db, tables=2, seats=2)
    await add_players(db, 11, 12, 13, 14)
    for tg_id in (11, 12, 13, 14):
        await sign(db, evening, tg_id)
    one = await db.games.create(CLUB, 800, created_at=NOW)
    two = await db.games.create(CLUB, 801, created_at=NOW)
    first, second = await asyncio.gather(db.evenings.invite(evening, one, [11, 12, 13]),
                                         db.evenings.invite(evening, two, [12, 13, 14]))
    assert set(first) & set(second) == set()  # one table each, whoever wrote first
    assert set(first) | set(second) == {11, 12, 13, 14}
    assert await db.evenings.invite(evening, one, first) == first  # its own again: still its
    # the first table dealt: the ones it invited and who did not come may be invited elsewhere
    await db.games.set_status(one, "running")
    assert await db.evenings.invite(evening, two, first) == first
    await db.evenings.check_in(evening, first[0], two)
    three = await db.games.create(CLUB, 802, created_at=NOW)
    await db.games.set_status(two, "finished")
    assert first[0] not in await db.evenings.invite(evening, three, first)  # came already

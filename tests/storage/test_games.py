from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest

from storage import (
    Database,
    Fine,
    GameClosed,
    GamePoints,
    InsufficientBalance,
    InvalidAmount,
    InvalidValue,
    UnknownClub,
    UnknownGame,
    UnknownPlayer,
)
from storage.repos.games import GameChange, Seating
from tests.present import present
from tests.storage.conftest import ADMIN, CLUB, NOW, add_players

DAY = date(2026, 3, 10)


async def setup(db: Database, players: int = 4) -> int:
    await add_players(db, *range(1, players + 1))
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    return await db.games.create(
        CLUB, ADMIN, seats=[(s, s) for s in range(1, players + 1)], created_at=NOW
    )


async def test_create_and_get(db: Database) -> None:
    game_id = await setup(db)
    game = await db.games.get(game_id)
    assert (game.id, game.club_chat_id, game.host_id, game.created_at) == (
        game_id, CLUB, ADMIN, NOW)
    assert game.status == "lobby" and game.commitment is None and game.finished_on is None
    assert [(s.seat, s.tg_id, s.role) for s in game.seats] == [(i, i, None) for i in range(1, 5)]
    assert game.seat_of(3) == 3 and game.seat_of(99) is None
    assert [g.id for g in await db.games.running()] == [game_id]


async def test_create_errors(db: Database) -> None:
    await add_players(db, 1, 2)
    with pytest.raises(UnknownClub):
        await db.games.create(CLUB, ADMIN, seats=[(1, 1)], created_at=NOW)
    await db.clubs.ensure(CLUB, title="Club", locale="ru")
    with pytest.raises(UnknownPlayer):
        await db.games.create(CLUB, ADMIN, seats=[(1, 1), (2, 77)], created_at=NOW)
    for seats, reason in (
        ([(1, 1), (1, 2)], "duplicate_seat"),
        ([(1, 1), (2, 1)], "duplicate_player"),
        ([(0, 1)], "seat_not_positive"),
    ):
        with pytest.raises(InvalidValue) as err:
            await db.games.create(CLUB, ADMIN, seats=seats, created_at=NOW)
        assert err.value.reason == reason
    assert await db.games.running() == []
    with pytest.raises(UnknownGame):
        await db.games.get(1)


async def test_event_log_sequence_and_replay(db: Database) -> None:
    game_id = await setup(db)
    payloads: list[dict[str, Any]] = [
        {"seat": 1, "target": 3}, {"text": "ночь", "nested": {"a": [1, 2]}}, {}]
    seqs = [await db.games.append_event(game_id, f"k{i}", p, at=NOW if i == 0 else None)
            for i, p in enumerate(payloads)]
    assert seqs == [1, 2, 3]
    events = await db.games.events(game_id)
    assert [(e.seq, e.kind, e.payload) for e in events] == [
        (1, "k0", payloads[0]), (2, "k1", payloads[1]), (3, "k2", {})]
    assert events[0].at == NOW and events[1].at is None
    assert [e.seq for e in await db.games.events(game_id, after=2)] == [3]
    with pytest.raises(InvalidValue) as err:
        await db.games.append_event(game_id, "bad", {"when": datetime(2026, 1, 1)})
    assert err.value.reason == "not_json"
    with pytest.raises(InvalidValue):
        await db.games.append_event(game_id, "", {})
    with pytest.raises(UnknownGame):
        await db.games.append_event(404, "x", {})
    with pytest.raises(UnknownGame):
        await db.games.events(404)
    assert len(await db.games.events(game_id)) == 3


async def test_sequence_numbers_are_per_game(db: Database) -> None:
    first = await setup(db)
    second = await db.games.create(CLUB, ADMIN, seats=[(1, 1)], created_at=NOW)
    assert await db.games.append_event(first, "a", {}) == 1
    assert await db.games.append_event(second, "a", {}) == 1
    assert await db.games.append_event(first, "a", {}) == 2


async def test_status_commitment_roles_seats(db: Database) -> None:
    game_id = await setup(db)
    assert (await db.games.set_commitment(game_id, "sha256:abc")).commitment == "sha256:abc"
    assert (await db.games.set_commitment(game_id, "sha256:abc")).commitment == "sha256:abc"
    with pytest.raises(InvalidValue) as err:
        await db.games.set_commitment(game_id, "sha256:other")
    assert err.value.reason == "already_set"
    with pytest.raises(InvalidValue):
        await db.games.set_commitment(game_id, "")
    game = await db.games.set_roles(game_id, {1: "mafia", 2: "doctor", 3: "civilian"})
    assert game.roles == {1: "mafia", 2: "doctor", 3: "civilian"}
    with pytest.raises(InvalidValue) as err:
        await db.games.set_roles(game_id, {1: "civilian", 9: "mafia"})
    assert err.value.reason == "no_such_seat"
    assert (await db.games.get(game_id)).roles[1] == "mafia"  # nothing partial
    with pytest.raises(InvalidValue):
        await db.games.set_roles(game_id, {1: ""})
    assert (await db.games.set_status(game_id, "running")).status == "running"
    assert (await db.games.set_status(game_id, "paused")).status == "paused"
    with pytest.raises(InvalidValue):
        await db.games.set_status(game_id, "bogus")
    reseated = await db.games.set_seats(game_id, [(1, 4), (2, 3)])
    assert [(s.seat, s.tg_id, s.role) for s in reseated.seats] == [(1, 4, None), (2, 3, None)]
    for call in (db.games.set_status(404, "running"), db.games.set_commitment(404, "x"),
                 db.games.set_roles(404, {}), db.games.set_seats(404, [])):
        with pytest.raises(UnknownGame):
            await call


async def test_finish_is_atomic_and_idempotent(db: Database) -> None:
    game_id = await setup(db)
    await db.games.set_status(game_id, "running")
    points = [GamePoints(1, 6, "team_win", "end"), GamePoints(2, 1, "survived_day", "day 1")]
    assert await db.games.finish(game_id, status="finished", points=points, day=DAY)
    assert not await db.games.finish(game_id, status="finished", points=points, day=DAY)
    assert not await db.ledger.record_game(game_id, points, day=DAY)
    game = await db.games.get(game_id)
    assert (game.status, game.finished_on) == ("finished", DAY)
    assert await db.ledger.balance(1) == 6 and await db.ledger.balance(2) == 1
    assert present(await db.players.get(4)).games_played == 1
    assert await db.games.running() == []
    # a closed game's log and seats no longer change
    with pytest.raises(GameClosed) as err:
        await db.games.append_event(game_id, "late", {})
    assert err.value.status == "finished"
    for call in (db.games.set_status(game_id, "running"), db.games.set_roles(game_id, {}),
                 db.games.set_commitment(game_id, "x"), db.games.set_seats(game_id, [])):
        with pytest.raises(GameClosed):
            await call


async def test_finish_failure_leaves_game_running(db: Database) -> None:
    game_id = await setup(db)
    await db.games.set_status(game_id, "running")
    with pytest.raises(UnknownPlayer):
        await db.games.finish(game_id, status="finished", day=DAY,
                              points=[GamePoints(1, 6, "team_win"), GamePoints(50, 6, "x")])
    game = await db.games.get(game_id)
    assert (game.status, game.finished_on) == ("running", None)
    assert await db.ledger.balance(1) == 0
    with pytest.raises(InvalidValue):
        await db.games.finish(game_id, status="running", points=[], day=DAY)
    with pytest.raises(UnknownGame):
        await db.games.finish(404, status="finished", points=[], day=DAY)


async def test_aborted_after_set_status_still_accepts_finish_points_once(db: Database) -> None:
    game_id = await setup(db)
    await db.games.set_status(game_id, "aborted")
    assert await db.games.finish(game_id, status="aborted", points=[], day=DAY)
    assert not await db.games.finish(game_id, status="finished", points=[], day=DAY)
    assert (await db.games.get(game_id)).status == "aborted"


async def test_a_step_writes_its_events_and_seats_together(db: Database) -> None:
    game_id = await setup(db, players=3)
    await db.games.append_events_with_messages(
        game_id, [(1, "offline_seat", {"tg_id": 3}, None)], [], now=0.0,
        seats=[(1, 3), (2, 1)])
    game = await db.games.get(game_id)
    assert [(s.seat, s.tg_id) for s in game.seats] == [(1, 3), (2, 1)]
    assert [(e.seq, e.kind) for e in await db.games.events(game_id)] == [(1, "offline_seat")]
    # an unknown player: neither the seats nor the events are written
    with pytest.raises(UnknownPlayer):
        await db.games.append_events_with_messages(
            game_id, [(2, "offline_seat", {"tg_id": 2}, None)], [], now=0.0,
            seats=[(1, 99)])
    assert [(s.seat, s.tg_id) for s in (await db.games.get(game_id)).seats] == [(1, 3), (2, 1)]
    assert len(await db.games.events(game_id)) == 1


async def test_a_seating_writes_the_seats_after_those_it_keeps(db: Database) -> None:
    """``Seating``: seats 1..kept are stored as they are, ``stored`` seats in all; a join
    inserts its new seat only, a leave or a reseat writes the seats from the first changed
    one; refused as a full write is (a closed game, an unknown player), changing nothing."""
    game_id = await setup(db, players=5)

    async def seated(seating: Seating) -> list[tuple[int, int]]:
        await db.games.append_events_with_messages(game_id, [], [], now=0.0, seats=seating)
        return [(s.seat, s.tg_id) for s in (await db.games.get(game_id)).seats]

    full = [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert await seated(Seating(full[:3], kept=2, stored=4)) == full[:3]  # seat 4 left
    assert await seated(Seating(full, kept=3, stored=3)) == full  # a join: seat 4 added
    moved = [(1, 1), (2, 4), (3, 2), (4, 3)]  # the fourth reseated second
    assert await seated(Seating(moved, kept=1, stored=4)) == moved
    with pytest.raises(UnknownPlayer):
        await seated(Seating([*moved, (5, 99)], kept=4, stored=4))
    with pytest.raises(InvalidValue):
        await seated(Seating([*moved, (5, 4)], kept=4, stored=4))  # seated twice
    assert await seated(Seating([*moved, (5, 5)], kept=4, stored=4)) == [*moved, (5, 5)]
    await db.games.finish(game_id, status="aborted", points=[], day=DAY)
    with pytest.raises(GameClosed):
        await seated(Seating(moved, kept=4, stored=5))
    with pytest.raises(GameClosed):
        await seated(Seating([(1, 1)], kept=0, stored=None))
    assert [(s.seat, s.tg_id) for s in (await db.games.get(game_id)).seats] == [*moved, (5, 5)]


async def test_a_step_writes_the_games_change_with_its_events(db: Database) -> None:
    """The deal's step: its log, the roles, the commitment and the status in one transaction;
    a refused change writes nothing of the step."""
    game_id = await setup(db, players=3)
    refused = GameChange(roles={1: "mafia", 9: "doctor"}, status="running")
    with pytest.raises(InvalidValue):
        await db.games.append_events_with_messages(
            game_id, [(1, "deal", {}, None)], [], now=0.0, change=refused)
    game = await db.games.get(game_id)
    assert game.status == "lobby" and game.commitment is None
    assert await db.games.events(game_id) == []
    change = GameChange(roles={1: "mafia", 2: "doctor"}, commitment="abc").then(
        GameChange(roles={1: "mafia", 2: "doctor", 3: "civilian"}, status="running"))
    await db.games.append_events_with_messages(
        game_id, [(1, "deal", {}, None)], [], now=0.0, change=change)
    game = await db.games.get(game_id)
    assert (game.status, game.commitment) == ("running", "abc")
    assert [(s.seat, s.role) for s in game.seats] == [(1, "mafia"), (2, "doctor"),
                                                      (3, "civilian")]
    assert [e.kind for e in await db.games.events(game_id)] == ["deal"]
    # the status alone (a pause), with no event
    await db.games.append_events_with_messages(game_id, [], [], now=0.0,
                                               change=GameChange(status="paused"))
    assert (await db.games.get(game_id)).status == "paused"


async def test_a_step_change_is_refused_as_the_single_setters_refuse(db: Database) -> None:
    """The step's change (2-4 statements) checks what set_roles, set_commitment and
    set_status check: a known status, one commitment, roles of seats, an open game."""
    game_id = await setup(db, players=2)
    await db.games.append_events_with_messages(game_id, [], [], now=0.0,
                                               change=GameChange(commitment="abc"))
    for bad in (GameChange(status="nonsense"), GameChange(commitment="other"),
                GameChange(commitment=""), GameChange(roles={1: ""}),
                GameChange(roles={3: "mafia"})):
        with pytest.raises(InvalidValue):
            await db.games.append_events_with_messages(game_id, [], [], now=0.0, change=bad)
    await db.games.append_events_with_messages(  # the same commitment again is fine
        game_id, [], [], now=0.0, change=GameChange(commitment="abc", status="running"))
    await db.games.finish(game_id, status="aborted", points=[], day=DAY)
    with pytest.raises(GameClosed):
        await db.games.append_events_with_messages(game_id, [], [], now=0.0,
                                                   change=GameChange(status="paused"))
    game = await db.games.get(game_id)
    assert (game.status, game.commitment) == ("aborted", "abc")
    assert [s.role for s in game.seats] == [None, None]


async def test_a_step_writes_its_fines_checked_against_the_balance(db: Database) -> None:
    """A foul's step: its event and its fine in one transaction; a fine the balance cannot pay
    writes nothing of the step; the reversal of a fine gives the points back; the rows are the
    game's own (``kind`` game, the game, the phase)."""
    game_id = await setup(db, players=2)
    await db.ledger.adjust(1, 3, reason="start", admin_id=ADMIN, now=NOW)
    fine = Fine(1, -2, "foul_at_night", "night 1", DAY)
    await db.games.append_events_with_messages(
        game_id, [(1, "foul", {"seat": 1, "points": 2}, None)], [], now=0.0,
        change=GameChange(fines=(fine,)))
    assert await db.ledger.balance(1) == 1
    with pytest.raises(InsufficientBalance):  # 2 more than the 1 left: nothing of the step
        await db.games.append_events_with_messages(
            game_id, [(2, "foul", {"seat": 1, "points": 2}, None)], [], now=0.0,
            change=GameChange(fines=(fine,)))
    assert [e.kind for e in await db.games.events(game_id)] == ["foul"]
    assert await db.ledger.balance(1) == 1
    with pytest.raises(InsufficientBalance):  # a player with nothing pays nothing
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0, change=GameChange(fines=(Fine(2, -1, "foul_other",
                                                                     "day 1", DAY),)))
    with pytest.raises(InvalidAmount):
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0, change=GameChange(fines=(Fine(2, 0, "x", "day 1", DAY),)))
    back = Fine(1, 2, "foul_undone", "night 1", DAY)
    await db.games.append_events_with_messages(
        game_id, [(2, "foul_undone", {"number": 1}, None)], [], now=0.0,
        change=GameChange(fines=(back,)))
    assert await db.ledger.balance(1) == 3
    rows = await db.stats.game_points(game_id)
    assert [(r.tg_id, r.points, r.reason, r.phase, r.kind, r.game_id) for r in rows] == [
        (1, -2, "foul_at_night", "night 1", "game", game_id),
        (1, 2, "foul_undone", "night 1", "game", game_id)]
    # the game's points come after its fines, once; then the game is closed to fines
    assert await db.games.finish(game_id, status="finished", day=DAY,
                                 points=[GamePoints(1, 6, "team_win", "end")])
    assert await db.ledger.balance(1) == 9
    with pytest.raises(GameClosed):
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0, change=GameChange(fines=(back,)))
    assert await db.ledger.balance(1) == 9


async def test_fines_of_one_step_are_checked_one_after_the_other(db: Database) -> None:
    game_id = await setup(db, players=2)
    await db.ledger.adjust(2, 3, reason="start", admin_id=ADMIN, now=NOW)
    two = Fine(2, -2, "foul_other", "day 1", DAY)
    with pytest.raises(InsufficientBalance):
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0, change=GameChange(fines=(two,)).then(
                GameChange(fines=(two,))))
    assert await db.ledger.balance(2) == 3
    assert await db.stats.game_points(game_id) == []


async def test_a_fine_never_takes_the_points_a_gift_request_reserves(db: Database) -> None:
    """As ``/redeem``: what an open gift request reserves stays for it; a fine takes at most
    the rest (``ledger.available``)."""
    game_id = await setup(db, players=1)
    await db.ledger.adjust(1, 5, reason="start", admin_id=ADMIN, now=NOW)
    gift = await db.gifts.add("Mug", 3, 1, admin_id=ADMIN, now=NOW)
    await db.gift_requests.ask(1, gift.id, price=3, card=1, now=NOW)
    assert await db.ledger.available(1) == 2
    with pytest.raises(InsufficientBalance) as refused:
        await db.games.append_events_with_messages(
            game_id, [], [], now=0.0, change=GameChange(fines=(Fine(1, -3, "foul_other",
                                                                     "day 1", DAY),)))
    assert refused.value.reserved == 3
    await db.games.append_events_with_messages(
        game_id, [], [], now=0.0, change=GameChange(fines=(Fine(1, -2, "foul_other",
                                                                 "day 1", DAY),)))
    assert (await db.ledger.balance(1), await db.ledger.available(1)) == (3, 0)

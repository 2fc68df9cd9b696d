"""Seats without Telegram: the host seats a player by nickname and presses its buttons."""

from __future__ import annotations

from pathlib import Path

import engine
from bot.game.callbacks import ForNightCb, ForVoteCb
from record.table import Stage
from storage.db import Database
from storage.models import OFFLINE_ID_MAX, is_offline_account
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_restart import restart, snapshot


async def offline_lobby(h: Harness, real: int, offline: tuple[str, ...]) -> list[int]:
    """``real`` Telegram players join, then the host seats the offline nicknames."""
    await h.lobby(real)
    ids = []
    for i, nick in enumerate(offline):
        answer = await h.service.add_offline(CHAT, HOST, nick, "m" if i % 2 else "f")
        assert answer.key == "seats.add.new", answer
        player = await h.db.players.by_nickname(nick)
        assert player is not None
        ids.append(player.tg_id)
    return ids


def offline_seats(h: Harness) -> list[int]:
    return [s for s in sorted(h.table.seats) if h.table.is_offline(s)]


async def test_addseat_creates_offline_accounts_and_marks_the_lobby(h: Harness) -> None:
    ids = await offline_lobby(h, 8, ("Ghost", "Шмель"))
    assert all(is_offline_account(i) and i <= OFFLINE_ID_MAX for i in ids)
    assert ids[0] != ids[1]
    ghost = await h.db.players.get(ids[0])
    assert ghost is not None and ghost.offline and ghost.nickname == "Ghost" and ghost.sex == "f"
    assert h.table.seat_of(ids[0]) == 9 and h.table.seat_of(ids[1]) == 10
    assert offline_seats(h) == [9, 10]
    lobby = [s for s in h.club() if s.edit][-1].text
    assert "№9 Ghost — без Telegram" in lobby
    # the same nickname again: refused, nothing changes
    assert await h.refused(h.service.add_offline(CHAT, HOST, "ghost", None)) == "seats.add.already"
    # only the host; a bad nickname gets the nickname rules
    assert await h.refused(h.service.add_offline(CHAT, 1001, "Other", None)) == "game.not_host"
    assert await h.refused(h.service.add_offline(CHAT, HOST, "<b>", None)) == "nick.bad_chars"
    assert len(h.table.seats) == 10
    # a Telegram account found by nickname is asked first, and seated when it says yes
    answer = await h.service.unseat(CHAT, HOST, "Player1")
    assert answer.key == "seats.unseat.ok"
    answer = await h.service.add_offline(CHAT, HOST, "player1", None)
    assert answer.key == "seats.ask.sent" and answer.kwargs["nick"] == "Player1"
    assert h.table.seat_of(1001) is None
    assert (await h.service.consent(h.game_id, 1001, True)).key == "seats.ask.seated"
    assert h.table.is_offline(h.table.seat_of(1001) or 0)
    # /unseat of an offline seat clears the mark (a re-join would be an ordinary seat)
    await h.service.unseat(CHAT, HOST, "Player1")
    assert 1001 not in h.table.offline


async def test_offline_seats_route_to_the_host_and_only_the_host_presses(h: Harness) -> None:
    ids = await offline_lobby(h, 8, ("Ghost", "Шмель"))
    await h.service.deal(CHAT, HOST)
    table = h.table
    seats = offline_seats(h)
    assert seats == [9, 10]
    # the cards of both offline seats went to the host, each saying whose it is
    cards = [s for s in h.private(HOST) if s.protect]
    assert len(cards) == 2
    for seat, card in zip(seats, cards, strict=True):
        assert f"📵 №{seat} {table.name(seat)}</b> играет без Telegram" in card.text
        assert h.tr.t("ru", f"game.role.{table.role(seat)}") in card.text
    # nothing was sent to the offline accounts' ids
    assert not [s for s in h.sender.sent if s.chat_id in ids]

    await h.service.start_night(CHAT, HOST)
    moment = table.moment
    actors = [s for s in seats if engine.legal_targets(table.game, s)]
    for seat in actors:
        prompt = next(s for s in reversed(h.private(HOST))
                      if f"📵 №{seat} " in s.text and s.markup is not None)
        data = h.buttons(prompt)
        assert data and all(ForNightCb.unpack(d).seat == seat for d in data)
    seat = seats[0]
    target = engine.legal_targets(table.game, seat)[0]
    real = next(s for s in sorted(table.seats) if not table.is_offline(s))
    # a real player may not act for an offline seat, nor the host for a seated real player
    assert await h.refused(h.service.choose(h.game_id, h.tg(real), moment, target,
                                            for_seat=seat)) == "seats.not_yours"
    assert await h.refused(h.service.choose(h.game_id, HOST, moment, target,
                                            for_seat=real)) == "seats.not_yours"
    # the offline account's own id (never a Telegram user) and the host without a seat
    assert await h.refused(h.service.choose(h.game_id, ids[0], moment, target)) == (
        "seats.played_by_host")
    assert await h.refused(h.service.choose(h.game_id, HOST, moment, target)) == (
        "game.rule.not_at_table")
    assert not table.choices
    # the host's press for the seat acts for that seat only
    await h.choose(seat, target)
    assert table.choices == {seat: target}


async def test_game_with_offline_seats_to_the_end_pays_their_points(h: Harness) -> None:
    ids = await offline_lobby(h, 8, ("Ghost", "Шмель"))
    await h.service.deal(CHAT, HOST)
    table = h.table  # kept: the finished game leaves the registry
    await h.play_to_end()
    game = await h.db.games.get(h.game_id)
    assert game.status == "finished"
    expected = {i: 0 for i in ids}
    for entry in table.game.ledger:
        if table.tg_of(entry.seat) in expected:
            expected[table.tg_of(entry.seat)] += entry.points
    assert any(expected.values())
    for tg in ids:
        rows = await h.db.ledger.recent(tg, limit=100)
        assert all(r.game_id == h.game_id for r in rows)
        assert sum(r.points for r in rows) == expected[tg] == await h.db.ledger.balance(tg)
        player = await h.db.players.get(tg)
        assert player is not None and player.games_played == 1
    # the host voted for the offline seats through their own buttons
    votes = [d for s in h.private(HOST) for d in h.buttons(s) if d.startswith("gsv:")]
    offline = {s for s in table.seats if table.is_offline(s)}
    assert votes and {ForVoteCb.unpack(d).seat for d in votes} <= offline
    logged = [e for e in await h.db.games.events(h.game_id)
              if e.kind == "vote" and e.payload["seat"] in offline]
    assert logged
    # nothing was ever sent to an offline account's id
    assert not [s for s in h.sender.sent if s.chat_id in ids]


async def test_restart_mid_night_keeps_offline_seats(h: Harness, db: Database,
                                                     tmp_path: Path) -> None:
    await offline_lobby(h, 8, ("Ghost", "Шмель"))
    await h.service.deal(CHAT, HOST)
    await h.service.start_night(CHAT, HOST)
    before = snapshot(h.table)
    offline = set(h.table.offline)
    moment = h.table.moment

    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    assert snapshot(t2) == before and t2.offline == offline
    assert [s for s in sorted(t2.seats) if t2.is_offline(s)] == [9, 10]
    # the offline seats still to choose were prompted again, to the host, with their buttons
    again = [s for s in t2.pending_night() if t2.is_offline(s)]
    assert again
    for seat in again:
        prompt = next(s for s in h2.private(HOST) if f"📵 №{seat} " in s.text and s.markup)
        assert {ForNightCb.unpack(d).seat for d in h2.buttons(prompt)} == {seat}
    # the host's press after the restart acts for the seat
    seat = again[0]
    target = engine.legal_targets(t2.game, seat)[0]
    await h2.service.choose(h2.game_id, HOST, moment, target, for_seat=seat)
    assert t2.choices[seat] == target
    await h2.deadlines.advance(61)
    assert t2.stage is Stage.DAY
    await h2.play_to_end(start_with_day=True)
    assert (await h2.db.games.get(h2.game_id)).status == "finished"
    await h2.db.close()


async def test_offline_seat_holds_a_friend_immunity_and_can_die_technically(h: Harness) -> None:
    await h.lobby(9)  # seat 3 "m" (player 1003)
    await h.service.add_offline(CHAT, HOST, "Ghost", "f")  # seat 10, beside 9 and 1
    _table, legal = await h.service.friend_menu(1003)
    assert 10 in legal
    await h.service.friend_choose(h.game_id, 1003, 10, 0)
    ask = [s for s in h.private(HOST) if s.markup is not None][-1]
    await h.service.friend_decide(h.game_id, HOST, int(h.buttons(ask)[0].split(":")[2]), True)
    # an offline seat places no order of its own: /friend is a player's private command
    ghost = await h.db.players.by_nickname("Ghost")
    assert ghost is not None
    assert await h.refused(h.service.friend_menu(ghost.tg_id)) == "seats.played_by_host"
    await h.service.deal(CHAT, HOST)
    t = h.table
    assert t.is_offline(10) and t.game.player(10).friend is not None
    await h.service.start_vote(CHAT, HOST)
    await h.service.technical_death(CHAT, HOST, 10)
    assert not t.game.player(10).alive and t.game.player(10).technical
    assert await h.refused(h.vote(10, 1)) == "game.rule.voter_dead"


async def test_restart_in_the_lobby_keeps_the_offline_mark(h: Harness, db: Database,
                                                           tmp_path: Path) -> None:
    await offline_lobby(h, 8, ("Ghost", "Шмель"))
    await h.service.unseat(CHAT, HOST, "Шмель")
    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    assert t2.stage is Stage.LOBBY and len(t2.seats) == 9
    assert [s for s in sorted(t2.seats) if t2.is_offline(s)] == [9]
    await h2.service.add_offline(CHAT, HOST, "Шмель", None)  # found again, not created
    await h2.service.deal(CHAT, HOST)
    assert [s for s in sorted(t2.seats) if t2.is_offline(s)] == [9, 10]
    assert len([s for s in h2.private(HOST) if s.protect]) == 2
    await h2.db.close()

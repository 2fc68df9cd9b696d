"""Restarts: every running game is rebuilt from its log, deadlines re-armed, buttons work."""

from __future__ import annotations

import contextlib
import copy
from dataclasses import replace
from pathlib import Path

import engine
from bot.game.callbacks import LobbyCb
from engine import Role
from record.table import Memory, Stage, Table
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness
from views.i18n import Translator


def snapshot(t: Table) -> Table:
    """The table's whole replayed state, copied (the live table goes on changing): every field
    a rebuild gives (``Table`` equality), the process's memory left out."""
    return copy.deepcopy(replace(t, memory=Memory()))


async def restart(h: Harness, db: Database, tmp_path: Path) -> Harness:
    """A new process: a new service on the same database file (the old one just vanishes,
    as after kill -9: its memory and scheduler jobs are gone)."""
    clock = h.clock
    assert isinstance(clock, FakeClock)
    assert db.path is not None
    again = await Database.open(db.path)
    new = make_harness(again, clock, Translator.load(), tmp_path)
    new.game_id = h.game_id
    await new.service.restore()
    return new


async def test_restart_mid_night(h: Harness, db: Database, tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    doctor = h.seats_with(Role.DOCTOR)[0]
    target = next(s for s in h.civilians() if s != doctor)
    await h.choose(doctor, target)
    first = h.table.pickers()[0]
    await h.choose(first, next(s for s in h.civilians() if s != target))
    before = snapshot(h.table)
    moment = h.table.moment
    await h.deadlines.advance(10)

    h2 = await restart(h, db, tmp_path)
    assert snapshot(h2.table) == before
    assert {"night", "mafia"} <= h2.deadlines.names()
    # the players still to choose got their prompt again; the doctor did not
    for seat in h2.table.pending_night():
        assert h2.private(h2.tg(seat)), seat
    assert not h2.private(h2.tg(doctor))
    # a button from before the restart still works ... or says why not
    assert await h2.refused(h2.choose(doctor, target)) == "game.night.already"
    police = h2.seats_with(Role.POLICEMAN)[0]
    await h2.service.choose(h2.game_id, h2.tg(police), moment, doctor)
    assert h2.table.choices[police] == doctor
    await h2.deadlines.advance(51)
    assert h2.table.stage is Stage.DAY
    assert any("🌅" in s for s in h2.club_texts())
    await h2.play_to_end(start_with_day=True)
    game = await h2.db.games.get(h2.game_id)
    assert game.status == "finished"
    await h2.db.close()


async def test_restart_mid_vote(h: Harness, db: Database, tmp_path: Path) -> None:
    await h.dealt(10)
    await h.play_night()
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    await h.vote(t.order[0], t.order[1])
    await h.deadlines.advance(61)  # the second voter times out
    before = snapshot(t)
    current = t.current_voter()
    assert current is not None

    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    assert snapshot(t2) == before
    assert h2.deadlines.names() == {"turn"}
    assert h2.private(h2.tg(current))  # re-prompted
    await h2.vote(current, t2.order[0] if current != t2.order[0] else t2.order[1])
    await h2.play_vote_rest()
    assert t2.stage in (Stage.EVENING, Stage.OVER) or h2.over
    await h2.db.close()


async def test_restart_in_lobby_and_after_the_end(h: Harness, db: Database,
                                                   tmp_path: Path) -> None:
    await h.lobby(8)
    h2 = await restart(h, db, tmp_path)
    assert h2.table.stage is Stage.LOBBY and len(h2.table.seats) == 8
    [late] = await h2.players(1, first=1100)
    await h2.service.join(h2.game_id, late)
    await h2.service.deal(CHAT, HOST)
    await h2.play_to_end()
    h3 = await restart(h2, db, tmp_path)
    assert h3.service.tables == {}
    await h2.db.close()
    await h3.db.close()


async def test_a_lobby_whose_process_died_before_its_post_is_posted_by_the_restart(
        h: Harness, db: Database, tmp_path: Path) -> None:
    """/newgame commits the game's row, then queues the post in a step of its own: a process
    killed in between left a lobby nobody could see or join, and every later /newgame of the
    club refused with "a game is open". The restart posts it, once."""
    h.game_id = await db.games.create(CHAT, HOST, created_at=h.clock())  # and then: kill -9
    assert h.club() == []
    h2 = await restart(h, db, tmp_path)
    assert h2.table.stage is Stage.LOBBY
    posts = h2.club()
    assert len(posts) == 1
    assert LobbyCb(game=h2.game_id, action="join").pack() in h2.buttons(posts[0])
    assert [e.kind for e in await db.games.events(h2.game_id)] == ["lobby_posted"]
    # the lobby works: players join it, the host cannot open a second one
    ids = await h2.players(8)
    for tg in ids:
        await h2.service.join(h2.game_id, tg)
    assert len(h2.table.seats) == 8
    assert await h2.refused(h2.service.open_lobby(CHAT, "Club", HOST, is_admin=False)) \
        == "game.already_open"
    # a second restart finds the post logged and says nothing
    h3 = await restart(h2, db, tmp_path)
    assert h3.club() == [] and len(h3.table.seats) == 8
    for again in (h2, h3):
        await again.db.close()


async def test_a_lobby_posted_before_the_restart_is_not_posted_again(
        h: Harness, db: Database, tmp_path: Path) -> None:
    await h.lobby(3)
    assert [e.kind for e in await db.games.events(h.game_id)] == ["lobby_posted"]
    h2 = await restart(h, db, tmp_path)
    assert h2.club() == [] and len(h2.table.seats) == 3
    await h2.db.close()


async def test_restart_when_the_crash_came_before_the_announcement(
        h: Harness, db: Database, tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    # the night resolution is in the log, but the process died before announcing it
    await h.db.games.append_event(h.game_id, "night_resolved", {"choices": {}})
    h2 = await restart(h, db, tmp_path)
    assert any("🌅" in s for s in h2.club_texts())
    assert h2.table.stage is Stage.DAY and t.stage is Stage.NIGHT
    h3 = await restart(h2, db, tmp_path)
    assert not any("🌅" in s for s in h3.club_texts())  # announced once
    for x in (h2, h3):
        await x.db.close()


async def test_restart_while_paused_keeps_the_pause(h: Harness, db: Database,
                                                   tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    await h.deadlines.advance(15)
    await h.service.pause(CHAT, HOST)
    h2 = await restart(h, db, tmp_path)
    assert h2.table.paused and not h2.deadlines.jobs
    await h2.service.resume(CHAT, HOST)
    assert "night" in h2.deadlines.names()
    await h2.deadlines.advance(46)
    assert h2.table.stage is Stage.DAY
    await h2.db.close()


async def test_restart_between_a_vote_and_the_next_turn(h: Harness, db: Database,
                                                        tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    first, second = t.order[0], t.order[1]
    # the process logged the vote and died before the next turn was logged
    await h.db.games.append_event(h.game_id, "vote", {"seat": first, "target": second})
    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    assert t2.votes == {first: second} and t2.current_voter() == second
    assert h2.deadlines.names() == {"turn"}
    assert h2.private(h2.tg(second))  # prompted
    await h2.deadlines.advance(61)
    assert t2.timeouts == [second]
    await h2.db.close()


async def test_restart_between_vote_start_and_the_first_turn(h: Harness, db: Database,
                                                             tmp_path: Path) -> None:
    await h.dealt(10)
    order = [s for s in sorted(h.table.seats)]
    await h.db.games.append_event(h.game_id, "vote_start", {"step": 1, "order": order})
    h2 = await restart(h, db, tmp_path)
    assert h2.table.current_voter() == order[0] and h2.deadlines.names() == {"turn"}
    assert any(b.startswith("gv:") for s in h2.private(h2.tg(order[0])) for b in h2.buttons(s))
    await h2.db.close()


async def test_restart_between_the_last_vote_and_the_tally(h: Harness, db: Database,
                                                          tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    for voter in t.order[:-1]:
        await h.vote(voter, t.order[-1])
    last = t.order[-1]
    await h.db.games.append_event(h.game_id, "vote", {"seat": last, "target": t.order[0]})
    await h.db.games.append_event(h.game_id, "votes_done", {})
    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    if t2.stage is Stage.CANCEL:
        await h2.deadlines.advance(21)
    assert t2.stage in (Stage.EVENING, Stage.OVER) or h2.over
    await h2.db.close()


async def test_restart_after_the_last_night_choice(h: Harness, db: Database,
                                                  tmp_path: Path) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    common = next(s for s in h.civilians())
    for seat in t.pending_night():
        target = common if t.is_picker(seat) and common != seat else next(
            x for x in (common, *h.civilians()) if x != seat)
        if target not in engine.legal_targets(t.game, seat):
            target = engine.legal_targets(t.game, seat)[0]
        await h.db.games.append_event(h.game_id, "choice", {"seat": seat, "target": target})
    await h.db.games.append_event(h.game_id, "mafia_locked", {})
    h2 = await restart(h, db, tmp_path)
    assert h2.table.stage in (Stage.DAY, Stage.OVER) or h2.over
    assert any("🌅" in s for s in h2.club_texts())
    await h2.db.close()


async def test_restart_right_after_the_deal_was_logged(h: Harness, db: Database,
                                                      tmp_path: Path) -> None:
    await h.lobby(10)
    sent: list[str] = []

    async def crash(table: object) -> None:
        sent.append("crash")
        raise RuntimeError("the process dies here")

    h.service.dealer.announce_deal = crash  # type: ignore[method-assign]
    with contextlib.suppress(RuntimeError):
        await h.service.deal(CHAT, HOST)
    assert sent == ["crash"]
    game = await db.games.get(h.game_id)
    assert game.commitment is None  # storage's copy not written yet
    h2 = await restart(h, db, tmp_path)
    t2 = h2.table
    assert t2.started and t2.deal_announced
    game = await db.games.get(h.game_id)
    assert game.commitment == t2.commitment and game.status == "running" and game.roles
    for seat in t2.seats:
        assert [s for s in h2.private(h2.tg(seat)) if s.protect]
    assert t2.commitment and any(t2.commitment in s for s in h2.club_texts())
    await h2.db.close()


async def test_restart_inside_endgame(h: Harness, db: Database, tmp_path: Path) -> None:
    await h.dealt(10)
    await h.db.games.append_event(h.game_id, "aborted", {})
    h2 = await restart(h, db, tmp_path)
    assert h2.service.tables == {}
    assert (await db.games.get(h.game_id)).status == "aborted"
    await h2.db.close()

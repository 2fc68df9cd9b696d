"""The host's read model and action entry point (``host_view``, ``host_act``)."""

from __future__ import annotations

import engine
from engine import Role
from record.table import Stage
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_day import tie_plan


async def test_view_is_refused_to_anyone_but_the_host(h: Harness) -> None:
    await h.lobby(10)
    assert await h.refused(h.service.host_view(h.game_id, 1001)) == "game.not_host"
    assert await h.refused(h.service.host_act(h.game_id, 1001, "deal")) == "game.not_host"
    assert h.table.stage is Stage.LOBBY  # nothing changed
    assert await h.refused(h.service.host_view(h.game_id + 99, HOST)) == "game.not_found"


async def test_lobby_view_and_its_moves(h: Harness) -> None:
    await h.lobby(10)
    await h.db.clubs.save_preset(CHAT, 10, ["mafia_chief", "mafia", "mafia", "doctor",
                                            "policeman", "marilyn", "judge", "sportsman",
                                            "lucky", "oligarch"])
    view = await h.service.host_view(h.game_id, HOST)
    assert view.stage == "lobby" and view.moment == 0 and not view.paused
    assert [s.seat for s in view.seats] == list(range(1, 11))
    assert view.seats[0].name == "Player1" and view.seats[0].alive
    assert {"deal", "seat", "preset", "fate_mode", "end"} <= view.actions
    assert not view.actions & {"night", "vote", "pause", "tech"}
    assert set(view.presets) == {"club", "default"} and len(view.presets["club"]) == 10
    # seat a player: №1 moves to №5 (the /seat path)
    await h.service.host_act(h.game_id, HOST, "seat", "1:5")
    assert h.table.seats[5].name == "Player1" and h.table.seats[1].name == "Player2"
    # the club's preset becomes the composition (the /roles path)
    await h.service.host_act(h.game_id, HOST, "preset", "club")
    assert [str(r) for r in h.table.composition or []] == list(view.presets["club"])
    assert await h.refused(h.service.host_act(h.game_id, HOST, "preset", "nope")) == \
        "game.stale"
    await h.service.host_act(h.game_id, HOST, "fate_mode", "host")
    assert h.table.fate_by_host
    # nothing of these said "Done." in the club chat: the lobby post was only edited
    assert len([s for s in h.club() if not s.edit]) == 1
    await h.service.host_act(h.game_id, HOST, "deal")
    assert h.table.stage is Stage.DEALT
    assert sorted(str(c) for c in h.table.cards) == sorted(view.presets["club"])


async def test_actions_follow_the_game_and_stale_presses_are_refused(h: Harness) -> None:
    await h.dealt(10)
    view = await h.service.host_view(h.game_id, HOST)
    assert {"night", "vote", "day", "pause", "tech", "end"} <= view.actions
    assert "deal" not in view.actions and "resume" not in view.actions
    await h.service.host_act(h.game_id, HOST, "night", moment=view.moment)
    t = h.table
    assert t.stage is Stage.NIGHT
    # the same button again: stale (its moment is over), nothing changes
    assert await h.refused(h.service.host_act(h.game_id, HOST, "night", moment=view.moment)) == \
        "game.stale"
    assert await h.refused(h.service.host_act(h.game_id, HOST, "vote")) == "game.stale"
    view = await h.service.host_view(h.game_id, HOST)
    assert view.stage == "night" and view.night == 1 and view.deadline is not None
    assert "extend" in view.actions and "night" not in view.actions
    # tonight's choices come in with the chooser's card, seats marked as acted
    doctor = h.seats_with(Role.DOCTOR)[0]
    target = engine.legal_targets(t.game, doctor)[0]
    await h.choose(doctor, target)
    view = await h.service.host_view(h.game_id, HOST)
    assert any(c.seat == doctor and c.role == "doctor" and c.target == target
               for c in view.choices)
    acted = {s.seat for s in view.seats if s.acted}
    assert doctor in acted
    # +30 s moves the deadline
    before = view.deadline
    assert before is not None
    await h.service.host_act(h.game_id, HOST, "extend", moment=view.moment)
    after = (await h.service.host_view(h.game_id, HOST)).deadline
    assert after is not None and (after - before).total_seconds() == 30
    # pause and resume
    await h.service.host_act(h.game_id, HOST, "pause")
    view = await h.service.host_view(h.game_id, HOST)
    assert view.paused and view.deadline is None and view.remaining is not None
    assert view.actions & {"resume", "pause", "extend"} == {"resume"}
    assert await h.refused(h.service.host_act(h.game_id, HOST, "pause")) == "game.stale"
    await h.service.host_act(h.game_id, HOST, "resume")
    assert not t.paused and t.deadlines


async def test_technical_death_and_the_end(h: Harness) -> None:
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "vote")
    t = h.table
    voter = t.current_voter()
    assert voter is not None
    await h.service.host_act(h.game_id, HOST, "tech", voter)
    view = await h.service.host_view(h.game_id, HOST)
    assert not next(s for s in view.seats if s.seat == voter).alive
    assert view.voter != voter
    assert await h.refused(h.service.host_act(h.game_id, HOST, "tech", voter)) == \
        "game.rule.already_dead"
    assert await h.refused(h.service.host_act(h.game_id, HOST, "tech", "x")) == "game.stale"
    await h.service.host_act(h.game_id, HOST, "end")
    assert h.over
    assert await h.refused(h.service.host_view(h.game_id, HOST)) == "game.not_found"


async def test_the_hosts_draw_through_host_act(h: Harness) -> None:
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "fate_mode", "host")
    await h.service.host_act(h.game_id, HOST, "vote")
    t = h.table
    plan = tie_plan(t.order, t.order[0], t.order[1])
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    view = await h.service.host_view(h.game_id, HOST)
    assert view.stage == "fate" and "fate" in view.actions
    assert set(view.tied) == {t.order[0], t.order[1]}
    outsider = next(s for s in t.seats if s not in view.tied)
    assert await h.refused(h.service.host_act(h.game_id, HOST, "fate", outsider)) == \
        "game.rule.fate_not_tied"
    await h.service.host_act(h.game_id, HOST, "fate", view.tied[1], moment=view.moment)
    assert t.fate == view.tied[1]
    assert await h.refused(h.service.host_act(h.game_id, HOST, "fate", view.tied[0])) == \
        "game.stale"


async def test_a_player_who_blocked_the_bot_is_marked_for_the_host_once(h: Harness) -> None:
    await h.dealt(10)
    seat = h.table.seat_of(1003)
    assert seat is not None
    view = await h.service.host_view(h.game_id, HOST)
    assert not any(s.blocked for s in view.seats)
    for _ in range(2):  # the sender meets 403 twice: the host hears of it once
        await h.service.on_blocked(1003)
    view = await h.service.host_view(h.game_id, HOST)
    assert [s.seat for s in view.seats if s.blocked] == [seat]
    assert len([s for s in h.private(HOST) if "заблокировал бота: сообщения" in s.text]) == 1


async def test_the_panel_shows_the_votes_of_the_vote_under_way_only(h: Harness) -> None:
    await h.dealt(10)
    await h.play_night()
    if h.over:  # pragma: no cover - depends on the deal
        return
    await h.deadlines.advance(31 * 3)  # the morning's last words end
    await h.play_vote()
    if h.over:  # pragma: no cover - depends on the deal
        return
    assert h.table.votes  # the day's votes stay in the table...
    view = await h.service.host_view(h.game_id, HOST)
    assert view.votes == ()  # ...but the panel no longer shows them
    await h.service.start_night(CHAT, HOST)
    assert (await h.service.host_view(h.game_id, HOST)).votes == ()

"""Votes: turns, timeouts, shoot-outs, the Lawyers, the friend immunity, host controls."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable

import pytest

import engine
from engine import Role
from record.table import Stage
from storage.models import Player
from tests.game.harness import CHAT, HOST, Harness, stage_now
from tests.storage.conftest import sqlite_writer


async def test_vote_turns_in_seat_order_and_timeouts(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)  # a game may start with a day
    t = h.table
    assert t.order == engine.voters(t.game) and t.current_voter() == t.order[0]
    first, second = t.order[0], t.order[1]
    assert await h.refused(h.vote(second, first)) == "game.vote.not_your_turn"
    assert await h.refused(h.vote(first, 99)) == "game.rule.target_unknown"
    await h.vote(first, second)
    assert await h.refused(h.vote(first, second)) == "game.vote.already"
    assert any(f"№{first} {t.name(first)} → №{second} {t.name(second)}" in s
               for s in h.club_texts())
    # the second voter lets its turn run out: a vote for itself
    await h.deadlines.advance(61)
    assert t.timeouts == [second] and t.current_voter() == t.order[2]
    assert any(f"№{second} {t.name(second)} → время вышло, голос уходит в себя" in s
               for s in h.club_texts())
    for _ in t.order[2:]:
        await h.deadlines.advance(61)
    if t.stage is Stage.CANCEL:
        await h.deadlines.advance(21)
    assert t.stage in (Stage.EVENING, Stage.OVER)
    assert isinstance(t.last_result, engine.DayResult)
    assert set(t.last_result.timeouts) == set(t.order[1:])


def tie_plan(order: list[int], a: int, b: int) -> dict[int, int]:
    """Votes that tie ``a`` and ``b`` (nobody votes for itself)."""
    others = [v for v in order if v not in (a, b)]
    half = len(others) // 2
    plan = {v: a for v in others[:half]} | {v: b for v in others[half:2 * half]}
    plan |= {v: a for v in others[2 * half:]}  # an odd one out would break the tie: see below
    plan[a], plan[b] = b, a
    if len(others) % 2:
        plan[others[-1]] = others[0]
    return plan


async def test_shootout_decided_by_the_bot(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    a, b = t.order[0], t.order[1]
    plan = tie_plan(t.order, a, b)
    tally = engine.tally_votes(plan)
    assert tally.shootout and set(tally.tied) == {a, b}
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    if t.stage is Stage.CANCEL:
        await h.deadlines.advance(21)
    assert isinstance(t.last_result, engine.DayResult)
    assert t.last_result.condemned in (a, b)
    x, y = sorted((a, b))
    lot = t.last_result.condemned
    said = (f"Перестрелка: №{x} {t.name(x)} и №{y} {t.name(y)}. "
            f"По жребию выбывает №{lot} {t.name(lot)}.")
    assert any(said in s for s in h.club_texts())
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    assert kinds.index("fate") < kinds.index("day_resolved")  # logged before it is used


async def test_shootout_drawn_by_the_host(h: Harness) -> None:
    await h.dealt(10)
    await h.service.set_fate_mode(CHAT, HOST, True)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    a, b = t.order[0], t.order[1]
    plan = tie_plan(t.order, a, b)
    counts = engine.tally_votes(plan)
    assert counts.shootout
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    assert t.stage is Stage.FATE
    ask = [s for s in h.private(HOST) if s.markup is not None][-1]
    assert len(h.buttons(ask)) == len(counts.tied)
    outsider = next(s for s in t.seats if s not in counts.tied)
    assert await h.refused(h.service.fate(h.game_id, 1001, t.moment, counts.tied[0])) == \
        "game.not_host"
    assert await h.refused(h.service.fate(h.game_id, HOST, t.moment, outsider)) == \
        "game.rule.fate_not_tied"
    await h.service.fate(h.game_id, HOST, t.moment, counts.tied[1])
    assert await h.refused(h.service.fate(h.game_id, HOST, t.moment, counts.tied[0])) == \
        "game.stale"
    lot = counts.tied[1]
    # the host's draw prompt says what was done, not that the time ran out
    closed = [s for s in h.private(HOST) if s.edit and s.key == ask.key][-1]
    assert closed.text == f"Жребий вытянут: выбывает №{lot} {t.name(lot)}." and not closed.markup
    if stage_now(t) is Stage.CANCEL:
        await h.deadlines.advance(21)
    assert isinstance(t.last_result, engine.DayResult)
    assert t.last_result.condemned == counts.tied[1]


async def test_host_draw_times_out_to_the_bot(h: Harness) -> None:
    await h.dealt(10)
    await h.service.set_fate_mode(CHAT, HOST, True)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    plan = tie_plan(t.order, t.order[0], t.order[1])
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    assert t.stage is Stage.FATE
    ask = [s for s in h.private(HOST) if s.markup is not None][-1]
    await h.deadlines.advance(61)
    assert t.fate in (t.order[0], t.order[1])
    closed = [s for s in h.private(HOST) if s.edit and s.key == ask.key][-1]
    assert closed.text == f"Время вышло, и жребий вытянул бот: выбывает №{t.fate} {t.name(t.fate)}."


async def test_lawyer_cancels_the_verdict(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    lawyer = h.seats_with(Role.LAWYER)[0]
    target = next(s for s in h.civilians() if s != lawyer)
    for voter in list(t.order):
        await h.vote(voter, target if voter != target else lawyer)
    assert t.stage is Stage.CANCEL and t.lawyers == [lawyer]
    ask = [s for s in h.private(h.tg(lawyer)) if s.markup is not None][-1]
    assert h.buttons(ask)
    outsider = next(s for s in t.seats if s not in (lawyer, target))
    assert await h.refused(h.service.cancel(h.game_id, h.tg(outsider), t.moment)) == \
        "game.rule.not_a_lawyer"
    assert await h.refused(h.service.cancel(h.game_id, h.tg(lawyer), t.moment - 1)) == \
        "game.stale"
    who = f"№{target} {t.name(target)}"
    assert any(f"По итогу голосования выбывает {who}. Итог голосования можно отменить ещё "
               "20 секунд." in s
               for s in h.club_texts())
    await h.service.cancel(h.game_id, h.tg(lawyer), t.moment)
    assert await h.refused(h.service.cancel(h.game_id, h.tg(lawyer), t.moment)) == "game.stale"
    # the Lawyer's prompt says what the press did
    closed = [s for s in h.private(h.tg(lawyer)) if s.edit and s.key == ask.key][-1]
    assert closed.text == (f"Вы отменили итог голосования, никто не выбывает: {who} остаётся "
                           "в игре.") and not closed.markup
    assert any(f"Итог голосования отменён, никто не выбывает: {who} остаётся в игре." in s
               for s in h.club_texts())
    result = t.last_result
    assert isinstance(result, engine.DayResult) and result.cancelled_by == lawyer
    assert not result.died and t.game.player(target).alive
    assert any(e.reason is engine.Reason.LAWYER_SAVE for e in t.game.ledger)


async def test_verdict_final_after_the_window(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    lawyer = h.seats_with(Role.LAWYER)[0]
    target = next(s for s in h.civilians() if s != lawyer)
    for voter in list(t.order):
        await h.vote(voter, target if voter != target else lawyer)
    ask = [s for s in h.private(h.tg(lawyer)) if s.markup is not None][-1]
    await h.deadlines.advance(21)
    assert not t.game.player(target).alive
    closed = [s for s in h.private(h.tg(lawyer)) if s.edit and s.key == ask.key][-1]
    assert closed.text == (f"Время вышло, итог голосования в силе: выбывает №{target} "
                           f"{t.name(target)}.")
    texts = h.club_texts()
    assert any("последнее слово" in s for s in texts)
    await h.deadlines.advance(31)
    assert any("окончено" in s for s in h.club_texts())


async def test_friend_immunity_ordered_accepted_and_announced(h: Harness) -> None:
    await h.lobby(10)
    t = h.table
    # seat 1 is "m", seat 2 "f" (neighbours), seat 3 "m", seat 4 "f"
    assert await h.refused(h.service.friend_choose(h.game_id, 1001, 2, -1)) == \
        "game.rule.friend_adjacent"
    assert await h.refused(h.service.friend_choose(h.game_id, 1001, 3, -1)) == \
        "game.rule.friend_same_sex"
    _table, legal = await h.service.friend_menu(1001)
    assert 4 in legal and 2 not in legal and 3 not in legal
    await h.service.friend_choose(h.game_id, 1001, 4, -1)
    await h.service.friend_choose(h.game_id, 1001, 4, 1)
    assert await h.refused(h.service.friend_choose(h.game_id, 1001, 6, 1)) == \
        "game.friend.duplicate"
    ask = [s for s in h.private(HOST) if s.markup is not None][-1]
    order_id = int(h.buttons(ask)[0].split(":")[2])
    assert await h.refused(h.service.friend_decide(h.game_id, 1001, order_id, True)) == \
        "game.not_host"
    await h.service.friend_decide(h.game_id, HOST, order_id, True)
    assert await h.refused(h.service.friend_decide(h.game_id, HOST, order_id, True)) == \
        "game.friend.already"
    await h.service.deal(CHAT, HOST)
    holder = t.game.player(4)
    assert holder.friend is not None and holder.friend.announce_by == 1
    assert not any("дружить" in s for s in h.club_texts())  # secret until it triggers
    await h.service.start_vote(CHAT, HOST)
    for voter in list(t.order):
        await h.vote(voter, 4 if voter != 4 else 1)
    if t.stage is Stage.CANCEL:
        await h.deadlines.advance(21)
    assert t.game.player(4).alive
    assert any("дружить" in s and "№1" in s for s in h.club_texts())


async def test_technical_death_moves_the_vote_on(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    current = t.current_voter()
    assert current is not None
    await h.service.technical_death(CHAT, HOST, current)
    assert not t.game.player(current).alive and t.game.player(current).technical
    assert t.current_voter() != current
    assert any("технический" in s for s in h.club_texts())
    assert not any("последнее слово" in s for s in h.club_texts())
    assert await h.refused(h.service.technical_death(CHAT, HOST, current)) == \
        "game.rule.already_dead"
    assert await h.refused(h.vote(current, t.order[-1])) == "game.rule.voter_dead"


async def test_pause_resume_extend_status(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    doctor = h.seats_with(Role.DOCTOR)[0]
    await h.deadlines.advance(20)
    await h.service.pause(CHAT, HOST)
    assert not h.deadlines.jobs and t.paused
    assert await h.refused(h.choose(doctor, h.civilians()[1])) == "game.paused"
    await h.deadlines.advance(600)
    assert t.stage is Stage.NIGHT
    await h.service.resume(CHAT, HOST)
    assert "night" in h.deadlines.names()
    await h.service.extend(CHAT, HOST, 30)
    status = await h.service.status(CHAT, HOST)
    assert status.key == "game.status.text"
    assert any("ещё не выбрали" in s.text for s in h.private(HOST))
    await h.deadlines.advance(50)
    assert t.stage is Stage.NIGHT  # 40 s were left, then 30 more
    await h.deadlines.advance(25)
    assert t.stage is not Stage.NIGHT


async def test_status_tells_the_phases_own_clock_and_names_voters_only_in_a_vote(
        h: Harness) -> None:
    """/status: the night's 60 s, not the Mafia's 30 s window inside it; paused, what is left
    when the game resumes; the line of who is still to vote only while a vote goes on."""
    await h.dealt(10)

    async def status() -> str:
        said = await h.service.status(CHAT, HOST)
        return h.service.notifier.t("ru", said.key, **said.kwargs)

    await h.service.start_night(CHAT, HOST)
    await h.deadlines.advance(5)
    head = f"<b>Игра №{h.game_id}</b>: ночь"
    assert await status() == f"{head}\nДо конца этапа: 55 секунд\nЖивых: 10"
    await h.service.pause(CHAT, HOST)
    assert await status() == f"{head} (пауза)\nДо конца этапа: 55 секунд\nЖивых: 10"
    await h.service.end_game(CHAT, HOST)

    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)  # a game may start with a day
    t = h.table
    voters = ", ".join(f"№{s} {t.name(s)}" for s in t.order[:-1])
    last = t.order[-1]
    # every voter's whole turn of 60 s is left
    assert await status() == (
        f"<b>Игра №{h.game_id}</b>: голосование\nДо конца этапа: {60 * len(t.order)} секунд\n"
        f"Ещё не проголосовали: {voters} и №{last} {t.name(last)}\nЖивых: 10")


async def test_endgame_aborts_without_points(h: Harness) -> None:
    await h.dealt(10)
    await h.play_night()
    await h.service.end_game(CHAT, HOST)
    game = await h.db.games.get(h.game_id)
    assert game.status == "aborted"
    assert [await h.db.ledger.balance(tg) for tg in range(1001, 1011)] == [0] * 10
    assert h.over
    assert await h.refused(h.service.status(CHAT, HOST)) == "game.none_in_chat"


async def test_joins_at_once_keep_one_open_game_per_player(h: Harness) -> None:
    """Presses of "I play" in several lobbies at once: every player gets exactly one seat,
    and the seats in storage are the seats in memory."""
    players = await h.players(12)
    tables = [await h.service.open_lobby(-3000 - i, f"Club {i}", HOST, is_admin=False)
              for i in range(3)]
    presses = [h.service.join(t.game_id, tg) for tg in players for t in tables]
    results = await asyncio.gather(*presses, return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == len(players)
    seated = [tg for t in tables for tg in (s.tg_id for s in t.seats.values())]
    assert sorted(seated) == sorted(players)
    for t in tables:
        assert sorted(t.seats) == list(range(1, len(t.seats) + 1))
        stored = await h.db.games.get(t.game_id)
        assert {s.seat: s.tg_id for s in stored.seats} == {
            n: s.tg_id for n, s in t.seats.items()}


async def test_a_join_is_one_write(h: Harness) -> None:
    """The seats go in the step's own transaction with the lobby's edit: one COMMIT."""
    players = await h.players(2)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    await h.service.join(table.game_id, players[0])
    commits: list[str] = []
    await sqlite_writer(h.db).set_trace_callback(
        lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    await h.service.join(table.game_id, players[1])
    await sqlite_writer(h.db).set_trace_callback(None)
    assert len(commits) == 1
    stored = await h.db.games.get(table.game_id)
    assert [(s.seat, s.tg_id) for s in stored.seats] == [(1, players[0]), (2, players[1])]


async def test_a_join_whose_write_fails_leaves_the_seats_as_they_were(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    players = await h.players(3)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    await h.service.join(table.game_id, players[0])

    async def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    real = h.db.games.append_events_with_messages
    monkeypatch.setattr(h.db.games, "append_events_with_messages", broken)
    with pytest.raises(sqlite3.OperationalError):
        await h.service.join(table.game_id, players[1])
    assert [s.tg_id for s in table.seats.values()] == [players[0]]
    assert h.service.registry.of_player(players[1]) is None  # free to join again
    monkeypatch.setattr(h.db.games, "append_events_with_messages", real)
    await h.service.join(table.game_id, players[1])
    stored = await h.db.games.get(table.game_id)
    assert [s.tg_id for s in stored.seats] == [players[0], players[1]]


async def test_the_lobby_list_reads_each_player_once(h: Harness,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The list is drawn again at every join; its marks (newbie, killed on the first day)
    are worked out once per player, not re-read for the whole table at every press."""
    players = await h.players(6)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    asked: list[list[int]] = []
    real = h.db.players.get_many

    async def counting(ids: Iterable[int]) -> dict[int, Player]:
        wanted = list(ids)
        asked.append(wanted)
        return await real(wanted)

    monkeypatch.setattr(h.db.players, "get_many", counting)
    for tg in players:
        await h.service.join(table.game_id, tg)
    assert asked == []  # the joiner's own account was read anyway, before the lock
    assert set(table.memory.lobby_marks) == set(players)


async def test_join_refusals(h: Harness) -> None:
    await h.players(3)
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    gid = table.game_id
    assert await h.refused(h.service.join(gid, 5555)) == "game.join.not_registered"
    await h.db.players.register(5556, display_name="NoNick")
    assert await h.refused(h.service.join(gid, 5556)) == "game.join.no_nick"
    await h.db.players.block(1003, reason="rude", admin_id=1, now=h.clock())
    assert await h.refused(h.service.join(gid, 1003)) == "game.join.blocked"
    await h.service.join(gid, 1001)
    assert await h.refused(h.service.join(gid, 1001)) == "game.join.already"
    other = await h.service.open_lobby(-2002, "Other", HOST, is_admin=False)
    assert await h.refused(h.service.join(other.game_id, 1001)) == "game.join.other_game"
    assert await h.refused(h.service.leave(gid, 1002)) == "game.leave.not_joined"
    # the host is told the host does not play, whatever their account (none, no nickname)
    assert await h.refused(h.service.join(gid, HOST)) == "game.join.host"
    await h.db.players.register(HOST, display_name="Host")
    assert await h.refused(h.service.join(gid, HOST)) == "game.join.host"
    await h.db.players.set_nickname(HOST, "TheHost")
    assert await h.refused(h.service.join(gid, HOST)) == "game.join.host"


async def test_first_day_killed_marked_and_shown_next_game(h: Harness) -> None:
    await h.dealt(10)
    await h.play_to_end()
    t = h.service
    day = h.clock().date()
    marked = await h.db.first_day_killed.for_day(CHAT, day)
    game = h.game_id
    events = await h.db.games.events(game)
    assert marked is not None
    # the next lobby at the same club the same day shows them
    if marked:
        table = await t.open_lobby(CHAT, "Club", HOST, is_admin=False)
        tg = next(iter(marked))
        await t.join(table.game_id, tg)
        assert "— Убит в первые сутки" in h.club()[-1].text
    assert events


async def test_blocked_player_reported_to_host(h: Harness) -> None:
    await h.dealt(10)
    await h.service.on_blocked(1003)  # a man: the host reads the verb agree with him
    await h.service.on_blocked(1002)  # a woman
    told = [s.text for s in h.private(HOST)]
    he, she = h.table.seat_of(1003), h.table.seat_of(1002)
    assert any(f"№{he} Player3 заблокировал бота: сообщения ему не доходят." in s for s in told)
    assert any(f"№{she} Player2 заблокировала бота: сообщения ей не доходят." in s
               for s in told)


async def test_jailed_player_neither_acts_nor_votes_but_may_speak(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    judge = h.seats_with(Role.JUDGE)[0]
    prisoner = next(s for s in h.civilians() if s != judge and t.role(s).action is not None)
    await h.choose(judge, prisoner)
    await h.deadlines.advance(61)
    if not t.game.player(judge).alive or not t.game.player(prisoner).jailed:
        return  # the Judge died or was blocked this night: nothing to check
    assert any("тюрьм" in s for s in h.club_texts())
    await h.service.start_vote(CHAT, HOST)
    assert prisoner not in t.order
    assert await h.refused(h.vote(prisoner, judge)) == "game.rule.voter_jailed"
    giver = t.order[0]
    await h.service.give_word(CHAT, HOST, prisoner, giver)
    assert any("отдаёт своё время" in s for s in h.club_texts())
    assert await h.refused(h.service.give_word(CHAT, HOST, giver, None)) == \
        "game.rule.target_not_jailed"
    await h.play_vote_rest()
    if h.over or not t.game.player(prisoner).jailed:
        return
    await h.service.start_night(CHAT, HOST)
    assert await h.refused(h.choose(prisoner, judge)) == "game.rule.actor_jailed"


async def test_concurrent_double_presses_in_the_day_count_once(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    first, second = t.order[0], t.order[1]
    results = await asyncio.gather(h.vote(first, second), h.vote(first, second),
                                   return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    assert kinds.count("vote") == 1 and t.current_voter() == second
    lawyer = h.seats_with(Role.LAWYER)[0]
    target = next(s for s in h.civilians() if s not in (lawyer, first))
    for voter in list(t.order[1:]):
        await h.vote(voter, target if voter != target else lawyer)
    if t.stage is not Stage.CANCEL or lawyer not in t.lawyers:
        return
    moment = t.moment
    results = await asyncio.gather(h.service.cancel(h.game_id, h.tg(lawyer), moment),
                                   h.service.cancel(h.game_id, h.tg(lawyer), moment),
                                   return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    assert kinds.count("day_resolved") == 1


async def test_friend_order_refused_for_the_spouse_and_after_the_deal(h: Harness) -> None:
    await h.lobby(10)
    await h.db.players.propose_spouse(1001, 1004)
    await h.db.players.confirm_spouse(1004, 1001)
    assert await h.refused(h.service.friend_choose(h.game_id, 1001, 4, -1)) == \
        "game.rule.friend_spouse"
    _table, legal = await h.service.friend_menu(1001)
    assert 4 not in legal
    await h.service.deal(CHAT, HOST)
    assert await h.refused(h.service.friend_menu(1001)) == "game.friend.no_lobby"
    assert await h.refused(h.service.friend_choose(h.game_id, 1001, 6, 1)) == \
        "game.friend.too_late"


async def test_killed_on_the_first_night_is_immune_in_the_next_game_that_day(
        h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    victim = next(s for s in h.civilians()
                  if t.role(s) not in (Role.SPORTSMAN, Role.LUCKY))
    for seat in t.pickers():
        await h.choose(seat, victim)
    await h.deadlines.advance(61)
    assert not t.game.player(victim).alive
    texts = h.club_texts()
    assert any("последнее слово" in x and f"№{victim}" in x for x in texts)  # night deaths too
    await h.deadlines.advance(31)
    assert any("окончено" in x and f"№{victim}" in x for x in h.club_texts())
    victim_tg = h.tg(victim)
    for seat in list(t.game.mafia_seats):  # the host removes the Mafia: the civilians win
        if not h.over:
            await h.service.technical_death(CHAT, HOST, seat)
    assert h.over
    assert victim_tg in await h.db.first_day_killed.for_day(CHAT, h.clock().date())
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    h.game_id = table.game_id
    for tg in range(1001, 1011):
        await h.service.join(table.game_id, tg)
    assert "— Убит в первые сутки" in h.club()[-1].text
    await h.service.deal(CHAT, HOST)
    victim_seat = h.table.seat_of(victim_tg)
    assert victim_seat is not None
    assert engine.OpenImmunity.FIRST_DAY_KILLED in h.table.game.player(victim_seat).open_immunities


async def _tie_for_the_host_to_draw(h: Harness) -> tuple[int, int]:
    """A dealt table of 10 whose vote ties its first two voters; the host's draw is pending."""
    await h.dealt(10)
    await h.service.set_fate_mode(CHAT, HOST, True)
    await h.service.start_vote(CHAT, HOST)
    t = h.table
    a, b = t.order[0], t.order[1]
    plan = tie_plan(t.order, a, b)
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    assert t.stage is Stage.FATE
    return a, b


async def _finish_verdict(h: Harness) -> None:
    t = h.table
    for _ in range(3):
        if t.stage is Stage.FATE:
            tied = engine.tally_votes(engine.complete_votes(t.game, t.valid_votes())[0]).tied
            await h.service.fate(h.game_id, HOST, t.moment, tied[0])
        elif t.stage is Stage.CANCEL:
            await h.deadlines.advance(21)


async def test_technical_death_while_the_host_draws_decides_the_verdict_again(
    h: Harness,
) -> None:
    from tests.game.test_service_restart import snapshot

    a, _ = await _tie_for_the_host_to_draw(h)
    t = h.table
    await h.service.technical_death(CHAT, HOST, a)
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    after = [k for k in kinds[kinds.index("tech"):] if k != "announced"]
    assert after[:2] == ["tech", "verdict_reset"]
    await _finish_verdict(h)
    assert t.stage in (Stage.EVENING, Stage.OVER)
    assert isinstance(t.last_result, engine.DayResult)
    assert t.last_result.condemned != a and a not in t.last_result.votes
    rebuilt = await h.service.restorer.rebuild(h.game_id)
    assert snapshot(rebuilt) == snapshot(t)


async def test_technical_death_while_paused_after_the_votes(h: Harness) -> None:
    _, b = await _tie_for_the_host_to_draw(h)
    t = h.table
    await h.service.pause(CHAT, HOST)
    await h.service.technical_death(CHAT, HOST, b)
    assert t.stage is Stage.VOTE and t.fate is None
    await h.service.resume(CHAT, HOST)
    await _finish_verdict(h)
    assert t.stage in (Stage.EVENING, Stage.OVER)
    assert isinstance(t.last_result, engine.DayResult)
    assert t.last_result.condemned != b


async def test_the_club_keeps_its_shootout_preference(h: Harness) -> None:
    await h.lobby(7)
    assert h.table.fate_by_host is False
    await h.service.set_fate_mode(CHAT, HOST, True)
    assert h.table.fate_by_host is True
    await h.service.end_game(CHAT, HOST)
    club = await h.db.clubs.get(CHAT)
    assert club is not None and club.fate_by_host is True
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    assert table.fate_by_host is True  # the next game of the club draws by the host
    rebuilt = await h.service.restorer.rebuild(table.game_id)
    assert rebuilt.fate_by_host is True


async def test_a_technical_death_has_no_last_word_and_the_voted_out_has_one(
        h: Harness) -> None:
    """docs/rules.md#44-last-word: a player the host takes out (a technical death) says no last
    word; a player the vote condemns has one, its timer armed and logged."""
    await h.dealt(10)
    await h.service.start_vote(CHAT, HOST)
    removed = next(s for s in h.civilians() if s != h.table.current_voter())
    answer = await h.service.technical_death(CHAT, HOST, removed)
    assert answer.key == "game.tech.ok"
    assert not h.table.game.player(removed).alive and h.table.game.player(removed).technical
    assert any(f"№{removed} {h.table.name(removed)} — технический труп" in t
               for t in h.club_texts())
    assert h.table.last_words is None
    assert not [t for t in h.club_texts() if "последнее слово" in t]
    assert not [k for k in h.deadlines.jobs if "last_word" in k]
    assert not [e for e in await h.db.games.events(h.game_id) if e.kind == "last_word"]

    await h.play_vote_rest()
    assert not h.over and isinstance(h.table.last_result, engine.DayResult)
    [condemned] = h.table.last_result.died
    assert condemned != removed and h.table.last_words is not None
    assert h.table.last_words[0] == [condemned]
    said = "\n".join(h.club_texts())
    assert f"№{condemned} {h.table.name(condemned)}: последнее слово" in said
    assert f"№{removed} {h.table.name(removed)}: последнее слово" not in said
    assert [k for k in h.deadlines.jobs if k.endswith(f"last_word_{condemned}")]
    [logged] = [e for e in await h.db.games.events(h.game_id) if e.kind == "last_word"]
    assert logged.payload["seats"] == [condemned]

"""Nights: legal choices only, the Mafia window, deadlines, double presses, bad input."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

import engine
from bot.errors import UserError
from bot.game.timekeeper import UNAVAILABLE_RETRY_SECONDS
from engine import Role
from record.table import Stage
from storage.backends import DatabaseUnavailable
from tests.game.harness import CHAT, HOST, Harness, stage_now


async def test_bad_night_inputs_change_nothing(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    doctor = h.seats_with(Role.DOCTOR)[0]
    lucky = h.seats_with(Role.LUCKY)[0]
    before = dict(t.choices)
    gid, moment = h.game_id, t.moment
    assert await h.refused(h.service.choose(gid, 424242, moment, 1)) == "game.rule.not_at_table"
    assert await h.refused(h.service.choose(gid, h.tg(doctor), moment - 1, 1)) == "game.stale"
    assert await h.refused(h.service.choose(gid, h.tg(doctor), moment + 1, 1)) == "game.stale"
    assert await h.refused(h.choose(doctor, doctor)) == "game.rule.target_self"
    assert await h.refused(h.choose(doctor, 99)) == "game.rule.target_unknown"
    assert await h.refused(h.choose(lucky, doctor)) == "game.rule.no_night_action"
    assert await h.refused(h.service.choose(777, h.tg(doctor), moment, 1)) == "game.not_found"
    assert t.choices == before
    target = next(s for s in t.seats if s != doctor)
    await h.choose(doctor, target)
    other = next(s for s in t.seats if s not in (doctor, target))
    assert await h.refused(h.choose(doctor, other)) == "game.night.already"
    assert t.choices[doctor] == target
    events = await h.db.games.events(h.game_id)
    assert [e.kind for e in events].count("choice") == 1


async def test_concurrent_double_press_counts_once(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    doctor = h.seats_with(Role.DOCTOR)[0]
    target = next(s for s in h.table.seats if s != doctor)
    results = await asyncio.gather(h.choose(doctor, target), h.choose(doctor, target),
                                   return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, UserError) for r in results) == 1
    events = await h.db.games.events(h.game_id)
    assert [e.kind for e in events].count("choice") == 1
    # the Mafia too: two presses on the same target at once count once
    chief = h.seats_with(Role.MAFIA_CHIEF)[0]
    civ = next(s for s in h.civilians() if s != doctor)
    await asyncio.gather(h.choose(chief, civ), h.choose(chief, civ), return_exceptions=True)
    events = await h.db.games.events(h.game_id)
    assert [e.kind for e in events].count("choice") == 2


async def test_mafia_see_each_other_and_agree(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    first, *others = t.pickers()
    assert others, "a 10-player table has more than one Mafia in the common pick"
    chief = h.seats_with(Role.MAFIA_CHIEF)[0]
    assert chief in t.pickers()
    prompt = h.last_private(h.tg(others[0])).text
    # how long they have, and who decides when they disagree, said from the start
    assert "На договорённость — 30 секунд с начала ночи" in prompt
    told = {s: h.last_private(h.tg(s)).text for s in t.pickers()}
    assert "решаете вы: вы — Шеф Мафии" in told[chief]
    assert all("решает Шеф Мафии" in told[s] for s in t.pickers() if s != chief)
    a, b = h.civilians()[:2]
    await h.choose(first, a)
    edits = [s for s in h.private(h.tg(others[0])) if s.edit]
    assert edits and f"№{a}" in edits[-1].text  # the other Mafia see the pick live
    # a pick not made yet reads so, never «→ никто»
    assert f"{h.service.notifier.seat(t, others[0])} — выбора пока нет" in edits[-1].text
    assert "никто" not in edits[-1].text
    for seat in others:
        await h.choose(seat, b)
    assert not t.mafia_locked
    assert await h.refused(h.choose(first, a)) == "game.night.same"
    await h.choose(first, b)  # changes its mind: now they all agree
    assert t.mafia_locked
    assert await h.refused(h.choose(others[0], a)) == "game.night.mafia_locked"
    assert {t.choices[s] for s in t.pickers()} == {b}
    closed = [s for s in h.private(h.tg(others[0])) if s.edit][-1].text
    assert "Выбор команды закрыт" in closed and "(решил Шеф" not in closed
    assert f"Цель Мафии: №{b} {t.name(b)}." in closed


async def test_mafia_window_closes_on_its_deadline(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    chief, mafia = h.seats_with(Role.MAFIA_CHIEF)[0], h.seats_with(Role.MAFIA)[0]
    a, b = h.civilians()[:2]
    await h.choose(chief, a)
    await h.choose(mafia, b)
    await h.deadlines.advance(31)
    assert t.mafia_locked and t.stage is Stage.NIGHT
    # they did not agree: the closed message names the target that stands, the Chief's
    closed = [s for s in h.private(h.tg(mafia)) if s.edit][-1].text
    assert f"Цель Мафии: №{a} {t.name(a)} (решил Шеф Мафии)." in closed
    idle = [s for s in t.pickers() if s not in (chief, mafia)]
    assert all(f"№{s} {t.name(s)} — без выбора" in closed for s in idle)
    assert await h.refused(h.choose(mafia, a)) == "game.night.mafia_locked"
    await h.deadlines.advance(30)
    assert t.stage is not Stage.NIGHT
    assert t.last_result is not None


async def test_mafia_without_a_chief_hear_that_no_one_decides_for_them(h: Harness) -> None:
    await h.lobby(10)
    await h.service.composition(CHAT, HOST, "Мафия*3, Доктор, Полицейский, Судья, Счастливчик,"
                                " Адвокат, Маньяк, Спортсмен")
    await h.service.deal(CHAT, HOST)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    pickers = t.pickers()
    assert len(pickers) == 3 and not h.seats_with(Role.MAFIA_CHIEF)
    assert all("общего выстрела Мафии этой ночью не будет" in h.last_private(h.tg(s)).text
               for s in pickers)
    a, b = h.civilians()[:2]
    await h.choose(pickers[0], a)
    await h.choose(pickers[1], b)
    await h.deadlines.advance(31)
    closed = [s for s in h.private(h.tg(pickers[2])) if s.edit][-1].text
    assert "Мафия не договорилась: общего выстрела этой ночью нет." in closed


async def test_the_hosts_night_summary_leaves_out_what_did_not_happen(h: Harness) -> None:
    await h.dealt(10)
    t = h.table
    doctor, lawyer = h.seats_with(Role.DOCTOR)[0], h.seats_with(Role.LAWYER)[0]
    summary = engine.Event("night_summary", engine.Audience(engine.AudienceKind.HOST), {
        "night": 1, "choices": {doctor: lawyer}, "blocked": [], "common_target": None,
        "saved": [(lawyer, "doctor")], "died": [], "checks": []})
    text = h.service.notifier.render(t, summary, "ru")
    assert f"Спасены: №{lawyer} {t.name(lawyer)} (Адвокат) — лечение Доктора" in text
    assert f"  №{doctor} {t.name(doctor)} (Доктор) → №{lawyer} {t.name(lawyer)} (Адвокат)" \
        in text
    for empty in ("Лишены ночного действия", "Общий выбор Мафии", "Погибли", "Проверки", "никто"):
        assert empty not in text, empty
    day = engine.Event("day_summary", engine.Audience(engine.AudienceKind.HOST),
                       {"day": 1, "verdict": None, "cancelled_by": None})
    text = h.service.notifier.render(t, day, "ru")
    assert text.endswith("По голосованию никто не выбыл.") and "отменил" not in text


async def test_all_choices_in_resolve_the_night(h: Harness) -> None:
    await h.dealt(10)
    await h.play_night()
    t = h.table
    assert t.stage in (Stage.DAY, Stage.OVER)
    assert isinstance(t.last_result, engine.NightResult)
    morning = [s for s in h.club_texts() if "🌅" in s]
    assert len(morning) == 1
    police = h.seats_with(Role.POLICEMAN)[0]
    texts = [s.text for s in h.private(h.tg(police))]
    assert any("проверк" in x.casefold() for x in texts)  # a result, or "no result" if blocked
    assert not any("проверк" in x.casefold() for x in h.club_texts())


async def test_night_deadline_resolves_without_everyone(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    t = h.table
    assert {"night", "mafia"} <= h.deadlines.names()
    moment = t.moment
    await h.deadlines.advance(59)
    assert t.stage is Stage.NIGHT
    await h.deadlines.advance(2)
    assert stage_now(t) is Stage.DAY and t.game.night_number == 1
    # a button from the finished night
    doctor = h.seats_with(Role.DOCTOR)[0]
    assert await h.refused(h.service.choose(h.game_id, h.tg(doctor), moment, 1)) == "game.stale"
    assert await h.refused(h.service.start_night(CHAT, HOST)) == "game.rule.phase_order"


async def test_dead_player_cannot_act_next_night(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    doctor = h.seats_with(Role.DOCTOR)[0]
    await h.deadlines.advance(61)
    await h.service.technical_death(CHAT, HOST, doctor)
    await h.play_vote()
    if h.over:
        return
    await h.service.start_night(CHAT, HOST)
    assert await h.refused(h.choose(doctor, 1 if doctor != 1 else 2)) == "game.rule.actor_dead"


async def test_open_immunity_refuses_the_shot(h: Harness) -> None:
    ids = await h.players(10, newbies=False)
    await h.db.players.register(2000, display_name="New", language="ru")
    await h.db.players.set_nickname(2000, "Freshman")
    table = await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    h.game_id = table.game_id
    for tg in [*ids[:9], 2000]:
        await h.service.join(table.game_id, tg)
    assert "Новичок" in h.club()[-1].text or any("Новичок" in s.text for s in h.club())
    await h.service.deal(CHAT, HOST)
    assert any("Открытые иммунитеты" in s for s in h.club_texts())
    newbie = table.seat_of(2000)
    assert newbie is not None
    await h.service.start_night(CHAT, HOST)
    killer = h.seats_with(Role.MAFIA_CHIEF)[0]
    if killer != newbie:
        assert await h.refused(h.choose(killer, newbie)) == "game.rule.target_immune"
        prompt = [s for s in h.private(h.tg(killer)) if s.markup is not None][-1]
        assert not any(d.endswith(f":{newbie}") for d in h.buttons(prompt))


async def test_host_only_commands(h: Harness) -> None:
    await h.lobby(10)
    player = 1001
    for call in (h.service.deal(CHAT, player), h.service.start_night(CHAT, player),
                 h.service.pause(CHAT, player), h.service.end_game(CHAT, player),
                 h.service.technical_death(CHAT, player, 1)):
        assert await h.refused(call) == "game.not_host"
    assert await h.refused(h.service.open_lobby(-5, "x", player, is_admin=False)) == \
        "game.not_host_rights"
    assert await h.refused(h.service.open_lobby(CHAT, "x", HOST, is_admin=False)) == \
        "game.already_open"
    assert await h.refused(h.service.start_night(CHAT, HOST)) == "game.deal.first"


async def test_night_time_counts_from_the_prompts_arrival(h: Harness) -> None:
    """A busy evening: the night's prompts are still in the bot's queue when the night's time
    is up. The night waits for them, then gives its whole length again."""
    await h.dealt(10)
    h.sender.durable = True  # the step's messages go to the outbox, where nothing sends them
    await h.service.start_night(CHAT, HOST)
    t = h.table
    assert t.memory.prompts
    await h.deadlines.advance(61)
    assert t.stage is Stage.NIGHT  # the prompts never arrived: nobody has had the time
    await h.deadlines.advance(10)
    assert t.stage is Stage.NIGHT
    async with h.db.transaction() as conn:  # Telegram confirms them now
        await conn.execute("UPDATE outbox SET status = 'sent' WHERE status = 'pending'")
    await h.deadlines.advance(1)
    await h.deadlines.advance(59)
    assert t.stage is Stage.NIGHT  # 60 s from the arrival, not from the start
    await h.deadlines.advance(2)
    assert stage_now(t) is Stage.DAY and t.game.night_number == 1


async def test_a_deadlines_look_at_the_queue_holds_up_no_press(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The night's time is up and the deadline asks the outbox whether its prompts arrived.
    It asks before it takes the game's lock: a player's press meanwhile is not held up by the
    read (on a busy evening the read waits its turn on the database)."""
    await h.dealt(10)
    h.sender.durable = True  # the step's messages go to the outbox, where nothing sends them
    await h.service.start_night(CHAT, HOST)
    entered, release = asyncio.Event(), asyncio.Event()
    undelivered = h.db.outbox.undelivered

    async def slow(sends: Sequence[tuple[int, str]]) -> int:
        entered.set()
        await release.wait()
        return await undelivered(sends)

    monkeypatch.setattr(h.db.outbox, "undelivered", slow)
    deadline = asyncio.create_task(h.deadlines.advance(61))
    await asyncio.wait_for(entered.wait(), 5)
    doctor = h.seats_with(Role.DOCTOR)[0]
    target = next(s for s in h.table.seats if s != doctor)
    await asyncio.wait_for(h.choose(doctor, target), 5)
    assert h.table.choices[doctor] == target
    release.set()
    await deadline
    assert h.table.stage is Stage.NIGHT  # the prompts are still queued: the night waits
    assert [e.kind for e in await h.db.games.events(h.game_id)].count("choice") == 1


async def test_a_prompt_added_while_the_deadline_read_the_queue_is_looked_at_again(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline read the queue before the game's lock; a prompt added meanwhile was not
    in that read, so it reads again under the lock and waits for that prompt too."""
    await h.dealt(10)
    h.sender.durable = True  # nothing sends the outbox: every prompt stays queued
    await h.service.start_night(CHAT, HOST)
    seat, held = next(iter(h.table.memory.prompts.items()))
    del h.table.memory.prompts[seat]  # not yet asked when the deadline first reads the queue
    entered, release = asyncio.Event(), asyncio.Event()
    undelivered = h.db.outbox.undelivered
    reads: list[int] = []

    async def first_sees_all_arrived(sends: Sequence[tuple[int, str]]) -> int:
        if not reads:
            entered.set()
            await release.wait()
            reads.append(0)
            return 0
        reads.append(await undelivered(sends))
        return reads[-1]

    monkeypatch.setattr(h.db.outbox, "undelivered", first_sees_all_arrived)
    deadline = asyncio.create_task(h.deadlines.advance(30))  # the Mafia's window ends
    await asyncio.wait_for(entered.wait(), 5)
    h.table.memory.prompts[seat] = held
    release.set()
    await deadline
    assert reads[0] == 0 and reads[1] > 0
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    assert "mafia_locked" not in kinds  # the window waits for the prompts' arrival


async def test_a_deadline_the_database_could_not_serve_is_looked_at_again(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The night's time is up while the database cannot answer (PostgreSQL restarting): the
    deadline is not dropped, which would leave the table waiting for nobody; it looks again
    a moment later and ends the night then."""
    await h.dealt(10)
    h.sender.durable = True
    await h.service.start_night(CHAT, HOST)
    async with h.db.transaction() as conn:  # Telegram confirms every prompt at once
        await conn.execute("UPDATE outbox SET status = 'sent' WHERE status = 'pending'")
    await h.deadlines.advance(59)  # the Mafia's window closed
    assert h.table.stage is Stage.NIGHT
    failed: list[bool] = []

    async def unavailable_once(sends: Sequence[tuple[int, str]]) -> int:
        if not failed:
            failed.append(True)
            raise DatabaseUnavailable("the database is restarting")
        return 0

    monkeypatch.setattr(h.db.outbox, "undelivered", unavailable_once)
    await h.deadlines.advance(2)  # the night's deadline: its read fails
    assert failed and h.table.stage is Stage.NIGHT
    await h.deadlines.advance(UNAVAILABLE_RETRY_SECONDS)
    assert stage_now(h.table) is Stage.DAY and h.table.game.night_number == 1

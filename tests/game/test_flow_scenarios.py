"""Scenarios over HTTP: prompts per role, the Mafia window, votes, bad input, restarts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from engine import Role
from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import CLUB, HOST, Flow, running, start_app, stop_app, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
def clock() -> VirtualClock:
    """The delivery's waits (the panel's and the vote board's edit slots) pass at once; one
    clock per test, the restarted app's too (the rows' times are on it)."""
    return VirtualClock()


def targets_of(message: SentMessage) -> list[int]:
    return sorted(int(d.split(":")[-1]) for _, d in message.buttons())


async def test_every_role_gets_its_own_prompt(fake: FakeTelegram, tmp_path: Path,
                                              clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(16)
        await flow.deal()
        t = flow.table
        for seat in t.seats:  # the card names the role, in the player's language
            card = next(m for m in fake.messages(flow.tg(seat)) if m.protect_content)
            assert flow.games.tr.t("en", f"game.role.{t.role(seat)}") in card.body
        await flow.start("/night", Stage.NIGHT)
        for seat in engine.night_actors(t.game):
            if not engine.legal_targets(t.game, seat):  # e.g. an Oligarch with nobody in jail
                await wait_until(lambda s=seat: any("nobody for you" in m.body
                                                    for m in fake.messages(flow.tg(s))), 10,
                                 "a no-target notice")
                continue
            prompt = await flow.prompt(flow.tg(seat), f"gn:{t.game_id}:{t.moment}:")
            assert targets_of(prompt) == engine.legal_targets(t.game, seat)
            action = t.role(seat).action
            assert flow.games.tr.t("en", f"game.action.{action}") in prompt.body
        for seat in t.seats:
            if t.role(seat).action is None:
                assert flow.latest_with(flow.tg(seat), "gn:") is None
        mafia = {flow.tg(s) for s in t.game.mafia_seats}
        for uid in flow.players:
            got_roster = any("Your team" in m.body for m in fake.messages(uid))
            assert got_roster == (uid in mafia)


async def test_mafia_window_live_picks_and_agreement(fake: FakeTelegram, tmp_path: Path,
                                                     clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "ru")
        await flow.lobby(10)
        await flow.deal()
        t = flow.table
        await flow.start("/night", Stage.NIGHT)
        first, *others = t.pickers()
        a, b = [s for s in t.seats if not t.game.player(s).is_mafia][:2]
        prefix = f"gn:{t.game_id}:{t.moment}:"
        p_first = await flow.prompt(flow.tg(first), prefix)
        assert "Принято" in await flow.press(flow.tg(first), p_first, prefix + str(a))
        p_other = await flow.prompt(flow.tg(others[0]), prefix)
        prompts = [p_first, p_other]
        await wait_until(lambda: f"№{a}" in fake.messages(flow.tg(others[0]))[-1].body
                         or any(f"№{a}" in m.body for m in fake.messages(flow.tg(others[0]))
                                if m.message_id == p_other.message_id), 10, "a live edit")
        for seat in others:
            prompt = await flow.prompt(flow.tg(seat), prefix)
            prompts.append(prompt)
            await flow.press(flow.tg(seat), prompt, prefix + str(b))
        assert not t.mafia_locked
        answer = await flow.press(flow.tg(first), p_first, prefix + str(a))
        assert "и так" in answer  # the same pick again
        await flow.press(flow.tg(first), p_first, prefix + str(b))
        await wait_until(lambda: t.mafia_locked, 10, "agreement")
        answer = await flow.press(flow.tg(others[0]), p_other, prefix + str(a))
        assert "закрыт" in answer
        # the prompts lost their buttons once the pick closed
        await wait_until(lambda: not any(p.buttons() for p in prompts), 10, "closed prompts")


async def test_vote_turn_timeouts_and_bad_presses(fake: FakeTelegram, tmp_path: Path,
                                                  clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock, vote_turn_seconds=0.4) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        t = flow.table
        await flow.start("/vote", Stage.VOTE)
        first, second = t.order[0], t.order[1]
        prompt = await flow.prompt(flow.tg(first), f"gv:{t.game_id}:{t.moment}:")
        moment = t.moment
        # another player presses the first voter's button (a forwarded or forged press)
        assert "not your turn" in await flow.press(flow.tg(second), prompt,
                                                  f"gv:{t.game_id}:{moment}:{first}")
        assert "Nobody sits" in await flow.press(flow.tg(first), prompt,
                                                 f"gv:{t.game_id}:{moment}:99")
        assert "out of date" in await flow.press(flow.tg(first), prompt,
                                                 f"gv:{t.game_id}:{moment - 1}:{second}")
        assert await flow.press(flow.tg(first), prompt, "gv:forged")  # answered, not crashed
        assert t.votes == {}  # none of the presses above was taken as a vote
        await wait_until(lambda: t.stage is not Stage.VOTE, 30, "the turns to run out")
        await wait_until(lambda: t.stage in (Stage.EVENING, Stage.OVER) or flow.over, 30,
                         "the verdict")
        await flow.delivered()
        texts = flow.club_texts()
        # one live board, edited turn by turn (not a post per turn)
        assert sum(x.count("did not vote in time") for x in texts) >= len(t.order) - 1
        assert sum("did not vote in time" in x for x in texts) == 1
        kinds = await flow.log_kinds()
        assert kinds.count("vote_timeout") >= len(t.order) - 1 and "day_resolved" in kinds


async def test_concurrent_double_press_counts_once(fake: FakeTelegram, tmp_path: Path,
                                                   clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "ru")
        await flow.lobby(10)
        await flow.deal()
        t = flow.table
        await flow.start("/night", Stage.NIGHT)
        doctor = next(s for s in t.seats if t.role(s) is Role.DOCTOR)
        target = engine.legal_targets(t.game, doctor)[0]
        data = f"gn:{t.game_id}:{t.moment}:{target}"
        prompt = await flow.prompt(flow.tg(doctor), f"gn:{t.game_id}:{t.moment}:")
        q1, q2 = await asyncio.gather(fake.press(flow.tg(doctor), prompt, data),
                                      fake.press(flow.tg(doctor), prompt, data))
        answers = [(await fake.callback_answer(q))["text"] for q in (q1, q2)]
        assert sum("Принято" in a for a in answers) == 1
        assert sum("уже сделали" in a for a in answers) == 1
        assert (await flow.log_kinds()).count("choice") == 1


async def test_restart_in_the_middle_of_a_night(fake: FakeTelegram, tmp_path: Path,
                                                clock: VirtualClock) -> None:
    app, task = await start_app(fake, tmp_path, delivery_clock=clock)
    flow = Flow(fake, app, "ru")
    await flow.lobby(10)
    await flow.deal()
    t = flow.table
    await flow.start("/night", Stage.NIGHT)
    doctor = next(s for s in t.seats if t.role(s) is Role.DOCTOR)
    police = next(s for s in t.seats if t.role(s) is Role.POLICEMAN)
    prefix = f"gn:{t.game_id}:{t.moment}:"
    old_police_prompt = await flow.prompt(flow.tg(police), prefix)
    prompt = await flow.prompt(flow.tg(doctor), prefix)
    await flow.press(flow.tg(doctor), prompt, prefix + str(engine.legal_targets(t.game,
                                                                                doctor)[0]))
    await stop_app(app, task)

    app2, task2 = await start_app(fake, tmp_path, delivery_clock=clock)
    try:
        flow2 = Flow(fake, app2, "ru", game_id=flow.game_id, players=flow.players)
        t2 = flow2.table
        assert t2.stage is Stage.NIGHT and doctor in t2.choices
        # a button from before the restart still works
        target = engine.legal_targets(t2.game, police)[0]
        assert "Принято" in await flow2.press(flow2.tg(police), old_police_prompt,
                                              prefix + str(target))
        await wait_until(lambda: t2.stage is not Stage.NIGHT, 30, "the night resolves")
        await wait_until(lambda: any("🌅" in x for x in flow2.club_texts()), 10, "the morning")
        await flow2.play_to_end(night_first=False)
        assert (await app2.services.db.games.get(flow.game_id)).status == "finished"
    finally:
        await stop_app(app2, task2)


async def test_restart_in_the_middle_of_a_vote(fake: FakeTelegram, tmp_path: Path,
                                               clock: VirtualClock) -> None:
    app, task = await start_app(fake, tmp_path, delivery_clock=clock)
    flow = Flow(fake, app, "en")
    await flow.lobby(10)
    await flow.deal()
    t = flow.table
    await flow.start("/vote", Stage.VOTE)
    first, second = t.order[0], t.order[1]
    prompt = await flow.prompt(flow.tg(first), f"gv:{t.game_id}:{t.moment}:")
    await flow.press(flow.tg(first), prompt, f"gv:{t.game_id}:{t.moment}:{second}")
    await wait_until(lambda: t.current_voter() == second, 10, "the second turn")
    await stop_app(app, task)

    app2, task2 = await start_app(fake, tmp_path, delivery_clock=clock)
    try:
        flow2 = Flow(fake, app2, "en", game_id=flow.game_id, players=flow.players)
        t2 = flow2.table
        assert t2.votes == {first: second} and t2.current_voter() == second
        prompt2 = await flow2.prompt(flow2.tg(second), f"gv:{t2.game_id}:{t2.moment}:")
        assert "Vote accepted" in await flow2.press(flow2.tg(second), prompt2,
                                                    f"gv:{t2.game_id}:{t2.moment}:{first}")
        await flow2.vote_rest()
        assert t2.stage in (Stage.EVENING, Stage.OVER) or flow2.over
    finally:
        await stop_app(app2, task2)


async def test_host_controls_tech_status_pause_and_end(fake: FakeTelegram,
                                                       tmp_path: Path, clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        assert "Only this game's host" in await flow.host_says_as(flow.players[0], "/deal", "host")
        await flow.deal()
        t = flow.table
        await flow.start("/night", Stage.NIGHT)
        status = await flow.host_says("/status", "Game #")
        assert "night" in status
        roles = {flow.games.tr.t(loc, f"game.role.{r}") for loc in ("ru", "en") for r in Role}
        assert not any(r in status for r in roles)
        await flow.delivered()
        assert any("Still to choose" in m.body for m in fake.messages(HOST))  # host only
        assert not any("Still to choose" in x for x in flow.club_texts())
        assert "paused" in await flow.host_says("/pause", "⏸")
        assert "paused" in await flow.host_says("/extend 10", "paused.")
        assert "goes on" in await flow.host_says("/resume", "▶️")
        assert "extended" in await flow.host_says("/extend 5", "⏱")
        seat = t.order[0] if t.order else 1
        posts = len(flow.club_texts())
        assert "technical death" in await flow.host_says(f"/tech {seat}", "removed")
        assert not t.game.player(seat).alive
        await flow.delivered()  # the removal is the answer: no "Done." beside it
        assert [x for x in flow.club_texts()[posts:] if "removed" not in x] == []
        at = len(flow.fake.messages(HOST))  # a discipline command's refusal: in private
        await flow.host("/tech x")
        await flow.fake.wait_for(lambda: any("Usage" in m.body for m in
                                             flow.fake.messages(HOST)[at:]), 10, "the usage")
        assert "aborted" in await flow.host_says("/endgame", "aborted")
        assert (await app.services.db.games.get(flow.game_id)).status == "aborted"
        assert not any([await app.services.db.ledger.balance(u) for u in flow.players])


async def test_deep_link_join_and_lobby_refusals(fake: FakeTelegram, tmp_path: Path,
                                                 clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(6)
        stranger = fake.user(4001, "Stranger", language_code="en")
        lobby = flow.latest_with(CLUB, "gl:")
        assert lobby is not None
        # the deep link names the bot by the username the start-up learnt from getMe
        link = f"https://t.me/mafia_test_bot?start=join_{flow.game_id}"
        assert link in [data for _, data in lobby.buttons()]
        assert "Start the bot" in await flow.press(stranger.id, lobby, f"gl:{flow.game_id}:join")
        await fake.send(stranger, f"/start join_{flow.game_id}")
        await wait_until(lambda: any("nickname" in m.body for m in fake.messages(4001)), 10,
                         "the no-nickname answer")
        await fake.send(stranger, "/nick Stranger")
        await wait_until(lambda: any("nickname is now" in m.body for m in fake.messages(4001)),
                         10, "the nickname set")
        await fake.send(stranger, f"/start join_{flow.game_id}")
        await wait_until(lambda: flow.table.seat_of(4001) == 7, 10, "the deep-link join")
        assert "already" in await flow.press(4001, lobby, f"gl:{flow.game_id}:join")
        assert "left" in await flow.press(4001, lobby, f"gl:{flow.game_id}:leave")
        assert flow.table.seat_of(4001) is None


async def test_blocked_player_does_not_stop_the_game(fake: FakeTelegram,
                                                     tmp_path: Path, clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock,
                       night_seconds=1.0, mafia_agree_seconds=0.5) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        t = flow.table
        actor = engine.night_actors(t.game)[0]
        fake.block_bot(flow.tg(actor))
        await flow.host("/night")
        await wait_until(lambda: any("blocked the bot" in m.body for m in fake.messages(HOST)),
                         10, "the host is told")
        await wait_until(lambda: t.stage is not Stage.NIGHT, 10, "the deadline resolves")


async def test_friend_immunity_over_http(fake: FakeTelegram, tmp_path: Path,
                                         clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        db = app.services.db
        for i, uid in enumerate(flow.players):
            await db.players.set_sex(uid, "m" if i % 2 == 0 else "f")
        orderer = flow.tg(1)
        await fake.send(orderer, "/friend")
        menu = await flow.prompt(orderer, "gfr:")
        offered = sorted(int(d.split(":")[2]) for _, d in menu.buttons())
        assert 2 not in offered and 3 not in offered and 4 in offered  # neighbour, same sex
        assert "not" in (await flow.press(orderer, menu, f"gfr:{flow.game_id}:2:-1")).lower()
        await flow.press(orderer, menu, f"gfr:{flow.game_id}:4:-1")
        ask = await flow.prompt(orderer, f"gfr:{flow.game_id}:4:1")
        assert "sent to the host" in await flow.press(orderer, ask, f"gfr:{flow.game_id}:4:1")
        host_ask = await flow.prompt(HOST, "gfa:")
        accept = host_ask.button_data("Accept")
        assert "host may" in (await flow.press(orderer, host_ask, accept)).lower()
        # the host's popup says what the press did, not a bare "Done."
        assert await flow.press(HOST, host_ask, accept) == (
            "Order accepted: №4 Player4 gets the immunity.")
        await wait_until(lambda: any("accepted" in m.body for m in fake.messages(orderer)), 10,
                         "the orderer is told")
        await flow.deal()
        t = flow.table
        holder = t.game.player(4)
        assert holder.friend is not None and holder.friend.announce_by == 1
        assert not any("friends" in x for x in flow.club_texts())  # secret until it saves
        await flow.start("/vote", Stage.VOTE)
        while t.stage is Stage.VOTE and t.current_voter() is not None:
            voter = t.current_voter()
            assert voter is not None
            target = 4 if voter != 4 else 1
            prompt = await flow.prompt(flow.tg(voter), f"gv:{t.game_id}:{t.moment}:")
            await flow.press(flow.tg(voter), prompt, f"gv:{t.game_id}:{t.moment}:{target}")
            await wait_until(lambda v=voter: t.current_voter() != v, 10, "next turn")
        await wait_until(lambda: t.stage is Stage.EVENING, 20, "the verdict")
        assert t.game.player(4).alive
        await wait_until(lambda: any("Let's be friends" in x and "Ordered by №1" in x
                                     for x in flow.club_texts()), 10, "the announcement")


async def test_shootout_drawn_by_the_host_and_lawyer_cancel(
        fake: FakeTelegram, tmp_path: Path, clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock) as app:
        flow = Flow(fake, app, "ru")
        await flow.lobby(10)
        await flow.deal()
        t = flow.table
        assert "жребий тянет ведущий" in await flow.host_says("/fate host", "жребий")
        await flow.start("/vote", Stage.VOTE)
        lawyer = next(s for s in t.seats if t.role(s) is Role.LAWYER)
        a, b = [s for s in t.order if s != lawyer and not t.game.player(s).is_mafia][:2]
        others = [v for v in t.order if v not in (a, b)]
        plan = {v: (a if i < len(others) // 2 else b) for i, v in enumerate(others)}
        plan[a], plan[b] = b, a
        counts = engine.tally_votes(plan)
        assert counts.shootout
        for voter in list(t.order):
            prompt = await flow.prompt(flow.tg(voter), f"gv:{t.game_id}:{t.moment}:")
            await flow.press(flow.tg(voter), prompt, f"gv:{t.game_id}:{t.moment}:{plan[voter]}")
            await wait_until(lambda v=voter: t.current_voter() != v, 10, "next turn")
        await wait_until(lambda: t.stage is Stage.FATE, 10, "the host's draw")
        ask = await flow.prompt(HOST, f"gf:{t.game_id}:{t.moment}:")
        assert "ведущий" in await flow.press(flow.tg(a), ask, f"gf:{t.game_id}:{t.moment}:{a}")
        await flow.press(HOST, ask, f"gf:{t.game_id}:{t.moment}:{a}")
        condemned = a
        await wait_until(lambda: t.stage is Stage.CANCEL, 10, "the Lawyer's window")
        if condemned != lawyer:
            ask = await flow.prompt(flow.tg(lawyer), f"gc:{t.game_id}:{t.moment}")
            outsider = next(s for s in t.seats if s not in (lawyer, condemned))
            assert "право" in await flow.press(flow.tg(outsider), ask,
                                               f"gc:{t.game_id}:{t.moment}")
            assert "отменён" in await flow.press(flow.tg(lawyer), ask, f"gc:{t.game_id}:{t.moment}")
            await wait_until(lambda: t.stage is Stage.EVENING, 10, "the cancelled verdict")
            assert condemned is not None and t.game.player(condemned).alive
            await wait_until(lambda: any("отменён" in x for x in flow.club_texts()), 10,
                             "the announcement")


async def test_chat_administrators_host_and_others_do_not(
        fake: FakeTelegram, tmp_path: Path, clock: VirtualClock) -> None:
    async with running(fake, tmp_path, delivery_clock=clock,
                       default_locale="en") as app:
        flow = Flow(fake, app, "en")
        fake.group(CLUB, "Club")
        admin = fake.user(4501, "Admin", language_code="en")
        player = fake.user(4502, "Player", language_code="en")
        fake.set_admins(CLUB, [admin.id])
        refusal = await flow.host_says_as(player.id, "/newgame", "administrator")
        assert "chat administrator" in refusal
        await fake.send(admin, "/newgame", chat_id=CLUB)
        lobby = await flow.prompt(CLUB, "gl:")
        game = int(lobby.buttons()[0][1].split(":")[1])
        assert flow.games.tables[game].host_id == admin.id
        assert "Only this game's host" in await flow.host_says_as(player.id, "/deal", "host")


async def test_a_demoted_administrator_stops_hosting_at_once(
        fake: FakeTelegram, tmp_path: Path, clock: VirtualClock) -> None:
    """Telegram's ``chat_member`` update (administrator -> member) drops what the bot kept
    of the chat's administrators: the next /newgame is refused without waiting for it to
    age out."""
    async with running(fake, tmp_path, delivery_clock=clock,
                       default_locale="en") as app:
        flow = Flow(fake, app, "en")
        fake.group(CLUB, "Club")
        admin = fake.user(4511, "Admin", language_code="en")
        fake.set_admins(CLUB, [admin.id])
        await fake.send(admin, "/newgame", chat_id=CLUB)
        await flow.prompt(CLUB, "gl:")
        # still an administrator: a second lobby is refused for being one too many
        assert "already" in await flow.host_says_as(admin.id, "/newgame", "already")
        fake.set_admins(CLUB, [])
        user = {"id": admin.id, "is_bot": False, "first_name": "Admin"}
        await fake.push_raw({"chat_member": {
            "chat": fake.chats[CLUB].as_dict(), "from": user, "date": 1_700_000_000,
            "old_chat_member": {"status": "administrator", "user": user, "can_be_edited": False,
                                "can_manage_chat": True, "can_change_info": True,
                                "can_delete_messages": True, "can_invite_users": True,
                                "can_restrict_members": True, "can_pin_messages": True,
                                "can_promote_members": False, "can_manage_video_chats": True,
                                "is_anonymous": False, "can_post_stories": False,
                                "can_edit_stories": False, "can_delete_stories": False,
                                "can_send_welcome_messages": False},
            "new_chat_member": {"status": "member", "user": user}}})
        assert "chat administrator" in await flow.host_says_as(admin.id, "/newgame",
                                                               "administrator")

"""The host's live panel over the fake Bot API: a whole game driven from the panel alone (after
``/newgame``, which opens it), a stale panel button, a player pressing a panel button."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import engine
from bot.game.callbacks import PanelCb
from bot.game.panel import live
from bot.game.panel.view import legal_actions
from engine import Phase
from record.table import MAFIA_DL, NIGHT_DL, Stage
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import HOST, Flow, free_port, running, wait_until
from tests.game.test_service_day import tie_plan
from tests.web.initdata import sign_init_data


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def panel_of(flow: Flow) -> SentMessage | None:
    return flow.latest_with(HOST, f"gh:{flow.game_id}:")


def data(flow: Flow, action: str, arg: object = "", moment: int | None = None) -> str:
    return PanelCb(game=flow.game_id, moment=flow.table.moment if moment is None else moment,
                   action=action, arg=str(arg)).pack()


async def press(flow: Flow, action: str, arg: object = "", *, uid: int = HOST) -> str:
    """Press the panel's button for ``action`` once the panel shows it; the answer's text."""
    wanted = data(flow, action, arg)

    def shown() -> bool:
        panel = panel_of(flow)
        return panel is not None and any(d == wanted for _, d in panel.buttons())
    await wait_until(shown, 10, f"the panel's button {wanted}")
    panel = panel_of(flow)
    assert panel is not None
    return await flow.press(uid, panel, wanted)


async def panel_says(flow: Flow, text: str) -> str:
    await wait_until(lambda: (p := panel_of(flow)) is not None and text in p.body, 10,
                     f"{text!r} on the panel")
    panel = panel_of(flow)
    assert panel is not None
    return panel.body


Clock = tuple[int | None, int | None]  # the phase's seconds left, and its window's


def clock_of(body: str) -> Clock:
    """The panel's clocks: "⏱ 0:36 left · 🤝 the Mafia agree: 0:02", or paused "⏸ 5 seconds
    left when the game resumes · 🤝 the Mafia agree: 0:02"."""
    line = next((x for x in body.splitlines() if x.startswith(("⏱", "⏸"))), "")
    phase, _, window = line.partition(" · ")

    def seconds(text: str) -> int | None:
        if m := re.search(r"(\d+):(\d\d)", text):
            return int(m[1]) * 60 + int(m[2])
        m = re.search(r"(\d+) seconds?", text)
        return None if m is None else int(m[1])
    return seconds(phase), seconds(window) if window else None


async def truth(flow: Flow, kind: str) -> tuple[float, float | None]:
    """The night's and the Mafia's seconds left at the latest logged ``kind`` (night_start,
    pause, extend): what the panel drawn after that step must show."""
    event = [e for e in await flow.app.services.db.games.events(flow.game_id)
             if e.kind == kind][-1]
    payload: dict[str, Any] = dict(event.payload)
    if kind == "pause":
        left: dict[str, float] = payload["remaining"]
        return float(left[NIGHT_DL]), None if MAFIA_DL not in left else float(left[MAFIA_DL])
    when = event.at
    assert when is not None
    ends = {**{k: v.isoformat() for k, v in flow.table.deadlines.items()},
            **payload["deadlines"]}

    def at(name: str) -> float:
        return (datetime.fromisoformat(ends[name]) - when).total_seconds()
    return at(NIGHT_DL), at(MAFIA_DL) if MAFIA_DL in ends else None


def near(shown: Clock, true: tuple[float, float | None]) -> bool:
    """Within a second of the truth, each clock (the window's only where there is one)."""
    (phase, window), (t_phase, t_window) = shown, true
    return (phase is not None and abs(phase - t_phase) <= 1 and
            (t_window is None or (window is not None and abs(window - t_window) <= 1)))


def ended(flow: Flow) -> bool:
    table = flow.games.tables.get(flow.game_id)
    return table is None or table.stage is Stage.OVER


async def tie_vote(flow: Flow) -> None:
    """Every voter presses its prompt so that the first two able voters tie."""
    table = flow.table
    order = [s for s in table.order if s in engine.voters(table.game)]
    pairs = ((a, b) for i, a in enumerate(order) for b in order[i + 1:])
    for a, b in pairs:
        plan = tie_plan(order, a, b)
        if all(plan[v] in engine.vote_candidates(table.game, v) for v in order):
            break
    else:
        raise AssertionError("no tie possible")
    for voter in order:
        uid, prefix = flow.presser(voter, "v")
        await wait_until(lambda u=uid, p=prefix: flow.latest_with(u, p) is not None, 10,
                         f"the vote prompt of {voter}")
        prompt = flow.latest_with(uid, prefix)
        assert prompt is not None
        turn = table.turn
        await flow.press(uid, prompt, prefix + str(plan[voter]))
        await wait_until(lambda t=turn: table.turn != t or table.stage is not Stage.VOTE, 10,
                         "the next turn")


async def test_a_whole_game_from_the_panel(fake: FakeTelegram, tmp_path: Path) -> None:
    """A whole 10-player game over HTTP driven only from the host's panel, on the game's real
    (short) timers; the panel's edit slots on the virtual clock (about 8 s; 40 s without)."""
    # the panel's 1.5 s edit slots pass at once (the throttle: test_service_panel)
    async with running(fake, tmp_path, delivery_clock=VirtualClock()) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)  # /newgame: the only typed command; the panel comes with it
        body = await panel_says(flow, "Player10")
        assert "taking seats" in body
        panel = panel_of(flow)
        assert panel is not None
        club_before = len(fake.messages(flow.club))
        # lobby moves: seat a player (who, then where), the bot's composition, who draws
        await press(flow, "menu", "seat")
        await panel_says(flow, "Whom do you move?")
        await press(flow, "menu", "seat.1")
        await panel_says(flow, "Where does №1 Player1 sit?")
        answer = await press(flow, "seat", "1.4")
        assert "№4" in answer
        assert flow.table.seats[4].name == "Player1"
        await press(flow, "menu", "preset")
        answer = await press(flow, "preset", "default")
        assert flow.table.composition is not None and "Composition (10 cards)" in answer
        await press(flow, "fate_mode", "host")
        await wait_until(lambda: flow.table.fate_by_host, 10, "the host draws")
        await panel_says(flow, "drawn by you")
        # each press's popup says what it did, never a bare "Done."
        assert await press(flow, "deal") == "🎴 The cards are dealt."
        await wait_until(lambda: flow.table.started, 10, "the deal")
        # the night: tonight's choices come in on the panel, with the chooser's card
        drawn = panel_of(flow)
        assert drawn is not None
        stale_pause = data(flow, "pause")  # the panel as drawn before the night
        await press(flow, "night")
        await wait_until(lambda: flow.table.stage is Stage.NIGHT, 10, "the night")
        body = await panel_says(flow, "night 1")
        # the countdown is the night's (6 s), the Mafia's agreement (3 s) beside it
        assert near(clock_of(body), await truth(flow, "night_start")), body
        # "Pause" pressed right after, on the panel still drawn before the night: legal, done
        answer = await flow.press(HOST, drawn, stale_pause)
        assert answer == "⏸ The game is paused." and flow.table.paused
        body = await panel_says(flow, "left when the game resumes")
        assert near(clock_of(body), await truth(flow, "pause")), body
        await press(flow, "resume")
        await wait_until(lambda: not flow.table.paused, 10, "the resume")
        await press(flow, "extend", 30)
        body = await panel_says(flow, "⏱ 0:3")  # the night's time left, +30 s
        assert near(clock_of(body), await truth(flow, "extend")), body
        await flow.night_rest()
        await flow.last_words()
        # a technical death in the day, from the seat picker and its confirmation
        victim = next(s for s in sorted(flow.table.seats) if flow.table.game.player(s).alive
                      and not flow.table.game.player(s).is_mafia)
        await press(flow, "menu", "tech")
        await press(flow, "menu", f"tech.{victim}")
        await panel_says(flow, "technical death)?")
        answer = await press(flow, "tech", victim)
        assert answer == f"💀 №{victim} {flow.table.name(victim)}: technical death."
        await wait_until(lambda: not flow.table.game.player(victim).alive, 10, "the removal")
        await wait_until(lambda: any("technical" in t.lower() for t in flow.club_texts()), 10,
                         "the public outcome")
        if flow.over:
            return
        # the vote, paused and resumed, ending in a shoot-out the host draws
        await press(flow, "vote")
        await wait_until(lambda: flow.table.stage is Stage.VOTE, 10, "the vote")
        await press(flow, "pause")
        await wait_until(lambda: flow.table.paused, 10, "the pause")
        await panel_says(flow, "paused")
        await press(flow, "resume")
        await wait_until(lambda: not flow.table.paused, 10, "the resume")
        await tie_vote(flow)
        await wait_until(lambda: flow.table.stage is Stage.FATE, 10, "the host's draw")
        await panel_says(flow, "A shoot-out")
        draws = [d for _, d in (panel_of(flow) or SentMessage(0, 0, "")).buttons()
                 if d.startswith(data(flow, "fate"))]
        assert len(draws) >= 2
        lot = int(draws[-1].rsplit(":", 1)[1])
        answer = await press(flow, "fate", lot)
        assert f"№{lot}" in answer
        # the vote's post said the tie as the draw began; the lot comes under it, the tie
        # not said twice
        await wait_until(lambda: any("The lot falls on" in t for t in flow.club_texts()), 10,
                         "the lot in the club chat")
        post = next(t for t in flow.club_texts() if "The lot falls on" in t)
        assert post.count("Shoot-out:") == 1, post
        assert f"The host draws.\n\nThe lot falls on №{lot} " in post, post
        await wait_until(lambda: flow.over or flow.table.stage in (Stage.EVENING, Stage.OVER),
                         20, "the verdict")
        if not flow.over:  # the vote is over: its votes leave the panel with it
            body = await panel_says(flow, "after the vote")
            assert "<b>Votes</b>" not in body and "→" not in body, body
        # the rest of the game: every phase started from the panel
        for _ in range(30):
            if ended(flow):
                break
            await flow.last_words()
            if ended(flow):
                break
            if flow.table.game.next_phase() is Phase.NIGHT:
                await press(flow, "night")
                await wait_until(lambda: flow.over or flow.table.stage is Stage.NIGHT, 10, "n")
                await flow.night_rest()
            else:
                await press(flow, "vote")
                await wait_until(lambda: flow.over or flow.table.stage is Stage.VOTE, 10, "v")
                await flow.vote_rest()
        await wait_until(lambda: flow.over, 10, "the end")
        await wait_until(lambda: "The game is over" in panel.body, 10, "the panel closed")
        assert panel.buttons() == []
        assert panel_of(flow) is None  # one panel for the whole game
        # the club chat heard the outcomes, never a "Done."
        said = " ".join(m.body for m in fake.messages(flow.club)[club_before:])
        for reply in ("now sits at seat", "Shoot-outs will be", "Done.", "Composition ("):
            assert reply not in said


async def test_stale_and_foreign_presses(fake: FakeTelegram, tmp_path: Path) -> None:
    # the panel's 1.5 s edit slots pass at once (the throttle: test_service_panel)
    async with running(fake, tmp_path, delivery_clock=VirtualClock()) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await press(flow, "deal")
        await wait_until(lambda: flow.table.started, 10, "the deal")
        await panel_says(flow, "cards dealt")
        panel = panel_of(flow)
        assert panel is not None
        old_night = data(flow, "night")
        # a player presses the host's button: refused, nothing moves
        player = flow.players[0]
        answer = await flow.press(player, panel, old_night)
        assert answer == "Only this game's host may do that."
        assert flow.table.stage is Stage.DEALT
        await press(flow, "night")
        await wait_until(lambda: flow.table.stage is Stage.NIGHT, 10, "the night")
        moment = flow.table.moment
        # the night's button pressed again from the old panel: stale
        answer = await flow.press(HOST, panel, old_night)
        assert answer == "This button is out of date: that part of the game is over."
        assert flow.table.moment == moment
        # a page of the lobby's, no longer legal: stale too
        answer = await flow.press(HOST, panel, data(flow, "menu", "preset", moment=moment - 1))
        assert "out of date" in answer
        # a page legal now opens, whatever moment drew its button; its confirmation keeps the
        # game going until "Yes"
        answer = await flow.press(HOST, panel, data(flow, "menu", "end", moment=moment - 1))
        assert "out of date" not in answer
        await panel_says(flow, "End the game now?")
        await press(flow, "menu", "main")
        await panel_says(flow, "night 1")
        assert not flow.over
        await press(flow, "menu", "end")
        await press(flow, "end")
        await wait_until(lambda: flow.over, 10, "the end")
        await wait_until(lambda: "The game is over" in panel.body, 10, "the panel closed")


async def test_unseat_from_the_panel(fake: FakeTelegram, tmp_path: Path) -> None:
    """``/unseat`` on the panel: whom (a seat page), a confirmation, then the lobby without
    that player; after the deal the button is gone."""
    # the panel's 1.5 s edit slots pass at once (the throttle: test_service_panel)
    async with running(fake, tmp_path, delivery_clock=VirtualClock()) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await panel_says(flow, "Player10")
        await press(flow, "menu", "unseat")
        await panel_says(flow, "Whom do you take off the table?")
        await press(flow, "menu", "unseat.3")
        await panel_says(flow, "Take №3 Player3 off the table?")
        gone = flow.table.seats[3].tg_id
        answer = await press(flow, "unseat", 3)
        assert "Player3" in answer
        await wait_until(lambda: len(flow.table.seats) == 9, 10, "the seat taken off")
        assert all(s.tg_id != gone for s in flow.table.seats.values())
        await wait_until(lambda: (p := panel_of(flow)) is not None and "Player3" not in p.body
                         and "taking seats" in p.body, 10, "the panel without Player3")
        await wait_until(lambda: "Player3" not in (flow.latest_with(flow.club, "gl:") or
                                                   SentMessage(0, 0, "Player3")).body, 10,
                         "the lobby post without Player3")
        await flow.press(HOST, panel_of(flow) or SentMessage(0, 0, ""), data(flow, "deal"))
        await wait_until(lambda: flow.table.started, 10, "the deal")
        await panel_says(flow, "cards dealt")
        panel = panel_of(flow)
        assert panel is not None
        assert not any(":unseat" in d for _, d in panel.buttons())
        answer = await flow.press(HOST, panel, data(flow, "unseat", 2))
        assert "out of date" in answer and len(flow.table.seats) == 9


async def jail_one(flow: Flow) -> int:
    """A night from the panel in which the Judge jails a player for sure: nobody else targets
    the Judge or the prisoner (no block, no kill, no challenge of them), and the prisoner's own
    choice endangers nobody (a Sportsman dealt the seat challenges no Mafia card: both would
    die, docs/rules.md#35-the-sportsmans-challenge). The prisoner's seat."""
    table = flow.table
    judge = next(s for s in sorted(table.seats) if table.role(s) is engine.Role.JUDGE)
    prisoner = next(s for s in sorted(table.seats) if s != judge)
    await press(flow, "night")
    await wait_until(lambda: table.stage is Stage.NIGHT, 10, "the night")
    spared = {judge, prisoner}
    pickers = table.pickers()
    common = min(set.intersection(*(set(engine.legal_targets(table.game, s)) for s in pickers))
                 - spared) if pickers else None
    for seat in engine.night_actors(table.game):
        if seat == judge:
            target = prisoner
        elif table.is_picker(seat):
            assert common is not None
            target = common
        else:
            options = [t for t in engine.legal_targets(table.game, seat) if t not in spared]
            if seat == prisoner:  # a Sportsman's challenge of a Mafia card kills it too
                options = [t for t in options if not table.game.player(t).is_mafia]
            if not options:
                continue
            target = options[0]
        uid, prefix = flow.presser(seat, "n")
        await wait_until(lambda u=uid, p=prefix: flow.latest_with(u, p) is not None
                         or table.stage is not Stage.NIGHT or table.mafia_locked, 10,
                         f"the night prompt of {seat}")
        prompt = flow.latest_with(uid, prefix)
        if prompt is None or table.stage is not Stage.NIGHT:
            continue
        if table.is_picker(seat) and table.mafia_locked:
            continue
        await flow.press(uid, prompt, prefix + str(target))
    await wait_until(lambda: flow.over or table.stage is not Stage.NIGHT, 30, "the morning")
    assert table.game.player(prisoner).jailed
    return prisoner


async def test_the_floor_for_a_prisoner_from_the_panel(fake: FakeTelegram,
                                                        tmp_path: Path) -> None:
    """``/speak`` on the panel: which prisoner, then the host's floor or another
    player's time; the club hears the floor given; a seat not in jail is refused."""
    # the panel's 1.5 s edit slots pass at once (the throttle: test_service_panel)
    async with running(fake, tmp_path, delivery_clock=VirtualClock()) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await press(flow, "menu", "preset")
        await press(flow, "preset", "default")  # the bot's 10 cards: a Judge among them
        await press(flow, "deal")
        await wait_until(lambda: flow.table.started, 10, "the deal")
        panel = panel_of(flow)
        assert panel is not None and not any(":speak" in d for _, d in panel.buttons())
        prisoner = await jail_one(flow)
        await flow.last_words()
        table = flow.table
        await press(flow, "menu", "speak")
        await panel_says(flow, "Which prisoner gets the floor?")
        await press(flow, "menu", f"speak.{prisoner}")
        name = table.name(prisoner)
        # the Russian panel's words: «Слово получает … Чьё время отдать?»
        body = await panel_says(flow, f"🎤 №{prisoner} {name} gets the floor. Whose time is given?")
        assert "from the host, or whose time" not in body
        giver = next(s for s in sorted(table.seats)
                     if table.game.player(s).able and s != prisoner)
        heard = len(fake.messages(flow.club))
        answer = await press(flow, "speak", f"{prisoner}.{giver}")
        assert answer == f"🎤 №{prisoner} {name} has the floor."
        await wait_until(lambda: any("gives their time to" in m.body and name in m.body
                                     for m in fake.messages(flow.club)[heard:]), 10,
                         "the floor given in the club")
        await press(flow, "menu", "speak")
        await press(flow, "menu", f"speak.{prisoner}")
        answer = await press(flow, "speak", prisoner)  # the host's own floor
        assert answer == f"🎤 №{prisoner} {name} has the floor."
        await wait_until(lambda: any("gets the floor" in m.body
                                     for m in fake.messages(flow.club)[heard:]), 10,
                         "the host's floor in the club")
        # a seat not in jail: refused, nothing said
        posts = len(fake.messages(flow.club))
        panel = panel_of(flow)
        assert panel is not None
        answer = await flow.press(HOST, panel, data(flow, "speak", giver))
        assert "not in jail" in answer
        await flow.delivered()
        assert not any("floor" in m.body for m in fake.messages(flow.club)[posts:])


async def test_the_hosts_own_press_redraws_the_panel_at_once(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' changes redraw the panel at most once a gap (made a minute here: their
    joins' later edits wait for it); the host's own press redraws it at once, and a second
    press right after, on the panel still drawn before the first, does what it says when it
    is legal now (a pause after "Start the night")."""
    monkeypatch.setattr(live, "PANEL_EDIT_GAP", 60.0)
    async with running(fake, tmp_path) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)  # ten joins: the panel's first edit at once, the rest held
        panel = panel_of(flow)
        assert panel is not None
        await flow.press(HOST, panel, data(flow, "deal"))
        await wait_until(lambda: flow.table.started, 10, "the deal")
        # not a minute later: the host pressed it
        await panel_says(flow, "cards dealt")
        before_night = panel_of(flow)
        assert before_night is not None and "Player10" in before_night.body
        stale_pause = data(flow, "pause")
        answer = await flow.press(HOST, before_night, data(flow, "night"))
        assert answer == "The night began."
        answer = await flow.press(HOST, before_night, stale_pause)
        assert answer == "⏸ The game is paused."
        assert flow.table.paused and flow.table.stage is Stage.NIGHT
        await panel_says(flow, "left when the game resumes")
        # a button whose action is not legal now is still refused, and changes nothing
        answer = await flow.press(HOST, before_night, data(flow, "night", moment=0))
        assert "out of date" in answer and flow.table.paused


async def test_the_panel_and_the_mini_app_offer_one_list(fake: FakeTelegram,
                                                         tmp_path: Path) -> None:
    """At every moment of a game the panel's buttons and the Mini App's actions are the same
    list, the legal actions: who draws a shoot-out (it changes the club's next games too) is
    the lobby's and the deal's, never offered mid-game. The Mini App speaks the club's
    language (English), not the host's phone's (Russian), in its table and its answers."""
    port = free_port()
    async with running(fake, tmp_path, web_port=port, web_host="127.0.0.1",
                       web_url="https://mafia.example.org", night_seconds=60,
                       mafia_agree_seconds=30, vote_turn_seconds=60) as app, \
            aiohttp.ClientSession() as http:
        flow = Flow(fake, app, "en")

        async def compare(moment: str) -> frozenset[str]:
            await flow.delivered()
            panel = panel_of(flow)
            assert panel is not None
            on_panel = set()
            for _, pressed in panel.buttons():
                if not pressed.startswith("gh:"):
                    continue  # the Mini App's own button
                cb = PanelCb.unpack(pressed)
                on_panel.add(cb.arg.partition(".")[0] if cb.action == "menu" else cb.action)
            signed = sign_init_data(fake.token, HOST, datetime.now(UTC) - timedelta(seconds=5))
            # the host's phone speaks Russian; the club, English: the page speaks the club's
            async with http.get(f"http://127.0.0.1:{port}/host/{flow.game_id}/state",
                                headers={"Authorization": f"tma {signed}",
                                         "Accept-Language": "ru-RU,ru;q=0.9"}) as r:
                assert r.status == 200
                state = await r.json()
                assert state["title"] == f"Game #{flow.game_id}: the host's table"
                on_app = {a["name"] for a in state["actions"]}
            async with http.post(f"http://127.0.0.1:{port}/host/{flow.game_id}/act",
                                 headers={"Authorization": f"tma {signed}",
                                          "Accept-Language": "ru-RU,ru;q=0.9"},
                                 json={"action": "fate", "arg": 99, "step": 0}) as r:
                refused = await r.json()  # (no shoot-out to draw: a refusal's words)
                assert r.status == 409 and refused["text"] == (
                    "This button is out of date: that part of the game is over."), refused
            legal = legal_actions(flow.games.registry, flow.table)
            assert on_panel == on_app == legal, (moment, on_panel, on_app)
            return legal

        await flow.lobby(10)
        assert "fate_mode" in await compare("the lobby")
        await flow.press(HOST, panel_of(flow) or SentMessage(0, 0, ""), data(flow, "deal"))
        await wait_until(lambda: flow.table.started, 10, "the deal")
        assert "fate_mode" in await compare("the deal")
        await flow.start("/night", Stage.NIGHT)
        assert "fate_mode" not in await compare("the night")
        await flow.host("/pause")
        await wait_until(lambda: flow.table.paused, 10, "the pause")
        assert "fate_mode" not in await compare("the night, paused")
        await flow.host("/resume")
        await wait_until(lambda: not flow.table.paused, 10, "the resume")
        await flow.night_rest()
        if flow.over:
            return
        await flow.last_words()
        await flow.start("/vote", Stage.VOTE)
        assert "fate_mode" not in await compare("the vote")
        # a stale "I draw the lots" from the lobby's panel is refused mid-game
        answer = await flow.press(HOST, panel_of(flow) or SentMessage(0, 0, ""),
                                  data(flow, "fate_mode", "host", moment=0))
        assert "out of date" in answer and not flow.table.fate_by_host

"""The host's Mini App over HTTP: its routes on a web app with the real game service (played
by the tests/game harness), authenticated by initData signed as Telegram signs it."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

import engine
from bot.miniapp.server import install_host_app
from engine import Role
from record.table import Stage
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_day import tie_plan
from tests.web.initdata import forge, sign_init_data
from views.i18n import Translator
from web.app import create_web_app

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678"
PLAYER = 1001


@pytest.fixture
async def client(h: Harness, translator: Translator) -> AsyncIterator[TestClient[Any, Any]]:
    app = create_web_app(h.db, translator=translator)
    install_host_app(app, h.service, TOKEN)
    async with TestClient(TestServer(app)) as c:
        yield c


def auth(h: Harness, user: int = HOST, *, age: float = 60, token: str = TOKEN) -> dict[str, str]:
    signed = sign_init_data(token, user, h.clock() - timedelta(seconds=age))
    return {"Authorization": f"tma {signed}"}


def snapshot(h: Harness) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the log, the stage, the messages."""
    t = h.table
    return t.seq, t.stage, t.moment, t.paused, dict(t.deadlines), len(h.sender.sent)


async def test_the_host_gets_the_live_table(h: Harness,
                                            client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    h.table.seats[1].name = "Vera<b>&"  # nicknames refuse "<": a name is raw all the same
    await h.service.start_night(CHAT, HOST)
    r = await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))
    assert r.status == 200
    assert r.headers["Cache-Control"] == "no-store"
    body = await r.json()
    assert body["stage"] == "night" and body["step"] == h.table.moment and body["night"] == 1
    assert body["title"] == f"Game #{h.game_id}: the host's table"
    assert body["phase"] == "Night 1"
    assert body["deadline_in"] == 60  # the night's own end, big; the Mafia's window beside
    assert body["window"] == {"name": "mafia", "in": 30, "label": "The Mafia agree"}
    assert [s["seat"] for s in body["seats"]] == list(range(1, 11))
    assert body["seats"][0]["name"] == "Vera<b>&"  # raw: the page puts it in as text
    assert all(s["alive"] and not s["acted"] for s in body["seats"])
    names = [a["name"] for a in body["actions"]]
    # the panel's list: who draws a shoot-out is the lobby's and the deal's, not the night's
    assert names == ["extend", "pause", "foul", "tech", "end"]
    labels = {a["name"]: a["label"] for a in body["actions"]}
    assert labels["extend"] == "+30 s" and labels["pause"] == "Pause"
    tech = next(a for a in body["actions"] if a["name"] == "tech")
    assert tech["seats"] == list(range(1, 11)) and "{seat}" in tech["confirm"]
    # a night choice comes in: the seat is marked, the host sees it with the card
    doctor = h.seats_with(Role.DOCTOR)[0]
    target = engine.legal_targets(h.table.game, doctor)[0]
    await h.choose(doctor, target)
    h.clock.now += timedelta(seconds=12.5)
    body = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    assert next(s for s in body["seats"] if s["seat"] == doctor)["acted"]
    assert f"№{doctor} Doctor → №{target}" in body["choices"]
    assert body["deadline_in"] == 47.5 and body["window"]["in"] == 17.5
    # Russian
    body = await (await client.get(f"/host/{h.game_id}/state?lang=ru", headers=auth(h))).json()
    assert body["title"] == f"Игра №{h.game_id}: стол ведущего"
    assert f"№{doctor} Доктор → №{target}" in body["choices"]


async def test_the_action_starts_the_vote_and_a_stale_one_changes_nothing(
        h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    state = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    assert "vote" in [a["name"] for a in state["actions"]]
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "vote", "arg": None, "step": state["step"]})
    assert r.status == 200, await r.text()
    assert (await r.json())["ok"]
    assert h.table.stage is Stage.VOTE
    after = await (await client.get(f"/host/{h.game_id}/state", headers=auth(h))).json()
    assert after["stage"] == "vote" and after["voter"] == h.table.current_voter()
    assert after["phase"] == f"День 1 · голосование · Голосует №{after['voter']}"
    voter = after["voter"]
    target = next(c for c in engine.vote_candidates(h.table.game, voter) if c != voter)
    await h.vote(voter, target)
    after = await (await client.get(f"/host/{h.game_id}/state", headers=auth(h))).json()
    assert after["votes"] == [f"№{voter} → №{target}"] and after["voter"] != voter
    # the same press again, from the page drawn before: stale, nothing changes
    before = snapshot(h)
    for body in ({"action": "vote", "arg": None, "step": state["step"]},
                 {"action": "night", "arg": None, "step": after["step"]},
                 {"action": "nonsense", "arg": None, "step": after["step"]}):
        r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h), json=body)
        assert r.status == 409
        refused = await r.json()
        assert refused["error"] == "game.stale"
        assert refused["text"] == "This button is out of date: that part of the game is over."
    assert snapshot(h) == before


async def test_technical_death_and_the_end_through_the_app(
        h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    moment = h.table.moment
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "tech", "arg": 4, "step": moment})
    assert r.status == 200
    assert not h.table.game.player(4).alive
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "tech", "arg": 4, "step": moment})
    assert r.status == 409  # already dead: the engine's refusal, in words
    assert (await r.json())["error"] == "game.rule.already_dead"
    state = await (await client.get(f"/host/{h.game_id}/state", headers=auth(h))).json()
    assert next(s for s in state["seats"] if s["seat"] == 4)["dead"]
    r = await client.post(f"/host/{h.game_id}/act", headers=auth(h),
                          json={"action": "end", "arg": None, "step": moment})
    assert r.status == 200 and h.over
    # the game is over: its table is gone
    r = await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))
    assert r.status == 404
    assert (await r.json())["text"] == "This game is not found or is over."


@pytest.mark.parametrize("case", ["none", "not tma", "forged", "other bot", "expired"])
async def test_no_proof_is_401_and_changes_nothing(h: Harness, client: TestClient[Any, Any],
                                                   case: str) -> None:
    await h.dealt(10)
    signed = sign_init_data(TOKEN, HOST, h.clock())
    headers = {
        "none": {},
        "not tma": {"Authorization": f"Bearer {signed}"},
        "forged": {"Authorization": "tma " + forge(sign_init_data(TOKEN, PLAYER, h.clock()),
                                                   HOST)},
        "other bot": auth(h, token="654321:ZYXdefGHIjklMNOpqrSTUvwxYZ012345678"),
        "expired": auth(h, age=3601),
    }[case]
    before = snapshot(h)
    r = await client.get(f"/host/{h.game_id}/state?lang=en", headers=headers)
    assert r.status == 401
    assert "more than an hour old" in (await r.json())["text"]
    r = await client.post(f"/host/{h.game_id}/act", headers=headers,
                          json={"action": "vote", "arg": None, "step": h.table.moment})
    assert r.status == 401
    assert snapshot(h) == before


async def test_a_player_of_the_same_game_is_403_and_changes_nothing(
        h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    before = snapshot(h)
    r = await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h, PLAYER))
    assert r.status == 403
    assert (await r.json())["text"] == "Only this game's host may do that."
    for action in ("vote", "night", "end", "pause"):
        r = await client.post(f"/host/{h.game_id}/act", headers=auth(h, PLAYER),
                              json={"action": action, "arg": None, "step": h.table.moment})
        assert r.status == 403
    assert snapshot(h) == before


async def test_bad_requests(h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    before = snapshot(h)
    for body in ("not json", json.dumps([1]), json.dumps({"action": "vote"}),
                 json.dumps({"action": "vote", "step": True}),
                 json.dumps({"action": 5, "step": 0}),
                 json.dumps({"action": "tech", "arg": [1], "step": 0})):
        r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h), data=body)
        assert r.status == 400, body
        assert (await r.json())["text"] == "The action was not understood; nothing changed."
    assert (await client.get(f"/host/{h.game_id + 7}/state", headers=auth(h))).status == 404
    assert (await client.get("/host/x/state", headers=auth(h))).status == 404
    assert snapshot(h) == before


HOSTILE_NUMBERS = ["²", "٣", "3_0", " 4", "+4", "1" * 5000, 10 ** 40, -4]


@pytest.mark.parametrize("action", ["tech", "unseat", "seat", "speak", "foul", "unfoul",
                                    "fate", "extend"])
async def test_a_number_that_is_no_seat_is_a_stale_press_not_a_500(
        h: Harness, client: TestClient[Any, Any], action: str) -> None:
    """"²" passes ``str.isdigit`` and fails ``int``; "٣", "3_0", " 4" pass ``int``; a
    5,000-digit string or a 40-digit number would reach the engine or the database. Each is
    refused in words (409, ``game.stale``); nothing changes."""
    await h.dealt(10)
    before = snapshot(h)
    for arg in HOSTILE_NUMBERS:
        value = {"seat": f"{arg}:3", "speak": f"1:{arg}", "foul": f"{arg}:speech:1"}.get(
            action, arg) if isinstance(arg, str) else arg
        r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                              json={"action": action, "arg": value, "step": h.table.moment})
        assert r.status == 409, (action, str(arg)[:10], r.status)
        assert (await r.json())["error"] == "game.stale", arg
    assert snapshot(h) == before
    for game in ("²", "٣", "1" * 5000):  # the game's id in the address
        r = await client.get(f"/host/{game}/state", headers=auth(h))
        assert r.status == 404


async def test_the_page_holds_no_game_data(h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    r = await client.get(f"/host/{h.game_id}?lang=en")
    assert r.status == 200
    page = await r.text()
    assert f'data-game="{h.game_id}"' in page and "/static/host.js" in page
    assert "telegram-web-app.js" in page
    assert "script-src 'self' https://telegram.org;" in r.headers["Content-Security-Policy"]
    assert "Player1" not in page  # the table comes only with the host's proof
    assert '"no_init_data": "Open this table from the button on your panel in Telegram."' in page
    ru = await (await client.get(f"/host/{h.game_id}")).text()  # the club's language
    assert "стол ведущего" in ru
    h.table.locale = "en"  # an English club
    assert "the host's table" in await (await client.get(f"/host/{h.game_id}")).text()
    r = await client.get(f"/host/{h.game_id}", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert "the host's table" in await r.text()  # the club's language, not the phone's
    assert (await client.get("/static/host.js")).status == 200


async def test_the_read_only_pages_have_no_mini_app(h: Harness, translator: Translator) -> None:
    await h.dealt(10)
    async with TestClient(TestServer(create_web_app(h.db, translator=translator))) as c:
        assert (await c.get(f"/host/{h.game_id}")).status == 404
        assert (await c.get(f"/host/{h.game_id}/state", headers=auth(h))).status == 404
        r = await c.post(f"/host/{h.game_id}/act", headers=auth(h),
                         json={"action": "vote", "step": h.table.moment})
        assert r.status in (404, 405)
    assert h.table.stage is Stage.DEALT



async def test_the_lobby_from_the_app(h: Harness, client: TestClient[Any, Any]) -> None:
    await h.lobby(10)
    state = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    assert state["phase"] == "taking seats" and state["deadline_in"] is None
    buttons = {(a["name"], a.get("arg")): a for a in state["actions"]}
    assert buttons[("preset", "default")]["label"] == "The standard set (10 cards)"
    assert buttons[("fate_mode", "host")]["label"] == "I draw the lots"
    move = buttons[("seat", None)]
    assert move["seats"] == list(range(1, 11)) and "{seat}" in move["then"]

    async def press(action: str, arg: object) -> int:
        r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                              json={"action": action, "arg": arg, "step": 0})
        return r.status

    assert await press("seat", "1:5") == 200
    assert h.table.seats[5].name == "Player1"
    assert await press("fate_mode", "host") == 200 and h.table.fate_by_host
    assert await press("preset", "default") == 200 and h.table.composition
    assert await press("deal", None) == 200 and h.table.stage is Stage.DEALT


async def test_the_hosts_draw_from_the_app(h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "fate_mode", "host")
    await h.service.host_act(h.game_id, HOST, "vote")
    t = h.table
    plan = tie_plan(t.order, t.order[0], t.order[1])
    for voter in list(t.order):
        await h.vote(voter, plan[voter])
    state = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    assert state["stage"] == "fate" and sorted(state["tied"]) == sorted(t.order[:2])
    draw = next(a for a in state["actions"] if a["name"] == "fate")
    assert sorted(draw["seats"]) == sorted(t.order[:2]) and draw["label"] == "Draw the shoot-out"
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "fate", "arg": t.order[1], "step": state["step"]})
    assert r.status == 200
    assert t.fate == t.order[1]


async def test_pause_and_resume_from_the_app(h: Harness, client: TestClient[Any, Any]) -> None:
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "vote")
    h.clock.now += timedelta(seconds=20)

    async def press(action: str) -> dict[str, Any]:
        r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                              json={"action": action, "arg": None, "step": h.table.moment})
        assert r.status == 200, await r.text()
        got: dict[str, Any] = await (await client.get(f"/host/{h.game_id}/state?lang=en",
                                                      headers=auth(h))).json()
        return got

    paused = await press("pause")
    # the vote's time left, kept: the turn's 40 s and nine more voters' whole turns
    assert paused["paused"] and paused["deadline_in"] == 40 + 9 * 60
    assert paused["window"] == {"name": "turn", "in": 40,
                                "label": f"№{h.table.current_voter()}'s turn"}
    assert [a["name"] for a in paused["actions"]] == ["resume", "foul", "tech", "end"]
    h.clock.now += timedelta(minutes=5)
    resumed = await press("resume")
    assert not resumed["paused"] and resumed["deadline_in"] == 40 + 9 * 60
    assert resumed["window"]["in"] == 40
    assert "pause" in [a["name"] for a in resumed["actions"]]


async def test_the_page_works_under_a_path_prefix(h: Harness,
                                                  client: TestClient[Any, Any]) -> None:
    """The Mini App at https://club.example/mafia/host/N (a proxy strips /mafia): its style,
    its script and the script's calls stay under /mafia."""
    from urllib.parse import urljoin

    await h.dealt(10)
    page = await (await client.get(f"/host/{h.game_id}?lang=en")).text()
    base = f"https://club.example/mafia/host/{h.game_id}"
    for asset in ("host.css", "host.js"):
        [link] = [x for x in page.split('"') if x.endswith(f"static/{asset}")]
        url = urljoin(base, link)
        assert url == f"https://club.example/mafia/static/{asset}"
        assert (await client.get(url.removeprefix("https://club.example/mafia"))).status == 200
    script = await (await client.get("/static/host.js")).text()
    assert 'fetch("./" + game + path' in script and 'fetch("/' not in script
    assert urljoin(base, f"./{h.game_id}/state") == f"{base}/state"


async def test_the_mini_app_speaks_the_clubs_language_not_the_phones(
        h: Harness, client: TestClient[Any, Any]) -> None:
    """An English club's host with a Russian phone: the page and its answers in English (the
    club's), unless the page asks for a language (``?lang=``)."""
    await h.dealt(10)
    h.table.locale = "en"
    phone = {**auth(h), "Accept-Language": "ru-RU,ru;q=0.9"}
    body = await (await client.get(f"/host/{h.game_id}/state", headers=phone)).json()
    assert body["title"] == f"Game #{h.game_id}: the host's table"
    r = await client.post(f"/host/{h.game_id}/act", headers=phone,
                          json={"action": "resume", "arg": None, "step": 0})  # not paused
    answer = await r.json()
    assert r.status == 409 and not re.search("[а-яА-Я]", json.dumps(answer, ensure_ascii=False))
    page = await (await client.get(f"/host/{h.game_id}",
                                   headers={"Accept-Language": "ru"})).text()
    assert 'lang="en"' in page
    asked = await (await client.get(f"/host/{h.game_id}/state?lang=ru", headers=phone)).json()
    assert asked["title"] == f"Игра №{h.game_id}: стол ведущего"


async def test_a_foul_and_its_undoing_from_the_app(h: Harness,
                                                  client: TestClient[Any, Any]) -> None:
    """The Mini App's foul: a seat, then the reason (the panel's list); the foul's number
    makes a second tap of the same reason a refusal, not a second foul; the undo lists the
    fouls that stand."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=1)
    await h.db.ledger.adjust(h.tg(3), 2, reason="x", admin_id=1, now=h.clock())
    body = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    foul = next(a for a in body["actions"] if a["name"] == "foul")
    assert foul["seats"] == list(range(1, 11)) and foul["next"] == 1
    assert [o["arg"] for o in foul["options"]] == ["out_of_turn", "at_night", "gesture",
                                                   "other"]
    assert foul["options"][1]["label"] == "speaking at night"
    assert "{seat}" in foul["ask"] and "unfoul" not in [a["name"] for a in body["actions"]]
    act = {"action": "foul", "arg": "3:at_night:1", "step": body["step"]}
    r = await client.post(f"/host/{h.game_id}/act?lang=en", json=act, headers=auth(h))
    assert r.status == 200, await r.text()
    assert (await r.json())["text"] == ("🟨 Foul 1 of the game: №3 Player3, speaking at night."
                                        " Fine: 1 point.")
    before = snapshot(h)
    r = await client.post(f"/host/{h.game_id}/act?lang=en", json=act, headers=auth(h))
    assert r.status == 409 and (await r.json())["error"] == "foul.already"
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h, PLAYER),
                          json={**act, "arg": "3:at_night:2"})
    assert r.status == 403
    assert snapshot(h) == before and await h.db.ledger.balance(h.tg(3)) == 1
    body = await (await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))).json()
    assert next(s for s in body["seats"] if s["seat"] == 3)["fouls"] == 1
    unfoul = next(a for a in body["actions"] if a["name"] == "unfoul")
    assert unfoul["options"] == [{"arg": "1", "label": "1. №3 Player3: speaking at night"}]
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "unfoul", "arg": "1", "step": body["step"]})
    assert r.status == 200 and "is undone" in (await r.json())["text"]
    assert await h.db.ledger.balance(h.tg(3)) == 2
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "unfoul", "arg": "1", "step": body["step"]})
    assert r.status == 409  # nothing stands to undo: not a legal action any more

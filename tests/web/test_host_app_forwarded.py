"""The Mini App's routes in a process that does not hold the game's club (bot/miniapp/server.py with
a sharing; the club calls stubbed, tests/game/test_miniapp_shared_pg.py has the real ones):
the checks that need no game are made before anything is asked, the holder's answer is served
as it came, and no answer in time is a 503 whose words say whether anything may have changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.cluster.club_calls import CallTimeout
from bot.miniapp.server import install_host_app
from storage.backends import DatabaseUnavailable
from tests.game.harness import CHAT, HOST, Harness
from tests.web.initdata import forge
from tests.web.test_host_app import TOKEN, auth
from views.i18n import Translator
from web.app import create_web_app


class Calls:
    def __init__(self) -> None:
        self.asked: list[tuple[int, str, dict[str, Any]]] = []
        self.answer: dict[str, Any] | BaseException = {"status": 200, "body": {"from": "holder"}}

    async def call(self, club: int, kind: str, request: dict[str, Any]) -> dict[str, Any]:
        self.asked.append((club, kind, request))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


class Sharing:
    """Holds no club: every game's club is elsewhere."""

    def __init__(self) -> None:
        self.calls = Calls()

    def holds(self, club: int) -> bool:
        return False


@pytest.fixture
async def forwarding(h: Harness, translator: Translator
                     ) -> AsyncIterator[tuple[TestClient[Any, Any], Sharing, Harness]]:
    await h.dealt(10)
    game_id = h.game_id
    h.service.registry.by_id.pop(game_id)  # the game lives in another process
    sharing = Sharing()
    app = create_web_app(h.db, translator=translator)
    install_host_app(app, h.service, TOKEN, sharing=sharing)  # type: ignore[arg-type]
    async with TestClient(TestServer(app)) as c:
        yield c, sharing, h


async def test_the_holders_answer_is_served_and_the_request_carries_whats_needed(
        forwarding: tuple[TestClient[Any, Any], Sharing, Harness]) -> None:
    client, sharing, h = forwarding
    r = await client.get(f"/host/{h.game_id}/state?lang=en", headers=auth(h))
    assert r.status == 200 and await r.json() == {"from": "holder"}
    sharing.calls.answer = {"status": 409, "body": {"error": "game.stale", "text": "old"}}
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "vote", "arg": None, "step": 3})
    assert r.status == 409 and (await r.json())["error"] == "game.stale"
    assert sharing.calls.asked == [
        (CHAT, "host.state", {"game": h.game_id, "locale": "en", "user": HOST}),
        (CHAT, "host.act", {"game": h.game_id, "locale": "en", "user": HOST, "action": "vote",
                            "arg": None, "step": 3})]


async def test_a_forged_proof_or_a_bad_body_is_refused_before_anything_is_asked(
        forwarding: tuple[TestClient[Any, Any], Sharing, Harness]) -> None:
    client, sharing, h = forwarding
    forged = {"Authorization": "tma " + forge(auth(h)["Authorization"][4:], HOST + 1)}
    assert (await client.get(f"/host/{h.game_id}/state", headers=forged)).status == 401
    assert (await client.post(f"/host/{h.game_id}/act", headers=forged,
                              json={"action": "vote", "arg": None, "step": 1})).status == 401
    assert (await client.post(f"/host/{h.game_id}/act", headers=auth(h),
                              json={"action": "vote"})).status == 400
    assert (await client.get("/host/999999/state", headers=auth(h))).status == 404  # no game
    assert sharing.calls.asked == []


@pytest.mark.parametrize(("failure", "words"), [
    (CallTimeout(withdrawn=True), "nothing was changed: try again"),
    (CallTimeout(withdrawn=False), "look at it before you try again"),
    (DatabaseUnavailable("restarting"), "look at it before you try again"),
    ({"error": "failed"}, "look at it before you try again"),  # the holder's handler failed
])
async def test_no_answer_in_time_is_503_saying_whether_anything_may_have_changed(
        forwarding: tuple[TestClient[Any, Any], Sharing, Harness], failure: Any,
        words: str) -> None:
    client, sharing, h = forwarding
    sharing.calls.answer = failure
    before = snapshot_here(h)
    r = await client.post(f"/host/{h.game_id}/act?lang=en", headers=auth(h),
                          json={"action": "vote", "arg": None, "step": 1})
    assert r.status == 503
    assert words in (await r.json())["text"]
    assert snapshot_here(h) == before


def snapshot_here(h: Harness) -> int:
    """Nothing is sent from the process without the game."""
    return len(h.sender.sent)


"""The host's whistle over the fake Bot API: fouls from the panel (whose seat, then what for)
and typed (``/foul``, ``/unfoul``, in the club chat and in private), a double press, the fine in
the ledger, ``/balance`` and the game's web page, an undo, the Nth foul's offer of the technical
death declined and accepted, the refusals that change nothing, and the engine's replay of the
game's log giving the ledger's points; on SQLite and on PostgreSQL (the fine's balance check is
each backend's own transaction)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.game.callbacks import FoulOfferCb
from engine.replay import replay
from record.protocol import protocol_of
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.virtual_clock import VirtualClock
from tests.game.flow import HOST, Flow, free_port, running, wait_until
from tests.game.test_flow_panel import data, panel_of, panel_says, press

ADMIN = 1


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The application's settings for each backend: a fresh PostgreSQL database, or SQLite."""
    if request.param == "postgresql":
        return {"database_url": await request.getfixturevalue("pg").new_database()}
    return {}


async def private_with(flow: Flow, chat: int, text: str, after: int = 0) -> str:
    """The first message to ``chat`` (from index ``after``) that holds ``text``."""
    def found() -> str | None:
        return next((m.body for m in flow.fake.messages(chat)[after:] if text in m.body), None)
    await flow.fake.wait_for(lambda: found() is not None, 10, f"{text!r} in chat {chat}")
    said = found()
    assert said is not None
    return said


async def ledger_of(flow: Flow) -> list[tuple[int, int, str]]:
    rows = await flow.app.services.db.stats.game_points(flow.game_id)
    return [(r.tg_id, r.points, r.reason) for r in rows if r.reason.startswith("foul")]


async def test_fouls_fines_undo_and_the_offer_over_http(fake: FakeTelegram, tmp_path: Path,
                                                        backend: dict[str, Any]) -> None:
    port = free_port()
    # the panel's 1.5 s edit slots pass at once (the throttle: test_service_panel)
    async with running(fake, tmp_path, delivery_clock=VirtualClock(), web_port=port,
                       web_host="127.0.0.1", **backend) as app:
        db = app.services.db
        assert db.backend == ("postgresql" if backend else "sqlite")
        flow = Flow(fake, app, "en")
        await db.clubs.ensure(flow.club, title="Club", locale="en")
        await db.clubs.set_fouls(flow.club, points=2, limit=2)  # a fine of 2; offer at the 2nd
        await flow.lobby(10)
        await press(flow, "deal")
        await wait_until(lambda: flow.table.started, 10, "the deal")
        three, four = flow.tg(3), flow.tg(4)
        for tg in (three, four):
            await db.ledger.adjust(tg, 5, reason="start", admin_id=ADMIN,
                                   now=flow.games.clock())
        club_posts = len(fake.messages(flow.club))

        # 1. the panel: whose seat, then what for; a double press records one foul
        await press(flow, "menu", "foul")
        await panel_says(flow, "A foul: whose seat?")
        await press(flow, "menu", "foul.3")
        await panel_says(flow, "A foul against №3 Player3: what for?")
        panel = panel_of(flow)
        assert panel is not None
        reason = data(flow, "foul", "3.at_night.1")
        assert ("speaking at night", reason) in panel.buttons()
        first, second = await asyncio.gather(fake.press(HOST, panel, reason),
                                             fake.press(HOST, panel, reason))
        answers = sorted([(await fake.callback_answer(first))["text"],
                          (await fake.callback_answer(second))["text"]])
        assert answers == ["This foul is recorded already.",
                           "🟨 Foul 1 of the game: №3 Player3, speaking at night. Fine: 2"
                           " points."]
        told = await private_with(flow, three, "recorded a foul against you")
        assert "speaking at night" in told and "Fine: 2 points." in told
        assert await ledger_of(flow) == [(three, -2, "foul_at_night")]
        await panel_says(flow, "№3 Player3 🟨1")

        # 2. typed in the club chat: the answer goes to the host in private
        await flow.host("/foul 4 turn talked over Player5")
        said = await private_with(flow, HOST, "Foul 2 of the game")
        assert "№4 Player4, speaking out of turn: “talked over Player5”" in said
        await private_with(flow, four, "speaking out of turn")
        await flow.delivered()
        # the club's settings say nothing of fouls: the club chat heard none of them
        assert not any("Foul" in m.body for m in fake.messages(flow.club)[club_posts:])

        # 3. the 2nd foul of №4, typed in private: the offer of the technical death; declined
        await fake.send(HOST, "/foul 4 gesture")
        await wait_until(lambda: flow.latest_with(HOST, "gw:") is not None, 10, "the offer")
        declined = flow.latest_with(HOST, "gw:")
        assert declined is not None
        assert "Fouls of №4 Player4 in this game: 2 (the club's limit: 2)" in declined.body
        keep = FoulOfferCb(game=flow.game_id, number=3, accept=False).pack()
        assert [d for _, d in declined.buttons()] == [
            FoulOfferCb(game=flow.game_id, number=3, accept=True).pack(), keep]
        player = flow.players[0]
        assert await flow.press(player, declined, keep) == "Only this game's host may do that."
        assert await flow.press(HOST, declined, keep) == "▶️ №4 Player4 plays on."
        await wait_until(lambda: declined.buttons() == [], 10, "the offer closed")
        assert flow.table.game.player(4).alive
        assert await db.ledger.balance(four) == 1  # 5, less two fines of 2

        # 4. the 3rd foul: the offer again; accepted: the technical death
        await fake.send(HOST, "/foul 4")
        await wait_until(lambda: (o := flow.latest_with(HOST, "gw:")) is not None
                         and o is not declined, 10, "the second offer")
        offer = flow.latest_with(HOST, "gw:")
        assert offer is not None
        tech = FoulOfferCb(game=flow.game_id, number=4, accept=True).pack()
        assert await flow.press(HOST, offer, tech) == "💀 №4 Player4: technical death."
        await wait_until(lambda: not flow.table.game.player(4).alive, 10, "the removal")
        assert flow.table.game.player(4).technical
        await private_with(flow, flow.club, "technical death")
        await wait_until(lambda: "💀 №4 Player4: technical death." in offer.body, 10,
                         "the offer closed")
        assert offer.buttons() == []
        assert await flow.press(HOST, offer, tech) == "💀 №4 Player4: technical death."
        # the 3rd found the balance short: 1 of the club's 2 points taken, and said so
        assert await ledger_of(flow) == [(three, -2, "foul_at_night"),
                                         (four, -2, "foul_out_of_turn"),
                                         (four, -2, "foul_gesture"),
                                         (four, -1, "foul_other")]
        await private_with(flow, four, "the balance held less, so 1 point was taken")

        # 5. refusals: nothing changes
        fouls = len(flow.table.game.fouls)
        before = await ledger_of(flow)
        answer = await flow.host_says_as(player, "/foul 3", "host")
        assert answer == "Only this game's host may do that."
        # the host's refusals: in private (the club keeps its fouls quiet)
        at = len(fake.messages(HOST))
        await flow.host("/foul 12")
        assert (await private_with(flow, HOST, "seat", at)).startswith("There is no seat 12")
        await flow.host("/foul Player3")
        assert "Usage" in await private_with(flow, HOST, "Usage", at)
        assert len(flow.table.game.fouls) == fouls and await ledger_of(flow) == before

        # 6. the undo: from the panel (which foul, then yes), then typed again: refused
        await press(flow, "menu", "unfoul")
        await panel_says(flow, "Which foul was recorded by mistake?")
        await press(flow, "menu", "unfoul.1")
        await panel_says(flow, "Undo foul 1 against №3 Player3? Its fine is given back.")
        answer = await press(flow, "unfoul", 1)
        assert answer == "↩️ Foul 1 against №3 Player3 is undone. 2 points are given back."
        assert await db.ledger.balance(three) == 5
        await private_with(flow, three, "was a mistake and is undone. 2 points are given back")
        at = len(fake.messages(HOST))
        await flow.host("/unfoul 1")  # in private too: the club keeps its fouls quiet
        assert "already" in await private_with(flow, HOST, "undone already", at)
        assert (three, 2, "foul_undone") in await ledger_of(flow)

        # 7. the club's setting on: the club chat hears of the next foul, in one line
        await db.clubs.set_fouls(flow.club, public=True)
        line = await flow.host_says("/foul 5 night", "🟨 Foul:")
        assert line == "🟨 Foul: №5 Player5, speaking at night. Their fouls in this game: 1."

        # the rest of the game; then no foul any more
        await flow.play_to_end(night_first=True)
        assert (await flow.host_says("/foul 3", "no game")).startswith("There is no game")
        await flow.delivered()

        # the ledger, /balance, the web page and the replay agree
        rows = await db.stats.game_points(flow.game_id)
        balance = await flow.fake.send(three, "/balance")
        assert balance
        said = await private_with(flow, three, "Recent")
        assert "-2  game #1: foul: speaking at night" in said
        assert "+2  game #1: a foul undone (recorded by mistake)" in said
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}/game/{flow.game_id}"
            async with http.get(f"{base}?lang=en") as response:
                page = await response.text()
            async with http.get(f"{base}/protocol.json") as response:
                protocol = json.loads(await response.text())
        fouls_table = page.split('<table id="fouls">')[1].split("</table>")[0]
        assert fouls_table.count("<tr") == 1 + 5
        assert "talked over Player5" in fouls_table and 'class="undone"' in fouls_table
        assert "fines -5" in page  # seat 4: 2 + 2 + 1
        game = await db.games.get(flow.game_id)
        assert protocol == protocol_of(await db.games.events(flow.game_id))
        ledger: Counter[int] = Counter()
        for row in rows:
            seat = game.seat_of(row.tg_id)
            assert seat is not None
            ledger[seat] += row.points
        result = replay(protocol)
        assert {int(s): p for s, p in result["points"].items()} == {
            s: ledger[s] for s in range(1, 11)}
        assert [(f["seat"], f["points"], f["undone"]) for f in result["fouls"]] == [
            (3, 2, True), (4, 2, False), (4, 2, False), (4, 1, False), (5, 0, False)]
        assert flow.over and game.status == "finished"


@pytest.mark.parametrize("public", [False, True])
async def test_a_discipline_command_s_refusal_keeps_quiet_fouls_quiet(
        fake: FakeTelegram, tmp_path: Path, public: bool) -> None:
    """The club keeps its fouls quiet: a host's mistyped ``/unfoul 3``, ``/foul 40`` or
    ``/tech 40`` typed in the club chat is answered in the host's private chat, the club chat
    hears nothing of it; a club that tells its fouls hears the refusals where they were typed."""
    async with running(fake, tmp_path) as app:
        db = app.services.db
        flow = Flow(fake, app, "en")
        await db.clubs.ensure(flow.club, title="Club", locale="en")
        await db.clubs.set_fouls(flow.club, public=public)
        await flow.lobby(6)
        await flow.deal()
        await flow.host("/foul 2")
        await private_with(flow, HOST, "Foul 1 of the game")
        await flow.host("/unfoul 1")
        await private_with(flow, HOST, "undone")
        await flow.delivered()
        posts = len(fake.messages(flow.club))
        at = len(fake.messages(HOST))
        for typed, refusal in (("/unfoul 1", "Foul 1 is undone already."),
                               ("/unfoul 3", "There is no foul 3 in this game."),
                               ("/foul 40", "There is no seat 40"),
                               ("/tech 40", "There is no seat 40"),
                               ("/foul ²", "Usage: <code>/foul SEAT")):
            await flow.host(typed)
            if public:
                await private_with(flow, flow.club, refusal, posts)
            else:
                await private_with(flow, HOST, refusal, at)
        await flow.delivered()
        club_said = [m.body for m in fake.messages(flow.club)[posts:]]
        assert (club_said == []) != public, club_said
        assert len(flow.table.game.fouls) == 1 and flow.table.game.fouls[0].undone
        assert all(flow.table.game.player(s).alive for s in flow.table.seats)

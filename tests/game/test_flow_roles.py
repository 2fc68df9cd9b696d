"""A player's cards and rivals in the middle of a game, over HTTP: two games played to their
end, a third dealt and under way. Its players' ``/profile`` (the text and its two charts),
``/top role`` with the card each holds now, their pages and the pages' charts read exactly as
before the deal — nothing of the running game's cards shows; once it ends, they change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine import Role
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.flow import Flow, start_app, stop_app
from tests.web.conftest import Client
from web.app import create_web_app

PLAYERS = 8
Seen = dict[str, object]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def profile(flow: Flow, uid: int) -> list[SentMessage]:
    """``/profile``'s answer: its text, the cards and rivals, and the two charts, in order
    (after what the game had queued for the player, a night's check among it, has arrived)."""
    await flow.delivered()
    before = len(flow.fake.messages(uid))
    await flow.fake.send(uid, "/profile")
    await flow.fake.wait_for(lambda: len(flow.fake.messages(uid)) >= before + 4, 20,
                             "the profile, the cards and rivals, the two charts")
    sent = flow.fake.messages(uid)[before:before + 4]
    assert sent[0].text is not None and "Профиль" in sent[0].text
    assert sent[1].text is not None and sent[1].text.startswith("<b>По картам</b>")
    assert [m.photo_bytes is not None for m in sent[2:]] == [True, True]
    return sent


async def top_role(flow: Flow, uid: int, card: str) -> str:
    before = len(flow.fake.messages(uid))
    await flow.fake.send(uid, f"/top role {card}")
    await flow.fake.wait_for(lambda: len(flow.fake.messages(uid)) > before, 10, "/top role")
    return flow.fake.messages(uid)[before].body


async def seen(flow: Flow, client: Client, uid: int,
               nick: str) -> Seen:
    """Everything the player and anyone may read of the player's standing."""
    sent = await profile(flow, uid)
    out: Seen = {"profile": sent[0].text, "cards and rivals": sent[1].text,
                 "charts": [m.photo_bytes for m in sent[2:]]}
    for path in (f"/player/{nick}?lang=ru", f"/player/{nick}/rating.png",
                 f"/player/{nick}/roles.png"):
        response = await client.get(path)
        assert response.status == 200, path
        out[path] = await response.read()
    return out


async def every_card(flow: Flow, uid: int) -> dict[str, str]:
    """``/top role`` of every card, typed by its Russian name."""
    tr = flow.app.services.translator
    return {str(r): await top_role(flow, uid, tr.t("ru", f"game.role.{r}")) for r in Role}


async def test_nothing_of_a_running_game_shows_in_the_cards_and_rivals(
        fake: FakeTelegram, tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        for _ in range(2):
            await flow.lobby(PLAYERS)
            await flow.deal()
            await flow.play_to_end()
        readers = list(enumerate(flow.players[:3], 1))  # Player1..Player3
        web = create_web_app(app.services.db, translator=app.services.translator)
        async with TestClient(TestServer(web)) as client:
            await flow.lobby(PLAYERS)  # the same players
            before = {uid: await seen(flow, client, uid, f"Player{n}") for n, uid in readers}
            tops = await every_card(flow, readers[0][1])
            await flow.deal()
            await flow.night()
            assert not flow.over
            dealt = {str(p.role) for p in flow.table.game}
            assert {uid: await seen(flow, client, uid, f"Player{n}")
                    for n, uid in readers} == before
            # /top role of every card, the ones held now among them: nothing moved
            assert await every_card(flow, readers[-1][1]) == tops
            await flow.play_to_end(night_first=False)
            after = {uid: await seen(flow, client, uid, f"Player{n}") for n, uid in readers}
            tops_after = await every_card(flow, readers[0][1])
        for n, uid in readers:  # a game more: the texts, the charts and the pages moved
            assert {k for k in before[uid] if after[uid][k] == before[uid][k]} == set(), n
        assert {r for r in tops if tops_after[r] != tops[r]} == dealt
    finally:
        await stop_app(app, task)

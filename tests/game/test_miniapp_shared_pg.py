"""Two bot applications on one PostgreSQL (bot/cluster/sharing.py): the host's Mini App served by
the process that does NOT hold the game's club reaches the holder through a club call
(bot/cluster/club_calls.py) — its state is the live table, its action is applied once, a forged
proof or a player is refused there too — and a player's 403 met by the outbox's sender, which does
not hold the club, reaches the holder's game (the host told, the seat marked)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import App
from bot.cluster.share import ProcessRole
from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import HOST, Flow, free_port, start_app, stop_app, wait_until
from tests.game.test_sharing_inprocess_pg import games_of, held, tables_in
from tests.pg_cluster import Cluster
from tests.web.initdata import forge, sign_init_data

CLUBS = [-100_830_000 - i for i in range(8)]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def proof(fake: FakeTelegram, user: int) -> dict[str, str]:
    return {"Authorization": f"tma {sign_init_data(fake.token, user, datetime.now(UTC))}"}


async def _get(session: aiohttp.ClientSession, url: str,
               headers: dict[str, str]) -> tuple[int, Any]:
    async with session.get(url, headers=headers) as r:
        return r.status, await r.json()


async def _post(session: aiohttp.ClientSession, url: str, headers: dict[str, str],
                body: dict[str, Any]) -> tuple[int, Any]:
    async with session.post(url, headers=headers, json=body) as r:
        return r.status, await r.json()


async def test_the_mini_app_on_the_other_process_reaches_the_clubs_holder(
    fake: FakeTelegram, tmp_path: Path, pg: Cluster
) -> None:
    url = await pg.new_database()
    ports = free_port(), free_port()
    first, first_task = await start_app(fake, tmp_path / "a", database_url=url,
                                        web_port=ports[0], web_host="127.0.0.1")
    second: App | None = None
    try:
        first_sharing = first.sharing
        assert first_sharing is not None
        # alone, the first takes every role; the clubs come after: the second, with no
        # role, takes most of them (its fair share)
        await wait_until(lambda: ProcessRole.SENDER in first_sharing.conn.roles, 10, "the roles")
        for club in CLUBS:
            await first.services.db.clubs.ensure(club, title="Club", locale="en")
        second, second_task = await start_app(fake, tmp_path / "b", database_url=url,
                                              web_port=ports[1], web_host="127.0.0.1")
        await wait_until(lambda: held(first) | held(second) == set(CLUBS) and held(second),
                         20, "the clubs shared out")
        club = min(held(second))
        sender, holder, other_port = first, second, ports[0]
        assert ProcessRole.SENDER in first_sharing.conn.roles and club not in held(sender)
        flow = Flow(fake, holder, lang="en", club=club)
        await flow.lobby(10)
        await flow.deal()
        await flow.delivered()
        assert tables_in(sender, club) == []  # the game lives in the holder only
        base = f"http://127.0.0.1:{other_port}/host/{flow.game_id}"
        async with aiohttp.ClientSession() as session:
            # the state, from the process without the game: the holder's live table
            status, state = await _get(session, f"{base}/state?lang=en", proof(fake, HOST))
            assert status == 200, state
            assert state["step"] == flow.table.moment and state["stage"] == str(flow.table.stage)
            assert [s["seat"] for s in state["seats"]] == sorted(flow.table.seats)
            assert "vote" in [a["name"] for a in state["actions"]]

            # refused there too, nothing changed: a forged proof, a player of the game
            kinds, posts, moment = await flow.log_kinds(), len(fake.messages(club)), state["step"]
            vote = {"action": "vote", "arg": None, "step": moment}
            forged = {"Authorization": "tma " + forge(
                proof(fake, flow.players[0])["Authorization"][4:], HOST)}
            assert (await _post(session, f"{base}/act?lang=en", forged, vote))[0] == 401
            assert (await _get(session, f"{base}/state?lang=en", forged))[0] == 401
            status, refused = await _post(session, f"{base}/act?lang=en",
                                          proof(fake, flow.players[0]), vote)
            assert status == 403 and refused["error"] == "game.not_host"
            assert (await _get(session, f"{base}/state?lang=en",
                               proof(fake, flow.players[0])))[0] == 403
            await flow.delivered()
            assert await flow.log_kinds() == kinds and len(fake.messages(club)) == posts
            assert flow.table.moment == moment

            # every player blocks the bot: the vote's prompts meet 403s at the sender
            for uid in flow.players:
                fake.block_bot(uid)
            began = time.monotonic()
            status, done = await _post(session, f"{base}/act?lang=en", proof(fake, HOST), vote)
            forwarded_ms = (time.monotonic() - began) * 1000
            assert status == 200 and done["ok"], done
            assert flow.table.stage is Stage.VOTE
            # the same press again (the page drawn before): stale at the holder
            status, stale = await _post(session, f"{base}/act?lang=en", proof(fake, HOST), vote)
            assert status == 409 and stale["error"] == "game.stale"
        print(f"a forwarded Mini App press answered in {forwarded_ms:.0f} ms")
        await flow.delivered()
        new = await flow.log_kinds()
        assert len(new) > len(kinds)
        assert new.count("vote_start") == kinds.count("vote_start") + 1, new[len(kinds):]
        boards = [m for m in fake.messages(club)[posts:] if m.body.startswith("🗳 <b>Vote, day")]
        assert len(boards) == 1, [m.body for m in fake.messages(club)[posts:]]

        # the sender (not the holder) met the 403s; the holder's game heard of them
        table = games_of(holder).tables[flow.game_id]
        await wait_until(lambda: bool(table.memory.blocked_told), 15, "the holder told of a block")
        def told() -> list[str]:
            return [m.body for m in fake.messages(HOST) if m.body.startswith("№")
                    and "blocked the bot" in m.body]

        # the vote goes on meanwhile (a turn every 2 s): more voters' prompts meet 403s
        early = sorted(table.memory.blocked_told)
        await fake.wait_for(lambda: all(any(t.startswith(f"№{seat} ") for t in told())
                                        for seat in early), 15, "the host told")
        seats = [int(t.split()[0][1:]) for t in told()]
        assert sorted(seats) == sorted(set(seats))  # once
        assert set(seats) <= table.memory.blocked_told
        assert tables_in(sender, club) == []
        # what the host sees: the seats marked on the panel and in the Mini App (asked of
        # the process without the game again)
        marked = sorted(table.memory.blocked_told)
        await fake.wait_for(lambda: any(
            all(f"№{seat} Player{seat} 🚫" in m.body for seat in marked)
            for m in fake.messages(HOST) if m.body.startswith("🎩")), 15, "the panel's marks")
        async with aiohttp.ClientSession() as session:
            status, state = await _get(session, f"{base}/state?lang=en", proof(fake, HOST))
        assert status == 200
        shown = {s["seat"] for s in state["seats"] if s["blocked"]}
        assert set(marked) <= shown <= table.memory.blocked_told
    finally:
        if second is not None and not second.stopping.is_set():
            await stop_app(second, second_task)
        if not first.stopping.is_set():
            await stop_app(first, first_task)
        await asyncio.sleep(0)

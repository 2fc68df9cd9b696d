"""A table of newcomers over the fake Bot API: every player holds the newbie's open immunity on
the first night and the first day (docs/rules.md#51-open-immunities), so nobody may be shot
tonight and nobody may be voted for today. The club chat is told so plainly and the game goes
on: no board of voters who "did not vote in time", no failed vote, no edit of a prompt that was
never sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, running, wait_until
from tests.game.harness import approve_club


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def newcomers(flow: Flow, n: int, *, first: int = 3001) -> None:
    """``n`` players who never played (their first game: the newbie's immunity), seated."""
    fake = flow.fake
    fake.group(CLUB, "Club")
    fake.user(HOST, "Host", language_code="en")
    await fake.send(HOST, "/start")
    await fake.next_message(HOST)
    await flow.app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(flow.app.services.db, CLUB)  # its games count
    ids = list(range(first, first + n))
    for uid in ids:
        fake.user(uid, f"U{uid}", language_code="en")
        await fake.send(uid, "/start")
    for uid in ids:
        await fake.next_message(uid)
        await fake.send(uid, f"/nick Newcomer{uid - first + 1}")
    for uid in ids:
        await fake.next_message(uid)
    flow.players += ids
    await flow.host("/newgame")
    lobby = await flow.prompt(CLUB, "gl:")
    flow.game_id = int(lobby.buttons()[0][1].split(":")[1])
    for uid in ids:
        await flow.press(uid, lobby, f"gl:{flow.game_id}:join")
    await wait_until(lambda: len(flow.table.seats) == n, 10, "all seated")


async def test_a_table_of_newcomers_has_no_vote_on_the_first_day(fake: FakeTelegram,
                                                                 tmp_path: Path) -> None:
    async with running(fake, tmp_path, default_locale="en", night_seconds=3,
                       mafia_agree_seconds=1, vote_turn_seconds=30) as app:
        flow = Flow(fake, app, "en")
        await newcomers(flow, 10)
        await flow.deal()
        table = flow.table
        assert all(table.game.open_immunity_active(s, table.game.next_phase())
                   for s in table.seats)
        # the first night: the Mafia have nobody to shoot, and no window to agree in
        await flow.start("/night", Stage.NIGHT)
        assert table.mafia_locked
        await flow.night_rest()
        await flow.last_words()
        assert len(table.game.alive) == 10
        heard = len(fake.messages(CLUB))
        # the first day: nobody may be voted for, and that is what the table hears
        answer = await flow.host_says("/vote", "nobody can be voted out today")
        assert "open immunity" in answer
        await wait_until(lambda: table.stage is Stage.EVENING, 10, "the evening")
        await flow.delivered()
        said = "\n".join(m.body for m in fake.messages(CLUB)[heard:])
        for wrong in ("did not vote in time", "Everyone has voted", "The vote failed",
                      "votes now", "The vote is over"):
            assert wrong not in said, said
        assert "The host starts the next night." in said
        # no voter got a prompt, nothing the bot queued failed (no edit of a prompt never sent)
        assert not any(d.startswith(f"gv:{flow.game_id}:") for uid in flow.players
                       for m in fake.messages(uid) for _, d in m.buttons())
        failed = [r for r in await app.services.db.outbox.rows() if r["status"] == "failed"]
        assert failed == []
        # the immunities are over: the next day has a vote of its own
        await flow.night()
        await flow.last_words()
        if flow.over:
            return
        await flow.host("/vote")
        await wait_until(lambda: table.stage is Stage.VOTE, 10, "a vote on the second day")
        assert table.current_voter() is not None

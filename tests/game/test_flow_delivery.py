"""The club chat people can read, and presses answered first — the real bot over HTTP."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bot.game.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, running, wait_until


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def open_buttons(fake: FakeTelegram, chats: list[int], prefix: str) -> list[str]:
    return [m.body for chat in chats for m in fake.messages(chat)
            if any(d.startswith(prefix) for _, d in m.buttons())]


async def test_a_12_player_game_reads_well(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(12)
        await flow.deal()
        game = flow.game_id
        await flow.night()
        await flow.delivered()
        # the night's prompts that nobody pressed any more lost their buttons
        assert not open_buttons(fake, flow.players, f"gn:{game}:")
        await flow.vote()
        await flow.delivered()
        texts = flow.club_texts()
        # ONE live board for the vote, edited turn by turn, not a post per turn
        boards = [t for t in texts if "Vote, day 1" in t]
        assert len(boards) == 1 and "Everyone has voted" in boards[0]
        assert not any(re.search(r"votes now|votes for №", t) for t in texts if t != boards[0])
        assert any(call == "editMessageText" and p["chat_id"] == CLUB for call, p in fake.calls)
        # the tally comes before the verdict, and is said once
        tally = [i for i, t in enumerate(texts) if "Votes, day 1" in t]
        verdict = [i for i, t in enumerate(texts) if "leaves the game by the vote" in t
                   or "verdict on" in t or "The vote failed" in t]
        assert len(tally) == 1 and verdict and tally[0] <= verdict[0]
        assert not open_buttons(fake, flow.players, f"gv:{game}:")
        assert not open_buttons(fake, flow.players, f"gc:{game}:")
        await flow.play_to_end(night_first=True)
        await flow.delivered()
        posts = fake.messages(CLUB)
        assert any("🏁" in m.body for m in posts)
        assert len(posts) < 30, "\n---\n".join(m.body for m in posts)


async def test_presses_are_answered_while_the_club_chat_is_throttled(
        fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path, default_locale="en", night_seconds=60,
                       mafia_agree_seconds=30, vote_turn_seconds=60) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        await flow.delivered()
        fake.limit_groups(1)  # Telegram's 20 a minute, only tighter: one club post, then 429
        await flow.night()
        if flow.over:
            return
        await flow.host("/vote")
        await wait_until(lambda: flow.table.stage is Stage.VOTE, 10, "the vote")
        table = flow.table
        voter = table.current_voter()
        assert voter is not None
        prefix = f"gv:{flow.game_id}:{table.step}:"
        prompt = await flow.prompt(flow.tg(voter), prefix)
        held = await app.services.db.outbox.pending(CLUB)
        assert held, "the club chat's posts (morning, board) are held by the group limit"
        target = engine.vote_candidates(table.game, voter)[0]
        answer = await flow.press(flow.tg(voter), prompt, prefix + str(target))
        assert "Vote accepted" in answer  # answered at once ...
        still = {r.id for r in await app.services.db.outbox.pending(CLUB)}
        assert {r.id for r in held} <= still  # ... while the club chat still waits
        assert table.votes.get(voter) == target


async def test_stale_prompts_lose_their_buttons_after_the_moment(
        fake: FakeTelegram, tmp_path: Path) -> None:
    async with running(fake, tmp_path, default_locale="en", night_seconds=1.5,
                       mafia_agree_seconds=1, vote_turn_seconds=0.5) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        game = flow.game_id
        await flow.start("/night", Stage.NIGHT)
        # nobody presses: the night runs out
        await wait_until(lambda: flow.table.stage is not Stage.NIGHT, 20, "the morning")
        await flow.delivered()
        assert not open_buttons(fake, flow.players, f"gn:{game}:")
        assert any("night is over" in m.body for uid in flow.players
                   for m in fake.messages(uid))
        if flow.over:
            return
        await flow.start("/vote", Stage.VOTE)
        await wait_until(lambda: flow.over or flow.table.stage in (Stage.EVENING, Stage.OVER),
                         40, "the verdict")
        await flow.delivered()
        assert not open_buttons(fake, [*flow.players, flow.table.host_id], f"gv:{game}:")
        assert not open_buttons(fake, flow.players, f"gc:{game}:")
        assert not open_buttons(fake, [flow.table.host_id], f"gf:{game}:")

"""The club chat people can read, and presses answered first — the real bot over HTTP."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from bot.game.rooms.day import BOARD_EDIT_GAP
from record.table import Stage
from tests.bot.conftest import FAST_LIMITS
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, running, wait_until
from tests.game.simulated import SimulatedTime


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def open_buttons(fake: FakeTelegram, chats: list[int], prefix: str) -> list[str]:
    return [m.body for chat in chats for m in fake.messages(chat)
            if any(d.startswith(prefix) for _, d in m.buttons())]


@pytest.mark.soak
async def test_a_12_player_game_reads_well(fake: FakeTelegram, tmp_path: Path) -> None:
    """Soak test (15-22 s): a whole 12-player game over HTTP with the delivery on the real clock
    (its subject is how the posts read as they come, throttled edits included)."""
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(12)
        await flow.deal()
        game = flow.game_id
        await flow.night()
        await flow.delivered()
        # the night's prompts that nobody pressed any more lost their buttons
        assert not open_buttons(fake, flow.players, f"gn:{game}:")
        # the night falls in the deal's post; the morning is ONE post: the day's picture,
        # its caption the night's news and the day's start
        [deal] = [m for m in fake.messages(CLUB) if "Cards dealt" in m.body]
        assert "Night 1." in deal.body
        [morning] = [m for m in fake.messages(CLUB) if "Morning after night 1" in m.body]
        assert morning.photo_bytes is not None and "Day 1." in (morning.caption or "")
        assert not flow.over
        await flow.vote()
        await flow.delivered()
        texts = flow.club_texts()
        # ONE live board for the vote, edited turn by turn, not a post per turn
        boards = [t for t in texts if "Vote, day 1" in t]
        assert len(boards) == 1 and "Everyone has voted" in boards[0]
        assert not any(re.search(r"votes now|votes for №", t) for t in texts if t != boards[0])
        assert any(call == "editMessageText" and p["chat_id"] == CLUB for call, p in fake.calls)
        # the tally comes before the verdict, said once: the verdict is edited into its post
        tally = [i for i, t in enumerate(texts) if "Votes, day 1" in t]
        verdict = [i for i, t in enumerate(texts) if "leaves the game by the vote" in t
                   or "verdict on" in t or "The vote failed" in t]
        assert len(tally) == 1 and verdict == tally
        told = texts[tally[0]]
        assert told.index("Votes, day 1") < told.index("The host starts the next night")
        assert not open_buttons(fake, flow.players, f"gv:{game}:")
        assert not open_buttons(fake, flow.players, f"gc:{game}:")
        await flow.play_to_end(night_first=True)
        await flow.delivered()
        posts = fake.messages(CLUB)
        bodies = [m.body for m in posts]
        # every later night falls in the evening's post: no post of its own
        assert not any(b.startswith("🌙") for b in bodies)
        assert any("Night 2." in b and "Votes, day 1" in b for b in bodies)
        # the end: the outcome, the points and the deal in one post, then the final picture
        [end] = [b for b in bodies if "🏁" in b]
        assert "Points for the game" in end and "The deal's key" in end
        cards = [line for line in end.splitlines() if re.match(r"№\d+ \S+ — ", line)]
        assert len(cards) == 12 == len(set(cards)), end  # every card once, under "Game over"
        assert posts[-1].photo_bytes is not None or "🏁" in posts[-1].body
        days = sum(1 for b in bodies if "🗳" in b)
        # lobby, deal (+ night 1), a morning, a board and a tally a round, the end (+ picture)
        assert len(posts) <= 2 + 3 * days + 1 + 2, "\n---\n".join(bodies)
        assert len(posts) < 30, "\n---\n".join(bodies)


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
        prefix = f"gv:{flow.game_id}:{table.moment}:"
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


async def test_a_club_chat_behind_its_budget_is_late_by_a_post_never_a_phase(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """Short timers and a tight group budget (two posts in any 5 s: the group's 20 a minute,
    made short: one every 2.5 s), nobody pressing: each round's nights and votes run out on
    their timers, and the club chat cannot take a post per event. What queued behind its
    waiting post goes out in it, so each night's fall has reached the chat before the next
    night falls (a chat one phase behind fails), and the vote board's edits keep their gap
    (BOARD_EDIT_GAP). On simulated time (tests/game/simulated.py): the timers and the budget
    race on one clock that moves only when the bot has nothing left to do, so the rounds are
    the same however busy the machine is."""
    sim = SimulatedTime(fake)
    limits = replace(FAST_LIMITS, group_per_minute=2, group_span=5.0)
    async with sim.bot(tmp_path, default_locale="en", limits=limits, night_seconds=3,
                       mafia_agree_seconds=1, vote_turn_seconds=0.3,
                       last_word_seconds=0.05) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        await sim.delivered()
        await sim.wait(5)  # the group's budget whole again when the first night falls
        late = []
        for night in range(1, 5):
            if night > 1:
                told = [m.body for m in fake.messages(CLUB) if f"Night {night - 1}." in m.body]
                if not told:
                    late.append(night - 1)
            await flow.start("/night", Stage.NIGHT)  # nobody chooses: the night runs out
            await sim.until(lambda: flow.table.stage is not Stage.NIGHT, "the morning")
            await flow.start("/vote", Stage.VOTE)  # nobody votes: every turn runs out
            await sim.until(lambda: flow.table.stage is not Stage.VOTE
                            and flow.table.last_words is None, "the verdict")
        assert late == [], f"the fall of nights {late} reached the chat after the next night's"
        await flow.host("/endgame")
        await sim.until(lambda: flow.over, "the end")
        await sim.delivered()
        boards = {m.message_id for m in fake.messages(CLUB) if "🗳" in m.body}
        edits: dict[int, list[float]] = {}
        for r in fake.log:
            if r.method == "editMessageText" and r.chat_id == CLUB and r.status == 200:
                edits.setdefault(int(r.params["message_id"]), []).append(r.at)
        gaps = [b - a for board in boards for a, b in zip(edits.get(board, []),
                                                          edits.get(board, [])[1:], strict=False)]
        assert all(gap >= BOARD_EDIT_GAP - 0.1 for gap in gaps), gaps


async def test_a_night_announced_after_it_ended_does_not_state_its_length(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """The club chat's budget spent by the deal (one post in any 30 s), a night of 3 s falls:
    its announcement reaches the chat after the night is over, so it says the night without
    its length (``game.night.start_late``); the next night, with budget to spare, states it.
    On simulated time (tests/game/simulated.py)."""
    sim = SimulatedTime(fake)
    limits = replace(FAST_LIMITS, group_per_minute=1, group_span=30.0)
    async with sim.bot(tmp_path, default_locale="en", limits=limits, night_seconds=3,
                       mafia_agree_seconds=1, vote_turn_seconds=0.3,
                       last_word_seconds=0.05) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        await sim.delivered()
        await flow.start("/night", Stage.NIGHT)  # nobody chooses: the night runs out
        await sim.until(lambda: flow.table.stage is not Stage.NIGHT, "the morning")
        await sim.delivered()
        first = [m.body for m in fake.messages(CLUB) if "Night 1." in m.body]
        assert len(first) == 1, first
        assert ("The town falls asleep. Everyone who can act got buttons in private."
                in first[0]), first[0]
        assert "the night lasts" not in first[0]
        await flow.start("/vote", Stage.VOTE)  # nobody votes: every turn runs out
        await sim.until(lambda: flow.table.stage is not Stage.VOTE
                        and flow.table.last_words is None, "the verdict")
        await sim.delivered()
        await sim.wait(60)  # the budget whole again
        await flow.start("/night", Stage.NIGHT)
        await sim.delivered()
        second = [m.body for m in fake.messages(CLUB) if "Night 2." in m.body]
        assert len(second) == 1 and "the night lasts 3 seconds." in second[0], second

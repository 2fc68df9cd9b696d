"""The host's table as a host reads it, over the fake Bot API: the club chat says who moves the
game on (the command only when the host has no panel), the host pressing «I play» is told the
host does not play, a game over has no last word left to wait for, and a typed ``/fate``
follows the panel's list of legal actions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, running, wait_until
from tests.present import present


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def a_round(flow: Flow) -> str:
    """A night and a vote; what the club chat reads since the deal."""
    heard = len(flow.fake.messages(CLUB))
    await flow.night()
    if not flow.over:
        await flow.vote()
    await flow.delivered()
    return "\n".join(m.body for m in flow.fake.messages(CLUB)[heard:])


@pytest.mark.parametrize("panel", [True, False], ids=["panel", "no_panel"])
async def test_the_club_chat_says_who_moves_the_game_on(fake: FakeTelegram, tmp_path: Path,
                                                        panel: bool) -> None:
    """With the panel the posts say the host starts the vote and the next night, a command
    to type is an instruction to nobody; a host whose private chat refuses the bot (never
    started it, or blocked it: no panel) runs the table by commands, and the posts name them."""
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        if not panel:
            await app.services.db.players.register(HOST, display_name="Host", language="en")
            fake.block_bot(HOST)
        await flow.lobby(10)
        await flow.deal()
        said = await a_round(flow)
        if flow.over:
            return
        if panel:
            assert "The host starts the vote." in said and "/vote" not in said
            assert "The host starts the next night." in said and "/night" not in said
            assert any(m.buttons() for m in fake.messages(HOST))  # the panel
        else:
            assert "The host starts the vote: /vote" in said
            assert "Next night: /night" in said
            assert not fake.messages(HOST)  # nothing reached the host's chat


async def test_the_host_pressing_i_play_is_told_the_host_does_not_play(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """A host with an account but no nickname presses the lobby's «I play»: told that the host
    does not play at its own table (not to take a nickname); nothing changes."""
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(6)
        assert present(await app.services.db.players.get(HOST)).nickname is None
        lobby = await flow.prompt(CLUB, "gl:")
        answer = await flow.press(HOST, lobby, f"gl:{flow.game_id}:join")
        assert answer == "The host sees every card and cannot play at this table."
        assert len(flow.table.seats) == 6 and flow.table.seat_of(HOST) is None


async def test_a_game_over_has_no_last_word_left(fake: FakeTelegram, tmp_path: Path) -> None:
    """The resolution that ends the game kills someone: no last word starts with the end and
    none under way is said to be over after it (the end's post is the chat's last word)."""
    async with running(fake, tmp_path, default_locale="en", last_word_seconds=0.3) as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(6)
        await flow.deal()
        await flow.play_to_end()
        await wait_until(lambda: not any("last_word" in job.id
                                         for job in app.container.scheduler.get_jobs()), 10,
                         "every last word's timer")
        await flow.delivered()
        posts = fake.messages(CLUB)
        end = next(i for i, m in enumerate(posts) if "🏁" in m.body)
        after = posts[end].body[posts[end].body.index("🏁"):]
        assert "last word" not in after, after
        for message in posts[end + 1:]:
            assert "last word" not in message.body, message.body
        assert flow.over and all(t.stage is Stage.OVER or not t.open
                                 for t in flow.games.tables.values())


async def test_the_shoot_outs_drawer_is_set_before_the_game_begins(
        fake: FakeTelegram, tmp_path: Path) -> None:
    """``/fate`` follows the panel's list of legal actions: after the deal it still sets who
    draws (for this game and the club's next ones); once the first night has begun it is
    refused with the reason, and neither the game nor the club's preference changes."""
    async with running(fake, tmp_path, default_locale="en") as app:
        flow = Flow(fake, app, "en")
        await flow.lobby(6)
        await flow.deal()
        assert "the host's draw" in await flow.host_says("/fate host", "draw")
        assert flow.table.fate_by_host
        await flow.start("/night", Stage.NIGHT)
        answer = await flow.host_says("/fate bot", "shoot-out")
        assert answer == ("Who draws a shoot-out's lot is set before the first night or day;"
                          " this game has begun.")
        assert flow.table.fate_by_host
        club = await app.services.db.clubs.get(CLUB)
        assert club is not None and club.fate_by_host

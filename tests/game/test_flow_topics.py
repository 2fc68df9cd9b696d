"""A club chat that is a forum: every answer to a message written in a topic goes to that
topic (bot/delivery/replies.py, ``answering``), whatever the command: the settings, the help,
the leaderboard, an evening's announcement and its dialog, a refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.flow import CLUB, HOST, running
from tests.game.harness import approve_club

MEMBER = 5001


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_every_answer_to_a_message_in_a_topic_goes_to_that_topic(
        fake: FakeTelegram, tmp_path: Path) -> None:
    fake.group(CLUB, "Club", forum=True)
    fake.set_admins(CLUB, [HOST])  # /settings is the chat's administrators', not HOST_IDS'
    async with running(fake, tmp_path, default_locale="en") as app:
        await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
        await approve_club(app.services.db, CLUB)  # its games count
        for uid in (HOST, MEMBER):
            fake.user(uid, f"U{uid}", language_code="en")
            await fake.send(uid, "/start")
            await fake.next_message(uid)
        await fake.send(MEMBER, "/nick Member1")
        await fake.next_message(MEMBER)
        topic = fake.topic(CLUB, "Announcements")

        async def answer(uid: int, text: str, expect: str) -> SentMessage:
            before = len(fake.messages(CLUB))

            def found() -> SentMessage | None:
                return next((m for m in fake.messages(CLUB)[before:] if expect in m.body),
                            None)
            await fake.send(uid, text, chat_id=CLUB, thread=topic)
            await fake.wait_for(lambda: found() is not None, 10, f"{expect!r} after {text}")
            message = found()
            assert message is not None
            return message

        day = (datetime.now(ZoneInfo(app.settings.timezone)) + timedelta(days=3))
        answers = [
            await answer(HOST, "/settings", "Settings of Club"),
            await answer(HOST, "/help", "Mafia club bot"),
            await answer(HOST, "/top", "points from this club's games"),
            await answer(HOST, "/stats", "private chat with the bot"),
            await answer(HOST, "/evening", "A new game evening. Which day?"),
            await answer(HOST, f"/evening {day:%d.%m} 19:30 2 12", "Game evening:"),
            await answer(MEMBER, "/evening", "Only the chat's administrators"),
            await answer(MEMBER, "/settings", "administrators"),
            await answer(MEMBER, "/status", "There is no game in this chat"),
        ]
        assert [m.thread for m in answers] == [topic] * len(answers)
        assert fake.in_topic(CLUB, None) == []
        # the evening's post is edited where it is: a sign-up keeps it in the topic
        post = answers[5]
        await fake.press(MEMBER, post, post.button_data("I'm in"))
        await fake.wait_for(lambda: "1. Member1" in post.body, 10, "the list edited")
        assert post.thread == topic and fake.in_topic(CLUB, None) == []
        # the sends named the topic
        sends = [r for r in fake.log if r.chat_id == CLUB and r.method == "sendMessage"]
        assert sends and all(r.params.get("message_thread_id") == topic for r in sends)

"""Club posts that later facts are edited into (``record/posts.py``, ``Notifier.tell``)."""

from __future__ import annotations

from bot.game.messages.notifier import Notifier
from record.posts import CAPTION_LIMIT, TEXT_LIMIT, Post, units
from storage.repos.outbox import EDIT, SEND
from tests.fakes.recording_sender import RecordingSender
from views.i18n import Translator

CLUB = -100


def notifier(translator: Translator) -> Notifier:
    return Notifier(RecordingSender(), translator, lambda tg: "en")


def test_a_post_has_room_up_to_its_limit() -> None:
    text = Post("g1:r1", "x" * 100)
    assert text.room() == TEXT_LIMIT - 102
    caption = Post("g1:r1", "x" * 100, caption=True)
    assert caption.room() == CAPTION_LIMIT - 102
    assert caption.plus("y") == Post("g1:r1", "x" * 100 + "\n\ny", caption=True)


def test_length_is_counted_as_telegram_counts_it() -> None:
    """UTF-16 code units: an emoji outside the BMP (a nickname's) is two; Cyrillic and № one."""
    assert units("Ночь №1") == 7
    assert units("🌅🦊") == 4
    assert Post("g1:r1", "🦊" * 100, caption=True).room() == CAPTION_LIMIT - 202


async def test_a_steps_post_is_edited_into_the_open_post(translator: Translator) -> None:
    n = notifier(translator)
    token = n.begin()
    try:
        await n.send(CLUB, "the verdict")
        await n.send(42, "a private prompt")  # other chats do not matter
        post = await n.tell(CLUB, Post("g1:s3:tally", "the tally"), "g1:r9")
        batch = n.take()
    finally:
        n.end(token)
    assert post == Post("g1:s3:tally", "the tally\n\nthe verdict")
    assert [(m.chat_id, m.method, m.key, m.payload) for m in batch] == [
        (42, SEND, None, {"text": "a private prompt"}),
        (CLUB, EDIT, "g1:s3:tally", {"text": "the tally\n\nthe verdict"})]


async def test_a_caption_is_edited_as_a_caption(translator: Translator) -> None:
    n = notifier(translator)
    token = n.begin()
    try:
        await n.send(CLUB, "last word over")
        post = await n.tell(CLUB, Post("g1:r4", "morning", caption=True), "g1:r4:w:0")
        batch = n.take()
    finally:
        n.end(token)
    assert post == Post("g1:r4", "morning\n\nlast word over", caption=True)
    assert [(m.method, m.key, m.payload) for m in batch] == [
        (EDIT, "g1:r4", {"caption": "morning\n\nlast word over"})]


async def test_what_does_not_fit_is_a_new_post(translator: Translator) -> None:
    n = notifier(translator)
    token = n.begin()
    try:
        await n.send(CLUB, "z" * 30)
        full = Post("g1:r4", "x" * (CAPTION_LIMIT - 20), caption=True)
        post = await n.tell(CLUB, full, "g1:r4:w:0")
        batch = n.take()
    finally:
        n.end(token)
    assert post == Post("g1:r4:w:0", "z" * 30)
    assert [(m.method, m.key, m.payload) for m in batch] == [
        (SEND, "g1:r4:w:0", {"text": "z" * 30})]


async def test_a_post_too_long_only_in_utf16_is_not_taken(translator: Translator) -> None:
    n = notifier(translator)
    token = n.begin()
    try:
        await n.send(CLUB, "🦊" * 30)  # 30 characters, 60 units
        assert n.take_post(CLUB, 59) is None
        assert n.take_post(CLUB, 60) == "🦊" * 30
    finally:
        n.end(token)


async def test_nothing_said_keeps_the_open_post(translator: Translator) -> None:
    n = notifier(translator)
    token = n.begin()
    try:
        await n.send(CLUB, "the board", ref="g1:s3:board")  # a keyed post is not the step's
        open_post = Post("g1:r2", "the outcome")
        assert await n.tell(CLUB, open_post, "g1:r3") == open_post
        assert await n.tell(CLUB, None, "g1:r3") is None
        assert n.take_post(CLUB, 1000) is None
        batch = n.take()
    finally:
        n.end(token)
    assert [(m.method, m.key) for m in batch] == [(SEND, "g1:s3:board")]


async def test_take_post_outside_a_step_takes_nothing(translator: Translator) -> None:
    n = notifier(translator)
    assert n.take_post(CLUB, 1000) is None
    assert await n.tell(CLUB, None, "g1:r1") is None

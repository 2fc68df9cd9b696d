"""The club chat's posts of a round, with the service (``record/posts.py``): the morning's
picture and its caption, its fallbacks, the verdict in the tally's post, the last words' ends."""

from __future__ import annotations

import random

import pytest

import bot.game.rooms.results
import record.posts
from tests.fakes.recording_sender import Sent
from tests.game.harness import CHAT, HOST, Harness


def posts(h: Harness) -> list[Sent]:
    """New club posts (not edits)."""
    return [s for s in h.club() if not s.edit]


def mornings(h: Harness) -> list[int]:
    return [i for i, s in enumerate(posts(h)) if "🌅" in s.text]


async def test_the_morning_is_one_picture_and_the_last_words_end_in_its_caption(
        h: Harness) -> None:
    await h.dealt(10)
    await h.play_night(random.Random(1))
    [i] = mornings(h)
    post = posts(h)[i]
    assert post.photo is not None and post.photo.startswith(b"\xff\xd8\xff")  # a JPEG
    assert post.text.index("Ночь 1 окончена. Город просыпается") < post.text.index("День 1.")
    assert h.table.last_words is not None, "the seed's night kills"
    before = len(posts(h))
    await h.deadlines.advance(31 * 3)  # every last word ends (30 s each)
    edits = [s for s in h.sender.sent if s.edit and s.key == post.key]
    assert edits and "окончено" in edits[-1].text and edits[-1].text.startswith(post.text)
    assert len(posts(h)) == before  # nothing new was posted for them


async def test_news_too_long_for_a_caption_is_a_post_and_the_picture_follows(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record.posts, "CAPTION_LIMIT", 60)
    await h.dealt(10)
    await h.play_night(random.Random(1))
    [i] = mornings(h)
    news, picture = posts(h)[i], posts(h)[i + 1]
    assert news.photo is None and "День 1." not in news.text
    assert picture.photo is not None and "День 1." in picture.text and "🌅" not in picture.text


async def test_without_a_picture_the_morning_is_one_text_post(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_picture(*args: object, **kwargs: object) -> None:
        return None
    monkeypatch.setattr(bot.game.rooms.results, "table_picture", no_picture)
    await h.dealt(10)
    await h.play_night(random.Random(1))
    [i] = mornings(h)
    post = posts(h)[i]
    assert post.photo is None and "День 1." in post.text
    assert not any(s.photo is not None for s in h.club())


async def test_the_verdict_is_edited_into_the_tally_post(h: Harness) -> None:
    await h.dealt(10)  # the deal of 10 has a Lawyer card: the Lawyers' window opens
    await h.play_night(random.Random(1))
    await h.deadlines.advance(31 * 3)
    if h.over:
        pytest.skip("the night ended the game")
    await h.play_vote()  # (the Lawyers' window runs out in it)
    tallies = [s for s in posts(h) if "Итоги голосования, день 1" in s.text]
    assert len(tallies) == 1 and tallies[0].key is not None
    evening = "Следующую ночь начнёт ведущий"
    assert evening not in tallies[0].text
    edits = [s for s in h.sender.sent if s.edit and s.key == tallies[0].key]
    assert edits and edits[-1].text.startswith(tallies[0].text)  # said in the tally's post
    assert evening in edits[-1].text and "/night" not in edits[-1].text  # no command to type
    assert not any(evening in s.text for s in posts(h))  # and in no post of its own
    posted = len(posts(h))
    await h.deadlines.advance(31 * 3)
    await h.service.start_night(CHAT, HOST)
    night = [s for s in h.sender.sent if s.edit and s.key == tallies[0].key][-1]
    assert "Ночь 2." in night.text and len(posts(h)) == posted  # the night falls in it too


async def test_a_verdict_during_the_mornings_last_words_speaks_after_them(
        h: Harness) -> None:
    """The vote's verdict comes while the morning's dead still speak: the condemned speaks
    after them, in the same logged sequence (it replaced them, so a restart lost them)."""
    await h.dealt(10)
    await h.play_night(random.Random(1))
    assert h.table.last_words is not None, "the seed's night kills"
    morning = list(h.table.last_words[0])
    await h.service.start_vote(CHAT, HOST)
    await h.play_vote_rest()
    assert h.table.last_words is not None
    seats, index, _ = h.table.last_words
    assert index == 0 and seats[:len(morning)] == morning and len(seats) > len(morning)
    condemned = seats[len(morning):]
    logged = [e for e in await h.db.games.events(h.game_id) if e.kind == "last_word"][-1]
    assert logged.payload["seats"] == seats
    assert any("after the ones under way" in t or "когда договорят те, кто говорит сейчас" in t
               for t in h.club_texts())
    await h.deadlines.advance(31 * len(morning))  # the morning's words end, one by one
    assert h.table.last_words is not None and h.table.last_words[0] == seats
    assert h.table.last_words[1] == len(morning)
    said = "\n".join(h.club_texts())
    assert f"№{condemned[0]} {h.table.name(condemned[0])}: последнее слово" in said
    await h.deadlines.advance(31 * len(condemned))
    assert h.table.last_words is None

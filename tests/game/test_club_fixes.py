"""The club chat's flaws of issue 22 (part C), with the service: one day number everywhere, the
deal listed once at the end, the night falling after a last word."""

from __future__ import annotations

import random
import re
from pathlib import Path

import engine
from engine import Role
from record.table import Stage
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness
from views.i18n import Translator


def board_days(h: Harness) -> list[tuple[str, int]]:
    """(the board's key, its day) for every send and edit of a vote board."""
    out = []
    for s in h.club():
        m = re.search(r"Голосование, день (\d+)", s.text)
        if m and s.key is not None:
            out.append((s.key, int(m.group(1))))
    return out


def tally_days(h: Harness) -> list[int]:
    return [int(m.group(1)) for s in h.club()
            for m in [re.search(r"Итоги голосования, день (\d+)", s.text)] if m]


async def test_one_day_one_number_in_a_game_started_with_a_day(h: Harness) -> None:
    await h.dealt(6)  # no Lawyer card: the last vote resolves the day at once
    assert not any(c in engine.roles.LAWYER_ROLES for c in h.table.cards)
    await h.play_vote()
    assert h.table.stage is Stage.EVENING
    assert {day for _, day in board_days(h)} == {1}, board_days(h)  # every edit of the board
    assert set(tally_days(h)) == {1}
    assert isinstance(h.table.last_result, engine.DayResult)
    assert h.table.last_result.number == 1  # the game's page names its phases by this
    await h.deadlines.advance(31)  # the last word
    await h.play_night(random.Random(1))
    await h.deadlines.advance(31 * 3)
    if h.over:
        return
    morning = [s for s in h.club() if s.photo is not None][-1]
    assert "День 2." in morning.text
    await h.play_vote()
    last = board_days(h)[-1][0]
    assert {d for k, d in board_days(h) if k == last} == {2}, board_days(h)
    assert tally_days(h)[-1] == 2



def card_lines(text: str) -> list[str]:
    """The "№N Name — Card" lines of a post."""
    return [line for line in text.splitlines() if re.match(r"№\d+ \S+ — ", line)]


async def test_the_end_lists_every_card_once_and_keeps_the_key(h: Harness) -> None:
    await h.dealt(10)
    seed, commitment = h.table.seed, h.table.commitment
    assert seed is not None and commitment is not None
    await h.play_to_end()
    [end] = [s for s in h.club() if s.key is not None and s.key.endswith(":end")]
    lines = card_lines(end.text)
    assert len(lines) == 10 == len(set(lines)), end.text  # each seat's card once
    assert end.text.index("🏁") < end.text.index(lines[0])  # under "Game over"
    assert seed.hex() in end.text and commitment in end.text  # the fair-deal check's key
    # one line on the check, in Russian: no card's id, no formula (the game's page has them)
    assert "Ключ и карты по местам дают этот отпечаток" in end.text
    assert not re.search(r"\b(" + "|".join(r.value for r in Role) + r")\b", end.text)
    assert "SHA-256" not in end.text and "JSON" not in end.text
    # a seat's survived days and nights: one reason, as /balance and /stats read it
    assert "пережитые дни и ночи +" in end.text
    assert not any("пережитый день" in line and "пережитая ночь" in line
                   for line in end.text.splitlines())


async def test_the_end_links_the_games_page_for_the_check(
        db: Database, fake_clock: FakeClock, translator: Translator, tmp_path: Path) -> None:
    h = make_harness(db, fake_clock, translator, tmp_path,
                     pages_url="https://club.example/mafia")  # WEB_URL
    await db.clubs.ensure(CHAT, title="Club", locale="ru")
    await h.dealt(10)
    await h.play_to_end()
    [end] = [s for s in h.club() if s.key is not None and s.key.endswith(":end")]
    assert end.text.endswith("Проверить, что карты не подменялись: "
                             f"https://club.example/mafia/game/{h.game_id}#deal"), end.text


async def test_an_aborted_game_still_reveals_every_card(h: Harness) -> None:
    await h.dealt(10)
    await h.service.end_game(CHAT, HOST)
    lines = card_lines("\n".join(h.club_texts()))
    assert len(lines) == 10 == len(set(lines))  # no "Game over" list: the deal lists them


async def test_the_night_falls_after_the_last_word_ends(h: Harness) -> None:
    await h.dealt(10)
    await h.play_night(random.Random(1))
    await h.deadlines.advance(31 * 3)  # the morning's last words end
    await h.play_vote()  # (the Lawyers' window runs out in it: the verdict, its last word)
    assert not h.over and isinstance(h.table.last_result, engine.DayResult)
    assert h.table.last_result.died and h.table.last_words is not None
    speaking = h.table.last_words[0][h.table.last_words[1]]
    [tally] = [s for s in h.club() if not s.edit and "Итоги голосования, день 1" in s.text]
    [(_, fired)] = [job for key, job in h.deadlines.jobs.items()
                    if key.endswith(f"last_word_{speaking}")]
    await h.service.start_night(CHAT, HOST)  # the host does not wait for the word's end
    post = [s for s in h.club() if s.key == tally.key][-1].text
    over = f"№{speaking} "
    ended = post.index(": последнее слово окончено")
    assert over in post[:ended] and ended < post.index("Ночь 2."), post  # then the night
    assert h.table.last_words is None
    sent = len(h.sender.sent)
    await h.deadlines.advance(31)  # the word's timer was stopped: its end is not said again
    await fired()  # as if its timer had fired while the night was falling: nothing more
    assert not [s for s in h.sender.sent[sent:] if "окончено" in s.text]
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    night = len(kinds) - 1 - kinds[::-1].index("night_start")
    assert kinds[night - 1] == "last_word_over"  # in the night's step, logged before it


async def test_no_last_word_is_said_after_the_game_is_over(h: Harness) -> None:
    """A game over waits for nobody's last word: none starts with the end, and none of the
    words under way is said to be over after the end's post."""
    await h.dealt(10)
    await h.play_to_end()
    end = next(i for i, s in enumerate(h.club()) if "🏁" in s.text)
    await h.deadlines.advance(31 * 12)
    after = h.club()[end:]
    assert not [s.text for s in after if "последнее слово" in s.text]
    assert not [k for k in h.deadlines.jobs if "last_word" in k]

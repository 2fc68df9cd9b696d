"""The achievements told at a game's end, through the game service: a whole game whose
civilians all live to the win earns each of them "Not a scratch" (rare) with their first
game's levels; each player hears of theirs in one private message, never during the game;
the club chat hears of the rare ones in one post only when the club's setting says so; a
restart that finishes the game's end again and a rebuild (``rerate``) tell nothing twice."""

from __future__ import annotations

from pathlib import Path

from standing.achievements import Earned
from storage.db import Database
from storage.models import OFFLINE_ID_MAX
from storage.repos.outbox import SEND, Queued
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_restart import restart

CIVILIAN_LEVELS = ["🎲 <b>Завсегдатай</b> · 1 — Сыгранные засчитанные игры.",
                   "🏆 <b>Победитель</b> · 1 — Победы вашей команды, если вас не объявили"
                   " техническим трупом.",
                   "🏡 <b>Защитник города</b> · 1 — Победы за мирных жителей.",
                   "🛡️ <b>Выживший</b> · 1 — Победы, в которых вы дожили до конца игры.",
                   "🕊️ <b>Ни царапины</b> · 1 — Мирные победили, и все мирные живы."]


async def remove_the_mafia(h: Harness, *, last: bool = True) -> None:
    """The host removes the Mafia still at the table one by one (all but one when ``last``
    is False): once all are gone, the civilians win with every civilian alive."""
    mafia = sorted(s for s in h.table.game.mafia_seats if h.table.game.player(s).alive)
    for seat in mafia if last else mafia[:-1]:
        await h.service.technical_death(CHAT, HOST, seat)


def told(h: Harness, tg: int) -> list[str]:
    return [s.text for s in h.private(tg) if "достижени" in s.text]


def club_posts(h: Harness) -> list[str]:
    return [t for t in h.club_texts() if "Редк" in t and "достижени" in t]


async def test_a_games_end_tells_each_player_their_achievements(h: Harness) -> None:
    await h.db.clubs.set_achievements_public(CHAT, True)
    await h.dealt(8)
    table = h.table
    civilians, mafia = h.civilians(), sorted(table.game.mafia_seats)
    await remove_the_mafia(h, last=False)
    assert not h.over
    assert all(told(h, h.tg(s)) == [] for s in table.seats), "nothing during the game"
    assert club_posts(h) == []
    await remove_the_mafia(h)
    assert h.over
    game = h.game_id
    for seat in civilians:
        [message] = told(h, table.tg_of(seat))
        assert message.splitlines() == [f"🏅 Новые достижения в игре №{game}:",
                                        *CIVILIAN_LEVELS]
    for seat in mafia:  # removed by the host: their first game only
        assert told(h, table.tg_of(seat)) == [
            f"🏅 Новое достижение в игре №{game}:\n{CIVILIAN_LEVELS[0]}"]
    [post] = club_posts(h)
    lines = post.splitlines()
    assert lines[0] == f"🏅 Редкие достижения в игре №{game}:"
    assert lines[1:] == [f"№{s} {table.name(s)}: {CIVILIAN_LEVELS[-1]}" for s in civilians]
    # the end's posts first, then the rare ones
    texts = h.club_texts()
    assert texts.index(post) == len(texts) - 1
    stored = await h.db.achievements.of(table.tg_of(civilians[0]))
    assert {(a.achievement, a.level, a.game_id) for a in stored} == {
        (a, 1, game) for a in ("games", "wins", "civilian_wins", "survivor",
                               "untouched_civilians")}


async def test_the_club_chat_hears_nothing_with_its_setting_off(h: Harness) -> None:
    await h.dealt(8)  # a new club: the setting is off
    table, civilians = h.table, h.civilians()
    await remove_the_mafia(h)
    assert h.over
    assert club_posts(h) == []
    # the players hear of theirs all the same
    assert all(len(told(h, table.tg_of(s))) == 1 for s in civilians)


async def test_the_second_game_tells_only_the_levels_it_reaches(h: Harness) -> None:
    await h.dealt(8)
    tgs = [h.tg(s) for s in h.table.seats]
    await remove_the_mafia(h)
    first = {tg: told(h, tg) for tg in tgs}
    await h.dealt(8)
    table = h.table
    await remove_the_mafia(h)
    for seat in table.seats:  # level 1 of "games" is behind them: the Mafia hear nothing new
        tg = table.tg_of(seat)
        new = told(h, tg)[len(first[tg]):]
        if table.game.player(seat).role.is_mafia:
            assert new == []
        else:
            assert all("Завсегдатай" not in m for m in new)


async def test_a_restart_and_a_rebuild_tell_nothing_twice(h: Harness, db: Database,
                                                         tmp_path: Path) -> None:
    await h.db.clubs.set_achievements_public(CHAT, True)
    await h.dealt(8)
    civilians = h.civilians()
    mafia = sorted(h.table.game.mafia_seats)
    tgs = [h.tg(s) for s in civilians]
    await remove_the_mafia(h, last=False)
    # the last removal is in the log, and the process died before the game's end was written
    await h.db.games.append_event(h.game_id, "tech", {"seat": mafia[-1]})
    h2 = await restart(h, db, tmp_path)
    assert h2.over
    assert all(len(told(h2, tg)) == 1 for tg in tgs)
    assert len(club_posts(h2)) == 1
    rows = await db.query("SELECT count(*) FROM achievements")
    h3 = await restart(h2, db, tmp_path)  # the end is written: nothing is told again
    assert all(told(h3, tg) == [] for tg in tgs) and club_posts(h3) == []
    assert await h3.db.achievements.rebuild() == 1  # what rerate does: rows only, no message
    assert [tuple(r) for r in await db.query("SELECT count(*) FROM achievements")] == \
        [tuple(r) for r in rows]
    assert h3.sender.sent == []
    for x in (h2, h3):
        await x.db.close()


async def test_the_end_queues_one_message_per_player_under_one_key(h: Harness) -> None:
    """What the end's transaction queues (the outbox's rows, with the durable sender): one
    keyed send per player, one for the club's rare ones."""
    await h.dealt(8)
    table, civilians = h.table, h.civilians()
    earned = [Earned(table.tg_of(s), "untouched_civilians", 1, table.game_id)
              for s in civilians]
    out = h.service.results.achievements_told(table, earned, public=True)
    assert [q.key for q in out] == [
        *(f"g{table.game_id}:achievements:{table.tg_of(s)}" for s in civilians),
        f"g{table.game_id}:achievements"]
    assert all(isinstance(q, Queued) and q.method == SEND for q in out)
    assert out[-1].chat_id == CHAT
    assert all(q.chat_id != CHAT for q in h.service.results.achievements_told(
        table, earned, public=False))


async def test_an_account_without_telegram_gets_no_message(h: Harness) -> None:
    """A level earned by an account without Telegram: nobody to tell in private (the others
    are told, the club post is made)."""
    await h.dealt(8)
    table, civilians = h.table, h.civilians()
    offline = OFFLINE_ID_MAX  # an account of that kind, as a guest the host seats
    earned = [Earned(offline, "untouched_civilians", 1, table.game_id),
              Earned(table.tg_of(civilians[0]), "untouched_civilians", 1, table.game_id)]
    out = h.service.results.achievements_told(table, earned, public=True)
    assert [q.chat_id for q in out] == [table.tg_of(civilians[0]), CHAT]

"""The skill rating and the achievements over HTTP: a game played through the real bot, read
by its players in the middle of it (``/profile``, ``/stats``, ``/top rating``: nothing of it
shows) and after its end (the rating of one game, provisional; the achievements told in
private once, and listed in ``/profile``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from standing.achievements import CATALOGUE
from standing.rating import Side
from storage.tools.rerate import rerate
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import Flow, start_app, stop_app
from views.achievements import profile_lines, shown


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def asked(flow: Flow, uid: int, text: str, expect: str) -> str:
    """A private command; the first new message in that chat containing ``expect``."""
    before = len(flow.fake.messages(uid))
    await flow.fake.send(uid, text)

    def found() -> str | None:
        return next((m.body for m in flow.fake.messages(uid)[before:] if expect in m.body),
                    None)
    await flow.fake.wait_for(lambda: found() is not None, 10, f"{expect!r} after {text}")
    answer = found()
    assert answer is not None
    return answer


async def test_nothing_of_the_rating_shows_until_the_games_end(
        fake: FakeTelegram, tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        await flow.lobby(8)
        await flow.deal()
        await flow.night()
        assert not flow.over
        uid = flow.players[0]
        db = app.services.db
        mid_game = [await asked(flow, uid, "/profile", "Профиль"),
                    await asked(flow, uid, "/stats", "статистика"),
                    await asked(flow, uid, "/top rating", "рейтинг мастерства")]
        assert "Рейтинг мастерства: появится после первой завершённой игры." in mid_game[0]
        assert "Достижения: пока нет; они приходят с засчитанными играми." in mid_game[0]
        assert "Завершённых игр пока нет." in mid_game[1]
        assert "Рейтинг мастерства" not in mid_game[1]
        assert "Пока ни у кого нет 10 завершённых игр" in mid_game[2]
        assert [tuple(r) for r in await db.query("SELECT count(*) FROM ratings")] == [(0,)]
        achievements = [[m.body for m in fake.messages(p) if "достижени" in m.body]
                        for p in flow.players]
        assert achievements == [[] for _ in flow.players]  # nothing during the game
        await flow.play_to_end(night_first=False)
        await flow.delivered()
        # each player's first counted game: one message, through the durable outbox
        for p in flow.players:
            [told] = [m.body for m in fake.messages(p) if "достижени" in m.body]
            assert told.startswith("🏅 Нов") and f"в игре №{flow.game_id}:" in told
            assert "🎲 <b>Завсегдатай</b> · 1" in told
        assert not any("Редк" in t for t in flow.club_texts())  # the club's setting is off
        # the rebuild (`python -m storage rerate`) writes the same rows and tells nothing
        queued = "SELECT count(*) FROM outbox WHERE key LIKE '%achievements%'"
        before = [tuple(r) for r in await db.query(queued)]
        assert before == [(len(flow.players),)]
        levels = [tuple(r) for r in await db.query(
            "SELECT tg_id, achievement, level, game_id FROM achievements ORDER BY 1, 2, 3")]
        await rerate(db)
        await flow.delivered()
        assert [tuple(r) for r in await db.query(queued)] == before
        assert [tuple(r) for r in await db.query(
            "SELECT tg_id, achievement, level, game_id FROM achievements ORDER BY 1, 2, 3")] \
            == levels
        assert all(len([m for m in fake.messages(p) if "достижени" in m.body]) == 1
                   for p in flow.players)
        profile = await asked(flow, uid, "/profile", "Профиль")
        assert "Рейтинг мастерства: <b>" in profile and "(1 игра, побед " in profile
        assert "предварительный" in profile
        assert "Рейтинг предварительный, пока не сыграно 10 игр." in profile
        assert "<b>Достижения</b> (" in profile and f" из {len(CATALOGUE)}):" in profile
        assert "\n🎲 <b>Завсегдатай</b> · 1\n" in profile
        # every level the game earned the player, then the three nearest their next level
        mine = shown(await db.achievements.of(uid), await db.achievements.progress(uid))
        lines = profile_lines(app.services.translator, "ru", mine)
        assert "\nНа подходе:\n" in profile and "\n".join(lines) in profile
        assert "Рейтинг мастерства: <b>" in await asked(flow, uid, "/stats", "статистика")
        ratings = await db.ratings.of(uid)
        assert ratings[Side.ALL].games == 1 and (ratings.keys() - {Side.ALL}) in (
            {Side.CIVILIANS}, {Side.MAFIA})
        # the rating is provisional after one game: not on the table yet
        top = await asked(flow, uid, "/top rating", "рейтинг мастерства")
        assert "Пока ни у кого нет 10 завершённых игр" in top
        assert "по баллам" in await asked(flow, uid, "/top points", "/top rating")
    finally:
        await stop_app(app, task)

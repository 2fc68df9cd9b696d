"""A player's cards, sides, rivals and night kills on the player's page, and the two charts
(``/player/NICK/rating.png``, ``/player/NICK/roles.png``): counted from real games played by the
game service, checked against the games' own facts (``standing.facts``), not against the
storage that the page reads. A game dealt and under way counts for nothing; a player without
a counted game reads one sentence and no empty heading."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from standing.facts import Exit, GameFacts, game_facts
from storage.db import Database
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, Harness
from tests.sqlite_template import migrated
from tests.web.conftest import Client
from views.charts import BAR_ROW, BARS_BOTTOM, BARS_TOP, RATING_HEIGHT, WIDTH
from views.i18n import Translator
from web.app import CHARTS, create_web_app

ME = 1001  # "Player1"
NOBODY = 2001  # a nickname, no game


@dataclass
class Games:
    db: Database
    h: Harness
    finished: list[int]
    running: int


@pytest.fixture
async def games(tmp_path: Path, translator: Translator) -> AsyncIterator[Games]:
    db = await Database.open(migrated(tmp_path / "roles.sqlite3"))
    try:
        await db.clubs.ensure(CHAT, title="Club", locale="ru")
        h = make_harness(db, FakeClock(datetime(2026, 11, 30, 18, tzinfo=UTC)), translator,
                         tmp_path)
        finished = []
        for _ in range(2):
            await h.dealt(10)
            await h.play_to_end()
            finished.append(h.game_id)
        await h.dealt(10)  # the same players, dealt and under way
        await db.players.register(NOBODY, display_name="Nobody", language="ru")
        await db.players.set_nickname(NOBODY, "Nobody")
        yield Games(db, h, finished, h.game_id)
    finally:
        await db.close()


@pytest.fixture
async def client(games: Games, translator: Translator) -> AsyncIterator[Client]:
    async with TestClient(TestServer(create_web_app(games.db, translator=translator))) as c:
        yield c


async def facts_of(db: Database, game_ids: list[int]) -> list[GameFacts]:
    out = []
    for game_id in game_ids:
        found = game_facts(await db.games.events(game_id))
        assert found is not None
        out.append(found)
    return out


def table(html: str, table_id: str) -> list[list[str]]:
    body = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1])]


async def get(client: Client, path: str, status: int = 200) -> bytes:
    response = await client.get(path)
    assert response.status == status, path
    return await response.read()


@pytest.mark.parametrize("who", ["victim", "killer"])
async def test_the_page_counts_cards_sides_rivals_and_kills_of_the_finished_games(
        client: Client, games: Games, translator: Translator, who: str) -> None:
    played = await facts_of(games.db, games.finished)
    # the player read: one killed at night in a finished game, or one whose shot killed
    kills = [(g.seats[by].tg_id, s.tg_id) for g in played for s in g.seats.values()
             if s.left is not None and s.left.how is Exit.NIGHT
             for by in s.left.by if by != s.seat]
    assert kills  # the harness's Mafia kill at night
    me_tg = kills[0][1] if who == "victim" else kills[0][0]
    nick = f"Player{me_tg - 1000}"
    mine: Counter[str] = Counter()
    mine_won: Counter[str] = Counter()
    everyone: Counter[str] = Counter()
    everyone_won: Counter[str] = Counter()
    met: Counter[int] = Counter()
    killed_by: Counter[str] = Counter()
    killed: Counter[str] = Counter()
    for g in played:
        for s in g.seats.values():
            everyone[str(s.role)] += 1
            everyone_won[str(s.role)] += s.won
            if s.left is not None and s.left.how is Exit.NIGHT:
                killed.update(str(s.role) for by in s.left.by
                              if by != s.seat and g.seats[by].tg_id == me_tg)
        me = g.seats[g.seat_of(me_tg) or 0]
        mine[str(me.role)] += 1
        mine_won[str(me.role)] += me.won
        met.update(s.tg_id for s in g.seats.values() if s.tg_id != me_tg)
        if me.left is not None and me.left.how is Exit.NIGHT:
            killed_by.update({str(g.seats[by].role) for by in me.left.by if by != me.seat})

    def name(role: str) -> str:
        return translator.t("ru", f"game.role.{role}")

    html = (await get(client, f"/player/{nick}?lang=ru")).decode()
    rows = table(html, "cards")
    assert sorted(rows) == sorted(
        [name(r), str(n), str(mine_won[r]), f"{round(100 * mine_won[r] / n)}%",
         f"{round(100 * everyone_won[r] / everyone[r])}% из {everyone[r]}"]
        for r, n in mine.items())
    assert sum(int(r[1]) for r in rows) == 2  # the game under way is not counted
    sides = table(html, "sides")
    assert sum(int(r[1]) for r in sides) == 2 and all(int(r[1]) > 0 for r in sides)
    rivals = table(html, "rivals")
    # everyone else sat at both games: the five met most, by account, each twice
    assert [r[0] for r in rivals] == [f"Player{tg - 1000}" for tg in sorted(met)[:5]]
    assert all(int(r[1]) + int(r[3]) == 2 for r in rivals)
    first = sorted(met)[0] - 1000
    assert f'<a href="../player/Player{first}?lang=ru">Player{first}</a>' in html
    for kind, counted, heading in (
            ("killed-by", killed_by, "<b>Кто убивал игрока ночью</b>: "),
            ("killed", killed, "<b>Кого убили ночные выстрелы игрока</b>: ")):
        if not counted:
            assert f'id="{kind}"' not in html
            continue
        line = html.split(f'id="{kind}">', 1)[1].split("</p>", 1)[0]
        assert line.startswith(heading)  # a public page: no "you"
        for role, n in counted.items():
            assert f"{name(role)} — {n}" in line
    assert (killed_by if who == "victim" else killed)  # the line the player is read for
    assert 'id="rating-graph"' in html and 'id="roles-bars"' in html
    assert "Карты и соперники" in html
    en = (await get(client, f"/player/{nick}?lang=en")).decode()
    assert "Cards and rivals" in en and "The players met most" in en


async def test_a_player_without_counted_games_reads_one_sentence(
        client: Client, games: Games) -> None:
    html = (await get(client, "/player/Nobody?lang=ru")).decode()
    assert "Засчитанных игр пока нет" in html
    for absent in ('id="cards"', 'id="sides"', 'id="rivals"', 'id="killed-by"', 'id="killed"',
                   "rating.png", "roles.png", "С кем чаще всего"):
        assert absent not in html
    await get(client, "/player/Nobody/rating.png", 404)
    await get(client, "/player/Nobody/roles.png", 404)
    await get(client, "/player/Ghost/roles.png", 404)


async def test_the_charts_decode_have_their_size_and_change_with_the_data(
        client: Client, games: Games) -> None:
    line = await get(client, "/player/Player1/rating.png?lang=ru")
    bars = await get(client, "/player/Player1/roles.png?lang=ru")
    cards = len(await games.db.history.roles(ME))
    for data, size in ((line, (WIDTH, RATING_HEIGHT)),
                       (bars, (WIDTH, BARS_TOP + BAR_ROW * cards + BARS_BOTTOM))):
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and image.size == size
    assert await get(client, "/player/Player1/rating.png?lang=ru") == line  # the cache's
    assert await get(client, "/player/Player1/rating.png?lang=en") != line  # its words
    await games.h.play_to_end()  # the third game ends: a point more, the cards' shares move
    assert await get(client, "/player/Player1/rating.png?lang=ru") != line
    assert await get(client, "/player/Player1/roles.png?lang=ru") != bars


async def test_the_charts_cache_is_bounded(games: Games, translator: Translator) -> None:
    app = create_web_app(games.db, translator=translator, chart_bytes=1)
    async with TestClient(TestServer(app)) as c:
        first = await get(c, "/player/Player1/rating.png")
        assert await get(c, "/player/Player2/rating.png") != first
        assert len(app[CHARTS]) == 0  # none fits in a byte: each drawn, none kept
    app = create_web_app(games.db, translator=translator, chart_bytes=len(first) + 1)
    async with TestClient(TestServer(app)) as c:
        assert await get(c, "/player/Player1/rating.png") == first
        assert len(app[CHARTS]) == 1
        await get(c, "/player/Player2/rating.png")
        assert len(app[CHARTS]) <= 1

"""Fouls where players and admins read them: the game's page (its fouls, its fines in the
points), its replay protocol (the engine gives the ledger's points), a player's page and
/stats (fouls per game), /balance's rows."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine import FoulReason
from engine.replay import replay
from storage.db import Database
from storage.models import BalanceView
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness
from tests.present import present
from tests.sqlite_template import migrated
from tests.web.conftest import Client
from views import texts
from views.i18n import Translator
from views.stats import StatsService
from web.app import create_web_app


@pytest.fixture
async def fouled(tmp_path: Path, translator: Translator) -> AsyncIterator[Harness]:
    """A finished game with a fine, a warning with the host's words and an undone fine."""
    database = await Database.open(migrated(tmp_path / "fouls.sqlite3"))
    await database.clubs.ensure(CHAT, title="Club", locale="ru")
    h = make_harness(database, FakeClock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC)),
                     translator, tmp_path)
    await h.dealt(10)
    await database.clubs.set_fouls(CHAT, points=2)
    for seat in (1, 2):
        await database.ledger.adjust(h.tg(seat), 5, reason="start", admin_id=9, now=h.clock())
    await h.service.foul(CHAT, HOST, 1, FoulReason.AT_NIGHT)
    await database.clubs.set_fouls(CHAT, points=0)
    await h.service.foul(CHAT, HOST, 1, FoulReason.OTHER, "<script>shouted</script>")
    await database.clubs.set_fouls(CHAT, points=2)
    await h.play_night()
    await h.service.foul(CHAT, HOST, 2, FoulReason.OUT_OF_TURN)
    await h.service.undo_foul(CHAT, HOST, 3)
    await h.play_to_end(start_with_day=True)
    try:
        yield h
    finally:
        await database.close()


@pytest.fixture
async def client(fouled: Harness, translator: Translator) -> AsyncIterator[
        Client]:
    async with TestClient(TestServer(create_web_app(fouled.db, translator=translator))) as c:
        yield c


async def test_the_game_page_lists_the_fouls_and_nets_the_fines(
        client: Client, fouled: Harness) -> None:
    response = await client.get(f"/game/{fouled.game_id}?lang=en")
    assert response.status == 200
    html = await response.text()
    table = html.split('<table id="fouls">')[1].split("</table>")[0]
    assert table.count("<tr") == 4  # the head and three fouls, the undone one too
    assert "№1 Player1</td>\n<td>speaking at night</td>\n<td>Night 1</td>" in table
    assert "another breach: “&lt;script&gt;shouted&lt;/script&gt;”" in table
    assert "<script>shouted" not in html
    assert 'class="undone"' in table and "undone (recorded by mistake)" in table
    seats = html.split('<table id="seats">')[1].split("</table>")[0]
    first = seats.split("<tr>")[2]  # seat 1: its fine stands
    assert "fines -2" in first
    second = seats.split("<tr>")[3]  # seat 2: fined and given back, nothing to say
    assert "fines" not in second


async def test_the_protocol_replays_to_the_ledgers_points(
        client: Client, fouled: Harness) -> None:
    response = await client.get(f"/game/{fouled.game_id}/protocol.json")
    assert response.status == 200
    protocol = json.loads(await response.text())
    assert [s for s in protocol["steps"] if "foul" in s or "undo_foul" in s] == [
        {"foul": {"seat": 1, "points": 2, "reason": "at_night"}},
        {"foul": {"seat": 1, "points": 0, "reason": "other"}},
        {"foul": {"seat": 2, "points": 2, "reason": "out_of_turn", "phase": "day"}},
        {"undo_foul": 3}]
    result = replay(protocol)
    ledger: Counter[int] = Counter()
    for row in await fouled.db.stats.game_points(fouled.game_id):
        ledger[(await fouled.db.games.get(fouled.game_id)).seat_of(row.tg_id) or 0] += \
            row.points
    assert {int(s): p for s, p in result["points"].items()} == {
        s: ledger[s] for s in range(1, 11)}
    assert result["points"]["1"] == ledger[1] and ledger[1] < result["points"]["1"] + 3
    assert [f["undone"] for f in result["fouls"]] == [False, False, True]
    running = await client.get(f"/game/{fouled.game_id + 1}/protocol.json")
    assert running.status == 404


async def test_a_players_record_counts_its_fouls_per_game(
        client: Client, fouled: Harness, translator: Translator) -> None:
    stats = StatsService(fouled.db)
    seats = {s.seat: s.tg_id for s in (await fouled.db.games.get(fouled.game_id)).seats}
    one = await stats.of(present(await fouled.db.players.get(seats[1])))
    two = await stats.of(present(await fouled.db.players.get(seats[2])))
    assert (one.fouls, one.fouls_per_game, two.fouls) == (2, 2.0, 0)  # an undone one: none
    said = texts.player_stats(translator, "ru", one, None)
    assert "Нарушения: 2 (в среднем за игру: 2)" in said
    html = await (await client.get("/player/Player1?lang=en")).text()
    games = html.split('<table id="games">')[1].split("</table>")[0]
    assert "<th>Fouls</th>" in games and '<td class="num">2</td>' in games
    # /balance: the fine's row and the reversal, with their reasons
    rows = await fouled.db.ledger.recent(seats[2], limit=20)
    view = BalanceView(await fouled.db.ledger.balance_with_rank(seats[2]), rows, None)
    balance = texts.balance(translator, "en", view)
    assert "-2  game #1: foul: speaking out of turn" in balance
    assert "+2  game #1: a foul undone (recorded by mistake)" in balance

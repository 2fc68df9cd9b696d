"""An id in a page's URL that no row can have answers 404, never 500: a huge one overflowed
the database driver's 64-bit integer (SQLite's ``OverflowError``, asyncpg's range check); on
both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from storage.db import Database
from tests.pg_cluster import Cluster, pg, pg_cluster  # noqa: F401  (fixtures)
from tests.sqlite_template import migrated
from tests.web.conftest import Client
from views.i18n import Translator
from web.app import create_web_app

CLUB = -1001234567890
HUGE = "99999999999999999999999"
NOT_IDS = [HUGE, f"-{HUGE}", str(2 ** 63), str(-(2 ** 63) - 1), "1e3", "+5", "٣", "5_0",
           "%205", "0x1F"]


@pytest.fixture(params=["sqlite", "postgresql"])
async def client(tmp_path: Path, translator: Translator,
                 request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    if request.param == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg")
        db = await Database.open(await cluster.new_database())
    else:
        db = await Database.open(migrated(tmp_path / "ids.sqlite3"))
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    try:
        async with TestClient(TestServer(create_web_app(db, translator=translator))) as c:
            yield c
    finally:
        await db.close()


async def status(client: Client, path: str) -> int:
    async with client.get(path) as response:
        await response.read()
        return response.status


@pytest.mark.parametrize("game", [*NOT_IDS, "-5", "0", str(2 ** 63 - 1)])
async def test_a_game_id_no_game_can_have_is_not_found(client: Client,
                                                        game: str) -> None:
    assert await status(client, f"/game/{game}?lang=en") == 404
    assert await status(client, f"/game/{game}/table.png") == 404


@pytest.mark.parametrize("club", [*NOT_IDS, "5", "0", str(2 ** 63 - 1), str(-(2 ** 63))])
async def test_a_club_id_no_club_has_is_not_found(client: Client,
                                                   club: str) -> None:
    assert await status(client, f"/club/{club}?lang=en") == 404


async def test_the_404_is_the_site_s_page(client: Client) -> None:
    for path in (f"/game/{HUGE}", "/game/-5", f"/club/{HUGE}"):
        async with client.get(f"{path}?lang=en") as response:
            html = await response.text()
            assert response.status == 404 and "Not found." in html, path
            assert "not finished" not in html  # no game ever has such an id
    assert await status(client, f"/club/{CLUB}?lang=en") == 200  # a real club still is

"""``/status`` on PostgreSQL: every live process with its roles and its clubs, the one answering
marked; the games open in the whole network (SQLite's: tests/bot/test_metrics.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.conftest import ADMIN_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import HOST, running, wait_until
from tests.game.harness import approve_club
from tests.pg_cluster import Cluster

CLUBS = (-100_610, -100_620, -100_630)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_status_names_each_process_its_roles_and_clubs(fake: FakeTelegram,
                                                             tmp_path: Path,
                                                             pg: Cluster) -> None:
    url = await pg.new_database()
    fake.user(ADMIN_ID, "Admin", language_code="en")
    fake.user(HOST, "Host", language_code="en")
    for club in CLUBS:
        fake.group(club, "Club")
    async with running(fake, tmp_path / "a", database_url=url, default_locale="en") as first, \
            running(fake, tmp_path / "b", database_url=url, default_locale="en") as second:
        for club in CLUBS:
            await approve_club(first.services.db, club, locale="en")  # no pending notice
        apps = (first, second)

        def shared_out() -> bool:
            return all(a.sharing is not None and len(a.sharing.sessions) == 2 for a in apps) \
                and sum(len(a.sharing.held) for a in apps if a.sharing) == len(CLUBS)

        await wait_until(shared_out, 20, "the clubs shared out")
        await fake.send(HOST, "/newgame", chat_id=CLUBS[0])
        await fake.wait_for(lambda: any(m.buttons() for m in fake.messages(CLUBS[0])), 15,
                            "a lobby")
        await fake.send(ADMIN_ID, "/status")
        answer = (await fake.next_message(ADMIN_ID, timeout=20)).body

    assert answer.startswith("<b>Status</b> · version ")
    lines = [line for line in answer.splitlines() if "Process " in line]
    assert len(lines) == 2 and sum(line.startswith("▶ Process ") for line in lines) == 1
    sessions = {a.sharing.conn.pid for a in apps if a.sharing is not None}
    named = {int(m.group(1)) for line in lines for m in [re.search(r"Process (\d+):", line)]
             if m is not None}
    assert named == sessions
    clubs = [int(m.group(1)) for line in lines for m in [re.search(r"; (\d+) clubs?$", line)]
             if m is not None]
    assert sum(clubs) == len(CLUBS)
    text = "\n".join(lines)
    for role in ("receives the updates", "sends the messages", "runs the expiry"):
        assert text.count(role) == 1, role
    assert "Open games: 1." in answer  # the whole network's
    assert "Outbox:" in answer

"""``/network`` (bot/handlers/settings.py) over HTTP, on SQLite and on PostgreSQL: the
network's caps on fines as a dialog with buttons and typed; a stranger, a club admin and a
revoked network admin's old button refused with nothing changed; a lowered cap lowering a
club's fine, the club's chat told, the admin log naming who did it; bad input answered with
its usage."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import App
from storage.models import DEFAULT_FINE_CAPS, FineCaps
from tests.bot.conftest import ADMIN_ID, Ask, FixedClock
from tests.fakes.telegram_server import FakeTelegram

CLUB = -1007
STRANGER, CLUB_ADMIN, NET_ADMIN = 70, 71, 72


@pytest.fixture(params=["sqlite", "postgresql"])
async def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    if request.param == "postgresql":
        return {"database_url": await request.getfixturevalue("pg").new_database()}
    return {}


async def network_actions(app: App) -> list[tuple[int, str, str]]:
    return [(a.admin_id, a.action, a.details) for a in await app.services.db.admin_log.recent(50)
            if a.action.startswith(("network_", "club_fine"))]


async def test_network_caps_over_http(app: App, fake: FakeTelegram, ask: Ask,
                                      clock: FixedClock) -> None:
    db = app.services.db
    for uid, name in ((ADMIN_ID, "Owner"), (STRANGER, "Stranger"), (CLUB_ADMIN, "Clubby"),
                      (NET_ADMIN, "Netty")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    fake.group(CLUB, "Club")
    await db.clubs.ensure(CLUB, title="Club", locale="en")
    await db.staff.grant_club_admin(CLUB, CLUB_ADMIN, by=ADMIN_ID, now=clock())
    await db.clubs.set_fouls(CLUB, points=8)
    refusal = "Only the network's admins can change the network's settings."

    # a stranger and a club admin: refused, whatever they type; nothing changes
    for uid in (STRANGER, CLUB_ADMIN):
        for typed in ("/network", "/network fine_cap 1", "/network game_fine_cap 0",
                      "/network nonsense"):
            assert (await ask(uid, typed)).text == refusal, (uid, typed)
    assert await db.network.fine_caps() == DEFAULT_FINE_CAPS
    assert await network_actions(app) == []

    # the owner: the dialog, a cap nudged down by a button
    dialog = await ask(ADMIN_ID, "/network")
    assert "One foul's fine: at most 10 points" in dialog.said
    assert "A player's fines in one game: at most 20 points." in dialog.said
    assert "<code>/network fine_cap N</code>" in dialog.said
    query = await fake.press(ADMIN_ID, dialog, button="🟨 −1")
    assert (await fake.callback_answer(query))["text"] == "Saved."
    assert "One foul's fine: at most 9 points" in (await fake.next_edit(ADMIN_ID)).said
    query = await fake.press(ADMIN_ID, dialog, button="🧮 +5")
    await fake.callback_answer(query)
    assert "at most 25 points." in (await fake.next_edit(ADMIN_ID)).said
    assert await db.network.fine_caps() == FineCaps(fine=9, game=25)

    # typed: a cap below the club's fine lowers it; the club's chat hears of it
    said = await ask(ADMIN_ID, "/network fine_cap 5")
    assert said.text == ("🟨 One foul's fine is now at most 5 points (it was 9).\n"
                         "The fine of 1 club was lowered to 5: Club.")
    told = await fake.next_message(CLUB)
    assert told.text == ("🟨 The network now fines at most 5 points for one foul: this club's"
                         " fine went down from 8 to 5.")
    club = await db.clubs.get(CLUB)
    assert club is not None and club.foul_points == 5
    for bad, answer in (("/network fine_cap x", "Usage: <code>/network</code>"),
                        ("/network fine_cap \uff13", "Usage: <code>/network</code>"),
                        ("/network fine_cap 1001", "A cap is 0 to 1000 points."),
                        ("/network game_fine_cap 10001", "A cap is 0 to 10000 points."),
                        ("/network fine 3", "Usage: <code>/network</code>")):
        assert (await ask(ADMIN_ID, bad)).said.startswith(answer), bad
    assert await db.network.fine_caps() == FineCaps(fine=5, game=25)

    # a network admin may; once revoked, its old dialog's button is refused
    await db.staff.grant_network_admin(NET_ADMIN, by=ADMIN_ID, now=clock())
    assert (await ask(NET_ADMIN, "/network game_fine_cap 30")).said.startswith(
        "🧮 A player's fines in one game are now at most 30 points (it was 25)")
    old = await ask(NET_ADMIN, "/network")
    await db.staff.revoke_network_admin(NET_ADMIN, by=ADMIN_ID, now=clock())
    query = await fake.press(NET_ADMIN, old, button="🧮 −5")
    assert (await fake.callback_answer(query))["text"] == refusal
    assert await db.network.fine_caps() == FineCaps(fine=5, game=30)
    assert (await ask(NET_ADMIN, "/network")).text == refusal

    assert await network_actions(app) == [
        (NET_ADMIN, "network_game_fine_cap", "25 -> 30"),
        (ADMIN_ID, "club_fine_lowered", f"club={CLUB} 8 -> 5"),
        (ADMIN_ID, "network_fine_cap", "9 -> 5"),
        (ADMIN_ID, "network_game_fine_cap", "20 -> 25"),
        (ADMIN_ID, "network_fine_cap", "10 -> 9")]

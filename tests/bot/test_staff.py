"""``/staff`` (bot/handlers/settings.py) over HTTP, on SQLite and on PostgreSQL: owners name
and remove network admins, network admins a club's admins, club admins their club's hosts and
the chat admins' switch; each change told to the person and in the admin log with who did it;
a stranger, an admin out of their reach and a revoked admin's old button refused, nothing
changed; owners never removed."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import App
from storage.models import CLUB_APPROVED, CLUB_PENDING
from tests.bot.conftest import ADMIN_ID, Ask, FixedClock
from tests.fakes.telegram_server import FakeTelegram

CLUB, OTHER = -1007, -1008
STRANGER, CLUB_ADMIN, NET_ADMIN, HOSTY = 70, 71, 72, 73


@pytest.fixture(params=["sqlite", "postgresql"])
async def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    if request.param == "postgresql":
        return {"database_url": await request.getfixturevalue("pg").new_database()}
    return {}


async def staff_log(app: App) -> list[tuple[int, str, str]]:
    wanted = ("grant_", "revoke_", "chat_admins_host")
    return [(a.admin_id, a.action, a.details) for a in await app.services.db.admin_log.recent(50)
            if a.action.startswith(wanted)][::-1]


async def test_staff_by_role_over_http(app: App, fake: FakeTelegram, ask: Ask,
                                       clock: FixedClock) -> None:
    db = app.services.db
    for uid, nick in ((ADMIN_ID, "Boss"), (STRANGER, "Stranger"), (CLUB_ADMIN, "Clubby"),
                      (NET_ADMIN, "Netty"), (HOSTY, "Hosty")):
        fake.user(uid, nick, language_code="en")
        await ask(uid, "/start")
        assert "Your nickname is now" in (await ask(uid, f"/nick {nick}")).said
    for chat_id, title in ((CLUB, "Club"), (OTHER, "Other")):
        fake.group(chat_id, title)
        await db.clubs.ensure(chat_id, title=title, locale="en")
        await db.clubs.set_status(chat_id, CLUB_APPROVED, by=ADMIN_ID, now=clock(),
                                  expect=(CLUB_PENDING,))

    # a stranger manages nobody and names nobody
    assert (await ask(STRANGER, "/staff")).text == "You manage nobody on the network's staff."
    assert (await ask(STRANGER, "/staff admin add Stranger")).said.startswith(
        "Only the network's owners can name or remove network admins.")
    assert (await ask(STRANGER, f"/staff host {CLUB} add Stranger")).said.startswith(
        "Only this club's admins and the network's admins can name its hosts.")
    assert await db.staff.network_admins() == [] and await db.staff.hosts(CLUB) == []

    # the owner names a network admin, who is told; twice changes nothing; owners stay
    said = await ask(ADMIN_ID, "/staff admin add Netty")
    assert said.text == "✅ Netty is now a network admin; they were told."
    told = await fake.next_message(NET_ADMIN)
    assert told.said.startswith("✅ You are now a network admin (named by Boss).")
    assert (await ask(ADMIN_ID, "/staff admin add Netty")).text == \
        "Netty is a network admin already: nothing changed."
    assert (await ask(ADMIN_ID, "/staff admin remove Boss")).said.startswith(
        "Boss is an owner of the network (ADMIN_IDS)")
    assert await db.staff.network_admins() == [NET_ADMIN]

    # the network admin names a club admin, but no network admin
    assert (await ask(NET_ADMIN, "/staff admin add Hosty")).said.startswith(
        "Only the network's owners")
    said = await ask(NET_ADMIN, f"/staff clubadmin {CLUB} add Clubby")
    assert said.text == "✅ Clubby is now an admin of the club “Club”; they were told."
    assert "You are now an admin of the club “Club” (named by Netty)" in \
        (await fake.next_message(CLUB_ADMIN)).said

    # the club admin names a host of their club, in private and in the club chat; not elsewhere
    assert (await ask(CLUB_ADMIN, f"/staff host {CLUB} add Hosty")).said.startswith("✅ Hosty")
    assert "a host of the club “Club”" in (await fake.next_message(HOSTY)).said
    assert (await ask(CLUB_ADMIN, f"/staff clubadmin {CLUB} add Hosty")).said.startswith(
        "Only the network's admins can name or remove a club's admins.")
    assert (await ask(CLUB_ADMIN, f"/staff host {OTHER} add Hosty")).said.startswith(
        "Only this club's admins")
    assert (await ask(CLUB_ADMIN, "/staff host add Stranger", chat_id=CLUB)).said.startswith(
        "✅ Stranger is now a host")
    assert await db.staff.hosts(CLUB) == [STRANGER, HOSTY]
    assert await db.staff.hosts(OTHER) == []
    for bad in ("/staff host add", f"/staff host {CLUB} promote Hosty", "/staff boss add X",
                "/staff host add Hosty"):
        assert (await ask(CLUB_ADMIN, bad)).said.startswith("Usage, in a private chat"), bad

    # the dialog: the club's page, a host removed by its ✖, the chat admins' switch
    dialog = await ask(CLUB_ADMIN, "/staff")
    query = await fake.press(CLUB_ADMIN, dialog, button="🏠 Club")
    await fake.callback_answer(query)
    page = await fake.next_edit(CLUB_ADMIN)
    assert "Hosts (2):" in page.said and "• Hosty (id 73)" in page.said
    query = await fake.press(CLUB_ADMIN, page, button="✖ host Hosty")
    assert (await fake.callback_answer(query))["text"] == \
        "Hosty is no longer a host of the club “Club”; they were told."
    assert "You are no longer a host of the club “Club” (removed by Clubby)" in \
        (await fake.next_message(HOSTY)).said
    assert "Hosts (1):" in (await fake.next_edit(CLUB_ADMIN)).said
    query = await fake.press(CLUB_ADMIN, page, button="🎙 The chat's administrators host")
    await fake.callback_answer(query)
    assert "host: off" in (await fake.next_edit(CLUB_ADMIN)).said
    club = await db.clubs.get(CLUB)
    assert club is not None and not club.chat_admins_host

    # a revoked network admin's old dialog is refused; nothing changes
    old = await ask(NET_ADMIN, "/staff")
    assert any(text.startswith("🏠 Club (") for text, _ in old.buttons())
    assert (await ask(ADMIN_ID, "/staff admin remove Netty")).text == \
        "Netty is no longer a network admin; they were told."
    assert "You are no longer a network admin (removed by Boss)" in \
        (await fake.next_message(NET_ADMIN)).said
    query = await fake.press(NET_ADMIN, old, button="🏠 Other")
    assert (await fake.callback_answer(query))["text"].startswith("Only this club's admins")
    assert (await ask(NET_ADMIN, f"/staff clubadmin {OTHER} add Netty")).said.startswith(
        "Only the network's admins")
    assert await db.staff.club_admins(OTHER) == []

    # /help: a club admin's commands for their club; the owner's; a stranger's own only
    helped = (await ask(CLUB_ADMIN, "/help")).said
    assert "<b>Club admin</b> (Club)" in helped and "/staff host CHAT_ID add|remove NICK" in helped
    owner_help = (await ask(ADMIN_ID, "/help")).said
    assert "/network — the caps on fines" in owner_help and "/staff clubadmin" in owner_help
    stranger_help = (await ask(STRANGER, "/help")).said
    assert "Club admin" not in stranger_help and "/network" not in stranger_help

    assert await staff_log(app) == [
        (ADMIN_ID, "grant_network_admin", f"player={NET_ADMIN}"),
        (NET_ADMIN, "grant_club_admin", f"club={CLUB} player={CLUB_ADMIN}"),
        (CLUB_ADMIN, "grant_host", f"club={CLUB} player={HOSTY}"),
        (CLUB_ADMIN, "grant_host", f"club={CLUB} player={STRANGER}"),
        (CLUB_ADMIN, "revoke_host", f"club={CLUB} player={HOSTY}"),
        (CLUB_ADMIN, "chat_admins_host", f"club={CLUB} off"),
        (ADMIN_ID, "revoke_network_admin", f"player={NET_ADMIN}")]


async def test_a_network_admins_menu_changes_at_the_grant_and_the_revoke(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """Named a network admin while the bot runs, the account's private menu is the admin's at
    once (no restart), in every language; removed, its own menu goes (the players' again).
    A refused grant and a club admin's grant leave the menus as they were."""
    await fake.wait_call("setMyCommands")
    for uid, nick in ((ADMIN_ID, "Boss"), (STRANGER, "Stranger"), (NET_ADMIN, "Netty"),
                      (CLUB_ADMIN, "Clubby")):
        fake.user(uid, nick, language_code="en")
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    fake.group(CLUB, "Club")
    await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
    scopes = {scope for scope, _ in fake.commands}
    assert f"chat:{NET_ADMIN}" not in scopes and f"chat:{CLUB_ADMIN}" not in scopes
    menus = dict(fake.commands)
    assert (await ask(STRANGER, "/staff admin add Netty")).said.startswith("Only the network's")
    assert fake.commands == menus  # refused: nothing set

    assert (await ask(ADMIN_ID, "/staff admin add Netty")).said.startswith("✅ Netty is now")
    for lang in ("ru", "en", ""):
        mine = [c["command"] for c in fake.commands[(f"chat:{NET_ADMIN}", lang)]]
        assert mine == [c["command"] for c in fake.commands[(f"chat:{ADMIN_ID}", lang)]], lang
        assert {"network", "staff", "clubs", "profile"} <= set(mine), lang
    assert {c["command"]: c["description"] for c in fake.commands[(f"chat:{NET_ADMIN}", "ru")]} \
        == {c["command"]: c["description"] for c in fake.commands[(f"chat:{ADMIN_ID}", "ru")]}
    assert (await ask(NET_ADMIN, f"/staff clubadmin {CLUB} add Clubby")).said.startswith("✅")
    assert not any(scope == f"chat:{CLUB_ADMIN}" for scope, _ in fake.commands)

    # removed by the dialog's ✖: the account's own menu goes in every language
    dialog = await ask(ADMIN_ID, "/staff")
    query = await fake.press(ADMIN_ID, dialog, button="✖ Netty")
    assert (await fake.callback_answer(query))["text"].startswith("Netty is no longer")
    assert not any(scope == f"chat:{NET_ADMIN}" for scope, _ in fake.commands)
    assert ("all_private_chats", "en") in fake.commands
    assert any(scope == f"chat:{ADMIN_ID}" for scope, _ in fake.commands)  # the owner's stays

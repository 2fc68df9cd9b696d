"""A club's life over HTTP (bot/services/club_life.py): the bot added to a group makes a pending
club and ONE notice to the network's owners and admins (title, who added the bot, members,
Approve / Refuse); Approve asks the club's name, city, time zone and first admin
(``/club set``); typed ``/clubs`` and ``/club approve|refuse|suspend``; the chat is told; a
stranger, a revoked admin's old button and a forged button change nothing; every decision is
in the admin log with who made it."""

from __future__ import annotations

import asyncio

from bot.app import App
from bot.services.club_life import ClubCb
from bot.services.permissions import Power
from tests.bot.conftest import ADMIN_ID, Ask
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.present import present

GROUP = -100555
NET = 901  # a network admin (granted in the database)
ROGUE = 70
OWNER_NAME = "Ann"


async def _setup(app: App, fake: FakeTelegram, ask: Ask) -> SentMessage:
    """Owner and network admin registered; ROGUE adds the bot to GROUP. The owner's notice."""
    fake.user(ADMIN_ID, OWNER_NAME, language_code="en")
    fake.user(NET, "Net", language_code="en")
    fake.user(ROGUE, "Rogue", language_code="en")
    for uid in (ADMIN_ID, NET, ROGUE):
        await ask(uid, "/start")
    await ask(NET, "/nick Netta")
    await app.services.db.staff.grant_network_admin(NET, by=ADMIN_ID, now=app.clock())
    fake.group(GROUP, "Rogue Club")
    await fake.add_bot(GROUP, ROGUE, members=7)
    return await fake.next_message(ADMIN_ID)


async def popup(fake: FakeTelegram, uid: int, message: SentMessage, data: str) -> str:
    query = await fake.press(uid, message, data)
    return str((await fake.callback_answer(query)).get("text", ""))


async def test_a_new_group_is_pending_and_the_network_hears_once(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    notice = await _setup(app, fake, ask)
    assert notice.body.startswith("🆕 A new group asks to be a club: <b>Rogue Club</b>")
    assert "added by Rogue (id 70), 7 members" in notice.body
    assert [text for text, _ in notice.buttons()] == ["✅ Approve", "❌ Refuse"]
    net_notice = await fake.next_message(NET)
    assert net_notice.body == notice.body
    club = await app.services.db.clubs.get(GROUP)
    assert club is not None and club.status == "pending"
    # added again (removed and re-added), or /newgame there: no second notice
    await fake.add_bot(GROUP, ROGUE)
    await fake.send(ROGUE, "/newgame", chat_id=GROUP)
    await fake.settled()
    assert fake.unread(ADMIN_ID) == [] and fake.unread(NET) == []


async def test_approve_then_name_the_club(app: App, fake: FakeTelegram, ask: Ask) -> None:
    notice = await _setup(app, fake, ask)
    await fake.next_message(NET)
    assert await popup(fake, NET, notice, notice.button_data("Approve")) == ""
    follow = await fake.next_message(NET)
    assert follow.body.startswith(f"Approved. Now name it: send <code>/club set {GROUP} CITY;")
    told = await fake.next_message(GROUP)
    assert told.body == (  # in the club's language
        "✅ Сеть одобрила этот клуб: игры здесь теперь приносят баллы."
        " Часовой пояс: Europe/Moscow.")
    edited = await fake.next_edit(ADMIN_ID)
    assert edited.body == f"✅ <b>Rogue Club</b> (<code>{GROUP}</code>) approved by Netta."
    assert edited.buttons() == []
    club = await app.services.db.clubs.get(GROUP)
    assert club is not None and club.approved and club.status_by == NET
    # the other admin's old button: nothing changes, told who decided
    answer = await popup(fake, ADMIN_ID, notice, ClubCb(action="refuse", chat=GROUP).pack())
    assert answer == ""
    late = await fake.next_message(ADMIN_ID)
    assert late.body.startswith("Nothing changed: <b>Rogue Club</b> is approved (by Netta, ")
    assert present(await app.services.db.clubs.get(GROUP)).status == "approved"
    # naming it: a bad zone refused, then the form
    bad = await ask(NET, f"/club set {GROUP} Omsk; Red Square; Mars/Olympus; Rogue")
    assert bad.body == "“Mars/Olympus” is not a time zone: give an IANA name such as" \
        " Europe/Moscow or Asia/Vladivostok."
    await ask(ROGUE, "/nick Rogue")
    done = await ask(NET, f"/club set {GROUP} Omsk; Red Square; Asia/Omsk; Rogue")
    assert done.body == "<b>Red Square</b>, Omsk; time zone Asia/Omsk; club admin: Rogue."
    granted = await fake.next_message(ROGUE)
    assert "You are now an admin of the club <b>Red Square</b>" in granted.body
    club = await app.services.db.clubs.get(GROUP)
    assert club is not None and (club.name, club.city, club.time_zone) == (
        "Red Square", "Omsk", "Asia/Omsk")
    assert await app.services.db.staff.club_admins(GROUP) == [ROGUE]
    log = [(e.admin_id, e.action) for e in reversed(await app.services.db.admin_log.recent(10))]
    assert (NET, "club_approved") in log and (NET, "club_details") in log
    assert (NET, "grant_club_admin") in log
    listed = await ask(ADMIN_ID, "/clubs")
    assert listed.body == f"<b>approved</b>:\n• Red Square — <code>{GROUP}</code>"


async def test_strangers_revoked_admins_and_forged_buttons_change_nothing(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    notice = await _setup(app, fake, ask)
    await fake.next_message(NET)
    db = app.services.db
    await db.staff.revoke_network_admin(NET, by=ADMIN_ID, now=app.clock())
    refused = "Only the network's admins can approve, refuse or suspend clubs."
    # a revoked admin's old button, a stranger's forged one, a forged chat id
    assert await popup(fake, NET, notice, notice.button_data("Approve")) == refused
    forged = ClubCb(action="approve", chat=GROUP).pack()
    assert await popup(fake, ROGUE, notice, forged) == refused
    assert await popup(fake, ROGUE, notice, "clubs:approve:notanumber") == (
        "This button is no longer active.")
    for command in (f"/club approve {GROUP}", "/clubs", f"/club set {GROUP} A; B; -; Rogue"):
        assert (await ask(ROGUE, command)).body == "This command is for admins only."
    await fake.settled()
    club = await db.clubs.get(GROUP)
    assert club is not None and club.status == "pending"
    assert not [e for e in await db.admin_log.recent() if e.action.startswith("club_")]
    # an unknown club and a malformed command: clear answers
    assert (await ask(ADMIN_ID, "/club approve -42")).body == (
        "No club has the id -42: see /clubs.")
    assert (await ask(ADMIN_ID, "/club frobnicate 1")).body.startswith(
        "Usage: <code>/club approve")


async def test_refuse_and_suspend_typed_are_told_to_the_chat(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    db = app.services.db
    answer = await ask(ADMIN_ID, f"/club refuse {GROUP}")
    assert answer.body == f"❌ <b>Rogue Club</b> (<code>{GROUP}</code>) refused by {OWNER_NAME}."
    assert "Сеть отклонила этот клуб" in (await fake.next_message(GROUP)).body
    # a refused club cannot be suspended; approved again deliberately, then suspended
    again = await ask(ADMIN_ID, f"/club suspend {GROUP}")
    assert again.body.startswith("Nothing changed: <b>Rogue Club</b> is refused")
    await ask(ADMIN_ID, f"/club approve {GROUP}")
    assert "Сеть одобрила этот клуб" in (await fake.next_message(GROUP)).body
    await ask(ADMIN_ID, f"/club suspend {GROUP}")
    assert "Сеть приостановила этот клуб" in (await fake.next_message(GROUP)).body
    assert present(await db.clubs.get(GROUP)).status == "suspended"
    actions = [e.action for e in reversed(await db.admin_log.recent(10))]
    assert actions[-3:] == ["club_refused", "club_approved", "club_suspended"]


async def test_two_admins_racing_approve_and_refuse(app: App, fake: FakeTelegram,
                                                    ask: Ask) -> None:
    notice = await _setup(app, fake, ask)
    net_notice = await fake.next_message(NET)
    answers = await asyncio.gather(
        popup(fake, ADMIN_ID, notice, notice.button_data("Approve")),
        popup(fake, NET, net_notice, net_notice.button_data("Refuse")))
    assert list(answers) == ["", ""]
    club = await app.services.db.clubs.get(GROUP)
    assert club is not None and club.status in ("approved", "refused")
    loser = NET if club.status_by == ADMIN_ID else ADMIN_ID
    await fake.wait_for(lambda: any(m.body.startswith("Nothing changed: <b>Rogue Club</b> is")
                                    for m in fake.messages(loser)), what="the loser told")
    decisions = [e for e in await app.services.db.admin_log.recent(10)
                 if e.action.startswith("club_")]
    assert len(decisions) == 1


async def test_a_supergroup_migration_keeps_the_approval(app: App, fake: FakeTelegram,
                                                         ask: Ask) -> None:
    await _setup(app, fake, ask)
    await ask(ROGUE, "/nick Rogue")
    await ask(ADMIN_ID, f"/club approve {GROUP}")
    await ask(ADMIN_ID, f"/club set {GROUP} Omsk; Red Square; -; Rogue")
    new = -1009876
    await fake.migrate(GROUP, new)
    db = app.services.db
    for _ in range(100):  # the service messages are handled in turn
        if await db.clubs.get(GROUP) is None:
            break
        await fake.changed(0.1)
    club = await db.clubs.get(new)
    assert club is not None and club.approved and club.name == "Red Square"
    assert await db.clubs.get(GROUP) is None
    assert await db.staff.club_admins(new) == [ROGUE]
    assert await app.services.permissions.may(ROGUE, Power.MANAGE_CLUB, club_id=new)
    assert not await app.services.permissions.may(ROGUE, Power.MANAGE_CLUB, club_id=GROUP)

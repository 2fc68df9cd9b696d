"""Issue 11 over HTTP: /import (a document), linking, look-alike nicknames, /settings,
menus per scope, commands in the wrong chat, limits on repeats."""

from __future__ import annotations

from bot.app import App
from tests.bot.conftest import ADMIN_ID, Ask
from tests.fakes.telegram_server import FakeTelegram
from tests.game.harness import approve_club
from tests.present import present
from tests.storage.test_club_cache import count_club_reads

CSV = (
    b"nickname,points,games_played,last_game_date,telegram_id,username\n"
    b"Old Timer,120,87,2026-02-01,,oldtimer\n"
    b"Veteran,40,12,2026-02-20,,\n"
    b"Bad Points,ten,1,2026-02-01,,\n"
    b"0ld Timer,5,1,2026-02-01,,\n"
)
CLUB = -1001


async def _admin(fake: FakeTelegram, ask: Ask) -> None:
    fake.user(ADMIN_ID, "Admin", language_code="en")
    await ask(ADMIN_ID, "/start")


async def test_import_dry_run_then_apply_then_again(app: App, fake: FakeTelegram,
                                                    ask: Ask) -> None:
    await _admin(fake, ask)
    sent = await fake.send_document(ADMIN_ID, "club.csv", CSV, caption="/import")
    dry = await fake.next_message(ADMIN_ID)
    assert "Dry run" in dry.said and "Would add 2 players" in dry.said
    assert "line 4: not a whole number ≥ 0 (points=ten)" in dry.said
    assert "line 5: looks like the nickname Old Timer" in dry.said
    # issue 21: the refused rows come back as a file, with the reason in a last column
    refused = await fake.next_message(ADMIN_ID)
    assert refused.document_name == "club-refused.csv" and refused.document_bytes is not None
    assert refused.document_bytes.decode("utf-8-sig").splitlines() == [
        "nickname,points,games_played,last_game_date,telegram_id,username,reason",
        "Bad Points,ten,1,2026-02-01,,,not a whole number ≥ 0 (points=ten)",
        "0ld Timer,5,1,2026-02-01,,,looks like the nickname Old Timer",
    ]
    assert await app.services.db.imports.pending() == []

    await fake.reply(ADMIN_ID, "/import apply", sent)
    done = await fake.next_message(ADMIN_ID)
    assert done.said.startswith("<b>Imported</b> 2 players")
    assert (await fake.next_message(ADMIN_ID)).document_name == "club-refused.csv"
    assert [r.nickname for r in await app.services.db.imports.pending()] == [
        "Old Timer", "Veteran"]

    await fake.send_document(ADMIN_ID, "club.csv", CSV, caption="/import apply")
    again = await fake.next_message(ADMIN_ID)
    assert "0 players" in again.said and "unchanged: 2" in again.said
    assert (await fake.next_message(ADMIN_ID)).document_name == "club-refused.csv"
    assert len(await app.services.db.imports.pending()) == 2


async def test_import_refusals_and_non_admin(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _admin(fake, ask)
    # issue 21: an unknown column is ignored and named, not a refusal of the file
    await fake.send_document(ADMIN_ID, "c.csv", b"nickname,points,colour\nAbc,1,red\n",
                             caption="/import apply")
    assert "Columns ignored (not known): colour" in (await fake.next_message(ADMIN_ID)).said
    assert (await fake.next_message(ADMIN_ID)).document_name == "c-refused.csv"
    await fake.send_document(ADMIN_ID, "c.csv", b"\xff\xfe\x00bad", caption="/import")
    assert "This is not a spreadsheet" in (await fake.next_message(ADMIN_ID)).said
    assert "as a document" in (await ask(ADMIN_ID, "/import")).said
    fake.user(70, "Neo", language_code="en")
    await ask(70, "/start")
    await fake.send_document(70, "club.csv", CSV, caption="/import apply")
    assert (await fake.next_message(70)).text == "This command is for admins only."
    assert await app.services.db.imports.pending() == []


async def test_linking_by_username_and_by_admin_confirmation(app: App, fake: FakeTelegram,
                                                             ask: Ask) -> None:
    db = app.services.db
    await _admin(fake, ask)
    await fake.send_document(ADMIN_ID, "club.csv", CSV, caption="/import apply")
    await fake.next_message(ADMIN_ID)
    await fake.next_message(ADMIN_ID)  # the refused rows' file
    # the imported username matches at /start: a username changes hands, so it is only a
    # claim, which the admins hear of once and confirm naming the account
    fake.user(71, "Old", language_code="en", username="OldTimer")
    await ask(71, "/start")
    notice = await fake.next_message(71)
    assert "username matches the club record <b>Old Timer</b>" in notice.said
    told = await fake.next_message(ADMIN_ID)
    assert "Old (id 71) has the username @OldTimer" in told.said
    assert "/link Old Timer" in told.said
    player = await db.players.get(71)
    assert player is not None and player.nickname is None and player.games_played == 0
    assert await db.ledger.balance(71) == 0
    await ask(71, "/start")  # again: told again, the admins are not
    assert "username matches" in (await fake.next_message(71)).said
    done = await ask(ADMIN_ID, "/link Old Timer")
    assert "<b>Old Timer</b> is linked to Old (id 71); 120 points" in done.said
    assert "120 points" in (await fake.next_message(71)).said
    assert present(await db.players.get(71)).nickname == "Old Timer"
    assert await db.ledger.balance(71) == 120
    assert [m.text for m in fake.messages(ADMIN_ID) if "has the username" in (m.text or "")] == [
        told.text]
    # someone else claims "Veteran": an admin must confirm; the first claimant keeps it
    fake.user(72, "Vet", language_code="en")
    await ask(72, "/start")
    claim = await ask(72, "/nick veteran")
    assert "asked to confirm" in claim.said
    assert "Vet (id 72) claims the imported nickname" in (await fake.next_message(ADMIN_ID)).said
    assert "asked to confirm" in (await ask(72, "/nick Veteran")).said  # a repeat: no new notice
    fake.user(73, "Late", language_code="en")
    await ask(73, "/start")
    assert "another account has already claimed" in (await ask(73, "/nick Veteran")).said
    assert present(await db.players.get(72)).nickname is None
    done = await ask(ADMIN_ID, "/link Veteran")
    assert "linked to Vet (id 72); 40 points" in done.said
    assert "Veteran" in (await fake.next_message(72)).said
    assert await db.ledger.balance(72) == 40 and await db.ledger.balance(73) == 0
    assert await db.imports.pending() == []
    notices = [m for m in fake.messages(ADMIN_ID) if "claims the imported" in (m.text or "")]
    assert len(notices) == 1


async def test_admin_links_a_record_to_the_account_it_names(app: App, fake: FakeTelegram,
                                                            ask: Ask) -> None:
    db = app.services.db
    await _admin(fake, ask)
    await fake.send_document(ADMIN_ID, "club.csv", CSV, caption="/import apply")
    await fake.next_message(ADMIN_ID)
    await fake.next_message(ADMIN_ID)
    for uid, name in ((74, "Squatter"), (75, "Real")):
        fake.user(uid, name, language_code="en")
        await ask(uid, "/start")
    await ask(74, "/nick Veteran")  # the first claim, not the record's player
    await fake.next_message(ADMIN_ID)
    assert "No registered account has the id 99" in (
        await ask(ADMIN_ID, "/link Veteran 99")).said
    assert "linked to Real (id 75); 40 points" in (await ask(ADMIN_ID, "/link Veteran 75")).said
    assert await db.ledger.balance(75) == 40 and await db.ledger.balance(74) == 0
    assert "No imported record" in (await ask(ADMIN_ID, "/link Veteran 74")).said


async def test_lookalike_nicknames(app: App, fake: FakeTelegram, ask: Ask) -> None:
    for uid in (81, 82, 83, 84):
        fake.user(uid, f"U{uid}", language_code="en")
        await ask(uid, "/start")
    assert "Bobby" in (await ask(81, "/nick Bobby")).said
    refusal = await ask(82, "/nick B\u043ebby")
    assert refusal.text == ("The nickname <b>B\u043ebby</b> looks like <b>Bobby</b>, which is"
                            " taken. Choose one that looks different.")
    assert "is taken" in (await ask(83, "/nick \uff22\uff4f\uff42\uff42\uff59")).said
    assert "accents" in (await ask(84, "/nick Bobb\u00fd\u0301\u0301")).said
    await _admin(fake, ask)
    assert (await ask(ADMIN_ID, "/lookalikes")).text == "No nicknames look alike."


async def test_settings_buttons(app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.group(CLUB, "Club")
    fake.set_admins(CLUB, [500])
    fake.user(500, "Owner", language_code="ru")
    fake.user(501, "Member", language_code="en")
    await ask(501, "/start")
    assert "Only the club's admins" not in (await ask(500, "/help", chat_id=CLUB)).said
    refusal = await ask(501, "/settings", chat_id=CLUB)
    assert refusal.said.startswith("Менять настройки могут")  # a post: the club's language
    panel = await ask(500, "/settings", chat_id=CLUB)
    assert "Ночь: 1 секунда" in panel.said  # the default (0.2 s) rounded up to whole seconds
    # a member's press: a popup in the member's own language, nothing changes
    query = await fake.press(501, panel, button="English")
    answer = await fake.callback_answer(query)
    assert answer["text"].startswith("Only the club's admins")
    assert present(await app.services.db.clubs.get(CLUB)).locale == "ru"
    # the chat's admin switches the club to English: the panel is redrawn in English
    query = await fake.press(500, panel, button="English")
    assert (await fake.callback_answer(query))["text"] == "Сохранено."  # presser: ru
    assert "Language: English" in (await fake.next_edit(CLUB)).said
    assert present(await app.services.db.clubs.get(CLUB)).locale == "en"
    query = await fake.press(500, panel, button="🌙 +15")
    await fake.callback_answer(query)
    assert "Night: 16 seconds" in (await fake.next_edit(CLUB)).said
    assert present(await app.services.db.clubs.get(CLUB)).timers["night"] == 16
    query = await fake.press(500, panel, button="🎲")
    await fake.callback_answer(query)
    assert "the host draws" in (await fake.next_edit(CLUB)).said
    # hosts: add by replying to a member's message, remove from the list
    said = await fake.send(501, "hi", chat_id=CLUB)
    await fake.reply(500, "/settings host add", said, chat_id=CLUB)
    assert "Member is now a host" in (await fake.next_message(CLUB)).said
    assert await app.services.db.staff.hosts(CLUB) == [501]
    logged = await app.services.db.admin_log.recent(1)
    assert [(e.admin_id, e.action) for e in logged] == [(500, "grant_host")]
    query = await fake.press(500, panel, button="Hosts")
    await fake.callback_answer(query)
    assert "Member (id 501)" in (await fake.next_edit(CLUB)).said
    query = await fake.press(500, panel, button="✖ Member")
    await fake.callback_answer(query)
    await fake.next_edit(CLUB)
    assert await app.services.db.staff.hosts(CLUB) == []
    logged = await app.services.db.admin_log.recent(1)
    assert [(e.admin_id, e.action) for e in logged] == [(500, "revoke_host")]
    # saved compositions: list and delete
    await app.services.db.clubs.save_preset(CLUB, 3, ["mafia", "civilian", "civilian"])
    query = await fake.press(500, panel, button="Back")
    await fake.callback_answer(query)
    await fake.next_edit(CLUB)
    query = await fake.press(500, panel, button="Compositions")
    await fake.callback_answer(query)
    assert "3: " in (await fake.next_edit(CLUB)).said
    query = await fake.press(500, panel, button="✖ 3")
    await fake.callback_answer(query)
    await fake.next_edit(CLUB)
    assert await app.services.db.clubs.presets(CLUB) == {}


async def test_settings_say_what_a_foul_costs(app: App, fake: FakeTelegram, ask: Ask) -> None:
    """/settings: a foul's fine, from which foul the host is offered the technical death,
    whether the club chat hears of fouls; out of range refused; a member changes nothing."""
    fake.group(CLUB, "Club")
    fake.set_admins(CLUB, [500])
    fake.user(500, "Owner", language_code="en")
    fake.user(501, "Member", language_code="en")
    await ask(501, "/start")
    await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
    await approve_club(app.services.db, CLUB)  # its games count
    panel = await ask(500, "/settings", chat_id=CLUB)
    assert "A foul is a warning: no points are taken." in panel.said
    assert "From a player's foul 4 in a game, the host is offered the technical death." in \
        panel.said
    assert "The club chat hears nothing of fouls." in panel.said
    query = await fake.press(500, panel, button="🟨 Fine −1")
    answer = await fake.callback_answer(query)
    assert answer["text"] == \
        "A foul's fine is 0 to 10 points: the network's cap on one foul's fine."
    for _ in range(2):
        query = await fake.press(500, panel, button="🟨 Fine +1")
        assert (await fake.callback_answer(query))["text"] == "Saved."
        edited = await fake.next_edit(CLUB)
    assert "A foul costs 2 points." in edited.said
    query = await fake.press(500, panel, button="💀 Foul limit −1")
    await fake.callback_answer(query)
    assert "From a player's foul 3 in a game" in (await fake.next_edit(CLUB)).said
    query = await fake.press(500, panel, button="📣 Fouls in the chat: on/off")
    await fake.callback_answer(query)
    assert "The club chat hears of each foul." in (await fake.next_edit(CLUB)).said
    query = await fake.press(501, panel, button="🟨 Fine +1")
    assert (await fake.callback_answer(query))["text"].startswith("Only the club's admins")
    club = await app.services.db.clubs.get(CLUB)
    assert club is not None
    assert (club.foul_points, club.foul_limit, club.foul_public) == (2, 3, True)
    # each change of the fine in the admin log with who made it; the refused ones not
    fines = [(e.admin_id, e.details) for e in reversed(await app.services.db.admin_log.recent())
             if e.action == "club_fine"]
    assert fines == [(500, f"club={CLUB} 0 -> 1"), (500, f"club={CLUB} 1 -> 2")]


async def test_settings_say_whether_the_chat_hears_of_rare_achievements(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """/settings: the club chat hears nothing of achievements until its admins switch it on;
    a member's press changes nothing."""
    fake.group(CLUB, "Club")
    fake.set_admins(CLUB, [500])
    fake.user(500, "Owner", language_code="en")
    fake.user(501, "Member", language_code="en")
    await ask(501, "/start")
    await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")
    panel = await ask(500, "/settings", chat_id=CLUB)
    assert "🏅 The club chat hears nothing of achievements." in panel.said
    query = await fake.press(501, panel, button="🏅 Rare achievements in the chat: on/off")
    assert (await fake.callback_answer(query))["text"].startswith("Only the club's admins")
    club = await app.services.db.clubs.get(CLUB)
    assert club is not None and not club.achievements_public
    query = await fake.press(500, panel, button="🏅 Rare achievements in the chat: on/off")
    assert (await fake.callback_answer(query))["text"] == "Saved."
    assert "🏅 The club chat hears of the rare achievements earned at its tables." in \
        (await fake.next_edit(CLUB)).said
    club = await app.services.db.clubs.get(CLUB)
    assert club is not None and club.achievements_public
    query = await fake.press(500, panel, button="🏅 Rare achievements in the chat: on/off")
    await fake.callback_answer(query)
    assert "hears nothing of achievements" in (await fake.next_edit(CLUB)).said


async def test_settings_fine_typed_under_the_networks_cap(app: App, fake: FakeTelegram,
                                                          ask: Ask) -> None:
    """``/settings fine N``: the fine typed at once, up to the network's cap (refused above it,
    naming it); anything but ASCII digits of a sane length is refused; a member sets nothing."""
    fake.group(CLUB, "Club")
    fake.set_admins(CLUB, [500])
    fake.user(500, "Owner", language_code="en")
    fake.user(501, "Member", language_code="en")
    await ask(501, "/start")
    await app.services.db.clubs.ensure(CLUB, title="Club", locale="en")

    async def fine() -> int:
        club = await app.services.db.clubs.get(CLUB)
        assert club is not None
        return club.foul_points

    assert (await ask(500, "/settings fine 7", chat_id=CLUB)).text == \
        "🟨 A foul now costs 7 points."
    assert await fine() == 7
    assert (await ask(500, "/settings fine 11", chat_id=CLUB)).text == \
        "A foul's fine is 0 to 10 points: the network's cap on one foul's fine."
    # (typed by the network's owner: a chat admin's refusals in the chat share the members'
    # small budget of answers, bot/telegram/flood.py)
    fake.user(ADMIN_ID, "Admin", language_code="en")
    for bad in ("-1", "\uff15", "\u0665", "1e3", "3.5", "1234567890", "x"):
        answer = await ask(ADMIN_ID, f"/settings fine {bad}", chat_id=CLUB)
        assert answer.said.startswith("Usage: <code>/settings fine N</code>"), bad
    refused = await ask(501, "/settings fine 3", chat_id=CLUB)
    assert refused.said.startswith("Only the club's admins")
    assert await fine() == 7
    panel = await ask(500, "/settings", chat_id=CLUB)
    assert "Type <code>/settings fine N</code> to set the fine at once (0 to 10" in panel.said
    assert (await ask(500, "/settings fine 0", chat_id=CLUB)).text == \
        "🟨 A foul now costs nothing: a warning only."
    assert await fine() == 0


async def test_menus_per_scope(app: App, fake: FakeTelegram) -> None:
    await fake.wait_call("setMyCommands")
    for lang in ("ru", "en"):
        members = [c["command"] for c in fake.commands[("all_group_chats", lang)]]
        admins = [c["command"] for c in fake.commands[("all_chat_administrators", lang)]]
        mine = [c["command"] for c in fake.commands[(f"chat:{ADMIN_ID}", lang)]]
        assert members == ["help"]
        assert {"newgame", "deal", "status", "settings", "foul", "unfoul"} <= set(admins)
        assert {"import", "export", "link", "lookalikes", "balance", "status"} <= set(mine)
    assert "import" not in [c["command"] for c in fake.commands[("all_private_chats", "en")]]
    described = {c["command"]: c["description"] for c in fake.commands[(f"chat:{ADMIN_ID}", "en")]}
    group = {c["command"]: c["description"]
             for c in fake.commands[("all_chat_administrators", "en")]}
    # the admin's private /status is the bot's, the club chat's the game's
    assert described["status"].startswith("The bot's status") and group["status"] == "Game status"


async def test_commands_in_the_wrong_chat(app: App, fake: FakeTelegram, ask: Ask) -> None:
    fake.group(CLUB, "Club")
    fake.user(60, "P", language_code="en")
    await ask(60, "/start")
    for command in ("/balance", "/lang", "/nick X"):
        answer = await ask(60, command, chat_id=CLUB)
        assert answer.said.startswith("Эта команда работает в личном чате"), command
        assert "https://t.me/mafia_test_bot?start=help" in answer.said
    assert (await ask(60, "/newgame")).text == "This command works in the club's group chat."
    assert "Unknown command" in (await ask(60, "/nonsense")).said
    # the link's "?start=help" is a plain start, not a bad deep link
    await ask(60, "/start help")
    profile = await ask(60, "/profile")
    assert profile.text == (await ask(60, "/profile")).text


async def test_limits_on_repeats(app: App, fake: FakeTelegram, ask: Ask) -> None:
    for uid, nick in ((61, "Alice"), (62, "Bob Marley")):
        fake.user(uid, nick, language_code="en")
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    assert "Proposal sent" in (await ask(61, "/spouse Bob Marley")).said
    await fake.next_message(62)
    assert (await ask(61, "/spouse Bob Marley")).said.startswith("You have already proposed")
    assert fake.unread(62) == []  # no second proposal
    for _ in range(3):
        assert "recorded" in (await ask(61, "/complain Bob Marley rude")).said
    limit = await ask(61, "/complain Bob Marley rude again")
    assert limit.said.startswith("You have already filed 3 complaints today")
    assert sum(n for _, n in await app.services.db.complaints.counts()) == 3
    assert "3 complaints a day" in (await ask(61, "/help")).said


async def test_the_club_is_read_from_memory_on_every_group_update(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """The outer middleware reads the club of every group update (bot/telegram/middlewares.py): from
    memory after the first (``Clubs.cached``); a setting changed is seen by the next update."""
    fake.group(CLUB, "Club")
    fake.set_admins(CLUB, [500])
    fake.user(500, "Owner", language_code="ru")
    db = app.services.db
    await ask(500, "/help", chat_id=CLUB)  # the club is created
    reads = count_club_reads(db)
    await ask(500, "/help", chat_id=CLUB)
    await ask(500, "/help", chat_id=CLUB)
    assert reads == []
    await db.clubs.set_locale(CLUB, "en")
    # (another member: the first one's answers in the club chat are spent: ClubAnswers)
    fake.user(501, "Member", language_code="ru")
    assert (await ask(501, "/lang", chat_id=CLUB)).said.startswith("This command works")
    assert reads == []

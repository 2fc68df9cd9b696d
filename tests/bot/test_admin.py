"""Admin commands over HTTP: refusals, bad arguments, points, blocks, export, complaints."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from bot.app import App
from tests.bot.conftest import ADMIN_ID, Ask
from tests.bot.helpers import give_game_points
from tests.fakes.telegram_server import FakeTelegram

ADMIN_COMMANDS = [
    "/redeem Neo 1 gift", "/adjust Neo 1 fix", "/block Neo", "/unblock Neo", "/export",
    "/complaints",
]


async def _setup(app: App, fake: FakeTelegram, ask: Ask, points: int = 10) -> None:
    fake.user(ADMIN_ID, "Admin", language_code="en")
    fake.user(70, "Neo", language_code="en")
    fake.user(71, "Трин", language_code="ru")
    await ask(ADMIN_ID, "/start")
    for uid, nick in ((70, "Neo"), (71, "Trinity Ann")):
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
    await give_game_points(app.services.db, 70, points, date(2026, 3, 1))


@pytest.mark.parametrize("command", ADMIN_COMMANDS)
async def test_non_admin_is_refused(
    app: App, fake: FakeTelegram, ask: Ask, command: str
) -> None:
    await _setup(app, fake, ask)
    assert (await ask(70, command)).text == "This command is for admins only."
    assert (await ask(71, command)).text == "Эта команда только для администраторов."
    assert await app.services.db.ledger.balance(70) == 10


async def test_admin_help_lists_admin_commands(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    assert "/redeem NICK POINTS REASON" in (await ask(ADMIN_ID, "/help")).said


async def test_redeem(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    reply = await ask(ADMIN_ID, "/redeem neo 4 mug <3")
    assert reply.text == "Redeemed 4 points from <b>Neo</b> (mug &lt;3). Balance: 6."
    notice = await fake.next_message(70)
    assert notice.text == "4 points were exchanged for: mug &lt;3. Balance: 6."
    assert await app.services.db.ledger.balance(70) == 6
    log = await app.services.db.admin_log.recent(5)
    assert any(a.admin_id == ADMIN_ID and a.action == "redeem" for a in log)
    text = (await ask(70, "/balance")).said
    assert "-4  gift: mug &lt;3" in text


async def test_redeem_over_balance(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    reply = await ask(ADMIN_ID, "/redeem Neo 11 car")
    assert reply.text == "<b>Neo</b> has only 10 points, cannot redeem 11."
    assert await app.services.db.ledger.balance(70) == 10


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("/redeem", "Usage: <code>/redeem NICK POINTS REASON</code>"),
        ("/redeem Neo", "Usage: <code>/redeem NICK POINTS REASON</code>"),
        ("/redeem Neo ten gift", "Usage: <code>/redeem NICK POINTS REASON</code>"),
        ("/redeem Neo 3", "Usage: <code>/redeem NICK POINTS REASON</code>"),
        ("/redeem Neo 0 gift", "Invalid amount of points: 0."),
        ("/redeem Neo -3 gift", "Invalid amount of points: -3."),
        ("/redeem Ghost 3 gift", "No player with the nickname <b>Ghost</b>."),
        ("/adjust Neo 0 oops", "Invalid amount of points: 0."),
        ("/adjust Neo x oops", "Usage: <code>/adjust NICK POINTS REASON</code>"),
        ("/block", "Usage: <code>/block NICK [REASON]</code>"),
        ("/unblock", "Usage: <code>/unblock NICK</code>"),
        ("/unblock Neo", "<b>Neo</b> is not blocked."),
        ("/block Ghost", "No player with the nickname <b>Ghost</b>."),
    ],
)
async def test_malformed_admin_arguments(
    app: App, fake: FakeTelegram, ask: Ask, command: str, expected: str
) -> None:
    await _setup(app, fake, ask)
    assert (await ask(ADMIN_ID, command)).said.startswith(expected)
    assert await app.services.db.ledger.balance(70) == 10


async def test_adjust_both_ways_and_nick_with_spaces(
    app: App, fake: FakeTelegram, ask: Ask
) -> None:
    await _setup(app, fake, ask)
    reply = await ask(ADMIN_ID, "/adjust trinity ann 5 late game")
    assert reply.text == "Adjusted <b>Trinity Ann</b> by +5 (late game). Balance: 5."
    assert (await fake.next_message(71)).text == "Ваш баланс изменён на +5: late game. Баланс: 5."
    reply = await ask(ADMIN_ID, '/adjust "Trinity Ann" -2 typo')
    assert reply.said.endswith("Balance: 3.")
    reply = await ask(ADMIN_ID, "/adjust Neo -11 too much")
    assert reply.text == "Cannot take 11 points from <b>Neo</b>: the balance is 10 points."


async def test_block_and_unblock(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    reply = await ask(ADMIN_ID, "/block Neo cheating at cards")
    assert reply.text == "<b>Neo</b> is blocked; their points are burned."
    notice = await fake.next_message(70)
    assert notice.said.endswith("Reason: cheating at cards")
    assert await app.services.db.ledger.balance(70) == 0
    assert (await ask(ADMIN_ID, "/block Neo")).text == "<b>Neo</b> is already blocked."
    # a blocked account may not play, change its nickname or complain
    assert (await ask(70, "/nick Neo2")).text == "Your account is blocked by the administration."
    assert (await ask(70, "/complain Trinity Ann x")).said.startswith("Your account is blocked")
    await fake.send(70, "/start join_5")
    await fake.next_message(70)
    assert (await fake.next_message(70)).said.startswith("Your account is blocked")
    assert "Account: blocked" in (await ask(70, "/profile")).said
    assert (await ask(ADMIN_ID, "/unblock neo")).text == "<b>Neo</b> is unblocked."
    assert (await fake.next_message(70)).said.startswith("Your account is unblocked")
    assert (await ask(70, "/nick Neo2")).text == "Your nickname is now <b>Neo2</b>."
    actions = [a.action for a in await app.services.db.admin_log.recent(10)]
    assert "block" in actions and "unblock" in actions


async def test_block_without_reason(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    await ask(ADMIN_ID, "/block Trinity Ann")
    assert (await fake.next_message(71)).said.endswith("Причина: не указана")


async def test_export_csv_document(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    document = await ask(ADMIN_ID, "/export")
    assert document.document_name == "balances-2026-03-10.csv"
    assert document.caption == "Balances on 2026-03-10"
    assert document.document_bytes is not None
    rows = list(csv.reader(io.StringIO(document.document_bytes.decode())))
    assert rows[0] == ["nickname", "points", "games_played", "last_game_date", "telegram_id",
                       "username", "no_shows", "status"]
    assert ["Neo", "10", "1", "2026-03-01", "70", "", "0", ""] in rows
    actions = [a.action for a in await app.services.db.admin_log.recent(10)]
    assert "export" in actions


async def test_complaints(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    assert (await ask(ADMIN_ID, "/complaints")).text == "No complaints."
    await ask(71, "/complain Neo грубит")
    await ask(ADMIN_ID, "/start")
    await ask(ADMIN_ID, "/nick Boss")
    await ask(ADMIN_ID, "/complain Neo shouting")
    await ask(70, "/complain Trinity Ann pushes")
    text = (await ask(ADMIN_ID, "/complaints")).said
    assert text == "<b>Complaints</b>\nNeo — 2\nTrinity Ann — 1"
    log = await app.services.db.admin_log.recent(10)
    assert any(a.action == "complaints" and a.admin_id == ADMIN_ID for a in log)


async def test_admin_in_russian(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await _setup(app, fake, ask)
    prompt = await ask(ADMIN_ID, "/lang")
    await fake.press(ADMIN_ID, prompt, button="Русский")
    await fake.next_edit(ADMIN_ID)
    assert "/redeem НИК БАЛЛЫ ПРИЧИНА" in (await ask(ADMIN_ID, "/help")).said
    reply = await ask(ADMIN_ID, "/redeem Neo 3 кружка")
    assert reply.text == "<b>Neo</b>: списано 3 балла (подарок: кружка). Баланс: 7."
    assert (await fake.next_message(70)).text == "3 points were exchanged for: кружка. Balance: 7."
    assert (await ask(ADMIN_ID, "/redeem Neo 8 машина")).text == (
        "У игрока <b>Neo</b> только 7 баллов, нельзя списать 8."
    )
    assert (await ask(ADMIN_ID, "/redeem")).said.startswith("Использование")
    assert (await ask(ADMIN_ID, "/unblock Призрак")).text == "Игрока с ником <b>Призрак</b> нет."
    assert (await ask(ADMIN_ID, "/export")).caption == "Балансы на 10.03.2026"
    assert (await ask(ADMIN_ID, "/complaints")).text == "Жалоб нет."
    assert (await ask(ADMIN_ID, "/block Trinity Ann")).text == (
        "<b>Trinity Ann</b>: аккаунт заблокирован, баллы сгорели.")
    await fake.next_message(71)
    assert (await ask(ADMIN_ID, "/unblock Trinity Ann")).text == (
        "<b>Trinity Ann</b>: аккаунт разблокирован."
    )

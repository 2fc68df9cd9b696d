"""The gift shop over the fake Bot API, the whole application polling it: the catalogue kept by
an admin (commands and the /shop dialog), a player's /gifts, Exchange and its confirmation, the
admins' Handed over / Cancel, a request not handed over in time, the two months' expiry and a
block burning an open request, the last item raced by two players (SQLite and PostgreSQL), and
every bad input answered with nothing changed."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, date, datetime, timedelta
from typing import Any

import openpyxl
import pytest

from bot.app import App
from bot.services.shop import ShopCb
from storage.models import Gift, GiftRequest
from tests.bot.conftest import ADMIN_ID, Ask, FixedClock
from tests.bot.helpers import CLUB_ID, give_game_points
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.flow import wait_until

NEO, TRIN = 70, 71  # a player in English, a player in Russian
PLAYED = date(2026, 3, 1)  # their last game: the points expire on 2026-05-01


@pytest.fixture
async def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    """``{"backend": "postgresql"}`` (indirect) runs the app on a fresh PostgreSQL database."""
    wanted = dict(getattr(request, "param", {}))
    if wanted.pop("backend", "sqlite") == "postgresql":
        wanted["database_url"] = await request.getfixturevalue("pg").new_database()
    return wanted


async def setup(app: App, fake: FakeTelegram, ask: Ask, points: int = 50) -> None:
    fake.user(ADMIN_ID, "Admin", language_code="en")
    fake.user(NEO, "Neo", language_code="en")
    fake.user(TRIN, "Трин", language_code="ru")
    await ask(ADMIN_ID, "/start")
    for uid, nick in ((NEO, "Neo"), (TRIN, "Тринити")):
        await ask(uid, "/start")
        await ask(uid, f"/nick {nick}")
        if points:  # a game of the club "Club", over: the club where gifts are collected
            game_id = await give_game_points(app.services.db, uid, points, PLAYED)
            await app.services.db.games.set_status(game_id, "finished")


async def add_gift(fake: FakeTelegram, ask: Ask, price: int = 30, stock: int = 2,
                   name: str = "Mug <3") -> SentMessage:
    reply: SentMessage = await ask(ADMIN_ID, f"/gift_add {price} {stock} {name}")
    assert reply.text is not None and "is on sale" in reply.text, reply.text
    return reply


async def gift(app: App, gift_id: int = 1) -> Gift:
    found = await app.services.db.gifts.get(gift_id)
    assert found is not None
    return found


async def open_card(fake: FakeTelegram, ask: Ask, uid: int, name: str) -> SentMessage:
    """``/gifts``, then the gift's button: its card."""
    catalogue = await ask(uid, "/gifts")
    await fake.press(uid, catalogue, button=name)
    return await fake.next_message(uid)


async def confirm_markup(fake: FakeTelegram, uid: int, card: SentMessage,
                         exchange: str = "Exchange") -> SentMessage:
    """Exchange pressed on the card: the card's buttons become the confirmation."""
    await fake.press(uid, card, button=exchange)
    return await fake.next_edit(uid)


async def request_gift(fake: FakeTelegram, ask: Ask, uid: int = NEO, name: str = "Mug",
                       exchange: str = "Exchange", yes: str = "Yes"
                       ) -> tuple[SentMessage, SentMessage]:
    """The whole Exchange of ``uid``: the player's "request sent" and the admin's notice."""
    card = await open_card(fake, ask, uid, name)
    confirming = await confirm_markup(fake, uid, card, exchange)
    query = await fake.press(uid, confirming, button=yes)
    await fake.callback_answer(query)
    await fake.next_edit(uid)  # the card's buttons gone
    return await fake.next_message(uid), await fake.next_message(ADMIN_ID)


async def popup(fake: FakeTelegram, uid: int, message: SentMessage, *, button: str | None = None,
                data: str | None = None) -> str:
    query = await fake.press(uid, message, data, button=button)
    return str((await fake.callback_answer(query)).get("text", ""))


async def requests_of(app: App, tg_id: int) -> list[GiftRequest]:
    rows = await app.services.db.query(
        "SELECT id FROM gift_requests WHERE tg_id = ? ORDER BY id", (tg_id,))
    found = [await app.services.db.gift_requests.get(int(r[0])) for r in rows]
    return [r for r in found if r is not None]


# ---------------------------------------------------------------------- the whole way


async def test_from_the_catalogue_to_handed_over(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    added = await add_gift(fake, ask)
    assert added.text is not None and added.text.startswith("Gift “Mug &lt;3” is on sale.")
    await fake.send_photo(ADMIN_ID, caption="/gift_photo 1")
    assert "Photo: yes." in (await fake.next_message(ADMIN_ID)).body

    catalogue = await ask(NEO, "/gifts")
    assert catalogue.text is not None
    assert "Your points: 50; reserved by your requests: 0; available: 50." in catalogue.text
    assert "✅ <b>Mug &lt;3</b> — 30 points, left: 2" in catalogue.text
    assert ("🎁 Mug <3 · 30", ShopCb(action="card", id=1).pack()) in catalogue.buttons()
    await fake.press(NEO, catalogue, button="Mug <3")
    card = await fake.next_message(NEO)
    assert card.photo_id is not None and card.photo_id == (await gift(app)).photo
    assert card.caption is not None and card.caption.startswith(
        "🎁 <b>Mug &lt;3</b>\nPrice: 30 points. Left: 2.")
    assert [text for text, _ in card.buttons()] == ["Exchange for 30 points"]

    confirming = await confirm_markup(fake, NEO, card)
    assert [text for text, _ in confirming.buttons()] == [
        "✅ Yes, exchange 30 points", "✖ No", "📍 At: Club (change)"]
    yes = confirming.button_data("Yes")  # kept: pressed again below, once the buttons are gone
    assert await popup(fake, NEO, confirming, data=yes) == "Requested: Mug <3"
    edited_card = await fake.next_edit(NEO)
    assert edited_card.buttons() == []
    # the card says what is true after the request, not its old "Left: 2 ... available: 50"
    assert edited_card.caption is not None and edited_card.caption.startswith(
        "🎁 <b>Mug &lt;3</b>\nPrice: 30 points. Left: 1.")
    assert "reserved by your requests: 30; available: 20." in edited_card.caption
    assert edited_card.caption.endswith(
        "⏳ Requested: request #1. Its message below says what comes next.")
    sent = await fake.next_message(NEO)
    assert sent.text is not None and sent.text.startswith(
        "Request #1 sent: gift “Mug &lt;3”, 30 points reserved.")
    assert "within 14 days" in sent.text
    assert sent.buttons() == [("↩ Withdraw request #1 (Mug <3)",
                               ShopCb(action="withdraw", id=1).pack())]

    notice = await fake.next_message(ADMIN_ID)
    assert notice.text is not None
    assert "Player: <b>Neo</b>" in notice.text
    assert "Gift: “Mug &lt;3”, 30 points (reserved; balance 50)" in notice.text
    assert [text for text, _ in notice.buttons()] == ["✅ Handed over", "✖ Cancel"]
    hand = notice.button_data("Handed over")
    balance = (await ask(NEO, "/balance")).said
    assert balance is not None
    assert "Reserved for gift requests: 30 points; available: 20 points." in balance
    assert await app.services.db.ledger.balance(NEO) == 50  # no ledger row yet
    assert ((await gift(app)).stock, (await gift(app)).reserved) == (2, 1)

    assert await popup(fake, ADMIN_ID, notice, button="Handed over") == (
        "Request #1 (“Mug <3”): handed over. The player's balance: 20.")
    told = await fake.next_message(NEO)
    assert told.text == ("🎁 Gift “Mug &lt;3” (request #1) is handed over: 30 points exchanged."
                         " Enjoy!")
    await fake.wait_for(lambda: sent.buttons() == [], what="Withdraw gone")
    edited = await fake.next_edit(ADMIN_ID)
    assert edited.text is not None and edited.text.endswith("✅ Handed over (Admin).")
    assert edited.buttons() == []
    row = (await app.services.db.ledger.recent(NEO, 1))[0]
    assert (row.kind, row.points, row.reason, row.admin_id) == ("redeem", -30, "Mug <3", ADMIN_ID)
    assert ((await gift(app)).stock, (await gift(app)).reserved) == (1, 0)
    balance = (await ask(NEO, "/balance")).said
    assert balance is not None and "-30  gift: Mug &lt;3" in balance
    assert "Reserved" not in balance

    # the same buttons pressed again: a clear answer, nothing written twice
    assert await popup(fake, ADMIN_ID, notice, data=hand) == "Request #1 is already handed over."
    assert await popup(fake, NEO, confirming, data=yes) == "You already asked for it: request #1."
    assert await app.services.db.ledger.balance(NEO) == 20
    assert (await gift(app)).stock == 1
    assert [r.status for r in await requests_of(app, NEO)] == ["handed_over"]


async def test_a_request_is_confirmed_to_a_player_once_marked_as_gone(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    """An old failed send marked the player as having blocked the bot; its press of Yes says
    otherwise: "request sent" arrives, with Withdraw."""
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await app.services.db.players.set_bot_blocked(NEO, True)
    sent, _ = await request_gift(fake, ask)
    assert sent.text is not None and sent.text.startswith("Request #1 sent")
    assert [text for text, _ in sent.buttons()] == ["↩ Withdraw request #1 (Mug <3)"]


async def test_a_photo_telegram_no_longer_takes_leaves_the_card_a_text(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await fake.send_photo(ADMIN_ID, caption="/gift_photo 1")
    await fake.next_message(ADMIN_ID)
    fake.photos.clear()  # the file_id is refused from now on
    card = await open_card(fake, ask, NEO, "Mug")
    assert card.photo_id is None and card.text is not None
    assert card.text.startswith("🎁 <b>Mug &lt;3</b>\nPrice: 30 points. Left: 2.")
    assert [text for text, _ in card.buttons()] == ["Exchange for 30 points"]


async def test_a_cancel_frees_the_points(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    sent, notice = await request_gift(fake, ask, TRIN, exchange="Обменять", yes="Да")
    assert [text for text, _ in sent.buttons()] == ["↩ Отозвать заявку №1 (Mug <3)"]
    assert notice.text is not None and "Player: <b>Тринити</b>" in notice.text
    hand, cancel = notice.button_data("Handed over"), notice.button_data("Cancel")
    assert await popup(fake, ADMIN_ID, notice, data=cancel) == "Request #1 (“Mug <3”) is cancelled."
    assert (await fake.next_message(TRIN)).text == (
        "Заявка №1 на подарок «Mug &lt;3» отменена администратором. Снова доступно: 30 баллов.")
    assert (await fake.next_edit(ADMIN_ID)).said.endswith(
        "✖ Cancelled (Admin).")
    await fake.wait_for(lambda: sent.buttons() == [], what="Withdraw gone")
    assert await app.services.db.gift_requests.reserved(TRIN) == 0
    assert await app.services.db.ledger.balance(TRIN) == 50
    assert (await gift(app)).left == 2
    assert await popup(fake, ADMIN_ID, notice, data=cancel) == "Request #1 is already cancelled."
    assert await popup(fake, ADMIN_ID, notice, data=hand) == "Request #1 is already cancelled."
    assert await app.services.db.ledger.balance(TRIN) == 50


async def test_the_player_withdraws_a_request(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    sent, notice = await request_gift(fake, ask)
    hand = notice.button_data("Handed over")
    # another player's press of the same request's button
    other = await popup(fake, TRIN, sent, data=ShopCb(action="withdraw", id=1).pack())
    assert other == "Это не ваша заявка."
    assert await popup(fake, NEO, sent, button="Withdraw") == "Request #1 withdrawn"
    assert (await fake.next_message(NEO)).text == (
        "Request #1 (gift “Mug &lt;3”) withdrawn: 30 points free again.")
    assert (await fake.next_edit(ADMIN_ID)).said.endswith(
        "↩ Withdrawn by the player.")
    await fake.wait_for(lambda: sent.buttons() == [], what="Withdraw gone")
    assert await popup(fake, ADMIN_ID, sent, data=hand) == "Request #1 is already withdrawn."
    assert await app.services.db.gift_requests.reserved(NEO) == 0


@pytest.mark.parametrize("settings_overrides", [{"gift_request_days": 3}], indirect=True)
async def test_a_request_not_handed_over_in_time_expires(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    sent, _ = await request_gift(fake, ask)
    assert sent.text is not None and "within 3 days" in sent.text
    start = clock.now
    clock.now = start + timedelta(days=2, hours=23)
    assert await app.container.jobs.shop_requests() == 0
    assert await app.services.db.gift_requests.reserved(NEO) == 30
    clock.now = start + timedelta(days=3)
    assert await app.container.jobs.shop_requests() == 1
    assert (await fake.next_message(NEO)).text == (
        "Request #1 (gift “Mug &lt;3”) was not handed over within 3 days: it is closed, and"
        " 30 points are free again. Ask again with /gifts.")
    assert (await fake.next_edit(ADMIN_ID)).said.endswith(
        "⌛ Not handed over in time: closed.")
    await fake.wait_for(lambda: sent.buttons() == [], what="Withdraw gone")
    assert await app.services.db.gift_requests.reserved(NEO) == 0
    assert (await gift(app)).left == 2
    assert await app.container.jobs.shop_requests() == 0  # closed once, told once
    assert fake.unread(NEO) == []


@pytest.mark.parametrize("settings_overrides", [{}, {"backend": "postgresql"}],
                         indirect=True, ids=["sqlite", "postgresql"])
async def test_the_periodic_job_is_armed_beside_the_expiry(app: App) -> None:
    """On PostgreSQL by the process that takes the expiry role (one at a time)."""
    await wait_until(lambda: app.container.scheduler.get_job("shop") is not None, 10,
                     "the shop's job")
    job = app.container.scheduler.get_job("shop")
    assert job is not None and str(job.trigger) == "cron[minute='30']"
    assert app.container.scheduler.get_job("expiry") is not None


# ---------------------------------------------------------------------- the last item


@pytest.mark.parametrize("settings_overrides", [{}, {"backend": "postgresql"}],
                         indirect=True, ids=["sqlite", "postgresql"])
async def test_the_last_item_pressed_by_two_players_at_once_goes_to_one(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask, stock=1)
    neo = await confirm_markup(fake, NEO, await open_card(fake, ask, NEO, "Mug"))
    trin = await confirm_markup(fake, TRIN, await open_card(fake, ask, TRIN, "Mug"), "Обменять")
    # both confirmations pushed before the bot reads either: handled side by side
    queries = [await fake.press(NEO, neo, button="Yes"),
               await fake.press(TRIN, trin, button="Да")]
    answers = [str((await fake.callback_answer(q)).get("text")) for q in queries]
    won = [a for a in answers if a in ("Requested: Mug <3", "Заявка отправлена: Mug <3")]
    lost = [a for a in answers if a in (
        "Gift “Mug <3” is out of stock: someone took the last one.",
        "Подарок «Mug <3» закончился: последний уже забрали.")]
    assert len(won) == 1 and len(lost) == 1, answers
    requests = [*await requests_of(app, NEO), *await requests_of(app, TRIN)]
    assert [r.status for r in requests] == ["open"]
    assert ((await gift(app)).stock, (await gift(app)).left) == (1, 0)
    loser = TRIN if requests[0].tg_id == NEO else NEO
    assert await app.services.db.gift_requests.reserved(loser) == 0
    # and the catalogue says so to the one who did not get it
    catalogue = (await ask(loser, "/gifts")).said
    assert catalogue is not None
    assert "left: 0 (out of stock)" in catalogue or "осталось: 0 (закончился)" in catalogue


# ---------------------------------------------------------------------- burns


async def test_a_block_burns_an_open_request(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    sent, notice = await request_gift(fake, ask)
    hand = notice.button_data("Handed over")
    reply = await ask(ADMIN_ID, "/block Neo cheating")
    assert reply.text == "<b>Neo</b> is blocked; their points are burned."
    told = [(await fake.next_message(NEO)).text, (await fake.next_message(NEO)).text]
    assert "Request #1 (gift “Mug &lt;3”) is closed: your points burned, the reserved ones too." \
        in told
    assert any(t is not None and t.startswith("Your account is blocked") for t in told)
    edited = await fake.next_edit(ADMIN_ID)
    assert edited.text is not None and edited.text.endswith(
        "🔥 Closed: the player's points burned.")
    await fake.wait_for(lambda: sent.buttons() == [], what="Withdraw gone")
    assert await popup(fake, ADMIN_ID, notice, data=hand) == (
        "Request #1 is already closed: the player's points burned.")
    assert await app.services.db.ledger.balance(NEO) == 0
    assert await app.services.db.gift_requests.reserved(NEO) == 0
    assert (await gift(app)).left == 2
    assert [r.status for r in await requests_of(app, NEO)] == ["burned"]


async def test_the_two_months_expiry_burns_an_open_request(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask, TRIN, exchange="Обменять", yes="Да")
    clock.now = datetime(2026, 4, 30, 12, tzinfo=UTC)  # the day before: nothing burns
    await app.container.jobs.daily_expiry()
    assert [r.status for r in await requests_of(app, TRIN)] == ["open"]
    warning = (await fake.next_message(TRIN)).said
    assert warning is not None and warning.startswith("⏳")
    assert warning.endswith("Из них в резерве по открытым заявкам на подарки: 30 баллов. Если"
                            " подарки не выдадут до этого дня, заявки тоже закроются.")
    clock.now = datetime(2026, 5, 1, 12, tzinfo=UTC)
    report = await app.container.jobs.daily_expiry()
    assert TRIN in report.burned
    closed = ("Заявка №1 (подарок: «Mug &lt;3») закрыта: ваши баллы сгорели, и те, что были в"
              " резерве, тоже.")
    await fake.wait_for(lambda: any(m.text == closed for m in fake.messages(TRIN)))
    assert (await fake.next_edit(ADMIN_ID)).said.endswith(
        "🔥 Closed: the player's points burned.")
    assert await app.services.db.ledger.balance(TRIN) == 0
    assert [r.status for r in await requests_of(app, TRIN)] == ["burned"]
    assert (await gift(app)).left == 2


# ---------------------------------------------------------------------- refusals


async def test_a_blocked_account_is_refused(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    card = await open_card(fake, ask, NEO, "Mug")
    exchange = card.button_data("Exchange")
    confirming = await confirm_markup(fake, NEO, card)
    await ask(ADMIN_ID, "/block Neo")
    fake.unread(NEO)
    # both the Exchange of an earlier card and its confirmation
    assert await popup(fake, NEO, card, data=exchange) == (
        "Your account is blocked by the administration.")
    assert await popup(fake, NEO, confirming, button="Yes") == (
        "Your account is blocked by the administration.")
    assert await requests_of(app, NEO) == []
    assert (await gift(app)).left == 2
    assert fake.unread(ADMIN_ID) == []


@pytest.mark.parametrize("settings_overrides", [{"admin_ids": frozenset()}], indirect=True)
async def test_without_admins_the_exchange_is_closed(app: App, fake: FakeTelegram,
                                                     ask: Ask) -> None:
    await setup(app, fake, ask)
    # a gift kept from when the bot had admins
    await app.services.db.gifts.add("Mug", 30, 2, admin_id=ADMIN_ID,
                                    now=datetime(2026, 3, 2, tzinfo=UTC))
    closed = ("The exchange is closed for now: the bot has no admins to hand gifts over."
              " Your points stay yours.")
    catalogue = await ask(NEO, "/gifts")
    assert catalogue.text is not None and closed in catalogue.text
    assert "▫️ <b>Mug</b> — 30 points, left: 2 (exchange closed)" in catalogue.text
    card = await open_card(fake, ask, NEO, "Mug")
    assert closed in card.body and card.buttons() == []
    # the buttons of a card opened before: refused, nothing reserved
    price = ShopCb(action="ask", id=1, price=30).pack()
    assert await popup(fake, NEO, card, data=price) == closed
    yes = ShopCb(action="confirm", id=1, price=30).pack()
    assert await popup(fake, NEO, card, data=yes) == closed
    assert await requests_of(app, NEO) == []
    assert (await gift(app)).left == 2
    catalogue = await ask(TRIN, "/gifts")
    assert catalogue.text is not None and "Обмен пока закрыт: у бота нет администраторов" \
        in catalogue.text and "(обмен закрыт)" in catalogue.text


async def test_what_the_player_is_refused(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask, points=40)
    await add_gift(fake, ask, price=30, stock=5)
    await add_gift(fake, ask, price=100, stock=5, name="Hoodie")
    await add_gift(fake, ask, price=5, stock=0, name="Pin")
    catalogue = await ask(NEO, "/gifts")
    assert catalogue.text is not None
    assert "▫️ <b>Hoodie</b> — 100 points, left: 5 (you need 60 points more)" in catalogue.text
    assert "▫️ <b>Pin</b> — 5 points, left: 0 (out of stock)" in catalogue.text
    await fake.press(NEO, catalogue, button="Hoodie")
    hoodie = await fake.next_message(NEO)
    assert hoodie.buttons() == [] and hoodie.text is not None
    assert hoodie.text.endswith("you need 60 points more")
    # a forged Exchange for it: refused all the same
    assert await popup(fake, NEO, hoodie, data=ShopCb(action="confirm", id=2, price=100,
                                                              club=CLUB_ID).pack()) \
        == "Not enough points: “Hoodie” costs 100 points, you have 40 points available."
    # the first request reserves 30 of 40: the second is refused
    card = await open_card(fake, ask, NEO, "Mug")
    await request_gift(fake, ask)
    assert await popup(fake, NEO, card, button="Exchange") == (
        "Not enough points: “Mug <3” costs 30 points, you have 10 points available.")
    # the price changes under an open card
    card = await open_card(fake, ask, TRIN, "Mug")
    await ask(ADMIN_ID, "/gift_edit 1 price 35")
    assert await popup(fake, TRIN, card, button="Обменять") == (
        "Цена подарка «Mug <3» теперь 35 баллов: откройте /gifts заново.")
    # retired under an open card; an unknown gift; a malformed button
    await ask(ADMIN_ID, "/gift_retire 1")
    assert await popup(fake, TRIN, card, button="Обменять") == (
        "Подарок «Mug <3» снят с продажи.")
    assert await popup(fake, TRIN, card, data=ShopCb(action="card", id=99).pack()) == (
        "Такого подарка нет.")
    assert await popup(fake, TRIN, card, data="shop:bogus:1:0") != ""
    assert [r.status for r in await requests_of(app, NEO)] == ["open"]
    assert await requests_of(app, TRIN) == []
    # a retired gift is off the players' catalogue; its open request stays open
    catalogue = await ask(TRIN, "/gifts")
    assert catalogue.text is not None and "Mug" not in catalogue.text.split("Ваши")[0]


async def test_a_non_admin_pressing_an_admins_button(app: App, fake: FakeTelegram,
                                                     ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    sent, notice = await request_gift(fake, ask)
    hand = notice.button_data("Handed over")
    assert await popup(fake, NEO, sent, data=hand) == (
        "Only the admins of the club where the gift is collected, and the network's admins,"
        " can hand it over or cancel the request.")
    assert await popup(fake, TRIN, sent, data=notice.button_data("Cancel")) == (
        "Выдать подарок или отменить заявку на него могут только администраторы клуба, где его"
        " забирают, и администраторы сети.")
    assert [r.status for r in await requests_of(app, NEO)] == ["open"]
    assert await app.services.db.ledger.balance(NEO) == 50


@pytest.mark.parametrize(("command", "expected"), [
    ("/gift_add", "Usage: <code>/gift_add PRICE STOCK NAME</code>"),
    ("/gift_add 30 Mug", "Usage: <code>/gift_add PRICE STOCK NAME</code>"),
    ("/gift_add x 2 Mug", "Usage: <code>/gift_add PRICE STOCK NAME</code>"),
    ("/gift_add 0 2 Mug", "A price: a whole number of points from 1 to 1000000."),
    ("/gift_add 30 2 " + "x" * 65, "A gift's name: at most 64 characters."),
    ("/gift_add 30 2 mug  <3", "Gift #1 is already called “Mug &lt;3”"),
    ("/gift_edit 1 colour red", "Usage: <code>/gift_edit ID price|stock|name VALUE</code>"),
    ("/gift_edit 1 price", "Usage: <code>/gift_edit ID price|stock|name VALUE</code>"),
    ("/gift_edit 9 price 3", "There is no such gift."),
    ("/gift_edit 1 stock -1", "A stock: a whole number from 0 to 100000."),
    ("/gift_edit 1 stock 0", "Open requests hold “Mug &lt;3” (reserved: 1)"),
    ("/gift_photo 1", "Usage: send a photo with the caption <code>/gift_photo ID</code>"),
    ("/gift_photo one", "Usage: send a photo"),
    ("/gift_retire", "Usage: <code>/gift_retire ID</code>"),
    ("/gift_restore x", "Usage: <code>/gift_restore ID</code>"),
])
async def test_malformed_catalogue_commands(app: App, fake: FakeTelegram, ask: Ask,
                                            command: str, expected: str) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask)
    before = await gift(app)
    reply = await ask(ADMIN_ID, command)
    assert reply.text is not None and reply.text.startswith(expected), reply.text
    assert await gift(app) == before
    assert await app.services.db.gifts.get(2) is None


@pytest.mark.parametrize("command", ["/shop", "/gift_add 30 1 Mug", "/gift_edit 1 price 3",
                                     "/gift_retire 1", "/gift_requests"])
async def test_catalogue_commands_are_for_admins(app: App, fake: FakeTelegram, ask: Ask,
                                                 command: str) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    assert (await ask(NEO, command)).text == "This command is for admins only."
    assert (await ask(TRIN, command)).text == "Эта команда только для администраторов."
    assert [g.price for g in await app.services.db.gifts.catalogue()] == [30]


# ---------------------------------------------------------------------- the admins' dialog


async def test_the_catalogue_dialog(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    page = await ask(ADMIN_ID, "/shop")
    assert page.text is not None and page.text.startswith("<b>🛍 Gift catalogue</b>: 0 gifts")
    await fake.press(ADMIN_ID, page, button="New gift")
    assert (await fake.next_message(ADMIN_ID)).text == "Send the new gift's name."
    assert (await ask(ADMIN_ID, "Cap <b>")).text == (
        "Gift “Cap &lt;b&gt;”: send its price in points.")
    assert (await ask(ADMIN_ID, "twenty")).text == (
        "A price: a whole number of points from 1 to 1000000.")
    assert (await ask(ADMIN_ID, "20")).text == (
        "Gift “Cap &lt;b&gt;”: send how many are on the shelf.")
    made = await ask(ADMIN_ID, "3")
    assert made.text is not None and made.text.startswith("Gift “Cap &lt;b&gt;” is on sale.")
    assert made.text.endswith("send a photo of it, or press “No photo”.")
    assert (await ask(ADMIN_ID, "a text, not a photo")).text == (
        "Send a photo (or press “Cancel”).")
    await fake.send_photo(ADMIN_ID)
    done = await fake.next_message(ADMIN_ID)
    assert done.text is not None and "Photo: yes." in done.text
    cap = await gift(app)
    assert (cap.name, cap.price, cap.stock, cap.active) == ("Cap <b>", 20, 3, True)
    assert cap.photo is not None

    await fake.press(ADMIN_ID, done, button="Price")
    assert (await fake.next_message(ADMIN_ID)).text == (
        "Send the new price of “Cap &lt;b&gt;” in points (now 20). Open requests keep the price"
        " they reserved.")
    assert (await ask(ADMIN_ID, "25")).said.startswith(
        "Gift “Cap &lt;b&gt;” changed.")
    assert (await gift(app)).price == 25
    # asked, then called off: the next text is no value any more
    await fake.press(ADMIN_ID, done, button="Stock")
    prompt = await fake.next_message(ADMIN_ID)
    assert await popup(fake, ADMIN_ID, prompt, button="Cancel") == "Nothing more asked."
    assert (await fake.next_edit(ADMIN_ID)).buttons() == []  # the question's Cancel gone
    assert (await ask(ADMIN_ID, "7")).text != "Gift “Cap &lt;b&gt;” changed."
    assert (await gift(app)).stock == 3
    # off sale, and back, from the gift's page
    assert await popup(fake, ADMIN_ID, done, button="Take off sale") == (
        "Gift “Cap <b>” is off sale (its open requests stay open).")
    assert "· off sale" in (await fake.next_edit(ADMIN_ID)).body
    assert not (await gift(app)).active
    assert "Cap" not in ((await ask(NEO, "/gifts")).text or "")
    assert (await ask(ADMIN_ID, "/gift_restore 1")).said.startswith(
        "Gift “Cap &lt;b&gt;” is back on sale.")
    assert (await gift(app)).active
    actions = [a.action for a in await app.services.db.admin_log.recent(20)]
    assert actions.count("gift_edit") >= 4 and "gift_add" in actions


async def test_a_new_gifts_photo_skipped_and_a_photo_by_reply(app: App, fake: FakeTelegram,
                                                              ask: Ask) -> None:
    await setup(app, fake, ask)
    page = await ask(ADMIN_ID, "/shop")
    await fake.press(ADMIN_ID, page, button="New gift")
    await fake.next_message(ADMIN_ID)
    for value in ("Pen", "5"):
        await ask(ADMIN_ID, value)
    asked = await ask(ADMIN_ID, "10")
    skip = asked.button_data("No photo")
    assert await popup(fake, ADMIN_ID, asked, data=skip) == "Nothing more asked."
    assert "Photo: none." in (await fake.next_message(ADMIN_ID)).body
    await fake.wait_for(lambda: asked.buttons() == [], what="the question's button gone")
    # the old question's "No photo" pressed again while the dialog asks something else: stale
    pen_page = fake.messages(ADMIN_ID)[-1]
    await fake.press(ADMIN_ID, pen_page, button="Price")
    assert "Send the new price of “Pen”" in (await fake.next_message(ADMIN_ID)).body
    assert await popup(fake, ADMIN_ID, asked, data=skip) == (
        "This button is out of date: open /gifts (or /shop) again.")
    assert "changed" in ((await ask(ADMIN_ID, "7")).text or "")  # the price question stood
    assert (await gift(app)).price == 7
    photo = await fake.send_photo(ADMIN_ID)  # asked by nobody: how to use it
    assert (await fake.next_message(ADMIN_ID)).text == (
        "To make this photo a gift's, reply to it with <code>/gift_photo ID</code> (the ID is in"
        " /shop).")
    await fake.reply(ADMIN_ID, "/gift_photo 1", photo)
    assert "Photo: yes." in (await fake.next_message(ADMIN_ID)).body
    assert (await ask(ADMIN_ID, "/gift_photo 1 off")).body.count("Photo: none.") == 1
    assert (await gift(app)).photo is None


async def test_the_open_requests_list_hands_over_too(app: App, fake: FakeTelegram,
                                                     ask: Ask) -> None:
    await setup(app, fake, ask)
    assert (await ask(ADMIN_ID, "/gift_requests")).text == "No open gift requests."
    await add_gift(fake, ask)
    await request_gift(fake, ask)
    head = await ask(ADMIN_ID, "/gift_requests")
    assert head.text == "<b>Open gift requests: 1</b>\n" + (
        "#1 <b>Neo</b> — “Mug &lt;3”, 30 points, asked on 2026-03-10")
    line = await fake.next_message(ADMIN_ID)
    assert await popup(fake, ADMIN_ID, line, button="Handed over") == (
        "Request #1 (“Mug <3”): handed over. The player's balance: 20.")
    assert [r.status for r in await requests_of(app, NEO)] == ["handed_over"]


# ---------------------------------------------------------------------- /redeem, /export, /help


async def test_redeem_leaves_the_reserved_points(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask)
    assert (await ask(ADMIN_ID, "/redeem Neo 25 pen")).text == (
        "<b>Neo</b> has 50 points, 30 points of them reserved by open gift requests: at most 20"
        " can be taken now, not 25. Cancel a request first (/gift_requests).")
    assert (await ask(ADMIN_ID, "/adjust Neo -21 typo")).said.startswith(
        "<b>Neo</b> has 50 points, 30 points of them reserved")
    reply = await ask(ADMIN_ID, "/redeem Neo 20 pen")
    assert reply.text == "Redeemed 20 points from <b>Neo</b> (pen). Balance: 30."
    assert await app.services.db.ledger.balance(NEO) == 30


async def test_export_includes_the_requests(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    await add_gift(fake, ask)
    await request_gift(fake, ask)
    balances = await ask(ADMIN_ID, "/export")
    assert balances.document_name == "balances-2026-03-10.csv"
    requests = await fake.next_message(ADMIN_ID)
    assert requests.document_name == "gift-requests-2026-03-10.csv"
    assert requests.caption == "Gift requests on 2026-03-10"
    assert requests.document_bytes is not None
    rows = list(csv.reader(io.StringIO(requests.document_bytes.decode())))
    assert rows == [
        ["request", "asked_at", "nickname", "telegram_id", "gift_id", "gift", "points",
         "status", "closed_at", "closed_by", "ledger_row"],
        ["1", "2026-03-10T12:00:00+00:00", "Neo", str(NEO), "1", "Mug <3", "30", "open", "",
         "", ""]]
    book = await ask(ADMIN_ID, "/export xlsx")
    assert book.document_bytes is not None
    sheets = openpyxl.load_workbook(io.BytesIO(book.document_bytes), read_only=True)
    assert sheets.sheetnames == ["balances", "gift requests"]
    cells = [list(r) for r in sheets["gift requests"].iter_rows(values_only=True)]
    assert cells[1][:8] == [1, "2026-03-10T12:00:00+00:00", "Neo", NEO, 1, "Mug <3", 30, "open"]
    await asyncio.sleep(0)
    assert fake.unread(ADMIN_ID) == []  # the workbook holds them: no second file


async def test_help_and_menus_name_the_shop(app: App, fake: FakeTelegram, ask: Ask) -> None:
    await setup(app, fake, ask)
    player_help = (await ask(NEO, "/help")).text or ""
    assert "/gifts — the gift shop" in player_help and "/gift_add" not in player_help
    admin_help = (await ask(ADMIN_ID, "/help")).text or ""
    for command in ("/shop", "/gift_requests", "/gift_add PRICE STOCK NAME",
                    "/gift_edit ID price|stock|name VALUE", "/gift_photo ID", "/gift_retire ID",
                    "/gift_restore ID"):
        assert command in admin_help
    assert "/gifts — магазин подарков" in ((await ask(TRIN, "/help")).text or "")


FAR, CLUB_ADMIN, FAR_ADMIN, MORPH = -1002, 73, 74, 75


async def two_clubs(app: App, fake: FakeTelegram, ask: Ask) -> None:
    """NEO's points come from "Club"; "Far" is approved too; each club has its admin."""
    await setup(app, fake, ask)
    db, now = app.services.db, app.services.accounts.clock()
    await db.clubs.ensure(FAR, title="Far <club>", locale="en")
    await db.clubs.set_status(FAR, "approved", by=ADMIN_ID, now=now, expect=("pending",))
    await db.clubs.ensure(-1003, title="Pending", locale="en")  # not approved: never offered
    for uid, club in ((CLUB_ADMIN, CLUB_ID), (FAR_ADMIN, FAR)):
        fake.user(uid, f"Admin{uid}", language_code="en")
        await ask(uid, "/start")
        await db.staff.grant_club_admin(club, uid, by=ADMIN_ID, now=now)


async def test_a_request_goes_to_the_admins_of_the_club_where_it_is_collected(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await two_clubs(app, fake, ask)
    await add_gift(fake, ask)
    card = await open_card(fake, ask, NEO, "Mug")
    confirming = await confirm_markup(fake, NEO, card)
    assert "📍 At: Club (change)" in [t for t, _ in confirming.buttons()]
    # the club's button: the approved clubs, the player's own first; "Far" chosen
    await fake.press(NEO, confirming, button="At: Club")
    choice = await fake.next_edit(NEO)
    assert [t for t, _ in choice.buttons()] == ["📍 Club", "📍 Far <club>", "✖ No"]
    await fake.press(NEO, choice, button="Far")
    confirming = await fake.next_edit(NEO)
    assert "📍 At: Far <club> (change)" in [t for t, _ in confirming.buttons()]
    await fake.callback_answer(await fake.press(NEO, confirming, button="Yes"))
    sent = await fake.next_message(NEO)
    assert sent.text is not None and "📍 Collect it at: Far &lt;club&gt;." in sent.text
    (request,) = await requests_of(app, NEO)
    assert request.club_chat_id == FAR
    # the notice: the network's admins and Far's, never the other club's admin
    notice = await fake.next_message(FAR_ADMIN)
    assert notice.text is not None and "Collect it at: Far &lt;club&gt;" in notice.text
    assert (await fake.next_message(ADMIN_ID)).text == notice.text
    assert not [m for m in fake.messages(CLUB_ADMIN) if "Gift request" in (m.text or "")]
    # the other club's admin may not hand it over; Far's admin may
    refused = await popup(fake, CLUB_ADMIN, notice, data=notice.button_data("Handed over"))
    assert refused.startswith("Only the admins of the club where the gift is collected")
    assert [r.status for r in await requests_of(app, NEO)] == ["open"]
    assert await app.services.db.ledger.balance(NEO) == 50
    handed = await popup(fake, FAR_ADMIN, notice, data=notice.button_data("Handed over"))
    assert "Mug" in handed and "20" in handed
    assert [r.status for r in await requests_of(app, NEO)] == ["handed_over"]
    assert await app.services.db.ledger.balance(NEO) == 20


async def test_a_player_without_a_counted_game_chooses_the_club_first(
        app: App, fake: FakeTelegram, ask: Ask) -> None:
    await two_clubs(app, fake, ask)
    fake.user(MORPH, "Морфеус", language_code="ru")  # moved in: points, no game played yet
    await ask(MORPH, "/start")
    await ask(MORPH, "/nick Морфеус")
    await app.services.db.ledger.adjust(MORPH, 40, reason="moved in", admin_id=ADMIN_ID,
                                        now=app.services.accounts.clock())
    await add_gift(fake, ask)
    card = await open_card(fake, ask, MORPH, "Mug")
    choice = await confirm_markup(fake, MORPH, card, exchange="Обменять")
    assert [t for t, _ in choice.buttons()] == ["📍 Club", "📍 Far <club>", "✖ Нет"]
    # a forged confirmation at a club the network has not approved: refused, nothing asked
    forged = ShopCb(action="confirm", id=1, price=30, club=-1003).pack()
    assert await popup(fake, MORPH, choice, data=forged) == (
        "Этот клуб не выдаёт подарки: выберите другой (откройте /gifts заново).")
    assert await requests_of(app, MORPH) == []
    # "Far" chosen: the confirmation names it, and Yes asks for the gift there
    await fake.press(MORPH, choice, button="Far")
    confirming = await fake.next_edit(MORPH)
    await fake.callback_answer(await fake.press(MORPH, confirming, button="Да"))
    assert [r.club_chat_id for r in await requests_of(app, MORPH)] == [FAR]

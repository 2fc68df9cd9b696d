"""Voids and appeals over the fake Bot API, the whole application polling it (SQLite and
PostgreSQL): ``/void`` by a network admin and by the club's admin within its days, every seated
player told; a second void, a stranger, another club's admin and a club admin too late refused
with nothing changed; ``/appeal`` by a seated player reaching the club's and the network's
admins with Void / Keep, each press of anyone else, a stale or a forged button refused."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from bot.app import App
from bot.services.voids import VoidCb
from storage import Database, GamePoints
from tests.bot.conftest import ADMIN_ID, Ask, FixedClock
from tests.bot.helpers import clubs_held
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.present import present

CLUB, OTHER_CLUB = -1001, -1002
NEO, TRIN, STRANGER, CLUB_ADMIN, OTHER_ADMIN = 70, 71, 72, 73, 74
BACKENDS = pytest.mark.parametrize("settings_overrides", [{}, {"backend": "postgresql"}],
                                   indirect=True, ids=["sqlite", "postgresql"])


@pytest.fixture
async def settings_overrides(request: pytest.FixtureRequest) -> dict[str, Any]:
    """``{"backend": "postgresql"}`` (indirect) runs the app on a fresh PostgreSQL database."""
    wanted = dict(getattr(request, "param", {}))
    if wanted.pop("backend", "sqlite") == "postgresql":
        wanted["database_url"] = await request.getfixturevalue("pg").new_database()
    return wanted


async def setup(app: App, fake: FakeTelegram, ask: Ask) -> None:
    """Two approved clubs, each with its admin; two players and a stranger, all registered."""
    db = app.services.db
    for uid, name in ((ADMIN_ID, "Admin"), (NEO, "Neo"), (TRIN, "Трин"), (STRANGER, "Eve"),
                      (CLUB_ADMIN, "Clubadmin"), (OTHER_ADMIN, "Otheradmin")):
        fake.user(uid, name, language_code="ru" if uid == TRIN else "en")
        await ask(uid, "/start")
        if uid != ADMIN_ID:
            await ask(uid, f"/nick {name}")
    now = app.services.accounts.clock()
    for club, admin in ((CLUB, CLUB_ADMIN), (OTHER_CLUB, OTHER_ADMIN)):
        await db.clubs.ensure(club, title=f"Club {club}", locale="en")
        await db.clubs.set_status(club, "approved", by=ADMIN_ID, now=now,
                                  expect=("pending",))
        await db.staff.grant_club_admin(club, admin, by=ADMIN_ID, now=now)
    await clubs_held(app, CLUB, OTHER_CLUB)


async def played(db: Database, ended: datetime, points: dict[int, int],
                 club: int = CLUB) -> int:
    """A finished game of NEO and TRIN that ended at ``ended`` with ``points``."""
    game_id = await db.games.create(club, CLUB_ADMIN, seats=[(1, NEO), (2, TRIN)],
                                    created_at=ended - timedelta(hours=1))
    await db.games.set_status(game_id, "running")
    await db.games.append_event(game_id, "game_over", {}, at=ended)
    await db.games.finish(game_id, status="finished", day=ended.date(), points=[
        GamePoints(tg_id, pts, "win_civilian") for tg_id, pts in points.items()])
    return game_id


def texts(fake: FakeTelegram, chat: int) -> list[str]:
    return [m.text or "" for m in fake.messages(chat)]


async def popup(fake: FakeTelegram, uid: int, message: SentMessage, data: str) -> str:
    query = await fake.press(uid, message, data)
    return str((await fake.callback_answer(query)).get("text", ""))


async def untouched(app: App, game_id: int, balances: dict[int, int]) -> None:
    """Nothing of the game changed: not voided, the balances as they were, no void logged."""
    db = app.services.db
    assert not (await db.games.get(game_id)).voided
    assert {p: await db.ledger.balance(p) for p in balances} == balances
    assert not [a for a in await db.admin_log.recent(50) if a.action == "void"]


@BACKENDS
async def test_a_network_admin_voids_a_game_once_and_every_player_hears(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    db = app.services.db
    earlier = await played(db, clock.now - timedelta(days=20), {NEO: 3})
    game_id = await played(db, clock.now - timedelta(days=9), {NEO: 10, TRIN: 4})
    reply = await ask(ADMIN_ID, f"/void {game_id} one person played <two> seats")
    assert reply.text is not None
    assert f"Game #{game_id} is voided: one person played &lt;two&gt; seats." in reply.text
    assert "Points taken back: 14." in reply.text and "Players told: 2." in reply.text
    assert (await db.ledger.balance(NEO), await db.ledger.balance(TRIN)) == (3, 0)
    neo = await fake.next_message(NEO)
    assert neo.text is not None and f"Game #{game_id} (Club -1001) was voided" in neo.text
    assert "by Admin" in neo.text and "taken back: -10" in neo.text
    trin = await fake.next_message(TRIN)
    assert trin.text is not None and f"Игра №{game_id}" in trin.text and "-4" in trin.text
    player = await db.players.get(NEO)
    assert player is not None and player.games_played == 1
    assert player.last_game_date == (clock.now - timedelta(days=20)).date()
    assert (await db.games.get(earlier)).voided_at is None
    # a second void: told who voided it and why, nothing written again
    again = await ask(ADMIN_ID, f"/void #{game_id} again")
    assert again.text == (f"Game #{game_id} is voided already: one person played &lt;two&gt; "
                          "seats (by Admin).")
    assert (await db.ledger.balance(NEO), await db.ledger.balance(TRIN)) == (3, 0)
    assert len([a for a in await db.admin_log.recent(50) if a.action == "void"]) == 1
    assert (await ask(ADMIN_ID, "/void")).text is not None  # the usage
    assert "Usage" in (await ask(ADMIN_ID, f"/void {game_id}")).said
    assert (await ask(ADMIN_ID, "/void 999 x")).text == "There is no game #999."


@BACKENDS
async def test_a_stranger_another_clubs_admin_and_a_late_club_admin_change_nothing(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    db = app.services.db
    old = await played(db, clock.now - timedelta(days=8), {NEO: 5})
    fresh = await played(db, clock.now - timedelta(days=6), {TRIN: 7})
    balances = {NEO: 5, TRIN: 7}
    for uid in (STRANGER, NEO, OTHER_ADMIN):
        reply = await ask(uid, f"/void {fresh} I do not like it")
        assert reply.text is not None and "voided" not in reply.text.split(":")[0]
        await untouched(app, fresh, balances)
    late = await ask(CLUB_ADMIN, f"/void {old} found out late")
    assert late.text == (f"Game #{old} ended more than 7 days ago: only a network admin can "
                         "void it now.")
    await untouched(app, old, balances)
    assert not fake.messages(NEO) or all("voided" not in t for t in texts(fake, NEO))
    # the club's own admin within the days: voided
    done = await ask(CLUB_ADMIN, f"/void {fresh} the host played a seat")
    assert done.text is not None and f"Game #{fresh} is voided" in done.text
    assert await db.ledger.balance(TRIN) == 0
    log = [a for a in await db.admin_log.recent(50) if a.action == "void"]
    assert [a.admin_id for a in log] == [CLUB_ADMIN]


@BACKENDS
async def test_an_appeal_reaches_the_clubs_and_the_networks_admins_and_is_decided_once(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    db = app.services.db
    game_id = await played(db, clock.now - timedelta(hours=47), {NEO: 6, TRIN: 2})
    sent = await ask(TRIN, f"/appeal {game_id} the host <peeked>")
    assert sent.text is not None and f"№{game_id}" in sent.text
    notices = {uid: await fake.next_message(uid) for uid in (ADMIN_ID, CLUB_ADMIN)}
    for notice in notices.values():
        assert notice.text is not None and "the host &lt;peeked&gt;" in notice.text
        assert "Трин" in notice.text or "Трин" in notice.body
    assert not [t for t in texts(fake, OTHER_ADMIN) if "Appeal" in t]
    notice = notices[CLUB_ADMIN]
    keep, void = notice.button_data("Keep"), notice.button_data("Void")
    # anyone else's press, a forged appeal: refused, nothing changed
    for uid in (STRANGER, OTHER_ADMIN, NEO):
        assert await popup(fake, uid, notice, keep) != ""
        assert await popup(fake, uid, notice, void) != ""
    forged = VoidCb(action="void", appeal=9999).pack()
    assert await popup(fake, ADMIN_ID, notice, forged) == "There is no such appeal."
    assert present(await db.voids.appeal_of(game_id, TRIN)).open
    await untouched(app, game_id, {NEO: 6, TRIN: 2})
    # Keep by the club's admin: the player told, the notices lose their buttons
    answer = await popup(fake, CLUB_ADMIN, notice, keep)
    assert answer == f"Appeal #1 closed: the result of game #{game_id} stands."
    told = await fake.next_message(TRIN)
    assert told.text is not None and "результат остаётся в силе" in told.text
    edited = await fake.next_edit(CLUB_ADMIN)
    assert edited.text is not None and "The result stands (decided by Clubadmin)" in edited.text
    assert edited.buttons() == []
    # a stale press of either button: decided already
    assert await popup(fake, ADMIN_ID, notice, void) == (
        f"Appeal #1 is decided already: the result of game #{game_id} stands (decided by "
        "Clubadmin).")
    await untouched(app, game_id, {NEO: 6, TRIN: 2})
    # NEO's appeal, voided by the network's admin from its button
    await ask(NEO, f"/appeal {game_id} the votes were miscounted")
    second = await fake.next_message(ADMIN_ID)
    stale = second.button_data("Keep")
    answer = await popup(fake, ADMIN_ID, second, second.button_data("Void"))
    assert answer == f"Game #{game_id} is voided; players told: 2."
    assert (await db.ledger.balance(NEO), await db.ledger.balance(TRIN)) == (0, 0)
    assert (await db.games.get(game_id)).void_reason == "appeal #2: the votes were miscounted"
    assert present(await db.voids.appeal_of(game_id, NEO)).status == "voided"
    assert await popup(fake, CLUB_ADMIN, second, stale) == (
        f"Appeal #2 is decided already: game #{game_id} is voided (by Admin).")


async def test_an_appeal_late_or_by_someone_not_seated_is_refused(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    db = app.services.db
    late = await played(db, clock.now - timedelta(hours=49), {NEO: 6})
    fresh = await played(db, clock.now - timedelta(hours=1), {NEO: 6})
    assert (await ask(NEO, f"/appeal {late} unfair")).text == (
        f"Game #{late} ended more than 48 hours ago: it is too late to appeal.")
    assert (await ask(STRANGER, f"/appeal {fresh} unfair")).text == (
        f"You did not play in game #{fresh}: only its players can appeal.")
    assert "Usage" in ((await ask(NEO, "/appeal")).text or "")
    assert int((await db.query("SELECT count(*) FROM appeals"))[0][0]) == 0
    assert not [t for t in texts(fake, ADMIN_ID) if "Appeal" in t]


async def test_a_friendly_game_is_neither_voided_nor_appealed(
        app: App, fake: FakeTelegram, ask: Ask, clock: FixedClock) -> None:
    await setup(app, fake, ask)
    db = app.services.db
    await db.clubs.ensure(-1009, title="Pending", locale="en")
    await clubs_held(app, -1009)
    game_id = await db.games.create(-1009, STRANGER, seats=[(1, NEO), (2, TRIN)],
                                    created_at=clock.now - timedelta(hours=2), friendly=True)
    await db.games.set_status(game_id, "running")
    await db.games.append_event(game_id, "game_over", {}, at=clock.now - timedelta(hours=1))
    await db.games.finish(game_id, status="finished", day=clock.now.date(), points=[])
    assert (await ask(ADMIN_ID, f"/void {game_id} rogue")).text == (
        f"Game #{game_id} was a friendly game: it counted toward nothing, so there is nothing "
        "to take back.")
    assert (await ask(NEO, f"/appeal {game_id} rogue")).text == (
        f"Game #{game_id} was a friendly game: it counted toward nothing, so there is nothing "
        "to take back.")
    assert not (await db.games.get(game_id)).voided
    assert int((await db.query("SELECT count(*) FROM appeals"))[0][0]) == 0

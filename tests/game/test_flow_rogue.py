"""The rogue's story over the fake Bot API, the whole application polling it: a group the
network has never heard of (the bot added by its host) is a pending club and the network's
owner hears of it; its whole game is friendly (no ledger row, nothing counted); the owner
approves and names the club (``/club approve``, ``/club set``); its next game writes points;
the owner voids that game, and every balance, every game count and every last game date is as
before it, every player told; a second void changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.models import CLUB_APPROVED, CLUB_PENDING, Player
from tests.bot.conftest import ADMIN_ID
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, HOST, Flow, start_app, stop_app, wait_until

PLAYERS = list(range(3001, 3009))


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def register(fake: FakeTelegram) -> None:
    """New players, each with a nickname and no game yet (the newbies a rogue would seat)."""
    for uid in PLAYERS:
        fake.user(uid, f"U{uid}", language_code="en")
        await fake.send(uid, "/start")
        await fake.next_message(uid)
        await fake.send(uid, f"/nick Player{uid - 3000}")
        await fake.next_message(uid)


async def table(flow: Flow, after: int = 0) -> None:
    """The host's ``/newgame`` (a lobby after game ``after``); every player joins."""
    await flow.host("/newgame")

    def lobby() -> int | None:
        post = flow.latest_with(CLUB, "gl:")
        game = None if post is None else int(post.buttons()[0][1].split(":")[1])
        return game if game is not None and game > after else None
    await flow.fake.wait_for(lambda: lobby() is not None, 10, "the lobby")
    flow.game_id = lobby() or 0
    post = flow.latest_with(CLUB, "gl:")
    assert post is not None
    for uid in PLAYERS:
        await flow.press(uid, post, f"gl:{flow.game_id}:join")
    flow.players = list(PLAYERS)
    await wait_until(lambda: len(flow.table.seats) == len(PLAYERS), 10, "all seated")


async def ask(fake: FakeTelegram, text: str, expect: str) -> str:
    """The network's owner types ``text`` in private; its answer (the first new message there
    holding ``expect``: a notice may come in between)."""
    before = len(fake.messages(ADMIN_ID))
    await fake.send(ADMIN_ID, text)

    def answer() -> str | None:
        return next((m.body for m in fake.messages(ADMIN_ID)[before:] if expect in m.body),
                    None)
    await fake.wait_for(lambda: answer() is not None, 10, f"{expect!r} after {text}")
    found = answer()
    assert found is not None
    return found


async def accounts(flow: Flow) -> dict[int, tuple[int, object, int]]:
    """Each player's games played, last game date and balance."""
    db = flow.app.services.db
    found: dict[int, Player | None] = {uid: await db.players.get(uid) for uid in PLAYERS}
    return {uid: (p.games_played, p.last_game_date, await db.ledger.balance(uid))
            for uid, p in found.items() if p is not None}


async def test_a_new_groups_friendly_game_approval_a_game_with_points_and_its_void(
        fake: FakeTelegram, tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path, default_locale="en")
    try:
        db = app.services.db
        # a new group: its host adds the bot; a pending club, the network's owner told
        fake.user(ADMIN_ID, "Admin", language_code="en")
        fake.user(HOST, "Host", language_code="en")
        fake.group(CLUB, "Club")
        await fake.add_bot(CLUB, HOST, members=9)
        await fake.wait_for(lambda: any("🆕" in m.body for m in fake.messages(ADMIN_ID)),
                            10, "the network told of the new group")
        club = await db.clubs.get(CLUB)
        assert club is not None and club.status == CLUB_PENDING
        await register(fake)
        fresh = await accounts(Flow(fake, app, "en"))
        assert fresh == dict.fromkeys(PLAYERS, (0, None, 0))

        # its game: friendly; no ledger row of any kind, nothing counted
        friendly = Flow(fake, app, "en", approved=False)
        await table(friendly)
        await friendly.deal()
        await friendly.play_to_end()
        await friendly.delivered()
        game = await db.games.get(friendly.game_id)
        assert game.status == "finished" and game.friendly
        assert int((await db.query("SELECT count(*) FROM ledger"))[0][0]) == 0
        assert await accounts(friendly) == fresh

        # the network's owner approves the club and names it
        await ask(fake, "/start", "Admin")
        approved = await ask(fake, f"/club approve {CLUB}", "Approved.")
        assert f"/club set {CLUB} CITY; NAME; TIME ZONE; FIRST ADMIN" in approved
        await ask(fake, f"/club set {CLUB} Kazan; Rogue Square; Europe/Moscow", "Rogue Square")
        club = await db.clubs.get(CLUB)
        assert club is not None and club.status == CLUB_APPROVED
        assert (club.label, club.city, club.status_by) == ("Rogue Square", "Kazan", ADMIN_ID)

        # the same players' next game writes points and counts
        scored = Flow(fake, app, "en", approved=False)  # approved already, by the owner
        await table(scored, after=friendly.game_id)
        await scored.deal()
        dealt = scored.table
        await scored.play_to_end()
        await scored.delivered()
        game = await db.games.get(scored.game_id)
        assert game.status == "finished" and not game.friendly
        won = {uid: balance for uid, (_, _, balance) in (await accounts(scored)).items()}
        assert sum(won.values()) > 0
        assert sum(won.values()) == sum(e.points for e in dealt.game.ledger)
        assert {uid: games for uid, (games, _, _) in (await accounts(scored)).items()} == \
            dict.fromkeys(PLAYERS, 1)

        # the void: every balance, game count and last game date as before the game
        reply = await ask(fake, f"/void {scored.game_id} seats played by made-up accounts",
                          f"Game #{scored.game_id} is voided")
        assert "Players told: 8." in reply
        assert await accounts(scored) == fresh
        await scored.delivered()
        for uid in PLAYERS:
            assert any(f"Game #{scored.game_id} (Rogue Square) was voided" in m.body
                       for m in fake.messages(uid))
        # a second void changes nothing
        again = await ask(fake, f"/void {scored.game_id} again", "voided already")
        assert "seats played by made-up accounts (by Admin)" in again
        assert await accounts(scored) == fresh
    finally:
        await stop_app(app, task)

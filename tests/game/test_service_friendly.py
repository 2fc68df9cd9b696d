"""A friendly game: a lobby opened in a club the network has not approved plays like any
other, says plainly that no points are counted, writes no ledger row (points, fines), counts
no game, and seats offline names of its own, never the network's accounts."""

from __future__ import annotations

from pathlib import Path

from engine import FoulReason
from storage.db import Database
from storage.models import CLUB_APPROVED, CLUB_PENDING
from tests.game.harness import CHAT, HOST, Harness, approve_club
from tests.game.test_service_restart import restart
from tests.present import present


async def ledger_rows(db: Database) -> int:
    return int((await db.query("SELECT count(*) FROM ledger"))[0][0])


async def test_a_pending_clubs_game_counts_for_nothing(h: Harness) -> None:
    table = await h.lobby(10, approved=False)
    club = await h.db.clubs.get(CHAT)
    assert club is not None and club.status == CLUB_PENDING
    assert table.friendly and (await h.db.games.get(h.game_id)).friendly
    assert "friendly" in [e.kind for e in await h.db.games.events(h.game_id)]
    lobby = [s for s in h.club() if s.edit][-1].text
    assert "Товарищеская игра" in lobby and "баллы за эту игру не начисляются" in lobby
    before = {tg: await h.db.players.get(tg) for tg in (s.tg_id for s in table.seats.values())}
    rows_before = await ledger_rows(h.db)
    # the club's fine is set: a friendly game still fines nobody, and says so
    await h.db.clubs.set_fouls(CHAT, points=3)
    await h.db.ledger.adjust(table.seats[2].tg_id, 5, reason="start", admin_id=1,
                             now=h.clock())
    rows_before += 1
    await h.service.deal(CHAT, HOST)
    await h.service.foul(CHAT, HOST, 2, FoulReason.GESTURE)
    assert "Предупреждение" in h.private(table.seats[2].tg_id)[-1].text
    # the club is approved during the game: the game stays friendly
    await approve_club(h.db, CHAT)
    await h.play_to_end()
    assert h.over
    assert await ledger_rows(h.db) == rows_before
    assert await h.db.ledger.balance(table.seats[2].tg_id) == 5
    for tg, player in before.items():
        after = await h.db.players.get(tg)
        assert player is not None and after is not None
        assert (after.games_played, after.last_game_date) == (
            player.games_played, player.last_game_date)
    end = "\n".join(h.club_texts()[-4:])
    assert "Товарищеская игра" in end and "Баллы за игру" not in end
    game = await h.db.games.get(h.game_id)
    assert game.status == "finished" and game.friendly
    assert await h.db.stats.played_games(table.seats[1].tg_id) == []
    # the next lobby of the now approved club counts
    await h.service.open_lobby(CHAT, "Club", HOST, is_admin=True)
    club = await h.db.clubs.get(CHAT)
    assert club is not None and club.status == CLUB_APPROVED
    assert not present(h.service.registry.hosted_by(HOST, CHAT)).friendly


async def test_a_friendly_games_offline_seats_are_its_own_names(h: Harness) -> None:
    # an account without Telegram the network knows (a club seated it before)
    network = await h.db.players.create_offline("Ghost")
    await h.lobby(8, approved=False)
    answer = await h.service.add_offline(CHAT, HOST, "Ghost", "f")
    assert answer.key == "seats.add.guest"
    seat = answer.kwargs["seat"]
    guest = h.table.seats[seat]
    assert guest.tg_id != network.tg_id and guest.name == "Ghost"
    assert h.table.is_offline(seat)
    answer = await h.service.add_offline(CHAT, HOST, "Шмель", None)
    assert answer.key == "seats.add.guest"
    # no nickname of the network taken: a newcomer may still take it
    assert await h.db.players.by_nickname("Шмель") is None
    found = await h.db.players.by_nickname("Ghost")
    assert found is not None and found.tg_id == network.tg_id
    assert await h.refused(h.service.add_offline(CHAT, HOST, "шмель", None)) == \
        "seats.add.already"
    # /unseat finds a guest by its name
    assert (await h.service.unseat(CHAT, HOST, "Шмель")).key == "seats.unseat.ok"
    assert len(h.table.seats) == 9


async def test_a_friendly_game_stays_friendly_after_a_restart(h: Harness, db: Database,
                                                              tmp_path: Path) -> None:
    await h.dealt(10, approved=False)
    await approve_club(h.db, CHAT)
    h2 = await restart(h, db, tmp_path)
    assert h2.table.friendly
    rows_before = await ledger_rows(db)
    await h2.play_to_end()
    assert await ledger_rows(h2.db) == rows_before

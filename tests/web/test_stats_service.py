"""The stats service over a real finished game: the record, the deal check, a player's stats."""

from __future__ import annotations

from datetime import date

from engine import Winner
from tests.web.conftest import Played
from views.stats import StatsService


async def test_game_record_of_a_finished_game(played: Played) -> None:
    stats = StatsService(played.db)
    record = await stats.game_record(played.game_id)
    assert record is not None
    assert record.winner in (Winner.CIVILIANS, Winner.MAFIA, Winner.DRAW)
    assert record.club_title == "Club <Night>"
    kinds = [p.kind for p in record.phases]
    assert kinds[0] == "deal" and "night" in kinds
    # only public events
    assert all(e.audience.kind == "everyone" for p in record.phases for e in p.events)
    assert any(e.kind == "game_over" for e in record.phases[-1].events)
    # the points are the ledger's
    rows = await played.db.stats.game_points(played.game_id)
    assert sum(p.total for p in record.points) == sum(r.points for r in rows) > 0
    assert set(record.links.values()) == {f"Player{i}" for i in range(1, 11)}
    assert record.deal is not None and record.deal.ok
    # the hand check: sha256(seed bytes + body) is the commitment published before the game
    import hashlib
    assert hashlib.sha256(bytes.fromhex(record.deal.seed) + record.deal.body.encode()
                          ).hexdigest() == record.deal.computed == record.game.commitment


async def test_running_unknown_and_aborted_games_have_no_record(played: Played) -> None:
    stats = StatsService(played.db)
    assert await stats.game_record(played.running_id) is None
    assert await stats.picture_state(played.running_id) is None
    assert await stats.game_record(9999) is None
    await played.h.service.end_game(-1001, 500)  # abort the running game
    assert await stats.game_record(played.running_id) is None


async def test_a_tampered_commitment_fails_the_check(played: Played) -> None:
    async with played.db.transaction() as conn:
        await conn.execute("UPDATE games SET commitment = ? WHERE id = ?",
                           ("0" * 64, played.game_id))
    record = await StatsService(played.db).game_record(played.game_id)
    assert record is not None and record.deal is not None
    assert not record.deal.opens and not record.deal.ok
    assert record.deal.same_deal  # the seed still gives the cards played


async def test_a_tampered_seed_fails_the_check(played: Played) -> None:
    async with played.db.transaction() as conn:
        await conn.execute("DROP TRIGGER IF EXISTS game_events_append_only_u")
        await conn.execute(
            "UPDATE game_events SET payload = json_set(payload, '$.seed', ?)"
            " WHERE game_id = ? AND kind = 'deal'", ("ab" * 32, played.game_id))
    record = await StatsService(played.db).game_record(played.game_id)
    assert record is not None and record.deal is not None
    assert not record.deal.opens and not record.deal.ok


async def test_player_stats_count_games_teams_cards_and_survival(played: Played) -> None:
    stats = StatsService(played.db)
    record = await stats.game_record(played.game_id)
    assert record is not None
    me = await stats.player("player1")
    assert me is not None and me.nickname == "Player1"
    assert me.played == 1
    seat = record.game.seat_of(1001)
    assert seat is not None
    player = record.state.player(seat)
    assert me.cards == {str(player.role): 1}
    team = "mafia" if player.is_mafia else "civilians"
    won = (record.winner is Winner.MAFIA) == player.is_mafia
    assert me.by_team == {team: (1, 1 if won else 0)}
    assert me.survival_rate == (100 if player.alive else 0)
    earned = sum(p.total for p in record.points if p.seat == seat)
    assert (me.earned, me.spent, me.balance) == (earned, 0, earned)
    assert me.expires_on == date(2027, 1, 30)
    assert await stats.player("nobody-here") is None


async def test_tables_of_the_club_and_the_network(played: Played) -> None:
    stats = StatsService(played.db)
    today = date(2026, 11, 30)
    network = await stats.network_top(today)
    club = await played.db.clubs.get(-1001)
    assert club is not None
    local = await stats.club_top(club, today)
    assert [e.points for e in local.entries] == [e.points for e in network.entries]
    assert local.since == date(2026, 10, 1) and local.until == today
    assert await stats.home_club(1001) == club
    assert await stats.home_club(1) is None

"""The host's whistle in process: a foul and its fine (one step, checked against the balance),
its undoing, the refusals that change nothing, the Nth foul's offer, the log and a restart."""

from __future__ import annotations

from typing import Any

import pytest

from bot.game.callbacks import FoulOfferCb
from engine import FoulReason
from record.outcome import replay_outcome
from record.table import Stage
from storage.models import KIND_GAME, STATUS_RUNNING
from tests.game.conftest import make_harness
from tests.game.harness import CHAT, HOST, Harness

ADMIN = 77


async def give(h: Harness, seat: int, points: int) -> None:
    await h.db.ledger.adjust(h.tg(seat), points, reason="start", admin_id=ADMIN,
                             now=h.clock())


async def fines(h: Harness) -> list[tuple[int, int, str, str | None]]:
    return [(r.tg_id, r.points, r.reason, r.phase)
            for r in await h.db.stats.game_points(h.game_id)]


async def seat_for_host(h: Harness, nick: str) -> None:
    """The host seats a Telegram player by nickname (who says yes) and plays the seat."""
    answer = await h.service.add_offline(CHAT, HOST, nick, None)
    assert answer.key == "seats.ask.sent", answer
    player = await h.db.players.by_nickname(nick)
    assert player is not None
    assert (await h.service.consent(h.game_id, player.tg_id, True)).key == "seats.ask.seated"


def texts(h: Harness, chat: int) -> list[str]:
    return [s.text for s in h.private(chat)]


async def test_a_foul_fines_the_player_and_tells_it(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=2)
    await give(h, 3, 5)
    before = len(h.club())
    answer = await h.service.foul(CHAT, HOST, 3, FoulReason.AT_NIGHT, confirm=True)
    assert answer.key == "foul.done"
    assert await fines(h) == [(h.tg(3), -2, "foul_at_night", "night 1")]
    assert await h.db.ledger.balance(h.tg(3)) == 3
    told = texts(h, h.tg(3))[-1]
    assert "разговор ночью" in told and "Штраф: 2 балла." in told and "этой игре: 1" in told
    assert "Нарушение №1: №3 Player3" in texts(h, HOST)[-1]  # typed: the host hears it
    assert len(h.club()) == before  # the club's settings say nothing of fouls
    events = [e for e in await h.db.games.events(h.game_id) if e.kind == "foul"]
    assert [e.payload for e in events] == [{"seat": 3, "reason": "at_night", "points": 2}]
    assert h.table.game.fouls[0].points == 2


async def test_the_club_chat_hears_of_a_foul_when_its_settings_say_so(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, public=True)
    await h.service.foul(CHAT, HOST, 4, FoulReason.OTHER, "swore at <b>Boris</b>")
    line = h.club_texts()[-1]
    assert line.startswith("🟨 Нарушение: №4 Player4, другое нарушение: «swore at &lt;b&gt;Boris")
    assert "Предупреждение" in texts(h, h.tg(4))[-1]  # the club's fine is 0: a warning
    assert await fines(h) == []
    await h.service.undo_foul(CHAT, HOST, 1)
    assert h.club_texts()[-1] == "↩️ Нарушение отменено: №4 Player4."


@pytest.mark.parametrize(("balance", "taken"), [(1, 1), (0, 0)])
async def test_a_fine_never_takes_a_balance_below_zero(h: Harness, balance: int,
                                                        taken: int) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=3)
    if balance:
        await give(h, 2, balance)
    await h.service.foul(CHAT, HOST, 2, FoulReason.OUT_OF_TURN)
    assert await h.db.ledger.balance(h.tg(2)) == 0
    assert await fines(h) == ([(h.tg(2), -1, "foul_out_of_turn", "night 1")] if taken else [])
    assert h.table.game.fouls[0].points == taken
    told = texts(h, h.tg(2))[-1]
    assert "штраф клуба — 3 балла" in told.lower()
    assert (f"списан {taken} балл" in told) if taken else (
        "но баллов на балансе нет: ничего не списано" in told and "списано 0" not in told)


async def test_a_balance_changed_under_the_fine_is_read_again(h: Harness,
                                                             monkeypatch: Any) -> None:
    """The balance is read, then another write takes points before the step's transaction:
    the transaction refuses the fine, nothing is written, the step reads again and fines
    what is left (never a row the balance cannot pay, never a log that says otherwise)."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=2)
    await give(h, 5, 1)
    real = h.db.ledger.available
    reads: list[int] = []

    async def stale_then_real(tg_id: int) -> int:
        reads.append(tg_id)
        return 5 if len(reads) == 1 else await real(tg_id)
    monkeypatch.setattr(h.db.ledger, "available", stale_then_real)
    await h.service.foul(CHAT, HOST, 5)
    assert len(reads) == 2
    assert await fines(h) == [(h.tg(5), -1, "foul_other", "night 1")]
    assert [e.payload["points"] for e in await h.db.games.events(h.game_id)
            if e.kind == "foul"] == [1]
    assert len([t for t in texts(h, h.tg(5)) if "Нарушени" in t or "нарушени" in t]) == 1


async def test_undo_gives_the_fine_back_once(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=2)
    await give(h, 6, 4)
    await h.service.foul(CHAT, HOST, 6, FoulReason.GESTURE)
    await h.service.foul(CHAT, HOST, 7, FoulReason.GESTURE)
    answer = await h.service.undo_foul(CHAT, HOST, 1)
    assert answer.key == "foul.undone.done"
    assert await h.db.ledger.balance(h.tg(6)) == 4
    assert (h.tg(6), 2, "foul_undone", "night 1") in await fines(h)
    assert "записано по ошибке" in texts(h, h.tg(6))[-1] and "Возвращено: 2 балла" in \
        texts(h, h.tg(6))[-1]
    rows = await fines(h)
    assert await h.refused(h.service.undo_foul(CHAT, HOST, 1)) == "foul.undone_already"
    assert await h.refused(h.service.undo_foul(CHAT, HOST, 9)) == "foul.unknown"
    assert await fines(h) == rows  # nothing changed
    # without a number: the latest foul that stands (№7's, a warning: no row)
    await h.service.undo_foul(CHAT, HOST)
    assert await h.refused(h.service.undo_foul(CHAT, HOST)) == "foul.none"
    assert [f.undone for f in h.table.game.fouls] == [True, True]


async def test_refusals_change_nothing(h: Harness) -> None:
    await h.lobby(10)
    assert await h.refused(h.service.foul(CHAT, HOST, 1)) == "game.deal.first"
    await h.service.deal(CHAT, HOST)
    await h.db.clubs.set_fouls(CHAT, points=1)
    await give(h, 1, 3)
    seq = h.table.seq
    assert await h.refused(h.service.foul(CHAT, h.tg(2), 1)) == "game.not_host"
    assert await h.refused(h.service.foul(CHAT, HOST, 11)) == "club.bad_seat"
    assert await h.refused(h.service.foul(CHAT, HOST, 0)) == "club.bad_seat"
    assert await h.refused(h.service.undo_foul(CHAT, h.tg(2), 1)) == "game.not_host"
    # a button pressed twice: the second press finds its foul recorded
    await h.service.host_act(h.game_id, HOST, "foul", "1:gesture:1")
    assert await h.refused(h.service.host_act(h.game_id, HOST, "foul", "1:gesture:1")) == \
        "foul.already"
    assert await h.refused(h.service.host_act(h.game_id, HOST, "foul", "1:bogus:2")) == \
        "game.stale"
    assert len(h.table.game.fouls) == 1 and h.table.seq == seq + 1
    assert await h.db.ledger.balance(h.tg(1)) == 2
    # after the end: no game in the chat any more
    player = h.tg(1)
    await h.service.end_game(CHAT, HOST)
    assert await h.refused(h.service.foul(CHAT, HOST, 1)) == "game.none_in_chat"
    assert await h.refused(h.service.undo_foul(CHAT, HOST, 1)) == "game.none_in_chat"
    assert await h.refused(h.service.host_act(h.game_id, HOST, "foul", "1:gesture:2")) == \
        "game.not_found"
    assert await h.db.ledger.balance(player) == 3  # /endgame gives the fine back


async def test_the_nth_foul_offers_the_technical_death(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, limit=2)
    await h.service.foul(CHAT, HOST, 8)
    assert not any("предел клуба" in t for t in texts(h, HOST))
    await h.service.foul(CHAT, HOST, 8, FoulReason.OUT_OF_TURN)
    offer = h.private(HOST)[-1]
    assert "№8 Player8: нарушений в этой игре — 2, предел клуба — 2." in offer.text
    tech = FoulOfferCb(game=h.game_id, number=2, accept=True).pack()
    keep = FoulOfferCb(game=h.game_id, number=2, accept=False).pack()
    assert h.buttons(offer) == [tech, keep]
    # declined: the player plays on, the offer loses its buttons
    answer = await h.service.foul_offer(h.game_id, HOST, 2, False)
    assert answer.key == "foul.offer.kept" and h.table.game.player(8).alive
    assert h.private(HOST)[-1].edit and "Играет дальше" in h.private(HOST)[-1].text
    # the third foul offers again; accepted: the technical death, as /tech says it
    await h.service.foul(CHAT, HOST, 8)
    assert await h.refused(h.service.foul_offer(h.game_id, h.tg(1), 3, True)) == \
        "game.not_host"
    answer = await h.service.foul_offer(h.game_id, HOST, 3, True)
    assert answer.key == "game.tech.ok"
    assert not h.table.game.player(8).alive and h.table.game.player(8).technical
    assert "технический труп" in h.club_texts()[-1]
    # pressed again: what was decided, nothing changes
    assert await h.refused(h.service.foul_offer(h.game_id, HOST, 3, True)) == \
        "foul.offer.taken"


async def test_no_offer_when_the_club_says_nothing_follows(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, limit=0)
    for _ in range(5):
        await h.service.foul(CHAT, HOST, 2)
    assert not any(h.buttons(s) for s in h.private(HOST) if "Нарушений" in s.text)


async def test_fouls_survive_a_restart_from_the_log(h: Harness, db: Any, fake_clock: Any,
                                                    translator: Any, tmp_path: Any) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=1)
    await give(h, 1, 2)
    await h.service.foul(CHAT, HOST, 1, FoulReason.AT_NIGHT, "shouted")
    await h.service.foul(CHAT, HOST, 2)
    await h.service.undo_foul(CHAT, HOST, 2)
    await h.service.start_night(CHAT, HOST)
    again = make_harness(db, fake_clock, translator, tmp_path)
    await again.service.restore()
    table = again.service.tables[h.game_id]
    assert table.game.fouls == h.table.game.fouls
    assert table.foul_notes == {1: "shouted"}
    assert table.stage is Stage.NIGHT
    assert (await db.games.get(h.game_id)).status == STATUS_RUNNING


async def test_the_game_points_come_after_the_fines_and_do_not_repeat_them(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=1)
    for seat in (1, 2):
        await give(h, seat, 1)
        await h.service.foul(CHAT, HOST, seat)
    await h.service.undo_foul(CHAT, HOST, 2)
    await h.play_to_end()
    rows = [r for r in await h.db.stats.game_points(h.game_id) if r.kind == KIND_GAME]
    assert sum(1 for r in rows if r.reason == "foul_other") == 2
    assert sum(1 for r in rows if r.reason == "foul_undone") == 1
    points_post = next(t for t in h.club_texts() if "Баллы за игру" in t)
    lines = {line.split(":")[0]: line for line in points_post.split("Баллы за игру")[1]
             .split("\n") if line.startswith("№")}
    assert "штрафы -1" in lines["№1 Player1"]  # seat 1's fine stands
    assert "штрафы" not in lines["№2 Player2"]  # seat 2's was undone: nothing to say
    # the log replayed through the engine gives exactly the game's ledger rows
    outcome = replay_outcome(await h.db.games.get(h.game_id),
                             await h.db.games.events(h.game_id))
    assert list(outcome.points) == sorted((r.tg_id, r.points, r.reason, r.phase)
                                          for r in rows)


async def test_a_seat_with_nothing_to_explain_shows_its_total_alone(h: Harness) -> None:
    """A seat out before any point, or whose fine was given back: «№1 Player1: 0», never
    «№1 Player1: 0 (—)»."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=1)
    await give(h, 2, 1)
    await h.service.foul(CHAT, HOST, 2)
    await h.service.undo_foul(CHAT, HOST, 1)
    await h.service.technical_death(CHAT, HOST, 1)
    await h.service.technical_death(CHAT, HOST, 2)
    await h.play_to_end()
    points_post = next(t for t in h.club_texts() if "Баллы за игру" in t)
    lines = points_post.split("<b>Баллы за игру</b>\n")[1].split("\n")
    assert lines[:2] == ["№1 Player1: 0", "№2 Player2: 0"]
    assert "(—)" not in points_post


async def test_a_foul_in_the_talk_of_a_game_opened_with_a_day_is_the_days(
        h: Harness, db: Any, fake_clock: Any, translator: Any, tmp_path: Any) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=1)
    await give(h, 3, 5)
    await h.service.foul(CHAT, HOST, 3)  # before the host chose: the night comes by default
    posts = len(h.club())
    await h.service.start_day(CHAT, HOST)
    assert "День 1" in h.club_texts()[-1]
    await h.service.start_day(CHAT, HOST)  # a second press: announced already
    assert len(h.club()) == posts + 1
    assert "day" not in (await h.service.host_view(h.game_id, HOST)).actions
    await h.service.foul(CHAT, HOST, 3, FoulReason.OUT_OF_TURN)
    assert [(r.reason, r.phase) for r in await h.db.stats.game_points(h.game_id)] == [
        ("foul_other", "night 1"), ("foul_out_of_turn", "day 1")]
    # a restart knows the day was announced: the next foul is the day's too
    again = make_harness(db, fake_clock, translator, tmp_path)
    await again.service.restore()
    assert again.service.tables[h.game_id].day_first
    await again.service.foul(CHAT, HOST, 3, FoulReason.GESTURE)
    assert [f.phase for f in again.service.tables[h.game_id].game.fouls] == [
        "night 1", "day 1", "day 1"]
    assert [r.phase for r in await h.db.stats.game_points(h.game_id)][-1] == "day 1"


def offer_data(h: Harness, number: int, accept: bool) -> str:
    return FoulOfferCb(game=h.game_id, number=number, accept=accept).pack()


async def test_an_offer_is_judged_from_the_log_after_a_restart(
        h: Harness, db: Any, fake_clock: Any, translator: Any, tmp_path: Any) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, limit=2)
    for seat in (8, 8, 5, 5):  # offers after foul 2 (№8) and foul 4 (№5)
        await h.service.foul(CHAT, HOST, seat)
    offers = [s for s in h.private(HOST) if h.buttons(s)]
    assert [h.buttons(s) for s in offers] == [
        [offer_data(h, 2, True), offer_data(h, 2, False)],
        [offer_data(h, 4, True), offer_data(h, 4, False)]]
    again = make_harness(db, fake_clock, translator, tmp_path)
    again.sender.ids = dict(h.sender.ids)  # the outbox keeps what it sent, for the edits
    await again.service.restore()
    table = again.service.tables[h.game_id]
    assert table.foul_offers == {2: 2, 4: 2}
    # foul 2 undone after the restart: its offer loses its buttons, its press is refused
    await again.service.undo_foul(CHAT, HOST, 2)
    closed = again.private(HOST)[-1]
    assert closed.edit and closed.key == offers[0].key and not again.buttons(closed)
    assert "Нарушение отменено: №8 Player8 играет дальше." in closed.text
    assert await again.refused(again.service.foul_offer(h.game_id, HOST, 2, True)) == \
        "foul.offer.stale"
    assert table.game.player(8).alive
    # foul 4's offer stands: kept; a second press says so and changes nothing
    answer = await again.service.foul_offer(h.game_id, HOST, 4, False)
    assert answer.key == "foul.offer.kept"
    assert again.private(HOST)[-1].key == offers[1].key and "Играет дальше" in \
        again.private(HOST)[-1].text
    for accept in (False, True):
        assert await again.refused(again.service.foul_offer(h.game_id, HOST, 4, accept)) \
            == "foul.offer.kept"
    assert table.game.player(5).alive
    # and a third restart reads both offers closed from the log
    third = make_harness(db, fake_clock, translator, tmp_path)
    await third.service.restore()
    assert third.service.tables[h.game_id].foul_offers == {}
    assert third.service.tables[h.game_id].foul_offers_closed == {2: "undone", 4: "kept"}


async def test_an_undo_that_takes_a_count_below_the_limit_closes_the_offer(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, limit=2)
    await h.service.foul(CHAT, HOST, 8)
    await h.service.foul(CHAT, HOST, 8)  # the offer after foul 2
    await h.service.foul(CHAT, HOST, 3)
    # foul 1 was №3's, not №8's: №8 has one foul again, the offer after foul 2 is moot
    await h.service.undo_foul(CHAT, HOST, 1)
    closed = h.private(HOST)[-1]
    assert closed.edit and not h.buttons(closed) and "№8 Player8" in closed.text
    assert await h.refused(h.service.foul_offer(h.game_id, HOST, 2, True)) == \
        "foul.offer.stale"
    assert h.table.game.player(8).alive
    # a foul no offer followed has no offer to answer
    assert await h.refused(h.service.foul_offer(h.game_id, HOST, 3, True)) == "game.stale"


@pytest.mark.parametrize("end", ["played", "aborted"])
async def test_the_games_end_closes_its_open_offers(h: Harness, end: str) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, limit=1)
    await h.service.foul(CHAT, HOST, 8)  # an offer at once
    offer = h.private(HOST)[-1]
    assert h.buttons(offer)
    if end == "played":
        await h.play_to_end()
    else:
        await h.service.end_game(CHAT, HOST)
    closed = [s for s in h.private(HOST) if s.key == offer.key and s.edit]
    # the name opens the line, where Russian keeps it in the nominative
    assert closed and closed[-1].text == "№8 Player8: игра окончена, решать больше нечего."
    assert not h.buttons(closed[-1])


async def test_a_foul_on_a_seat_the_host_plays_is_told_to_its_player(h: Harness) -> None:
    """A Telegram player whose seat the host plays hears of the foul and its fine
    themself; the host's copy says nothing in the player's stead."""
    await h.lobby(9)
    await h.service.unseat(CHAT, HOST, "Player1")
    await seat_for_host(h, "Player1")
    await h.service.deal(CHAT, HOST)
    seat = h.table.seat_of(1001)
    assert seat is not None and h.table.is_offline(seat)
    await h.db.clubs.set_fouls(CHAT, points=2)
    await h.db.ledger.adjust(1001, 5, reason="start", admin_id=ADMIN, now=h.clock())
    host_before = len(h.private(HOST))
    await h.service.foul(CHAT, HOST, seat, FoulReason.GESTURE)
    told = texts(h, 1001)[-1]
    assert "Штраф: 2 балла." in told and "этой игре: 1" in told
    assert all("Штраф" not in s.text for s in h.private(HOST)[host_before:])
    await h.service.undo_foul(CHAT, HOST, 1)
    assert "2" in texts(h, 1001)[-1] and texts(h, 1001)[-1] != told
    assert await h.db.ledger.balance(1001) == 5


async def test_an_aborted_game_gives_its_fines_back_and_keeps_its_fouls(h: Harness) -> None:
    """``/endgame`` writes a reversing row per standing fine with the abort itself (one
    transaction); an undone foul's fine came back already and is not given twice; the
    fouls stay in the log."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=2)
    for seat in (3, 4):
        await give(h, seat, 5)
    await h.service.foul(CHAT, HOST, 3, FoulReason.GESTURE)
    await h.service.foul(CHAT, HOST, 3, FoulReason.OUT_OF_TURN)
    await h.service.foul(CHAT, HOST, 4)
    await h.service.undo_foul(CHAT, HOST, 3)  # №4's fine back already
    assert await h.db.ledger.balance(h.tg(3)) == 1
    player3, player4 = h.tg(3), h.tg(4)
    await h.service.end_game(CHAT, HOST)
    assert await h.db.ledger.balance(player3) == 5 and await h.db.ledger.balance(player4) == 5
    assert [(tg, p, r) for tg, p, r, _ in await fines(h)] == [
        (player3, -2, "foul_gesture"), (player3, -2, "foul_out_of_turn"),
        (player4, -2, "foul_other"), (player4, 2, "foul_undone"),
        (player3, 2, "game_aborted"), (player3, 2, "game_aborted")]
    assert await h.db.stats.points_totals(player3) == (5, 0)  # given back: nothing spent
    game = await h.db.games.get(h.game_id)
    assert game.status == "aborted"
    kinds = [e.kind for e in await h.db.games.events(h.game_id)]
    assert kinds.count("foul") == 3 and kinds[-1] == "aborted"
    assert any("штрафы за нарушения возвращены" in t for t in h.club_texts())


async def test_the_networks_cap_on_a_games_fines_takes_less_and_says_so(h: Harness) -> None:
    """A player's fines in one game never pass the network's cap: the foul still counts, the
    fine takes what the cap leaves (the log says so), the player is told why; an undone foul
    gives its room back."""
    await h.dealt(10)
    await h.db.network.set_cap("game_fine_cap", 5, admin_id=ADMIN, now=h.clock())
    await h.db.clubs.set_fouls(CHAT, points=3, limit=0)
    await give(h, 2, 20)
    for _ in range(3):
        await h.service.foul(CHAT, HOST, 2, FoulReason.OUT_OF_TURN)
    assert [f.points for f in h.table.game.fouls] == [3, 2, 0]
    assert [e.payload["points"] for e in await h.db.games.events(h.game_id)
            if e.kind == "foul"] == [3, 2, 0]
    assert [f[1] for f in await fines(h)] == [-3, -2]
    told = [t for t in texts(h, h.tg(2)) if "Штраф клуба" in t]
    assert "штрафами не больше 5 баллов: списано 2 балла." in told[0]
    assert "уже дошли до предела сети в 5 баллов: ничего не списано." in told[1]
    await h.service.undo_foul(CHAT, HOST, 1)  # 3 points back: room for 3 again
    await h.service.foul(CHAT, HOST, 2, FoulReason.OUT_OF_TURN)
    assert h.table.game.fouls[-1].points == 3
    assert await h.db.ledger.balance(h.tg(2)) == 15
    await h.service.foul(CHAT, HOST, 3, FoulReason.GESTURE)  # another player: a room of its own
    assert h.table.game.fouls[-1].points == 0  # (it has no points)


async def test_a_lowered_cap_on_one_fine_lowers_the_clubs_fine(h: Harness) -> None:
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=8)
    await give(h, 4, 20)
    await h.db.network.set_cap("fine_cap", 4, admin_id=ADMIN, now=h.clock())
    await h.service.foul(CHAT, HOST, 4, FoulReason.OUT_OF_TURN)
    assert [f[1] for f in await fines(h)] == [-4]
    assert "Штраф: 4 балла." in texts(h, h.tg(4))[-1]


async def test_a_cap_lowered_under_the_step_is_read_again(h: Harness, monkeypatch: Any) -> None:
    """The caps are read, then lowered before the step's transaction: the transaction refuses
    the fine, nothing is written, the step reads again and fines what the new cap leaves."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=3)
    await give(h, 5, 20)
    real = h.db.network.fine_caps
    reads: list[int] = []

    async def stale_then_real() -> Any:
        reads.append(1)
        if len(reads) == 1:
            caps = await real()
            await h.db.network.set_cap("game_fine_cap", 1, admin_id=ADMIN, now=h.clock())
            return caps
        return await real()
    monkeypatch.setattr(h.db.network, "fine_caps", stale_then_real)
    await h.service.foul(CHAT, HOST, 5)
    assert len(reads) == 2
    assert [f[1] for f in await fines(h)] == [-1]
    assert h.table.game.fouls[0].points == 1


@pytest.mark.parametrize(("reserve", "taken"), [(8, 2), (10, 0)])
async def test_a_fine_short_of_reserved_points_says_they_are_reserved(
        h: Harness, reserve: int, taken: int) -> None:
    """A balance of 10 with points reserved for a gift request: the fine takes what is not
    reserved, and the player and the host read that the rest is reserved for the request
    (not that the balance held less)."""
    await h.dealt(10)
    await h.db.clubs.set_fouls(CHAT, points=5)
    await give(h, 3, 10)
    gift = await h.db.gifts.add("Mug", reserve, 3, admin_id=ADMIN, now=h.clock())
    await h.db.gift_requests.ask(h.tg(3), gift.id, price=reserve, card=1, now=h.clock())
    await h.service.foul(CHAT, HOST, 3, FoulReason.OUT_OF_TURN, confirm=True)
    assert h.table.game.fouls[0].points == taken
    assert await h.db.ledger.balance(h.tg(3)) == 10 - taken
    told, host = texts(h, h.tg(3))[-1], texts(h, HOST)[-1]
    for said in (told, host):
        assert "в резерве по его заявке на подарок" in said, said
        assert "на балансе было меньше" not in said
    assert (f"списано {taken} балла" in told) if taken else "ничего не списано" in told
    en = h.service.notifier.t("en", "foul.fine.reserved", price=5, points=2)
    assert en == ("The club's fine is 5 points; the rest of the balance is reserved for the "
                  "player's gift request, so 2 points were taken.")

"""``/addseat`` of a Telegram player's nickname: the player is asked in private and seated
only after "Yes, seat me"; a refusal, no answer before the deal, or a stale or forged press
seats nobody and writes nothing of a seat."""

from __future__ import annotations

from pathlib import Path

from storage.db import Database
from tests.game.harness import CHAT, HOST, Harness
from tests.game.test_service_restart import restart

ASKED = 1010  # Player10: registered, not at the table


async def asked_lobby(h: Harness) -> None:
    """Nine players at the table; Player10 registered, asked by the host."""
    await h.lobby(9)
    await h.players(1, first=ASKED)
    answer = await h.service.add_offline(CHAT, HOST, "Player10", None)
    assert answer.key == "seats.ask.sent"
    assert answer.kwargs == {"nick": "Player10", "seat": 10}


async def stored_seats(h: Harness) -> list[int]:
    return [s.tg_id for s in (await h.db.games.get(h.game_id)).seats]


def lobby_text(h: Harness) -> str:
    return [s for s in h.club() if s.edit][-1].text


async def test_the_player_is_asked_and_seated_only_on_yes(h: Harness) -> None:
    await asked_lobby(h)
    ask = h.private(ASKED)[-1]
    assert "хочет посадить вас за стол игры" in ask.text
    assert h.buttons(ask) == [f"gy:{h.game_id}:1", f"gy:{h.game_id}:0"]
    assert "✅ Да, посадите меня" in str(ask.markup)
    # asked, not seated: no seat in memory nor stored; the lobby shows it waiting
    assert h.table.seat_of(ASKED) is None and ASKED not in await stored_seats(h)
    assert "№10 Player10 — ждёт подтверждения" in lobby_text(h)
    assert h.service.registry.of_player(ASKED) is None  # nothing keeps them from another table
    # asked twice: refused, nothing sent again
    sent = len(h.private(ASKED))
    assert await h.refused(h.service.add_offline(CHAT, HOST, "player10", None)) == \
        "seats.ask.already"
    assert len(h.private(ASKED)) == sent
    # another player's press, or one for another game: refused, nothing changes
    assert await h.refused(h.service.consent(h.game_id, 1001, True)) == "seats.ask.closed"
    assert await h.refused(h.service.consent(h.game_id + 7, ASKED, True)) == \
        "seats.ask.closed"
    assert h.table.seat_of(ASKED) is None
    answer = await h.service.consent(h.game_id, ASKED, True)
    assert answer.key == "seats.ask.seated" and answer.kwargs["seat"] == 10
    assert h.table.seat_of(ASKED) == 10 and h.table.is_offline(10)
    assert ASKED in await stored_seats(h)
    assert "подтверждает: место №10" in h.private(HOST)[-1].text
    assert "ждёт подтверждения" not in lobby_text(h)
    # a second press: the question is closed
    assert await h.refused(h.service.consent(h.game_id, ASKED, True)) == "seats.ask.closed"
    assert await h.refused(h.service.consent(h.game_id, ASKED, False)) == "seats.ask.closed"
    assert h.table.seat_of(ASKED) == 10


async def test_a_refusal_leaves_the_seat_empty_and_tells_the_host(h: Harness) -> None:
    await asked_lobby(h)
    answer = await h.service.consent(h.game_id, ASKED, False)
    assert answer.key == "seats.ask.declined"
    assert h.table.seat_of(ASKED) is None and ASKED not in await stored_seats(h)
    assert "ответ «нет»" in h.private(HOST)[-1].text
    closed = [s for s in h.private(ASKED) if s.edit][-1]
    assert "отказались" in closed.text and not h.buttons(closed)
    assert "ждёт подтверждения" not in lobby_text(h)
    # the host may ask again; /unseat withdraws an open question
    assert (await h.service.add_offline(CHAT, HOST, "Player10", None)).key == "seats.ask.sent"
    assert (await h.service.unseat(CHAT, HOST, "Player10")).key == "seats.unseat.ok"
    assert await h.refused(h.service.consent(h.game_id, ASKED, True)) == "seats.ask.closed"
    assert h.table.seat_of(ASKED) is None


async def test_no_answer_before_the_deal_deals_without_the_seat(h: Harness) -> None:
    await asked_lobby(h)
    await h.service.deal(CHAT, HOST)
    assert len(h.table.seats) == 9 and h.table.seat_of(ASKED) is None
    assert "ответа до раздачи не было" in "\n".join(s.text for s in h.private(HOST))
    closed = [s for s in h.private(ASKED) if s.edit][-1]
    assert "уже розданы" in closed.text and not h.buttons(closed)
    assert await h.refused(h.service.consent(h.game_id, ASKED, True)) == "seats.ask.closed"
    assert h.table.seat_of(ASKED) is None and ASKED not in await stored_seats(h)


async def test_a_player_in_another_game_cannot_be_seated_by_saying_yes(h: Harness) -> None:
    await asked_lobby(h)
    other = await h.service.open_lobby(CHAT - 5, "Other club", HOST + 1, is_admin=True)
    await h.service.join(other.game_id, ASKED)  # they joined a table themselves meanwhile
    answer = await h.service.consent(h.game_id, ASKED, True)
    assert answer.key == "game.join.other_game"
    assert h.table.seat_of(ASKED) is None and not h.table.asked
    assert "места не будет" in h.private(HOST)[-1].text


async def test_an_open_question_survives_a_restart(h: Harness, db: Database,
                                                   tmp_path: Path) -> None:
    await asked_lobby(h)
    h2 = await restart(h, db, tmp_path)
    assert h2.table.asked == {ASKED: "Player10"}
    answer = await h2.service.consent(h2.game_id, ASKED, True)
    assert answer.key == "seats.ask.seated"
    assert h2.table.seat_of(ASKED) == 10 and h2.table.is_offline(10)

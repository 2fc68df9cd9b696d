"""Seats without Telegram over HTTP: the host seats two players by nickname, gets their cards and
prompts, presses for them; a real player cannot; a restart keeps the offline seats."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from record.table import Stage, Table
from tests.fakes.telegram_server import FakeTelegram
from tests.game.conftest import packaged_translator
from tests.game.flow import CLUB, HOST, Flow, start_app, stop_app, wait_until
from tests.game.harness import role_names

OFFLINE = ("Ghost", "Шмель")
# Every card acts on the first night, so an offline seat always has a night prompt.
ACTING = ("/roles mafia_chief, mafia*2, doctor, policeman, marilyn, judge, sportsman, maniac, "
          "marilyn_sister")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def seat_offline(flow: Flow) -> list[int]:
    """The host seats the two offline nicknames; returns their accounts' ids."""
    for nick, sex in zip(OFFLINE, ("f", "m"), strict=True):
        answer = await flow.host_says(f"/addseat {nick} {sex}", f"{nick}: создан аккаунт")
        assert "без Telegram" in answer
    await wait_until(lambda: len(flow.table.seats) == 8 + len(OFFLINE), 10, "offline seats")
    ids = []
    for nick in OFFLINE:
        player = await flow.app.services.db.players.by_nickname(nick)
        assert player is not None and player.offline
        ids.append(player.tg_id)
    return ids


def offline_seats(t: Table) -> list[int]:
    return [s for s in sorted(t.seats) if t.is_offline(s)]


async def host_cards(flow: Flow) -> None:
    """Both offline seats' cards reach the host, protected, saying whose they are."""
    t = flow.table

    def cards() -> list[str]:
        return [m.body for m in flow.fake.messages(HOST) if m.protect_content]
    await wait_until(lambda: len(cards()) == len(OFFLINE), 10, "the offline cards")
    for seat, body in zip(offline_seats(t), cards(), strict=True):
        assert f"📵 №{seat} {t.name(seat)}</b> играет без Telegram" in body
        assert flow.games.tr.t("ru", f"game.role.{t.role(seat)}") in body


async def test_game_with_two_offline_seats_to_the_end(fake: FakeTelegram,
                                                      tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        await flow.lobby(8)
        ids = await seat_offline(flow)
        assert offline_seats(flow.table) == [9, 10]
        lobby = next(m for m in fake.messages(CLUB) if any(
            d.startswith("gl:") for _, d in m.buttons()))
        await wait_until(lambda: "№10 Шмель — без Telegram" in lobby.body, 10, "the lobby mark")
        # a bad nickname gets the nickname rules and seats nobody
        await flow.host_says("/addseat ab", "Слишком короткий ник")
        assert len(flow.table.seats) == 10
        await flow.host_says(ACTING, "Состав")  # public before the deal, as for any table
        dealt_at = len(flow.club_texts())
        await flow.deal()
        await host_cards(flow)
        t = flow.table

        await flow.start("/night", Stage.NIGHT)
        actors = [s for s in offline_seats(t) if s in engine.night_actors(t.game)
                  and engine.legal_targets(t.game, s)]
        assert actors == offline_seats(t)
        seat = actors[0]
        prefix = f"gsn:{t.game_id}:{t.moment}:{seat}:"
        prompt = await flow.prompt(HOST, prefix)
        assert f"📵 №{seat} {t.name(seat)}</b> играет без Telegram" in prompt.body
        target = engine.legal_targets(t.game, seat)[0]
        # a real player pressing the offline seat's button is refused; nothing is recorded
        real = flow.players[0]
        answer = await flow.press(real, prompt, prefix + str(target))
        assert "не ваша" in answer
        assert seat not in t.choices
        # the host's press acts for that seat
        assert "Принято" in await flow.press(HOST, prompt, prefix + str(target))
        assert t.choices[seat] == target
        await flow.night_rest()
        table = t
        await flow.play_to_end(night_first=False)

        db = app.services.db
        assert (await db.games.get(table.game_id)).status == "finished"
        # the host voted for the offline seats (their vote buttons came to the host)
        votes = [e for e in await db.games.events(table.game_id)
                 if e.kind == "vote" and isinstance(by := e.payload["seat"], int)
                 and table.is_offline(by)]
        assert votes
        # their points are in the ledger, exactly the engine's for their seats
        for tg in ids:
            seat = next(s for s in table.seats if table.tg_of(s) == tg)
            expected = sum(e.points for e in table.game.ledger if e.seat == seat)
            assert await db.ledger.balance(tg) == expected
        assert any([await db.ledger.balance(tg) for tg in ids])
        # no card name in the club chat from the deal to the end; nothing sent to an offline id
        texts = flow.club_texts()[dealt_at:]
        end = next(i for i, x in enumerate(texts) if "🏁" in x)
        names = role_names(packaged_translator())
        for text in texts[:end]:
            assert not any(n.casefold() in text.casefold() for n in names), text
        assert not [c for c in fake.calls if c[0] == "sendMessage"
                    and int(c[1].get("chat_id", 0)) in ids]
    finally:
        await stop_app(app, task)


async def test_restart_mid_night_restores_offline_seats(fake: FakeTelegram,
                                                        tmp_path: Path) -> None:
    app, task = await start_app(fake, tmp_path)
    flow = Flow(fake, app, "ru")
    await flow.lobby(8)
    await seat_offline(flow)
    await flow.host(ACTING)
    await wait_until(lambda: flow.table.composition is not None, 10, "the composition")
    await flow.deal()
    await host_cards(flow)
    t = flow.table
    await flow.start("/night", Stage.NIGHT)
    moment = t.moment
    pending = [s for s in t.pending_night() if t.is_offline(s)]
    assert pending == [9, 10]
    await flow.prompt(HOST, f"gsn:{t.game_id}:{moment}:{pending[0]}:")
    await stop_app(app, task)
    before = len(fake.messages(HOST))

    app2, task2 = await start_app(fake, tmp_path)
    try:
        flow2 = Flow(fake, app2, "ru", game_id=flow.game_id, players=flow.players)
        t2 = flow2.table
        assert t2.stage is Stage.NIGHT and offline_seats(t2) == [9, 10]
        # the host has the offline seats' prompts (delivered, or queued, before the stop):
        # they are not sent again, and the one the host has works
        seat = pending[0]
        prefix = f"gsn:{t2.game_id}:{moment}:{seat}:"
        await flow2.delivered()
        assert not any(any(d.startswith(prefix) for _, d in m.buttons())
                       for m in fake.messages(HOST)[before:])
        prompt = await flow2.prompt(HOST, prefix)
        target = engine.legal_targets(t2.game, seat)[0]
        assert "Принято" in await flow2.press(HOST, prompt, prefix + str(target))
        assert t2.choices[seat] == target
        await flow2.night_rest()
        await flow2.play_to_end(night_first=False)
        assert (await app2.services.db.games.get(flow.game_id)).status == "finished"
    finally:
        await stop_app(app2, task2)

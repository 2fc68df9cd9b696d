"""Lobby, deal, a night, a vote: the main path through the service."""

from __future__ import annotations

import re

import engine
from bot.errors import UserError
from engine import Role
from record.table import Stage
from storage.models import STATUS_FINISHED
from tests.game.harness import CHAT, HOST, Harness, role_names
from views.i18n import default_translator


async def test_lobby_join_leave_and_seat_order(h: Harness) -> None:
    table = await h.lobby(7)
    assert [table.seats[s].tg_id for s in sorted(table.seats)] == list(range(1001, 1008))
    await h.service.leave(table.game_id, 1003)
    assert len(table.seats) == 6 and table.seat_of(1004) == 3
    await h.service.reseat(CHAT, HOST, "Player7", 1)
    assert table.seat_of(1007) == 1
    game = await h.db.games.get(table.game_id)
    assert [s.tg_id for s in game.seats] == [table.seats[s].tg_id for s in sorted(table.seats)]
    lobby = h.club()[0]
    buttons = h.buttons(lobby)
    assert f"gl:{table.game_id}:join" in buttons and f"gl:{table.game_id}:leave" in buttons


async def test_an_empty_lobby_says_nobody_sits_yet(h: Harness) -> None:
    await h.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
    text = h.club()[0].text
    assert "\nЗа столом пока никого.\n" in text and "никто" not in text


async def test_game_to_the_end_writes_points_once(h: Harness) -> None:
    await h.dealt(10)
    table = h.table
    game = await h.db.games.get(h.game_id)
    assert game.commitment == table.commitment and len(game.roles) == 10
    # every player got a protected card
    for seat in table.seats:
        cards = [s for s in h.private(h.tg(seat)) if s.protect]
        assert len(cards) == 1
    await h.play_to_end()
    game = await h.db.games.get(table.game_id)
    assert game.status == STATUS_FINISHED
    assert engine.verify(table.seed or b"", table.cards, sorted(table.seats),
                         table.commitment or "")
    total = sum(e.points for e in table.game.ledger)
    balances = [await h.db.ledger.balance(tg) for tg in range(1001, 1011)]
    assert sum(balances) == total
    finished_again = await h.db.games.finish(table.game_id, status="finished", points=[],
                                             day=table.day)
    assert finished_again is False
    for tg in range(1001, 1011):
        player = await h.db.players.get(tg)
        assert player is not None and player.games_played == 2  # one before, this one
    # no card name of a living player reached the club chat before the end
    names = role_names(h.tr)
    texts = h.club_texts()
    end = next(i for i, t in enumerate(texts) if "🏁" in t)
    for text in texts[:end]:
        assert not any(name.casefold() in text.casefold() for name in names), text
    assert table.seed is not None and table.seed.hex() in "".join(texts[end:])


async def test_night_prompts_only_legal_targets(h: Harness) -> None:
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    table = h.table
    assert table.stage is Stage.NIGHT
    for seat in engine.night_actors(table.game):
        prompt = h.last_private(h.tg(seat))
        targets = sorted(int(d.split(":")[-1]) for d in h.buttons(prompt))
        assert targets == engine.legal_targets(table.game, seat)
    for seat in table.seats:
        if table.role(seat).action is None:
            assert not any(h.buttons(s) for s in h.private(h.tg(seat)))
    # the Mafia learn each other on the first night
    for seat in h.seats_with(Role.MAFIA, Role.MAFIA_CHIEF, Role.MAFIA_KILLER):
        assert any("№" in s.text and s.markup is None for s in h.private(h.tg(seat)))


async def test_roles_default_custom_and_hidden_after_the_deal(h: Harness) -> None:
    await h.lobby(7)
    shown = await h.service.composition(CHAT, HOST, None)
    assert shown.key == "game.roles.show" and shown.kwargs["count"] == 7
    assert await h.refused(h.service.composition(CHAT, HOST, "mafia, doctor")) == \
        "game.rule.table_size"
    assert await h.refused(h.service.composition(CHAT, HOST, "mafia*3, wizard")) == \
        "game.roles.unknown"
    assert await h.refused(h.service.composition(CHAT, 1001, "mafia*3")) == "game.not_host"
    assert await h.refused(h.service.composition(
        CHAT, HOST, "doctor, policeman, judge, lucky, lawyer, maniac, mafia")) == \
        "game.rule.too_few_mafia"
    await h.service.composition(CHAT, HOST, "Шеф Мафии, mafia*2, doctor, Полицейский, judge, lucky")
    assert sorted(h.table.composition or []) == sorted([
        Role.MAFIA_CHIEF, Role.MAFIA, Role.MAFIA, Role.DOCTOR, Role.POLICEMAN, Role.JUDGE,
        Role.LUCKY])
    # what a Russian host types: short names, «ё»/case ignored, names of two words unsplit
    await h.service.composition(CHAT, HOST, "шеф киллер мафия доктор мэрэлин брат адвоката адвокат")
    assert h.table.composition == [Role.MAFIA_CHIEF, Role.MAFIA_KILLER, Role.MAFIA, Role.DOCTOR,
                                   Role.MARILYN, Role.LAWYER_BROTHER, Role.LAWYER]
    await h.service.composition(CHAT, HOST, "ШЕФ, Мафия*2, ДОКТОР, Полицейский, Судья, Счастливчик")
    try:
        await h.service.composition(CHAT, HOST, "Шеф, Волшебник*2")
    except UserError as e:
        assert e.key == "game.roles.unknown" and e.kwargs["name"] == "Волшебник*2"
        text = default_translator().t("ru", e.key, **e.kwargs)
        assert "Шеф Мафии" in text and "Брат адвоката" in text
        assert not re.search(r"[a-z]", text)  # no card id in a Russian text
    else:
        raise AssertionError("an unknown card was taken")
    await h.service.deal(CHAT, HOST)
    assert sorted(h.table.cards) == sorted([Role.MAFIA_CHIEF, Role.MAFIA, Role.MAFIA, Role.DOCTOR,
                                            Role.POLICEMAN, Role.JUDGE, Role.LUCKY])
    before = len(h.club())
    answer = await h.service.composition(CHAT, 1001, None)
    assert answer.key == "game.roles.to_host" and len(h.club()) == before
    assert "Судья" in h.private(HOST)[-1].text

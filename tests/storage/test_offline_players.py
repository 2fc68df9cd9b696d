"""Accounts without Telegram (a host seats them at a game): ids, nicknames, points."""

from __future__ import annotations

import pytest

from storage import Database
from storage.errors import InvalidNickname, InvalidValue, LookalikeNickname, NicknameTaken
from storage.models import OFFLINE_ID_MAX, is_offline_account
from tests.storage.conftest import add_players


async def test_offline_ids_lie_below_every_telegram_id(db: Database) -> None:
    await add_players(db, 5, 2**51)  # Telegram ids have at most 52 significant bits
    first = await db.players.create_offline("Ghost", sex="f")
    second = await db.players.create_offline("Шмель")
    assert first.tg_id == OFFLINE_ID_MAX and second.tg_id == OFFLINE_ID_MAX - 1
    assert first.offline and second.offline and is_offline_account(first.tg_id)
    assert not is_offline_account(5) and not is_offline_account(-1001234567890)  # a group
    assert (first.nickname, first.display_name, first.sex) == ("Ghost", "Ghost", "f")
    assert second.sex is None and second.games_played == 0
    found = await db.players.by_nickname("ghost")
    assert found is not None and found.tg_id == first.tg_id
    assert await db.ledger.balance(first.tg_id) == 0  # a balance row like any account


async def test_offline_nickname_rules_and_uniqueness(db: Database) -> None:
    await add_players(db, 7)
    with pytest.raises(NicknameTaken):
        await db.players.create_offline("NICK7")
    ghost = await db.players.create_offline("Ghost")
    with pytest.raises(NicknameTaken):  # a Telegram player cannot take it either
        await db.players.set_nickname(7, "ghost")
    with pytest.raises(InvalidNickname):
        await db.players.create_offline("ab")
    with pytest.raises(InvalidValue):
        await db.players.create_offline("Valid", sex="x")
    assert await db.players.by_nickname("Valid") is None
    assert ghost.tg_id == OFFLINE_ID_MAX


async def test_offline_nickname_may_not_look_like_another(db: Database) -> None:
    await add_players(db, 1)
    await db.players.set_nickname(1, "Bobby")
    with pytest.raises(LookalikeNickname) as e:
        await db.players.create_offline("Bоbby")  # Cyrillic о
    assert e.value.existing == "Bobby"
    ghost = await db.players.create_offline("Ghost")
    with pytest.raises(LookalikeNickname):  # the offline account's skeleton is stored too
        await db.players.set_nickname(1, "Ghоst")
    assert ghost.offline

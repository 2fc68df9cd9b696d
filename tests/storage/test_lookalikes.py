from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import Database, InvalidNickname, LookalikeNickname, NicknameTaken
from storage.__main__ import main
from storage.lookalike import lookalike_groups, skeleton
from storage.nickname import normalize_nickname
from tests.storage.conftest import add_players

CYRILLIC_O = "B\u043ebby"  # Cyrillic о
FULLWIDTH = "\uff22\uff4f\uff42\uff42\uff59"
STACKED = "Bobb\u00fd\u0301\u0301"  # ý plus two more acute accents


def test_skeletons() -> None:
    assert skeleton(CYRILLIC_O) == skeleton("Bobby") == skeleton(FULLWIDTH)
    assert skeleton("\u0412\u0430\u0441\u0430") == skeleton("Baca")  # whole-script Cyrillic
    assert skeleton("BiII") == skeleton("Bill")
    assert skeleton("Bobb\u00fd") != skeleton("Bobby")  # one accent is a different name
    assert skeleton("Anna") != skeleton("Anya")
    assert lookalike_groups(["Bobby", CYRILLIC_O, "Anna", "Ann"]) == [["Bobby", CYRILLIC_O]]


def test_normalisation_and_stacked_marks() -> None:
    assert normalize_nickname(FULLWIDTH) == "Bobby"
    with pytest.raises(InvalidNickname) as err:
        normalize_nickname(STACKED)
    assert err.value.reason == "stacked_marks"
    assert normalize_nickname("Vi\u1ec7t") == "Vi\u1ec7t"  # two different marks are fine


async def test_lookalikes_are_refused_naming_the_existing_one(db: Database) -> None:
    await add_players(db, 1, 2, 3, 4, nick=False)
    await db.players.set_nickname(1, "Bobby")
    with pytest.raises(LookalikeNickname) as err:
        await db.players.set_nickname(2, CYRILLIC_O)
    assert err.value.existing == "Bobby"
    with pytest.raises(NicknameTaken):  # NFKC makes it the same nickname
        await db.players.set_nickname(3, FULLWIDTH)
    with pytest.raises(InvalidNickname):
        await db.players.set_nickname(4, STACKED)
    for tg_id in (2, 3, 4):
        player = await db.players.get(tg_id)
        assert player is not None and player.nickname is None
    # the owner may re-spell its own nickname
    assert (await db.players.set_nickname(1, "BOBBY")).nickname == "BOBBY"


async def test_existing_lookalikes_are_reported(db: Database, db_target: str | Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    await add_players(db, 1, 2, 3, nick=False)
    await db.players.set_nickname(1, "Bobby")
    await db.players.set_nickname(3, "Anna")
    # a look-alike written before this check existed (straight into the table)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE players SET nickname = ?, nickname_key = ? WHERE tg_id = 2",
            (CYRILLIC_O, CYRILLIC_O.casefold()),
        )
    assert await db.players.lookalikes() == [["Bobby", CYRILLIC_O]]
    await db.close()
    assert await asyncio.to_thread(main, ["lookalikes", str(db_target)]) == 0
    out = capsys.readouterr().out
    assert "Bobby" in out and CYRILLIC_O in out and "Anna" not in out

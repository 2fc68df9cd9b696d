from __future__ import annotations

from datetime import date

import pytest

from storage import (
    Database,
    InvalidNickname,
    InvalidValue,
    NicknameTaken,
    SpouseError,
    UnknownPlayer,
)
from tests.present import present
from tests.storage.conftest import ADMIN, NOW, add_players


async def test_register_is_idempotent_and_updates_display_name(db: Database) -> None:
    first = await db.players.register(1, display_name="Anna", language="ru")
    assert first.display_name == "Anna" and first.language == "ru"
    assert first.games_played == 0 and not first.blocked and first.nickname is None
    again = await db.players.register(1, display_name="Anna K", language=None)
    assert again.display_name == "Anna K"
    assert again.language == "ru"  # None keeps the stored language
    assert await db.players.get(1) == again
    assert await db.players.get(2) is None


async def test_get_many_reads_the_existing_accounts_at_once(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    await db.players.record_game_played([2], date(2026, 11, 30))
    found = await db.players.get_many([3, 1, 2, 2, 99])
    assert sorted(found) == [1, 2, 3]  # the unknown 99 is left out
    assert found == {tg: await db.players.get(tg) for tg in (1, 2, 3)}
    assert found[2].games_played == 1 and found[1].games_played == 0
    assert await db.players.get_many([]) == {}


async def test_nickname_set_change_and_case_insensitive_lookup(db: Database) -> None:
    await add_players(db, 1, 2, nick=False)
    player = await db.players.set_nickname(1, "  Ёжик  в  тумане ")
    assert player.nickname == "Ёжик в тумане"
    found = await db.players.by_nickname("ёЖИК В ТУМАНЕ")
    assert found is not None and found.tg_id == 1
    assert await db.players.by_nickname("nobody") is None
    assert await db.players.by_nickname("!") is None
    # the owner may change the case of its own nickname
    assert (await db.players.set_nickname(1, "ЁЖИК в тумане")).nickname == "ЁЖИК в тумане"
    with pytest.raises(NicknameTaken) as taken:
        await db.players.set_nickname(2, "ёжик В Тумане")
    assert taken.value.owner_tg_id == 1 and taken.value.code == "nickname_taken"
    assert (await db.players.get(2)) is not None
    assert present(await db.players.get(2)).nickname is None
    # changing frees the old one
    await db.players.set_nickname(1, "Hedgehog")
    assert (await db.players.set_nickname(2, "ёжик в тумане")).nickname == "ёжик в тумане"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("ab", "too_short"),
        ("   a     ", "too_short"),
        ("x" * 25, "too_long"),
        ("bad!name", "bad_chars"),
        ("emoji😀x", "bad_chars"),
        ("tab\tname", "bad_chars"),
        ("___", "no_letter_or_digit"),
        ("- -", "no_letter_or_digit"),
    ],
)
async def test_invalid_nicknames_are_refused_with_reason(
    db: Database, raw: str, reason: str
) -> None:
    await add_players(db, 1, nick=False)
    with pytest.raises(InvalidNickname) as err:
        await db.players.set_nickname(1, raw)
    assert err.value.reason == reason and err.value.nickname == raw
    assert present(await db.players.get(1)).nickname is None


@pytest.mark.parametrize("ok", ["Иван_99", "李小龍abc", "Zoë-Ann", "123", "नमस्ते", "x" * 24])
async def test_valid_nicknames(db: Database, ok: str) -> None:
    await add_players(db, 1, nick=False)
    assert (await db.players.set_nickname(1, ok)).nickname == ok


async def test_unknown_player_errors(db: Database) -> None:
    for call in (
        db.players.set_nickname(5, "Valid"),
        db.players.set_language(5, "en"),
        db.players.set_sex(5, "m"),
        db.players.set_bot_blocked(5, True),
        db.players.propose_spouse(5, 6),
        db.players.confirm_spouse(5, 6),
        db.players.divorce(5),
        db.players.block(5, reason="x", admin_id=ADMIN, now=NOW),
        db.players.unblock(5, admin_id=ADMIN, now=NOW),
        db.players.record_game_played([5], date(2026, 1, 1)),
    ):
        with pytest.raises(UnknownPlayer) as err:
            await call
        assert err.value.tg_id == 5


async def test_language_sex_and_bot_blocked(db: Database) -> None:
    await add_players(db, 1)
    assert (await db.players.set_language(1, "en")).language == "en"
    assert (await db.players.set_sex(1, "f")).sex == "f"
    with pytest.raises(InvalidValue) as err:
        await db.players.set_sex(1, "x")
    assert err.value.field == "sex"
    with pytest.raises(InvalidValue):
        await db.players.set_language(1, "")
    assert (await db.players.set_bot_blocked(1, True)).bot_blocked
    assert not (await db.players.set_bot_blocked(1, False)).bot_blocked


async def test_spouses_both_confirm_then_divorce(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    proposer = await db.players.propose_spouse(1, 2)
    assert proposer.spouse_proposed_to == 2 and proposer.spouse_id is None
    with pytest.raises(SpouseError) as err:
        await db.players.confirm_spouse(3, 1)  # 1 proposed to 2, not 3
    assert err.value.reason == "no_proposal"
    me, other = await db.players.confirm_spouse(2, 1)
    assert me.spouse_id == 1 and other.spouse_id == 2
    assert other.spouse_proposed_to is None
    with pytest.raises(SpouseError) as err:
        await db.players.propose_spouse(3, 1)
    assert err.value.reason == "already_married"
    with pytest.raises(SpouseError) as err:
        await db.players.propose_spouse(3, 3)
    assert err.value.reason == "self"
    with pytest.raises(SpouseError):
        await db.players.confirm_spouse(3, 3)
    divorced = await db.players.divorce(2)
    assert divorced.spouse_id is None
    assert present(await db.players.get(1)).spouse_id is None
    assert (await db.players.divorce(3)).spouse_id is None  # not married: no-op


async def test_confirm_refused_when_one_married_meanwhile(db: Database) -> None:
    await add_players(db, 1, 2, 3)
    await db.players.propose_spouse(1, 2)
    await db.players.propose_spouse(3, 1)
    await db.players.confirm_spouse(2, 1)
    with pytest.raises(SpouseError) as err:
        await db.players.confirm_spouse(1, 3)
    assert err.value.reason == "already_married"


async def test_block_burns_points_and_unblock_does_not_restore(db: Database) -> None:
    await add_players(db, 1)
    await db.ledger.adjust(1, 40, reason="welcome", admin_id=ADMIN, now=NOW)
    blocked = await db.players.block(1, reason="rudeness", admin_id=ADMIN, now=NOW)
    assert blocked.blocked and blocked.blocked_reason == "rudeness"
    assert await db.ledger.balance(1) == 0
    burn = (await db.ledger.recent(1, 1))[0]
    assert (burn.kind, burn.points, burn.reason, burn.admin_id) == (
        "block_burn", -40, "rudeness", ADMIN)
    assert (await db.ledger.balance_with_rank(1)).rank is None
    # blocking again writes no zero row
    await db.players.block(1, reason="again", admin_id=ADMIN, now=NOW)
    assert len(await db.ledger.recent(1)) == 2
    unblocked = await db.players.unblock(1, admin_id=ADMIN, now=NOW)
    assert not unblocked.blocked and unblocked.blocked_reason is None
    assert await db.ledger.balance(1) == 0
    actions = [a.action for a in await db.admin_log.recent(10)]
    assert actions == ["unblock", "block", "block", "adjust"]


async def test_record_game_played_moves_dates(db: Database) -> None:
    await add_players(db, 1, 2)
    await db.players.record_game_played([1, 2, 1], date(2026, 2, 1))
    await db.players.record_game_played([1], date(2026, 1, 15))  # a late entry
    p1 = await db.players.get(1)
    assert p1 is not None
    assert (p1.games_played, p1.first_game_date, p1.last_game_date) == (
        2, date(2026, 1, 15), date(2026, 2, 1))
    assert p1.expiry_date == date(2026, 4, 1)
    with pytest.raises(UnknownPlayer):
        await db.players.record_game_played([1, 77], date(2026, 3, 1))
    p1_after = await db.players.get(1)
    assert p1_after is not None and p1_after.games_played == 2  # nothing partial

from __future__ import annotations

from datetime import date

from storage import Database
from storage.spreadsheets.columns import ImportReport
from tests.storage.conftest import ADMIN, NOW, add_players

# NOW is 2026-03-10: a last game on 2026-02-01 has not expired, one on 2025-12-01 has.
CSV = (
    "nickname,points,games_played,last_game_date,telegram_id,username\n"
    "Old Timer,120,87,2026-02-01,,@oldtimer\n"
    "Linked,40,12,01.02.2026,5,\n"
    "Gone Away,30,9,2025-12-01,,\n"
    "Bad Points,ten,1,2026-02-01,,\n"
    "Bad Date,1,1,2026-02-30,,\n"
    "Future,1,1,2027-01-01,,\n"
    "old timer,5,1,2026-02-01,,\n"
    "0ld Timer,5,1,2026-02-01,,\n"
    "Taken,5,1,2026-02-01,,\n"
    "No Date,5,1,,,\n"
    "x,5,1,2026-02-01,,\n"
)


def reasons(report: ImportReport) -> list[tuple[int, str]]:
    return [(r.line, r.reason) for r in report.refused]


async def test_dry_run_reports_and_writes_nothing(db: Database) -> None:
    await add_players(db, 5, nick=False)
    await add_players(db, 6, nick=False)
    await db.players.set_nickname(6, "Taken")
    report = await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=False)
    assert not report.applied and report.file_error is None
    assert [r.nickname for r in report.added] == ["Old Timer", "Linked", "Gone Away"]
    assert report.linked == ["Linked"]
    assert reasons(report) == [
        (5, "bad_number"), (6, "bad_date"), (7, "bad_date"), (8, "duplicate"),
        (9, "lookalike"), (10, "taken"), (11, "missing_date"), (12, "nickname_too_short"),
    ]
    assert await db.imports.pending() == []
    assert await db.ledger.balance(5) == 0


async def test_apply_links_counts_games_and_is_idempotent(db: Database) -> None:
    await add_players(db, 5, nick=False)
    report = await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    assert report.applied and report.linked == ["Linked"]
    linked = await db.players.get(5)
    assert linked is not None and linked.nickname == "Linked"
    assert linked.games_played == 12 and linked.last_game_date == date(2026, 2, 1)
    assert await db.ledger.balance(5) == 40
    rows = await db.ledger.recent(5)
    assert [(r.kind, r.reason, r.points) for r in rows] == [("adjust", "import", 40)]
    assert [r.nickname for r in await db.imports.pending()] == ["Gone Away", "Old Timer", "Taken"]

    again = await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    assert again.added == []
    assert sorted(again.unchanged) == ["Gone Away", "Linked", "Old Timer", "Taken"]
    assert await db.ledger.balance(5) == 40
    assert len(await db.imports.pending()) == 3

    changed = CSV.replace("Old Timer,120", "Old Timer,999")
    third = await db.imports.run(changed, admin_id=ADMIN, now=NOW, apply=True)
    assert (2, "changed") in reasons(third)


async def test_linking_later_by_username_and_expired_points(db: Database) -> None:
    await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    await add_players(db, 7, 8, nick=False)
    assert await db.imports.by_tg_id(7) is None  # the row names a username, not this id
    record = await db.imports.by_username("@OldTimer")
    assert record is not None and record.nickname == "Old Timer"
    result = await db.imports.link(record.id, 7, now=NOW)
    assert result.points == 120 and not result.expired
    player = await db.players.get(7)
    assert player is not None and player.nickname == "Old Timer" and player.games_played == 87
    assert await db.ledger.balance(7) == 120

    gone = await db.imports.by_nickname("gone away")
    assert gone is not None
    result = await db.imports.link(gone.id, 8, now=NOW, admin_id=ADMIN)
    assert result.expired and result.points == 0
    player = await db.players.get(8)
    assert player is not None and player.nickname == "Gone Away" and player.games_played == 9
    assert await db.ledger.balance(8) == 0
    # the absence counts as swept: the next expiry run keeps the nickname
    assert await db.expiry.sweep(NOW.date()) == []
    assert [r.nickname for r in await db.imports.pending()] == ["Linked", "Taken"]  # 5 never came


async def test_imported_nicknames_are_reserved(db: Database) -> None:
    import pytest

    from storage import NicknameReserved

    await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    await add_players(db, 9, nick=False)
    with pytest.raises(NicknameReserved) as err:
        await db.players.set_nickname(9, "0LD TIMER")
    assert err.value.nickname == "Old Timer"


async def test_file_level_refusals(db: Database) -> None:
    # issue 21: a column it does not know is ignored and named, not a refusal of the file
    report = await db.imports.run("nickname,points,colour\nAbc1,0,red\n", admin_id=ADMIN,
                                  now=NOW, apply=True)
    assert report.file_error is None and report.ignored == ["colour"]
    assert [r.nickname for r in report.added] == ["Abc1"]
    report = await db.imports.run("ник,points,Nickname\n", admin_id=ADMIN, now=NOW, apply=True)
    assert report.file_error == "duplicate_column" and report.file_value == "ник, Nickname"
    report = await db.imports.run("nickname,games_played\n", admin_id=ADMIN, now=NOW,
                                  apply=True)
    assert report.file_error == "missing_column" and report.file_value == "points"
    report = await db.imports.run("", admin_id=ADMIN, now=NOW, apply=True)
    assert report.file_error == "empty"


async def test_a_username_matches_no_record_by_id_and_the_first_claim_is_kept(
        db: Database) -> None:
    """A username is changed and taken again by others: only a row's telegram_id links at
    once; a claim stays the first claimant's, and only the first is news for the admins."""
    from storage.repos.imports import Claim

    await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    await add_players(db, 5, 7, 8, nick=False)
    by_id = await db.imports.by_tg_id(5)  # 5 registered after the import: it links at /start
    assert by_id is not None and by_id.nickname == "Linked"
    assert await db.imports.by_tg_id(7) is None
    record = await db.imports.by_username("oldtimer")
    assert record is not None and record.claim_tg_id is None
    assert await db.imports.claim(record.id, 7) is Claim.FIRST
    assert await db.imports.claim(record.id, 7) is Claim.AGAIN
    assert await db.imports.claim(record.id, 8) is Claim.TAKEN
    again = await db.imports.by_nickname("Old Timer")
    assert again is not None and again.claim_tg_id == 7
    await db.imports.link(record.id, 7, now=NOW, admin_id=ADMIN)
    assert await db.imports.claim(record.id, 8) is Claim.GONE
    assert await db.ledger.balance(8) == 0


async def test_a_burst_of_claims_keeps_exactly_one_claimant(db: Database) -> None:
    import asyncio

    from storage.repos.imports import Claim

    await db.imports.run(CSV, admin_id=ADMIN, now=NOW, apply=True)
    await add_players(db, *range(100, 140), nick=False)
    record = await db.imports.by_nickname("Old Timer")
    assert record is not None
    outcomes = await asyncio.gather(*(db.imports.claim(record.id, t) for t in range(100, 140)))
    assert outcomes.count(Claim.FIRST) == 1 and outcomes.count(Claim.TAKEN) == 39
    first = 100 + outcomes.index(Claim.FIRST)
    after = await db.imports.by_nickname("Old Timer")
    assert after is not None and after.claim_tg_id == first

"""Moving a club in: players imported from a CSV of the club's old records.

Columns (the header row names them, in any order, in English or Russian: ``ALIASES`` in
``storage/spreadsheets/columns.py``; ``/export`` writes the same ones): ``nickname`` (required),
``points`` (required), ``games_played``, ``last_game_date`` (``YYYY-MM-DD``, ``DD.MM.YYYY``,
``DD.MM.YY`` or a date cell; required when points or games are above zero), ``telegram_id``,
``username`` (without or with ``@``). Any other column is ignored and named in the report.

Every accepted row becomes an ``imported_players`` record that holds its nickname (nobody else
can take it or a look-alike). When a Telegram account is linked to it (at once if the row's
``telegram_id`` is a registered player; at ``/start`` or ``/nick`` when the ``telegram_id``
matches; or confirmed by an admin with ``/link`` after the player claimed it, by ``/nick`` or by
a ``username`` match at ``/start``, since usernames change hands; the first claim is kept) the
record is applied in one transaction:
the nickname, ``games_played`` added (so the player is no newbie), ``last_game_date`` moved
forward, and the points as one ledger row of kind 'adjust' with reason 'import'.

Expiry: imported points follow the normal two-month rule from the row's last game date, as
if the club had always played with the bot. When that date has already expired on the day
of linking, the record still brings its nickname and games but no points, and the absence
counts as swept (``expired_for``), so the nickname is kept until the player plays and is
away for two months again.

Idempotent: a record keeps the hash of its row's values; importing the same row again is
"unchanged", a different row for an imported nickname is refused ("changed"). A row that says
exactly what the bot already holds for the player owning the nickname (points, games, last
game; the same telegram_id or none) is "unchanged" too: ``/export`` fed back changes nothing.

The file is read in ``storage/spreadsheets/files.py`` and checked row by row in
``storage/spreadsheets/columns.py``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from storage.dates import expiry_cutoff
from storage.errors import InvalidNickname, StorageError
from storage.lookalike import skeleton
from storage.models import KIND_ADJUST
from storage.nickname import nickname_key, normalize_nickname
from storage.repos import _ops
from storage.repos.account_cache import AccountCache
from storage.spreadsheets.columns import (
    COLUMNS,
    MAX_ROWS,
    REQUIRED,
    ImportReport,
    ImportRow,
    Refusal,
    parse_csv,
    parse_table,
)
from storage.spreadsheets.files import FileRefused, read_table
from storage.sql import Connection, Lock, Row, Store, lock_key, lock_rows

__all__ = [
    "COLUMNS",
    "IMPORT_REASON",
    "MAX_ROWS",
    "REQUIRED",
    "Claim",
    "ImportNotFound",
    "ImportReport",
    "ImportRow",
    "ImportedRecord",
    "Imports",
    "LinkResult",
    "Refusal",
    "parse_csv",
    "parse_table",
]

IMPORT_REASON = "import"


class Claim(StrEnum):
    """What a player's claim of an imported record did (:meth:`Imports.claim`)."""

    FIRST = "first"
    AGAIN = "again"
    TAKEN = "taken"
    GONE = "gone"


@dataclass(frozen=True)
class ImportedRecord:
    id: int
    nickname: str
    points: int
    games_played: int
    last_game_date: date | None
    link_tg_id: int | None
    link_username: str | None
    claim_tg_id: int | None
    claimed_by: int | None


@dataclass(frozen=True)
class LinkResult:
    record: ImportedRecord
    points: int  # the points the ledger got (0 when they had expired)
    expired: bool


class ImportNotFound(StorageError):
    code = "import_not_found"

    def __init__(self, nickname: str) -> None:
        super().__init__(f"no unlinked imported record {nickname!r}")
        self.nickname = nickname


def _record(row: Row) -> ImportedRecord:
    return ImportedRecord(
        id=int(row["id"]), nickname=row["nickname"], points=int(row["points"]),
        games_played=int(row["games_played"]),
        last_game_date=None if row["last_game_date"] is None
        else date.fromisoformat(row["last_game_date"]),
        link_tg_id=row["link_tg_id"], link_username=row["link_username"],
        claim_tg_id=row["claim_tg_id"], claimed_by=row["claimed_by"],
    )


_RECORD_COLUMNS = (
    "id, nickname, points, games_played, last_game_date, link_tg_id, link_username,"
    " claim_tg_id, claimed_by"
)


class Imports:
    def __init__(self, db: Store, accounts: AccountCache | None = None) -> None:
        self._db = db
        self._accounts = accounts if accounts is not None else AccountCache()

    async def run(
        self, data: str | bytes, *, admin_id: int, now: datetime, apply: bool,
        sheet: str | None = None,
    ) -> ImportReport:
        """Check a file (bytes: .xlsx or CSV, see ``storage/spreadsheets/files.py``; str: CSV text)
        against itself and the database; with ``apply``, write the accepted rows (and link those
        whose telegram_id is a registered player) in one transaction. A dry run writes nothing and
        reports exactly what ``apply`` would do."""
        report = ImportReport()
        if isinstance(data, str):
            rows = parse_csv(data, report, now.date())
        else:
            try:
                # a 10,000-row .xlsx takes seconds to parse: not on the event loop, where the
                # bot runs the club's game at the same time
                table = await asyncio.to_thread(read_table, data, sheet)
            except FileRefused as e:
                report.file_error, report.file_value, report.sheets = e.code, e.value, e.sheets
                return report
            rows = parse_table(table, report, now.date())
        if report.file_error is not None:
            return report
        ctx = self._accounts.writing(self._db, None) if apply else self._db.read()
        async with ctx as conn:
            if apply:  # the accounts it may link, then the nicknames (as a player's claim)
                await lock_rows(conn, "players", "tg_id",
                                [r.tg_id for r in rows if r.tg_id is not None])
                await lock_key(conn, Lock.NICKNAME)
            accepted = await self._check(conn, rows, report)
            for row in accepted:
                linkable = row.tg_id is not None and await _ops.fetch_player(
                    conn, row.tg_id) is not None
                if linkable:
                    report.linked.append(row.nickname)
                if not apply:
                    continue
                record_id = await self._insert(conn, row, admin_id, now)
                if linkable:
                    assert row.tg_id is not None
                    await _link(conn, record_id, row.tg_id, now, admin_id)
            if apply and accepted:
                await _ops.admin_log(
                    conn, admin_id, "import",
                    f"rows={len(accepted)} linked={len(report.linked)}"
                    f" refused={len(report.refused)}", now,
                )
        report.added = accepted
        report.applied = apply
        report.refused.sort(key=lambda r: r.line)
        return report

    async def _check(
        self, conn: Connection, rows: list[ImportRow], report: ImportReport
    ) -> list[ImportRow]:
        accepted: list[ImportRow] = []
        by_key: dict[str, ImportRow] = {}
        by_skel: dict[str, ImportRow] = {}
        by_tg: dict[int, ImportRow] = {}
        for row in rows:
            key, skel = nickname_key(row.nickname), skeleton(row.nickname)

            def refuse(reason: str, value: str, line: int = row.line) -> None:
                report.refused.append(Refusal(line, reason, value))

            if key in by_key:
                refuse("duplicate", f"{row.nickname} ({by_key[key].line})")
                continue
            if skel in by_skel:
                refuse("lookalike", by_skel[skel].nickname)
                continue
            if row.tg_id is not None and row.tg_id in by_tg:
                refuse("duplicate", f"telegram_id={row.tg_id} ({by_tg[row.tg_id].line})")
                continue
            async with conn.execute(
                "SELECT row_hash, points, games_played, last_game_date, link_tg_id,"
                " link_username FROM imported_players WHERE nickname_key = ?",
                (key,),
            ) as cur:
                old = await cur.fetchone()
            if old is not None:
                # the same row, or the record as /export writes it (an older import's hash
                # was of its raw cells, which the export does not repeat)
                last = None if row.last_game_date is None else row.last_game_date.isoformat()
                if old[0] in (row.row_hash, row.legacy_hash) or (
                        (int(old[1]), int(old[2]), old[3], old[4], old[5])
                        == (row.points, row.games_played, last, row.tg_id, row.username)):
                    report.unchanged.append(row.nickname)
                else:
                    refuse("changed", row.nickname)
                by_key[key] = by_skel[skel] = row
                continue
            if await _holds(conn, row, key):
                report.unchanged.append(row.nickname)
                by_key[key] = by_skel[skel] = row
                continue
            if row.last_game_date is None and (row.points > 0 or row.games_played > 0):
                # checked after _holds: an exported player given points before any game
                # has no date and is still the same row
                refuse("missing_date", row.nickname)
                continue
            problem = await _db_conflict(conn, row, key, skel)
            if problem is not None:
                refuse(*problem)
                continue
            by_key[key] = by_skel[skel] = row
            if row.tg_id is not None:
                by_tg[row.tg_id] = row
            accepted.append(row)
        return accepted

    async def _insert(
        self, conn: Connection, row: ImportRow, admin_id: int, now: datetime
    ) -> int:
        async with conn.execute(
            "INSERT INTO imported_players (nickname, nickname_key, skeleton, points,"
            " games_played, last_game_date, link_tg_id, link_username, row_hash, imported_on,"
            " admin_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (row.nickname, nickname_key(row.nickname), skeleton(row.nickname), row.points,
             row.games_played, None if row.last_game_date is None
             else row.last_game_date.isoformat(), row.tg_id, row.username, row.row_hash,
             now.date().isoformat(), admin_id),
        ) as cur:
            inserted = await cur.fetchone()
        assert inserted is not None
        return int(inserted[0])

    async def pending(self) -> list[ImportedRecord]:
        """Records not linked to an account yet, by nickname."""
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_RECORD_COLUMNS} FROM imported_players WHERE claimed_by IS NULL"
            " ORDER BY nickname_key"
        ) as cur:
            return [_record(r) for r in await cur.fetchall()]

    async def by_tg_id(self, tg_id: int) -> ImportedRecord | None:
        """The unlinked record whose ``telegram_id`` names this account: the one match that
        links at once (a Telegram id is never given to another account)."""
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_RECORD_COLUMNS} FROM imported_players WHERE claimed_by IS NULL"
            " AND link_tg_id = ? ORDER BY id LIMIT 1",
            (tg_id,),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _record(row)

    async def by_username(self, username: str) -> ImportedRecord | None:
        """The unlinked record whose ``username`` is this one (without ``@``, any case). A
        username is changed and taken again by others: a match is a claim for an admin to
        confirm, never a link."""
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_RECORD_COLUMNS} FROM imported_players WHERE claimed_by IS NULL"
            " AND link_username = ? ORDER BY id LIMIT 1",
            (username.lower().lstrip("@"),),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _record(row)

    async def by_nickname(self, nickname: str) -> ImportedRecord | None:
        """The unlinked record holding this nickname or a look-alike of it."""
        try:
            skel = skeleton(normalize_nickname(nickname))
        except InvalidNickname:
            return None
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_RECORD_COLUMNS} FROM imported_players WHERE claimed_by IS NULL"
            " AND skeleton = ? ORDER BY id LIMIT 1",
            (skel,),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _record(row)

    async def claim(self, record_id: int, tg_id: int) -> Claim:
        """Remember that ``tg_id`` asked for this record (an admin confirms with ``link``).
        The first claimant keeps it: ``FIRST`` (the admins are to hear of it, once),
        ``AGAIN`` (this account's claim already), ``TAKEN`` (another account claimed it
        first: nothing changes), ``GONE`` (linked meanwhile)."""
        async with self._db.transaction() as conn:
            await lock_rows(conn, "imported_players", "id", [record_id])  # one first claimant
            async with conn.execute(
                "SELECT claim_tg_id, claimed_by FROM imported_players WHERE id = ?",
                (record_id,),
            ) as cur:
                row = await cur.fetchone()
            if row is None or row[1] is not None:
                return Claim.GONE
            if row[0] is not None:
                return Claim.AGAIN if int(row[0]) == tg_id else Claim.TAKEN
            await conn.execute(
                "UPDATE imported_players SET claim_tg_id = ? WHERE id = ?"
                " AND claim_tg_id IS NULL AND claimed_by IS NULL",
                (tg_id, record_id),
            )
            return Claim.FIRST

    async def link(
        self, record_id: int, tg_id: int, *, now: datetime, admin_id: int | None = None
    ) -> LinkResult:
        """Apply the record to the player (see the module docstring)."""
        async with self._accounts.writing(self._db, [tg_id]) as conn:
            return await _link(conn, record_id, tg_id, now, admin_id)


async def _holds(conn: Connection, row: ImportRow, key: str) -> bool:
    """The player owning the nickname already has exactly this row's values."""
    async with conn.execute(
        "SELECT p.tg_id, p.games_played, p.last_game_date, b.points FROM players p"
        " JOIN balances b ON b.tg_id = p.tg_id WHERE p.nickname_key = ?", (key,),
    ) as cur:
        owner = await cur.fetchone()
    if owner is None or row.tg_id not in (None, int(owner[0])):
        return False
    last = None if row.last_game_date is None else row.last_game_date.isoformat()
    return (int(owner[1]), owner[2], int(owner[3])) == (row.games_played, last, row.points)


async def _db_conflict(
    conn: Connection, row: ImportRow, key: str, skel: str
) -> tuple[str, str] | None:
    """Why the database refuses a new row, or None."""
    async with conn.execute(
        "SELECT tg_id, nickname FROM players WHERE nickname_key IS NOT NULL"
        " AND (nickname_key = ? OR nickname_skeleton = ?) ORDER BY nickname_key = ? DESC",
        (key, skel, key),
    ) as cur:
        owners = [(int(r[0]), str(r[1])) for r in await cur.fetchall()]
    for owner_id, owner_nick in owners:
        if owner_id != row.tg_id:
            return ("taken" if nickname_key(owner_nick) == key else "lookalike"), owner_nick
        # this very account already plays here under the nickname: importing it again would
        # count its points twice (e.g. /export fed back into the same bot)
        return "already_here", owner_nick
    async with conn.execute(
        "SELECT nickname FROM imported_players WHERE skeleton = ? AND claimed_by IS NULL"
        " LIMIT 1", (skel,)
    ) as cur:
        other = await cur.fetchone()
    if other is not None:
        return "lookalike", str(other[0])
    if row.tg_id is not None:
        player = await _ops.fetch_player(conn, row.tg_id)
        if player is not None and player.nickname is not None \
                and nickname_key(player.nickname) != key:
            return "tg_other_nick", player.nickname
        async with conn.execute(
            "SELECT nickname FROM imported_players WHERE link_tg_id = ? OR claimed_by = ?",
            (row.tg_id, row.tg_id),
        ) as cur:
            taken = await cur.fetchone()
        if taken is not None:
            return "duplicate", f"telegram_id={row.tg_id} ({taken[0]})"
    return None


async def _link(
    conn: Connection, record_id: int, tg_id: int, now: datetime, admin_id: int | None
) -> LinkResult:
    await lock_key(conn, Lock.NICKNAME)  # a no-op inside an import, which holds it already
    await lock_rows(conn, "imported_players", "id", [record_id])  # applied once, to one player
    async with conn.execute(
        f"SELECT {_RECORD_COLUMNS} FROM imported_players WHERE id = ? AND claimed_by IS NULL",
        (record_id,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        raise ImportNotFound(str(record_id))
    record = _record(row)
    player = await _ops.require_player(conn, tg_id)
    key = nickname_key(record.nickname)
    today = now.date()
    last = record.last_game_date
    if player.last_game_date is not None and (last is None or player.last_game_date > last):
        last = player.last_game_date
    expired = last is not None and last <= expiry_cutoff(today)
    await conn.execute(
        "UPDATE players SET nickname = ?1, nickname_key = ?2, nickname_skeleton = ?3,"
        " games_played = games_played + ?8,"
        " first_game_date = CASE WHEN CAST(?4 AS TEXT) IS NULL THEN first_game_date"
        "   WHEN first_game_date IS NULL OR first_game_date > ?4 THEN ?4"
        "   ELSE first_game_date END,"
        " last_game_date = ?5,"
        " expired_for = CASE WHEN ?6 = 1 THEN ?5 ELSE expired_for END"
        " WHERE tg_id = ?7",
        (record.nickname, key, skeleton(record.nickname),
         None if record.last_game_date is None else record.last_game_date.isoformat(),
         None if last is None else last.isoformat(), int(expired), tg_id,
         record.games_played),
    )
    points = 0 if expired else record.points
    if points > 0:
        await _ops.insert_ledger(
            conn, tg_id, points, kind=KIND_ADJUST, reason=IMPORT_REASON, day=today, at=now,
            admin_id=admin_id,
        )
    await conn.execute(
        "UPDATE imported_players SET claimed_by = ?, claimed_on = ? WHERE id = ?",
        (tg_id, today.isoformat(), record_id),
    )
    return LinkResult(record, points, expired)

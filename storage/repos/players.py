"""Player accounts: registration, nickname, language, sex, spouse, block flags."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from datetime import date, datetime

from storage.errors import (
    InvalidNickname,
    InvalidValue,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
    SpouseError,
    UnknownPlayer,
)
from storage.lookalike import lookalike_groups, skeleton
from storage.models import KIND_BLOCK_BURN, OFFLINE_ID_MAX, Player
from storage.nickname import nickname_key, normalize_nickname
from storage.repos import _ops, _rows
from storage.repos.account_cache import AccountCache
from storage.sql import Connection, Lock, Store, lock_key

MAX_LANGUAGE_LENGTH = 16


async def fetch_many(conn: Connection, tg_ids: Iterable[int]) -> dict[int, Player]:
    """The accounts of ``tg_ids`` that exist, in one query."""
    ids = sorted(set(tg_ids))
    if not ids:
        return {}
    rows = await conn.execute_fetchall(
        f"SELECT {_rows.PLAYER_COLUMNS} FROM players"
        f" WHERE tg_id IN ({','.join('?' * len(ids))})", ids)
    return {p.tg_id: p for p in map(_rows.player, rows)}


class Players:
    def __init__(self, db: Store, cache: AccountCache | None = None) -> None:
        self._db = db
        self.cache = cache if cache is not None else AccountCache()

    async def get(self, tg_id: int) -> Player | None:
        rows = await self._db.query(
            f"SELECT {_rows.PLAYER_COLUMNS} FROM players WHERE tg_id = ?", (tg_id,))
        return next((_rows.player(r) for r in rows), None)

    async def cached(self, tg_id: int) -> Player | None:
        """:meth:`get`, from memory when read before and not written since (the account the
        bot reads for every update: storage/repos/account_cache.py says how it stays current)."""
        return await self.cache.read_through(tg_id, self.get)

    async def warm(self, tg_ids: Iterable[int]) -> None:
        """Those of ``tg_ids`` not in memory read in one query and kept as :meth:`cached`
        keeps them (the senders of a batch of updates, before their handlers read them)."""
        await self.cache.warm(tg_ids, self.get_many)

    def _writing(self, *tg_ids: int, fresh: list[Player] | None = None
                 ) -> AbstractAsyncContextManager[Connection]:
        return self.cache.writing(self._db, list(tg_ids), fresh)

    async def get_many(self, tg_ids: Iterable[int]) -> dict[int, Player]:
        """The accounts of ``tg_ids`` that exist, in one read (a lobby of 20 is one query)."""
        ids = sorted(set(tg_ids))
        if not ids:
            return {}
        async with self._db.read() as conn:
            return await fetch_many(conn, ids)

    async def by_nickname(self, nickname: str) -> Player | None:
        """Case-insensitive lookup; spaces are normalized like in ``set_nickname``."""
        try:
            key = nickname_key(normalize_nickname(nickname))
        except InvalidNickname:
            return None
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_rows.PLAYER_COLUMNS} FROM players WHERE nickname_key = ?", (key,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _rows.player(row)

    async def register(
        self, tg_id: int, *, display_name: str, language: str | None = None
    ) -> Player:
        """Create the player, or update its display name (and language, if given)."""
        _check_language(language)
        fresh: list[Player] = []
        async with self._writing(tg_id, fresh=fresh) as conn:
            await conn.execute(
                "INSERT INTO players (tg_id, display_name, language) VALUES (?, ?, ?)"
                " ON CONFLICT (tg_id) DO UPDATE SET display_name = excluded.display_name,"
                " language = coalesce(excluded.language, players.language)",
                (tg_id, display_name, language),
            )
            fresh.append(await _ops.require_player(conn, tg_id))
        return fresh[0]

    async def create_offline(self, nickname: str, *, sex: str | None = None) -> Player:
        """A new account without Telegram, holding ``nickname`` (a host seats it at a game).

        Its id is the next free one below :data:`OFFLINE_ID_MAX`. Raises InvalidNickname,
        NicknameTaken, InvalidValue (sex)."""
        text = normalize_nickname(nickname)
        key = nickname_key(text)
        if sex is not None and sex not in ("m", "f"):
            raise InvalidValue("sex", sex, "not_m_or_f")
        # a new id no update comes from: nothing of it is cached
        async with self._db.transaction() as conn:
            await lock_key(conn, Lock.NICKNAME)  # the look-alikes checked, and the next id
            async with conn.execute(
                "SELECT tg_id FROM players WHERE nickname_key = ?", (key,)
            ) as cur:
                owner = await cur.fetchone()
            if owner is not None:
                raise NicknameTaken(text, int(owner[0]))
            skel = skeleton(text)
            await check_lookalike(conn, text, skel, 0)
            async with conn.execute("SELECT min(tg_id) FROM players") as cur:
                row = await cur.fetchone()
            lowest = OFFLINE_ID_MAX + 1 if row is None or row[0] is None else int(row[0])
            tg_id = min(lowest, OFFLINE_ID_MAX + 1) - 1
            await conn.execute(
                "INSERT INTO players (tg_id, display_name, nickname, nickname_key,"
                " nickname_skeleton, sex) VALUES (?, ?, ?, ?, ?, ?)",
                (tg_id, text, text, key, skel, sex),
            )
            return await _ops.require_player(conn, tg_id)

    async def create_guest(self, name: str, *, sex: str | None = None) -> Player:
        """A friendly game's own seat without Telegram: an account without Telegram whose
        ``name`` is its display name only, never a nickname (it takes no nickname of the
        network, ranks nowhere, is exported nowhere). The name follows the nickname rules.
        Raises InvalidNickname, InvalidValue (sex)."""
        text = normalize_nickname(name)
        if sex is not None and sex not in ("m", "f"):
            raise InvalidValue("sex", sex, "not_m_or_f")
        async with self._db.transaction() as conn:
            await lock_key(conn, Lock.NICKNAME)  # the next id below the offline ones
            async with conn.execute("SELECT min(tg_id) FROM players") as cur:
                row = await cur.fetchone()
            lowest = OFFLINE_ID_MAX + 1 if row is None or row[0] is None else int(row[0])
            tg_id = min(lowest, OFFLINE_ID_MAX + 1) - 1
            await conn.execute(
                "INSERT INTO players (tg_id, display_name, sex) VALUES (?, ?, ?)",
                (tg_id, text, sex))
            return await _ops.require_player(conn, tg_id)

    async def set_nickname(self, tg_id: int, nickname: str) -> Player:
        """Set (or change) the personal nickname. Raises InvalidNickname, NicknameTaken,
        LookalikeNickname (it looks like another player's), NicknameReserved (an imported
        record not linked to this account holds it or a look-alike)."""
        text = normalize_nickname(nickname)
        key = nickname_key(text)
        skel = skeleton(text)
        async with self._writing(tg_id) as conn:
            await lock_key(conn, Lock.NICKNAME)
            await _ops.require_player(conn, tg_id)
            async with conn.execute(
                "SELECT tg_id FROM players WHERE nickname_key = ?", (key,)
            ) as cur:
                owner = await cur.fetchone()
            if owner is not None and int(owner[0]) != tg_id:
                raise NicknameTaken(text, int(owner[0]))
            await check_lookalike(conn, text, skel, tg_id)
            await conn.execute(
                "UPDATE players SET nickname = ?, nickname_key = ?, nickname_skeleton = ?"
                " WHERE tg_id = ?",
                (text, key, skel, tg_id),
            )
            return await _ops.require_player(conn, tg_id)

    async def lookalikes(self) -> list[list[str]]:
        """Groups of current nicknames (players and unlinked imported records) that look
        alike: what ``/lookalikes`` and ``python -m storage lookalikes DB`` report."""
        async with self._db.read() as conn, conn.execute(
            "SELECT nickname FROM players WHERE nickname_key IS NOT NULL"
            " UNION ALL SELECT nickname FROM imported_players WHERE claimed_by IS NULL"
        ) as cur:
            names = [str(r[0]) for r in await cur.fetchall()]
        return lookalike_groups(names)

    async def set_language(self, tg_id: int, language: str) -> Player:
        _check_language(language)
        return await self._update(tg_id, "language = ?", (language,))

    async def set_sex(self, tg_id: int, sex: str) -> Player:
        if sex not in ("m", "f"):
            raise InvalidValue("sex", sex, "not_m_or_f")
        return await self._update(tg_id, "sex = ?", (sex,))

    async def set_bot_blocked(self, tg_id: int, blocked: bool) -> Player:
        """The player blocked (True) or unblocked (False) the bot in Telegram."""
        return await self._update(tg_id, "bot_blocked = ?", (int(blocked),))

    async def propose_spouse(self, tg_id: int, spouse_tg_id: int) -> Player:
        """Record that ``tg_id`` proposes ``spouse_tg_id``; it links once the other confirms."""
        if tg_id == spouse_tg_id:
            raise SpouseError(tg_id, spouse_tg_id, "self")
        async with self._writing(tg_id, spouse_tg_id) as conn:
            me = await _ops.require_player(conn, tg_id)
            other = await _ops.require_player(conn, spouse_tg_id)
            if me.spouse_id is not None or other.spouse_id is not None:
                raise SpouseError(tg_id, spouse_tg_id, "already_married")
            if me.spouse_proposed_to == spouse_tg_id:
                raise SpouseError(tg_id, spouse_tg_id, "already_proposed")
            await conn.execute(
                "UPDATE players SET spouse_proposed_to = ? WHERE tg_id = ?",
                (spouse_tg_id, tg_id),
            )
            return await _ops.require_player(conn, tg_id)

    async def confirm_spouse(self, tg_id: int, proposer_tg_id: int) -> tuple[Player, Player]:
        """``tg_id`` accepts ``proposer_tg_id``'s proposal: both are linked (me, proposer)."""
        if tg_id == proposer_tg_id:
            raise SpouseError(tg_id, proposer_tg_id, "self")
        async with self._writing(tg_id, proposer_tg_id) as conn:
            me = await _ops.require_player(conn, tg_id)
            proposer = await _ops.require_player(conn, proposer_tg_id)
            if proposer.spouse_proposed_to != tg_id:
                raise SpouseError(tg_id, proposer_tg_id, "no_proposal")
            if me.spouse_id is not None or proposer.spouse_id is not None:
                raise SpouseError(tg_id, proposer_tg_id, "already_married")
            await conn.execute(
                "UPDATE players SET spouse_id = CASE tg_id WHEN ?1 THEN ?2 ELSE ?1 END,"
                " spouse_proposed_to = NULL WHERE tg_id IN (?1, ?2)",
                (tg_id, proposer_tg_id),
            )
            return (
                await _ops.require_player(conn, tg_id),
                await _ops.require_player(conn, proposer_tg_id),
            )

    async def divorce(self, tg_id: int) -> Player:
        """Unlink the player and its spouse (no-op when not married). Both rows are locked
        first, in key order as every write of several accounts: two spouses divorcing each
        other at once wait for each other, never in a circle."""
        while True:
            seen = await self.get(tg_id)
            pair = [tg_id] if seen is None or seen.spouse_id is None else [tg_id, seen.spouse_id]
            async with self.cache.writing(self._db, pair) as conn:
                me = await _ops.require_player(conn, tg_id)
                if me.spouse_id == (None if seen is None else seen.spouse_id):
                    await conn.execute(
                        "UPDATE players SET spouse_id = NULL, spouse_proposed_to = NULL"
                        " WHERE tg_id = ? OR (tg_id = ? AND spouse_id = ?)",
                        (tg_id, me.spouse_id, tg_id),
                    )
                    return await _ops.require_player(conn, tg_id)
            # married to another between the read and the lock: read it again

    async def block(self, tg_id: int, *, reason: str, admin_id: int, now: datetime) -> Player:
        """Block the account; its whole balance is burnt by a 'block_burn' ledger row, and its
        open gift requests with it (status 'burned')."""
        async with self._writing(tg_id) as conn:
            await _ops.require_player(conn, tg_id)
            points = await _ops.balance(conn, tg_id)
            await conn.execute(
                "UPDATE players SET blocked = 1, blocked_reason = ? WHERE tg_id = ?",
                (reason, tg_id),
            )
            if points > 0:
                await _ops.insert_ledger(
                    conn, tg_id, -points, kind=KIND_BLOCK_BURN, reason=reason,
                    day=now.date(), at=now, admin_id=admin_id,
                )
            await _ops.burn_requests(conn, "tg_id = ?", (tg_id,), now)
            await _ops.admin_log(
                conn, admin_id, "block", f"player={tg_id} burnt={points} reason={reason}", now
            )
            return await _ops.require_player(conn, tg_id)

    async def unblock(self, tg_id: int, *, admin_id: int, now: datetime) -> Player:
        """Lift the block. Burnt points are not given back."""
        async with self._writing(tg_id) as conn:
            await _ops.require_player(conn, tg_id)
            await conn.execute(
                "UPDATE players SET blocked = 0, blocked_reason = NULL WHERE tg_id = ?", (tg_id,)
            )
            await _ops.admin_log(conn, admin_id, "unblock", f"player={tg_id}", now)
            return await _ops.require_player(conn, tg_id)

    async def record_game_played(self, tg_ids: Iterable[int], day: date) -> None:
        """Count a game without points for these players (``ledger.record_game`` and
        ``games.finish`` already do this for a game's seats; don't call both)."""
        ids = list(tg_ids)
        async with self._writing(*ids) as conn:
            await _ops.games_played(conn, ids, day)

    async def _update(self, tg_id: int, assignment: str, params: tuple[object, ...]) -> Player:
        fresh: list[Player] = []
        async with self._writing(tg_id, fresh=fresh) as conn:
            cur = await conn.execute(
                f"UPDATE players SET {assignment} WHERE tg_id = ?", (*params, tg_id)
            )
            if cur.rowcount == 0:
                raise UnknownPlayer(tg_id)
            fresh.append(await _ops.require_player(conn, tg_id))
        return fresh[0]


async def check_lookalike(conn: Connection, text: str, skel: str, tg_id: int) -> None:
    """Raise LookalikeNickname / NicknameReserved when ``text`` (``skel`` = its skeleton) looks
    like another player's nickname or belongs to an imported record not linked to ``tg_id``."""
    async with conn.execute(
        "SELECT nickname FROM players WHERE nickname_skeleton = ? AND nickname_key IS NOT NULL"
        " AND tg_id <> ? ORDER BY tg_id LIMIT 1",
        (skel, tg_id),
    ) as cur:
        row = await cur.fetchone()
    if row is not None:
        raise LookalikeNickname(text, str(row[0]))
    async with conn.execute(
        "SELECT nickname FROM imported_players WHERE skeleton = ? AND claimed_by IS NULL"
        " ORDER BY id LIMIT 1",
        (skel,),
    ) as cur:
        row = await cur.fetchone()
    if row is not None:
        raise NicknameReserved(str(row[0]))


async def backfill_skeletons(conn: Connection) -> int:
    """Write ``nickname_skeleton`` where a nickname has none (older rows, other writers)."""
    async with conn.execute(
        "SELECT tg_id, nickname FROM players"
        " WHERE nickname_key IS NOT NULL AND nickname_skeleton IS NULL"
    ) as cur:
        rows = [(skeleton(str(r[1])), int(r[0])) for r in await cur.fetchall()]
    if rows:
        await conn.executemany(
            "UPDATE players SET nickname_skeleton = ? WHERE tg_id = ?", rows
        )
    return len(rows)


def _check_language(language: str | None) -> None:
    if language is not None and not (0 < len(language) <= MAX_LANGUAGE_LENGTH):
        raise InvalidValue("language", language, "bad_length")

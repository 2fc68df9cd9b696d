"""Two-month expiry: a week's warning (sent once), then nickname and points are burnt.

A player expires on ``last_game_date + 2 calendar months`` (clamped: 31 Dec -> 28/29 Feb).
Only players who have played at least once expire; a player expires once per last game
(``expired_for``), so a returning player's new nickname is safe until it has played and
been away for two months again. Points an admin adds to an already expired player stay
until then too.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from storage.dates import WARNING_DAYS, expiry_cutoff
from storage.models import KIND_EXPIRY_BURN, Player
from storage.repos import _ops, _rows
from storage.repos.account_cache import AccountCache
from storage.sql import Store

EXPIRY_REASON = "expired"
SWEEP_BATCH = 50_000
SWEEP_CACHE_KIB = 32 * 1024  # SQLite's writer page cache while the sweep runs (then the default)

# Players with something to lose whose current absence has not been swept yet.
_AT_RISK = (
    " p.last_game_date IS NOT NULL"
    " AND p.expired_for IS DISTINCT FROM p.last_game_date"
    " AND (p.nickname_key IS NOT NULL OR b.points > 0)"
)
_COLUMNS = ", ".join(f"p.{c.strip()}" for c in _rows.PLAYER_COLUMNS.split(","))


class Expiry:
    def __init__(self, db: Store, accounts: AccountCache | None = None) -> None:
        self._db = db
        self._accounts = accounts if accounts is not None else AccountCache()

    async def warn_due(self, today: date) -> list[Player]:
        """Players expiring within the next week (today < expiry <= today + 7 days) who have
        not been warned for their current last game. Includes bot_blocked players: the caller
        decides whether it can message them."""
        low = expiry_cutoff(today).isoformat()
        high = expiry_cutoff(today + timedelta(days=WARNING_DAYS)).isoformat()
        async with self._db.read() as conn, conn.execute(
            f"SELECT {_COLUMNS} FROM players p JOIN balances b ON b.tg_id = p.tg_id"
            f" WHERE p.last_game_date > ? AND p.last_game_date <= ? AND {_AT_RISK}"
            " AND (p.expiry_warned_for IS NULL OR p.expiry_warned_for <> p.last_game_date)"
            " ORDER BY p.last_game_date, p.tg_id",
            (low, high),
        ) as cur:
            return [_rows.player(r) for r in await cur.fetchall()]

    async def mark_warned(self, tg_id: int, today: date) -> Player:
        """Record that the warning for the player's current absence was sent."""
        async with self._accounts.writing(self._db, [tg_id], background=True) as conn:
            await _ops.require_player(conn, tg_id)
            await conn.execute(
                "UPDATE players SET expiry_warned_for = last_game_date, expiry_warned_on = ?"
                " WHERE tg_id = ?",
                (today.isoformat(), tg_id),
            )
            return await _ops.require_player(conn, tg_id)

    async def sweep(self, today: date, *, batch: int = SWEEP_BATCH) -> list[Player]:
        """Burn nickname and points of every player whose expiry date is ``today`` or earlier:
        one 'expiry_burn' ledger row each, written in the same transaction as the nickname
        loss and the closing of the player's open gift requests (status 'burned'). Players are
        processed in transactions of at most ``batch`` players, so a large
        catch-up never holds the database for long (other calls interleave between batches);
        a crash between batches leaves whole players burnt and the rest for the next sweep.
        Returns the burnt players, ordered by tg_id, as they were before the burn (with the
        lost nickname)."""
        if batch <= 0:
            raise ValueError("batch must be positive")
        burnt: list[Player] = []
        # a catch-up of months touches most of the players' pages: a big cache for it only
        await self._db.set_cache(SWEEP_CACHE_KIB)
        try:
            while True:
                chunk = await self._sweep_batch(today, batch)
                burnt.extend(chunk)
                if len(chunk) < batch:
                    break
        finally:
            await self._db.set_cache(None)
        burnt.sort(key=lambda p: p.tg_id)
        return burnt

    async def _sweep_batch(self, today: date, batch: int) -> list[Player]:
        cutoff = expiry_cutoff(today).isoformat()
        # once a day, and nobody waits for it: behind the games' steps
        async with self._accounts.writing(self._db, None, background=True) as conn:
            # Set-based: the candidates go to a temporary table, then one statement each
            # clears the nicknames and writes the burn rows.
            await conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS expiry_sweep"
                " (tg_id INTEGER PRIMARY KEY, points INTEGER NOT NULL)"
            )
            await conn.execute("DELETE FROM expiry_sweep")
            # PostgreSQL: each player and balance locked, in tg_id order, and read as the
            # write that held it (a game's points, an /adjust) left it
            await conn.execute(
                "INSERT INTO expiry_sweep (tg_id, points)"
                " SELECT p.tg_id, b.points FROM players p JOIN balances b ON b.tg_id = p.tg_id"
                f" WHERE p.last_game_date <= ? AND {_AT_RISK} ORDER BY p.tg_id LIMIT ?"
                + (" FOR UPDATE" if conn.concurrent else ""),
                (cutoff, batch),
            )
            async with conn.execute(
                f"SELECT {_COLUMNS} FROM expiry_sweep s JOIN players p ON p.tg_id = s.tg_id"
                " ORDER BY s.tg_id"
            ) as cur:
                burnt = [_rows.player(r) for r in await cur.fetchall()]
            if burnt:
                # Nicknames first: the players leave the leaderboard while they still hold
                # their points, so the burn rows below touch no leaderboard bucket.
                await conn.execute(
                    "UPDATE players SET nickname = NULL, nickname_key = NULL,"
                    " expired_for = last_game_date"
                    " WHERE tg_id IN (SELECT tg_id FROM expiry_sweep)"
                )
                await conn.execute(
                    "INSERT INTO ledger (tg_id, points, kind, reason, day)"
                    " SELECT tg_id, -points, ?, ?, ? FROM expiry_sweep WHERE points > 0"
                    " ORDER BY tg_id",
                    (KIND_EXPIRY_BURN, EXPIRY_REASON, today.isoformat()),
                )
                # the reserved points burn with the rest: the open gift requests close
                await _ops.burn_requests(
                    conn, "tg_id IN (SELECT tg_id FROM expiry_sweep)", (),
                    datetime.combine(today, time(), UTC))
            await conn.execute("DELETE FROM expiry_sweep")
            return burnt

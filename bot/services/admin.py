"""Admin actions: redeem, adjust, block, unblock, export, complaints. Each one is logged."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock, utc_now
from bot.errors import UserError, explain
from bot.services.accounts import Accounts, display
from bot.services.permissions import Permissions, Power
from storage.db import Database
from storage.errors import InsufficientBalance, StorageError
from storage.models import Player
from storage.numbers import read_number
from storage.shop.requests import EXPORT_COLUMNS
from storage.spreadsheets.files import write_csv

MAX_REASON = 200


def _points(word: str) -> int:
    """A word :func:`read_number` took already (``+5``, ``-3``)."""
    points = read_number(word, signed=True)
    assert points is not None
    return points


@dataclass(frozen=True)
class PointsChange:
    player: Player
    points: int
    reason: str
    balance: int


class Admin:
    def __init__(
        self,
        db: Database,
        accounts: Accounts,
        permissions: Permissions,
        *,
        clock: Clock = utc_now,
    ) -> None:
        self.db = db
        self.accounts = accounts
        self.permissions = permissions
        self.clock = clock

    async def is_admin(self, tg_id: int) -> bool:
        """An owner or a network admin: the admins' router, help and menu."""
        return await self.permissions.is_network_staff(tg_id)

    async def parse_points_args(self, args: str, usage: str) -> tuple[Player, int, str]:
        """``NICK POINTS REASON`` where NICK may contain spaces (or be quoted)."""
        words = args.split()
        numbers = [i for i, word in enumerate(words)
                   if i > 0 and read_number(word, signed=True) is not None]
        if args.strip().startswith('"'):
            player, rest = await self.accounts.split_nick(args)
            words = [*rest.split()]
            if not words or read_number(words[0], signed=True) is None or len(words) < 2:
                raise UserError(usage)
            return player, _points(words[0]), " ".join(words[1:])[:MAX_REASON]
        if not numbers:
            raise UserError(usage)
        for index in reversed(numbers):  # the longest nickname wins ("Agent 007 5 mug")
            found = await self.db.players.by_nickname(" ".join(words[:index]))
            if found is not None:
                reason = " ".join(words[index + 1 :])
                if not reason:
                    raise UserError(usage)
                return found, _points(words[index]), reason[:MAX_REASON]
        raise UserError("admin.not_found", nick=" ".join(words[: numbers[0]]))

    async def redeem(self, admin_id: int, args: str) -> PointsChange:
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        player, points, reason = await self.parse_points_args(args, "admin.redeem_usage")
        if points <= 0:
            raise UserError("admin.invalid_amount", points=points)
        try:
            balance = await self.db.ledger.redeem(
                player.tg_id, points, reason=reason, admin_id=admin_id, now=self.clock()
            )
        except InsufficientBalance as e:
            if e.reserved:  # open gift requests hold some of them
                raise _reserved(player, e, points) from e
            raise UserError("admin.insufficient", nick=display(player), balance=e.balance,
                            points=points) from e
        except StorageError as e:
            raise explain(e) from e
        return PointsChange(player, points, reason, balance)

    async def adjust(self, admin_id: int, args: str) -> PointsChange:
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        player, points, reason = await self.parse_points_args(args, "admin.adjust_usage")
        if points == 0:
            raise UserError("admin.invalid_amount", points=points)
        try:
            balance = await self.db.ledger.adjust(
                player.tg_id, points, reason=reason, admin_id=admin_id, now=self.clock()
            )
        except InsufficientBalance as e:  # who, how much, and the balance now
            if e.reserved:
                raise _reserved(player, e, -points) from e
            raise UserError("admin.adjust_insufficient", nick=display(player),
                            balance=e.balance, points=-points) from e
        except StorageError as e:
            raise explain(e) from e
        return PointsChange(player, points, reason, balance)

    async def block(self, admin_id: int, args: str) -> tuple[Player, str]:
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        if not args.strip():
            raise UserError("admin.block_usage")
        player, reason = await self.accounts.split_nick(args)
        if player.blocked:
            raise UserError("admin.already_blocked", nick=display(player))
        reason = reason[:MAX_REASON]
        await self.db.players.block(player.tg_id, reason=reason, admin_id=admin_id,
                                    now=self.clock())
        return player, reason

    async def unblock(self, admin_id: int, args: str) -> Player:
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        if not args.strip():
            raise UserError("admin.unblock_usage")
        player = await self.accounts.by_nick(args.strip().strip('"'))
        if not player.blocked:
            raise UserError("admin.not_blocked", nick=display(player))
        await self.db.players.unblock(player.tg_id, admin_id=admin_id, now=self.clock())
        return player

    async def export_csv(self, admin_id: int) -> bytes:
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        data = await self.db.ledger.export_csv()
        await self.db.admin_log.record(admin_id, "export", "balances csv", self.clock())
        return data.encode("utf-8")

    async def export_xlsx(self, admin_id: int) -> bytes:
        """The same columns as :meth:`export_csv` on the first sheet (the one ``/import``
        reads), and every gift request on a second."""
        await self.permissions.require(admin_id, Power.MOVE_POINTS)
        data = await self.db.ledger.export_xlsx(more=[
            ("gift requests", EXPORT_COLUMNS, await self.db.gift_requests.export_rows())])
        await self.db.admin_log.record(admin_id, "export", "balances xlsx", self.clock())
        return data

    async def export_requests_csv(self) -> bytes | None:
        """Every gift request as CSV (None while there is none)."""
        rows = await self.db.gift_requests.export_rows()
        return write_csv(EXPORT_COLUMNS, rows) if rows else None

    async def complaints(self, admin_id: int) -> list[tuple[Player, int]]:
        """Every player's complaints, network-wide: the network's admins."""
        await self.permissions.require(admin_id, Power.MANAGE_CLUB)
        counts = await self.db.complaints.counts()
        await self.db.admin_log.record(admin_id, "complaints", "viewed counts", self.clock())
        return list(counts)


def _reserved(player: Player, error: InsufficientBalance, points: int) -> UserError:
    """Points asked for that open gift requests hold: how many are free, and what to do."""
    return UserError("shop.take_reserved", nick=display(player), points=points,
                     balance=error.balance, reserved=error.reserved,
                     available=max(0, error.balance - error.reserved))

"""Typed storage errors.

Every error the repositories raise on bad input is a :class:`StorageError`. Each subclass has a
stable machine ``code`` (a class attribute) and carries the data the bot needs to phrase a
localized answer. Whenever one of these is raised, nothing of the call was written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.models import Appeal, Game, Gift, GiftRequest


class StorageError(Exception):
    """Base class of every storage error."""

    code: str = "storage_error"


class UnknownPlayer(StorageError):
    code = "unknown_player"

    def __init__(self, tg_id: int) -> None:
        super().__init__(f"unknown player {tg_id}")
        self.tg_id = tg_id


class UnknownClub(StorageError):
    code = "unknown_club"

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"unknown club chat {chat_id}")
        self.chat_id = chat_id


class UnknownGame(StorageError):
    code = "unknown_game"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"unknown game {game_id}")
        self.game_id = game_id


class UnknownOrder(StorageError):
    code = "unknown_order"

    def __init__(self, order_id: int) -> None:
        super().__init__(f"unknown immunity order {order_id}")
        self.order_id = order_id


class InvalidNickname(StorageError):
    """``reason``: "too_short", "too_long", "bad_chars", "stacked_marks",
    "no_letter_or_digit"."""

    code = "invalid_nickname"

    def __init__(self, nickname: str, reason: str) -> None:
        super().__init__(f"invalid nickname {nickname!r}: {reason}")
        self.nickname = nickname
        self.reason = reason


class NicknameTaken(StorageError):
    code = "nickname_taken"

    def __init__(self, nickname: str, owner_tg_id: int) -> None:
        super().__init__(f"nickname {nickname!r} is taken")
        self.nickname = nickname
        self.owner_tg_id = owner_tg_id


class LookalikeNickname(StorageError):
    """The nickname looks like ``existing`` (same ``storage.lookalike.skeleton``)."""

    code = "lookalike_nickname"

    def __init__(self, nickname: str, existing: str) -> None:
        super().__init__(f"nickname {nickname!r} looks like {existing!r}")
        self.nickname = nickname
        self.existing = existing


class NicknameReserved(StorageError):
    """The nickname belongs to an imported record not linked to this account yet."""

    code = "nickname_reserved"

    def __init__(self, nickname: str) -> None:
        super().__init__(f"nickname {nickname!r} is reserved by an imported record")
        self.nickname = nickname


class InvalidAmount(StorageError):
    """A redemption of zero or fewer points, an adjustment of zero, negative game points."""

    code = "invalid_amount"

    def __init__(self, points: int) -> None:
        super().__init__(f"invalid amount of points: {points}")
        self.points = points


class InsufficientBalance(StorageError):
    """The change would take the balance below zero, or below the points reserved by open gift
    requests (``reserved``); nothing was written."""

    code = "insufficient_balance"

    def __init__(self, tg_id: int, balance: int, requested: int, reserved: int = 0) -> None:
        super().__init__(f"player {tg_id} has {balance} points ({reserved} reserved),"
                         f" {requested} requested")
        self.tg_id = tg_id
        self.balance = balance
        self.requested = requested
        self.reserved = reserved


class DailyLimit(StorageError):
    """The player has written ``limit`` rows of this kind today already (``what``:
    "complaint"); nothing was written."""

    code = "daily_limit"

    def __init__(self, tg_id: int, what: str, limit: int) -> None:
        super().__init__(f"player {tg_id}: {limit} {what}(s) today already")
        self.tg_id = tg_id
        self.what = what
        self.limit = limit


class FineAboveCap(StorageError):
    """A fine above the network's cap: a club's price of a foul above the cap on one foul's
    fine (``scope`` "fine"), or a foul's fine that would take a player's fines in one game above
    the cap on them (``scope`` "game"); nothing was written."""

    code = "fine_above_cap"

    def __init__(self, scope: str, value: int, cap: int) -> None:
        super().__init__(f"a {scope} fine of {value} is above the network's cap of {cap}")
        self.scope = scope
        self.value = value
        self.cap = cap


class SpouseError(StorageError):
    """``reason``: "self", "already_married", "already_proposed", "no_proposal"."""

    code = "spouse_error"

    def __init__(self, tg_id: int, other_tg_id: int, reason: str) -> None:
        super().__init__(f"spouse {tg_id} / {other_tg_id}: {reason}")
        self.tg_id = tg_id
        self.other_tg_id = other_tg_id
        self.reason = reason


class InvalidValue(StorageError):
    """A field got a value outside its domain (sex, status, timer, language, seats, text...)."""

    code = "invalid_value"

    def __init__(self, field: str, value: object, reason: str) -> None:
        super().__init__(f"invalid {field} {value!r}: {reason}")
        self.field = field
        self.value = value
        self.reason = reason


class GameClosed(StorageError):
    """The game is finished or aborted; its log and seats no longer change."""

    code = "game_closed"

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}")
        self.game_id = game_id
        self.status = status


class FriendlyGame(StorageError):
    """A friendly game (its club not approved by the network) writes no ledger row."""

    code = "friendly_game"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is friendly: it writes no points")
        self.game_id = game_id


class InvalidOrder(StorageError):
    """``reason``: "self", "not_seated", "duplicate"."""

    code = "invalid_order"

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"immunity order in game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason


class ImmunityAlreadyUsed(StorageError):
    code = "immunity_already_used"

    def __init__(self, order_id: int) -> None:
        super().__init__(f"immunity order {order_id} is already used")
        self.order_id = order_id


class GiftRefused(StorageError):
    """The shop refused: ``reason`` is one of "unknown_gift", "retired", "out_of_stock",
    "price_changed", "insufficient", "blocked", "duplicate", "unknown_request", "closed",
    "not_yours", "name_taken", "below_reserved". ``gift`` and ``request`` name what was
    refused where known; ``available``: the player's points free of reservations
    ("insufficient"), or the items reserved ("below_reserved")."""

    code = "gift_refused"

    def __init__(self, reason: str, *, gift: Gift | None = None,
                 request: GiftRequest | None = None,
                 available: int = 0) -> None:
        super().__init__(f"gift refused: {reason}")
        self.reason = reason
        self.gift = gift
        self.request = request
        self.available = available


class VoidRefused(StorageError):
    """A void or an appeal refused: ``reason`` is one of "already_voided" (``game`` says by
    whom and why), "not_finished", "not_seated", "duplicate" (an appeal of this player and game
    exists: ``appeal``), "unknown_appeal", "closed" (the appeal was decided: ``appeal``)."""

    code = "void_refused"

    def __init__(self, reason: str, *, game: Game | None = None,
                 appeal: Appeal | None = None) -> None:
        super().__init__(f"void refused: {reason}")
        self.reason = reason
        self.game = game
        self.appeal = appeal


class BackupRefused(StorageError):
    """The copy a backup wrote failed ``PRAGMA integrity_check`` (``problem``: its first
    line); the copy was removed and nothing took the backup's name."""

    code = "backup_refused"

    def __init__(self, out: str, problem: str) -> None:
        super().__init__(f"the backup copy for {out} failed its integrity check: {problem};"
                         " nothing was written there")
        self.out = out
        self.problem = problem


__all__ = [
    "BackupRefused",
    "DailyLimit",
    "GameClosed",
    "GiftRefused",
    "ImmunityAlreadyUsed",
    "InsufficientBalance",
    "InvalidAmount",
    "InvalidNickname",
    "InvalidOrder",
    "InvalidValue",
    "NicknameTaken",
    "SpouseError",
    "StorageError",
    "UnknownClub",
    "UnknownGame",
    "UnknownOrder",
    "UnknownPlayer",
    "VoidRefused",
]

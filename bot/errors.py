"""Errors that end a handler with a localized answer instead of a traceback."""

from __future__ import annotations

from typing import Any

from storage.errors import (
    FineAboveCap,
    InsufficientBalance,
    InvalidAmount,
    InvalidNickname,
    LookalikeNickname,
    NicknameReserved,
    NicknameTaken,
    SpouseError,
    StorageError,
)
from storage.nickname import MAX_LENGTH, MIN_LENGTH


class UserError(Exception):
    """A refusal the user must see: a locale key plus its placeholders."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


def explain(error: StorageError) -> UserError:
    """Turn a storage refusal into the text the user sees."""
    if isinstance(error, InvalidNickname):
        return UserError(f"nick.{error.reason}", min=MIN_LENGTH, max=MAX_LENGTH)
    if isinstance(error, NicknameTaken):
        return UserError("nick.taken", nick=error.nickname)
    if isinstance(error, LookalikeNickname):
        return UserError("nick.lookalike", nick=error.nickname, existing=error.existing)
    if isinstance(error, NicknameReserved):
        return UserError("nick.reserved", nick=error.nickname)
    if isinstance(error, SpouseError):
        return UserError(f"spouse.{error.reason}")
    if isinstance(error, InvalidAmount):
        return UserError("admin.invalid_amount", points=error.points)
    if isinstance(error, FineAboveCap) and error.scope == "fine":
        return UserError("club.settings.fine_cap", cap=error.cap)
    if isinstance(error, InsufficientBalance):
        return UserError("admin.insufficient", nick=str(error.tg_id), balance=error.balance,
                         points=error.requested)
    return UserError("misc.error")

"""Errors the engine raises; each names the seat at fault where there is one."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal by the engine."""


class RuleViolation(EngineError):
    """A choice or move that the rules do not allow.

    ``code`` is a stable machine name (the bot translates it), ``seat`` the seat at fault.
    """

    def __init__(self, code: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.seat = seat


class CompositionError(EngineError):
    """A table or composition that breaks the deal rules (docs/rules.md#2-the-deal)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

"""``present(value)``: a value the test expects to be there, narrowed from ``T | None`` to ``T``
(an AssertionError, not an AttributeError further on, when it is None)."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    assert value is not None, "expected a value, found None"
    return value

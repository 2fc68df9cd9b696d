"""The clock: ``Clock``, a callable returning an aware UTC ``datetime``, and ``utc_now``, the
real one. The services, the game layer and the jobs take a ``Clock``; the tests give a fake."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)

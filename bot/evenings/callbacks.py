"""The payloads of an evening's buttons: the post's sign-up and cancel (also in ``/evenings``),
and the host's dialog that announces one (each press carries what was chosen so far)."""

from __future__ import annotations

from typing import Literal

from aiogram.filters.callback_data import CallbackData


class EveningCb(CallbackData, prefix="ev"):
    evening: int
    action: Literal["in", "out"]


class EveningDialogCb(CallbackData, prefix="ed"):
    """``/evening`` with no words: the day (``YYYYMMDD``), then the time (``HHMM``), the
    tables, the seats at each; ``close`` ends the dialog."""

    day: str = ""
    at: str = ""
    tables: int = 0
    seats: int = 0
    close: bool = False

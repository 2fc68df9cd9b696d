"""The host's buttons that announce an evening (``/evening`` with no words): the day, the time,
the tables, the seats at each. Nothing is kept between presses: each button carries what was
chosen so far (:class:`EveningDialogCb`), and the last one announces."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.errors import UserError
from bot.evenings.callbacks import EveningDialogCb
from views import evenings as texts
from views.i18n import Safe, Translator

DAYS = 14  # today and the next 13
TIMES = tuple(time(hour, minute) for hour in range(14, 23) for minute in (0, 30))
TABLES = tuple(range(1, 7))
SEATS = tuple(range(6, 16))  # other sizes: the typed command


def chosen_day(state: EveningDialogCb) -> date:
    try:
        return datetime.strptime(state.day, "%Y%m%d").date()
    except ValueError:
        raise UserError("evening.dialog.closed") from None


def chosen_start(state: EveningDialogCb, zone: ZoneInfo) -> datetime:
    try:
        at = datetime.strptime(state.at, "%H%M").time()
    except ValueError:
        raise UserError("evening.dialog.closed") from None
    return datetime.combine(chosen_day(state), at, tzinfo=zone)


def screen(tr: Translator, locale: str, state: EveningDialogCb,
           now: datetime) -> tuple[str, InlineKeyboardMarkup]:
    """The dialog's text and buttons for what was chosen so far (``now``: in the zone)."""
    zone = now.tzinfo
    assert isinstance(zone, ZoneInfo)
    buttons: list[tuple[str, EveningDialogCb]]
    if not state.day:
        text = tr.t(locale, "evening.dialog.day")
        days = [now.date() + timedelta(days=n) for n in range(DAYS)]
        buttons = [(_day(tr, locale, d), EveningDialogCb(day=d.strftime("%Y%m%d")))
                   for d in days]
        width = 4
    elif not state.at:
        day = chosen_day(state)
        text = tr.t(locale, "evening.dialog.time", day=Safe(_day(tr, locale, day)))
        buttons = [(t.strftime("%H:%M"), EveningDialogCb(day=state.day, at=t.strftime("%H%M")))
                   for t in TIMES if datetime.combine(day, t, tzinfo=zone) > now]
        width = 6
    else:
        start = chosen_start(state, zone)
        when = Safe(texts.when(tr, locale, start))
        if not state.tables:
            text = tr.t(locale, "evening.dialog.tables", when=when)
            buttons = [(str(n), EveningDialogCb(day=state.day, at=state.at, tables=n))
                       for n in TABLES]
        else:
            text = tr.t(locale, "evening.dialog.seats", when=when, tables=state.tables)
            buttons = [(str(n), EveningDialogCb(day=state.day, at=state.at,
                                                tables=state.tables, seats=n))
                       for n in SEATS]
        width = 6
    keyboard = [[InlineKeyboardButton(text=label, callback_data=data.pack())
                 for label, data in buttons[i:i + width]] for i in range(0, len(buttons), width)]
    keyboard.append([InlineKeyboardButton(text=tr.t(locale, "evening.dialog.close"),
                                          callback_data=EveningDialogCb(close=True).pack())])
    return text, InlineKeyboardMarkup(inline_keyboard=keyboard)


def _day(tr: Translator, locale: str, day: date) -> str:
    return tr.t(locale, "evening.dialog.day_button",
                weekday=tr.t(locale, f"evening.weekday.{day.weekday()}"), day=day)

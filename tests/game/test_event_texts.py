"""The club chat's words for what the engine decided (``views/event_text.py``), as a Russian and
an English table read them: one player's death or release agrees with that player, a list takes
the plural."""

from __future__ import annotations

from datetime import date

import pytest

from engine import Event
from engine.composition import default_composition
from engine.events import EVERYONE
from engine.game import SeatSpec, new_game
from record.table import SeatInfo, Table
from views.event_text import EventText
from views.i18n import Translator

NAMES = {1: ("Аня", "f"), 2: ("Борис", "m"), 3: ("Женя", None)}


def table() -> Table:
    roles = default_composition(10)
    t = Table(1, -100, 5, date(2026, 12, 4))
    t.seats = {s: SeatInfo(s, 100 + s, NAMES.get(s, (f"Игрок{s}", None))[0])
               for s in range(1, 11)}
    t.state = new_game([SeatSpec(s, roles[s - 1], NAMES.get(s, ("", None))[1])
                        for s in range(1, 11)])
    return t


def said(translator: Translator, locale: str, kind: str, **data: object) -> str:
    return EventText(translator).render(table(), Event(kind, EVERYONE, data), locale)


@pytest.mark.parametrize(("seat", "text"), [
    (1, "🌅 Ночь 2 окончена. Город просыпается. Этой ночью погибла №1 Аня."),
    (2, "🌅 Ночь 2 окончена. Город просыпается. Этой ночью погиб №2 Борис."),
    (3, "🌅 Ночь 2 окончена. Город просыпается. Этой ночью погиб игрок №3 Женя.")])
def test_one_death_agrees_with_the_player(translator: Translator, seat: int, text: str) -> None:
    assert said(translator, "ru", "night_deaths", night=2, seats=[seat]) == text


def test_deaths_and_releases_read_in_both_languages(translator: Translator) -> None:
    assert said(translator, "ru", "night_deaths", night=1, seats=[1, 2]) == (
        "🌅 Ночь 1 окончена. Город просыпается. Этой ночью погибли: №1 Аня и №2 Борис.")
    assert said(translator, "en", "night_deaths", night=1, seats=[1]) == (
        "🌅 Morning after night 1. №1 Аня died tonight.")
    assert said(translator, "en", "night_deaths", night=1, seats=[1, 2, 3]) == (
        "🌅 Morning after night 1. Died tonight: №1 Аня, №2 Борис and №3 Женя.")
    assert said(translator, "ru", "released", seats=[1]) == "Из тюрьмы выходит №1 Аня."
    assert said(translator, "ru", "released", seats=[1, 2]) == (
        "Из тюрьмы выходят: №1 Аня и №2 Борис.")
    assert said(translator, "en", "released", seats=[2]) == "№2 Борис is out of jail."
    assert said(translator, "en", "released", seats=[2, 3]) == (
        "Out of jail: №2 Борис and №3 Женя.")

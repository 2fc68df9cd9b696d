"""Every achievement of the catalogue has its words in both languages (a short name, one line
on how it is earned), the names apart from each other; how a player reads them; the players'
tables of docs/standing.md are the catalogue's."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from standing.achievements import BY_ID, CATALOGUE, Count
from storage.standing.achievements import Award
from views import achievements as shown_to
from views.i18n import Translator

TR = Translator.load()


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_achievement_has_a_name_and_a_line_in_both_languages(locale: str) -> None:
    names = []
    for achievement in CATALOGUE:
        for part in ("name", "text"):
            assert TR.has(locale, f"achievement.{achievement.id}.{part}"), (achievement.id, part)
        name = shown_to.name(TR, locale, achievement.id)
        text = shown_to.text(TR, locale, achievement.id)
        assert 0 < len(name) <= 24 and "\n" not in name, name
        assert 0 < len(text) <= 90 and "\n" not in text, text
        names.append(name)
    assert len(set(names)) == len(names)
    ids = {k.split(".")[1] for k in (m.replace("-", ".") for m in TR.catalogs[locale])
           if k.startswith("achievement.") and k.endswith((".name", ".text"))}
    assert ids == set(BY_ID), "no words for an achievement the catalogue lacks"


def test_the_end_message_names_each_level_with_its_icon_and_line() -> None:
    text = shown_to.told(TR, "ru", 12, [("games", 1), ("doctor_triple", 1)])
    assert text.splitlines() == [
        "🏅 Новые достижения в игре №12:",
        "🎲 <b>Завсегдатай</b> · 1 — Сыгранные засчитанные игры.",
        "🩺 <b>Чудо-доктор</b> · 1 — С картой Доктора вы трижды за одну игру спасли игрока от"
        " ночного выстрела."]
    one = shown_to.told(TR, "en", 3, [("lucky_twice", 1)])
    assert one == ("🏅 A new achievement in game #3:\n"
                   "🌈 <b>Born lucky</b> — As the Lucky, lived through shots on two nights of"
                   " one game.")


def test_the_club_post_escapes_the_players_name() -> None:
    post = shown_to.club_post(TR, "en", 7, [("№2 <b>Ann</b>", "lone_wolf", 1)])
    assert post == ("🏅 A rare achievement in game #7:\n№2 &lt;b&gt;Ann&lt;/b&gt;: 🐺 <b>Lone"
                    " wolf</b> · 1 — The last Mafia player standing, you won the game alone.")


def test_a_player_sees_the_highest_level_and_the_way_to_the_next() -> None:
    day = date(2026, 3, 1)
    awards = [Award(1, "games", 1, 1, day), Award(1, "games", 10, 10, day),
              Award(1, "lucky_twice", 1, 4, day), Award(1, "doctor_saves", 1, 4, day),
              Award(1, "gone_from_catalogue", 1, 2, day)]
    progress = {"games": Count(12, 12), "win_streak": Count(0, 2), "doctor_saves": Count(3, 3)}
    items = shown_to.shown(awards, progress)
    assert [i.achievement.id for i in items] == [a.id for a in CATALOGUE]
    by = {i.achievement.id: i for i in items}
    assert (by["games"].level, by["games"].value, by["games"].next) == (10, 12, 50)
    assert (by["lucky_twice"].level, by["lucky_twice"].next) == (1, None)
    assert by["win_streak"].level is None and by["win_streak"].next == 3
    assert by["doctor_saves"].next == 5
    lines = shown_to.profile_lines(TR, "en", items)
    assert lines == [
        f"<b>Achievements</b> (3 of {len(CATALOGUE)}):",
        "🎲 <b>Regular</b> · 10", "💉 <b>Doctor on call</b> · 1", "🌈 <b>Born lucky</b>",
        "On the way:",
        "🔥 Hot streak: 2 of 3", "💉 Doctor on call: 3 of 5", "🎲 Regular: 12 of 50"]
    assert shown_to.profile_lines(TR, "ru", shown_to.shown([], {})) == [
        "Достижения: пока нет; они приходят с засчитанными играми."]


def test_a_seasons_top_ten_is_levelled_by_its_counter_and_told_in_private() -> None:
    """The seasonal one has no stored level: its counter (the closed seasons in the top ten)
    gives it; the message of a season's close names the season (escaped), the place and the
    seasons counted."""
    by = {i.achievement.id: i for i in shown_to.shown([], {"season_top": Count(6, 6)})}
    assert (by["season_top"].level, by["season_top"].value, by["season_top"].next) == (5, 6, 25)
    none = {i.achievement.id: i for i in shown_to.shown([], {})}["season_top"]
    assert (none.level, none.next) == (None, 1)
    assert shown_to.profile_lines(TR, "ru", shown_to.shown([], {"season_top": Count(1, 1)}))[
        1] == "🌟 <b>Десятка лучших сезона</b> · 1"
    ru = shown_to.season_told(TR, "ru", "Летний <кубок>", 3, 1)
    assert ru == ("🌟 Сезон «Летний &lt;кубок&gt;» закончен, и вы в десятке лучших сезона:"
                  " 3-е место в рейтинге сезона сети.\n"
                  "🌟 <b>Десятка лучших сезона</b> · 1 — 1 сезон в десятке.")
    assert shown_to.season_told(TR, "ru", "Q", 10, 6).endswith(" · 5 — 6 сезонов в десятке.")
    en = shown_to.season_told(TR, "en", "Q1 2026", 1, 2)
    assert en == ("🌟 Season Q1 2026 is over, and you are in its top ten: number 1 in the"
                  " network's season rating.\n"
                  "🌟 <b>Season's top ten</b> · 1 — 2 seasons in the top ten.")


DOCS = Path(__file__).resolve().parents[2] / "docs" / "standing.md"
TABLES = {"en": ("## Achievements (for players)", "once", "yes"),
          "ru": ("## Достижения (для игроков)", "один раз", "да")}


def docs_table(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` in docs/standing.md, cell by cell."""
    section = DOCS.read_text(encoding="utf-8").split(heading + "\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_players_table_in_the_docs_is_the_catalogue(locale: str) -> None:
    """docs/standing.md lists every achievement in the catalogue's order with its icon, name,
    line, levels and whether it is rare, in both languages: it cannot drift from the code."""
    heading, once, rare = TABLES[locale]
    expected = [[a.icon, shown_to.name(TR, locale, a.id), shown_to.text(TR, locale, a.id),
                 once if a.levels == (1,) else ", ".join(map(str, a.levels)),
                 rare if a.rare else ""] for a in CATALOGUE]
    assert docs_table(heading) == expected

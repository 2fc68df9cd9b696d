"""The seasons' calendar: the quarters by default, custom seasons cutting them, and which
custom seasons may be set."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

import pytest

from standing.seasons import (
    LONGEST_DAYS,
    Custom,
    Season,
    check_custom,
    previous,
    quarter_of,
    season_of,
    seasons_between,
)


@pytest.mark.parametrize(("day", "start", "end"), [
    (date(2026, 1, 1), date(2026, 1, 1), date(2026, 3, 31)),
    (date(2026, 3, 31), date(2026, 1, 1), date(2026, 3, 31)),
    (date(2026, 4, 1), date(2026, 4, 1), date(2026, 6, 30)),
    (date(2026, 8, 15), date(2026, 7, 1), date(2026, 9, 30)),
    (date(2026, 12, 31), date(2026, 10, 1), date(2026, 12, 31)),
    (date(2028, 2, 29), date(2028, 1, 1), date(2028, 3, 31)),
])
def test_a_day_without_custom_seasons_is_in_its_quarter(day: date, start: date,
                                                        end: date) -> None:
    assert quarter_of(day) == (start, end)
    season = season_of(day, [])
    assert season == Season(start, end) and season.key == start.isoformat()
    assert season.quarter == (start.year, (start.month - 1) // 3 + 1)


def test_a_custom_season_cuts_the_quarters_it_overlaps() -> None:
    summer = Custom(date(2026, 6, 1), date(2026, 8, 31), "Summer cup")
    assert season_of(date(2026, 5, 31), [summer]) == Season(date(2026, 4, 1), date(2026, 5, 31))
    assert season_of(date(2026, 6, 1), [summer]) == Season(summer.start, summer.end, "Summer cup")
    assert season_of(date(2026, 8, 31), [summer]).name == "Summer cup"
    assert season_of(date(2026, 9, 1), [summer]) == Season(date(2026, 9, 1), date(2026, 9, 30))
    # the seasons follow each other without a gap or an overlap
    seasons = seasons_between(date(2026, 1, 1), date(2026, 12, 31), [summer])
    assert [s.key for s in seasons] == ["2026-01-01", "2026-04-01", "2026-06-01", "2026-09-01",
                                        "2026-10-01"]
    for before, after in itertools.pairwise(seasons):
        assert after.start == before.end + timedelta(days=1)
    assert previous(seasons[3], [summer]) == seasons[2]


def test_a_custom_season_inside_a_quarter_leaves_two_pieces_of_it() -> None:
    cup = Custom(date(2026, 2, 10), date(2026, 2, 20), "Cup")
    keys = [s.key for s in seasons_between(date(2026, 1, 1), date(2026, 3, 31), [cup])]
    assert keys == ["2026-01-01", "2026-02-10", "2026-02-21"]
    assert season_of(date(2026, 3, 31), [cup]) == Season(date(2026, 2, 21), date(2026, 3, 31))


def test_which_custom_seasons_may_be_set() -> None:
    today = date(2026, 5, 10)
    cup = Custom(date(2026, 6, 1), date(2026, 6, 30), "Cup")
    assert check_custom(Custom(date(2026, 7, 1), date(2026, 7, 31), "July"), [cup],
                        earliest=today) is None
    assert check_custom(Custom(date(2026, 6, 30), date(2026, 7, 31), ""), [cup],
                        earliest=today) == "overlap"
    assert check_custom(Custom(date(2026, 5, 9), date(2026, 5, 31), ""), [],
                        earliest=today) == "past"
    assert check_custom(Custom(date(2026, 7, 2), date(2026, 7, 1), ""), [],
                        earliest=today) == "order"
    long = Custom(today, today + timedelta(days=LONGEST_DAYS), "")
    assert check_custom(long, [], earliest=today) == "long"
    assert check_custom(Custom(today, today, "x" * 41), [], earliest=today) == "name"

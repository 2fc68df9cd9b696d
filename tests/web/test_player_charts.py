"""A player's charts drawn from hand-made data (they decode, have their size, change with the
data and survive their JSON), and the roles' lines of ``/profile`` at their edges: one game,
no kill, no counted game."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from standing.roles import Compared, Point, Record, Rival, SeatResult
from views.charts import (
    BAR_ROW,
    BARS_BOTTOM,
    BARS_TOP,
    RATING_HEIGHT,
    WIDTH,
    Bar,
    RatingChart,
    RolesChart,
    chart_of,
    rating_chart,
    render_chart,
)
from views.i18n import Translator
from views.standing import RolesAndRivals, profile_lines, roles_picture


def decoded(data: bytes, kind: str = "PNG") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == kind
    return image


def point(mu: float, sigma: float = 5.0) -> Point:
    return Point(1, 1, "mafia", SeatResult.WIN, mu, sigma)


def test_the_rating_line_decodes_and_changes_with_the_points() -> None:
    assert rating_chart([], title="t") is None and rating_chart([point(25)], title="t") is None
    chart = rating_chart([point(25), point(26), point(24, 4)], title="Рейтинг")
    assert chart is not None and chart.points == (10.0, 11.0, 12.0)
    drawn = render_chart(chart)
    assert decoded(drawn).size == (WIDTH, RATING_HEIGHT)
    assert render_chart(chart) == drawn  # the same data, the same picture
    assert render_chart(RatingChart("Рейтинг", (10.0, 11.0, 9.0))) != drawn
    assert render_chart(RatingChart("Рейтинг", (3.0, 3.0))) != drawn  # flat: still a scale
    assert decoded(render_chart(chart, jpeg=True), "JPEG").size == (WIDTH, RATING_HEIGHT)
    assert chart_of(chart.to_json()) == chart


@pytest.mark.parametrize("count", [1, 3, 15])
def test_the_bars_grow_with_the_cards_and_change_with_the_shares(count: int) -> None:
    bars = tuple(Bar(f"Карта {n} ({n + 1})", n / 15, 0.5, n < 5) for n in range(count))
    chart = RolesChart("Доля побед", bars, ("игрока", "у всех"))
    drawn = render_chart(chart)
    assert decoded(drawn).size == (WIDTH, BARS_TOP + BAR_ROW * count + BARS_BOTTOM)
    moved = RolesChart("Доля побед", (replace(bars[0], everyone=0.9), *bars[1:]), chart.legend)
    assert render_chart(moved) != drawn
    assert chart_of(chart.to_json()) == chart


def one_game(translator: Translator, *, killed: bool) -> RolesAndRivals:
    card = Compared("doctor", Record(1, 0, 0), Record(40, 18, 1))
    return RolesAndRivals(
        cards=[card], sides=[Compared("civilians", Record(1, 0, 0), Record(300, 160, 4))],
        rivals=[Rival(7, "Ann <b>", 1, 0, 0, 0, killed_you=1 if killed else 0)],
        killed_by={"mafia": 1} if killed else {}, killed={}, points=[point(25)])


def test_the_profiles_lines_of_one_game(translator: Translator) -> None:
    text = "\n".join(profile_lines(translator, "ru", one_game(translator, killed=False)))
    assert "Доктор: 1 игра, побед 0 (0%); у всех — 45% из 40 игр, пока мало игр" in text
    assert "Мирные жители: 1 игра, побед 0 (0%); у всех — 53% из 300 игр\n" in text
    assert "Ann &lt;b&gt; — в одной команде: 1 (побед 0), против: 0 (ваших побед 0)" in text
    assert "убийства ночью" not in text  # no kill between them: not said
    assert "Кто убивал вас" not in text and "Кого убили" not in text  # no empty heading
    assert "/top role" in text
    killed = "\n".join(profile_lines(translator, "en", one_game(translator, killed=True)))
    assert "<b>Killed at night by</b>: Mafia — 1" in killed
    assert "; killed you at night: 1, you killed them: 0" in killed
    assert "Your shots killed" not in killed
    chart = roles_picture(translator, "ru", one_game(translator, killed=False))
    assert chart is not None and chart.bars == (Bar("Доктор (1)", 0.0, 0.45, True),)


def test_no_counted_game_is_one_sentence(translator: Translator) -> None:
    nothing = RolesAndRivals([], [], [], {}, {}, [])
    assert profile_lines(translator, "ru", nothing) == [
        "Засчитанных игр пока нет: карты, соперники и ночные убийства появятся после первой."]
    assert roles_picture(translator, "ru", nothing) is None

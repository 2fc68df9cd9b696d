"""The standing's pictures (Pillow): a player's skill rating after each counted game (a line),
the share of wins by card beside everyone's with the card (bars, each with its games), and a
season's board as a club's chat gets it when the season ends (two columns of lines).

Two pure parts, as the table's picture (:mod:`views.picture`): :func:`rating_chart` and
:func:`roles_chart` turn what was read (:mod:`views.standing`) into what is drawn, with every
word already in the reader's language; :func:`render_chart` draws it and knows nothing of
cards or ratings. A chart is plain JSON too (:meth:`RatingChart.to_json`), so an outbox row
keeps what to draw and the sender draws it (``views/drawing.py``).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from standing.roles import MIN_ROLE_GAMES, Compared, Point
from views.picture import BACKGROUND, INK, MUTED, font

WIDTH = 800
RATING_HEIGHT = 400
BAR_ROW = 34  # a card's row in the bars
BARS_TOP = 84  # the title and the legend above the bars
BARS_BOTTOM = 24
LINE = (46, 99, 70)
GRID = (221, 221, 221)
MINE = (60, 110, 200)
MINE_FEW = (170, 190, 225)  # a card with too few games to say much
EVERYONE = (200, 60, 40)


@dataclass(frozen=True, slots=True)
class RatingChart:
    """The overall rating after each counted game, oldest first."""

    title: str
    points: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"chart": "rating", "title": self.title,
                "points": [round(p, 2) for p in self.points]}


@dataclass(frozen=True, slots=True)
class Bar:
    label: str  # the card's name with the player's games
    mine: float  # the player's share of wins, 0..1
    everyone: float  # everyone's with the card
    few: bool  # too few games to say much (drawn pale)


@dataclass(frozen=True, slots=True)
class RolesChart:
    """The player's share of wins with each card, beside everyone's."""

    title: str
    bars: tuple[Bar, ...]
    legend: tuple[str, str]  # the words for the player's bars and for everyone's marks

    def to_json(self) -> dict[str, Any]:
        return {"chart": "roles", "title": self.title, "legend": list(self.legend),
                "bars": [[b.label, b.mine, b.everyone, b.few] for b in self.bars]}


@dataclass(frozen=True, slots=True)
class BoardChart:
    """A season's board: its columns (the board by rating, the one by points), each a head
    and its lines, every word already in the reader's language."""

    title: str
    columns: tuple[tuple[str, tuple[str, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {"chart": "board", "title": self.title,
                "columns": [[head, list(lines)] for head, lines in self.columns]}


Chart = RatingChart | RolesChart | BoardChart
BOARD_TOP = 96  # the title and the columns' heads above the lines
BOARD_ROW = 32
BOARD_BOTTOM = 24


def chart_of(data: Mapping[str, Any]) -> Chart:
    """A chart kept as JSON (:meth:`RatingChart.to_json`, :meth:`RolesChart.to_json`)."""
    if data["chart"] == "rating":
        return RatingChart(str(data["title"]), tuple(float(p) for p in data["points"]))
    if data["chart"] == "board":
        return BoardChart(str(data["title"]), tuple(
            (str(head), tuple(str(line) for line in lines)) for head, lines in data["columns"]))
    legend = data["legend"]
    return RolesChart(str(data["title"]),
                      tuple(Bar(str(label), float(mine), float(everyone), bool(few))
                            for label, mine, everyone, few in data["bars"]),
                      (str(legend[0]), str(legend[1])))


def rating_chart(points: list[Point], *, title: str) -> RatingChart | None:
    """The line of the rating's shown figure after each game (None under two games: no
    line to draw)."""
    if len(points) < 2:
        return None
    return RatingChart(title, tuple(p.ordinal for p in points))


def roles_chart(cards: list[Compared], *, title: str, legend: tuple[str, str],
                label: Callable[[Compared], str]) -> RolesChart | None:
    """A bar per card played (None without a counted game)."""
    if not cards:
        return None
    return RolesChart(title, tuple(
        Bar(label(c), c.mine.rate or 0.0, c.everyone.rate or 0.0,
            c.mine.games < MIN_ROLE_GAMES) for c in cards), legend)


def size_of(chart: Chart) -> tuple[int, int]:
    if isinstance(chart, RatingChart):
        return WIDTH, RATING_HEIGHT
    if isinstance(chart, BoardChart):
        rows = max([len(lines) for _, lines in chart.columns] or [1]) or 1
        return WIDTH, BOARD_TOP + BOARD_ROW * rows + BOARD_BOTTOM
    return WIDTH, BARS_TOP + BAR_ROW * len(chart.bars) + BARS_BOTTOM


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rating(draw: ImageDraw.ImageDraw, chart: RatingChart) -> None:
    left, right, top, bottom = 70, WIDTH - 24, 56, RATING_HEIGHT - 36
    low, high = min(chart.points), max(chart.points)
    if high - low < 1:  # a flat line still has a scale
        low, high = low - 0.5, high + 0.5
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    small = font(14)

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for k in range(5):
        value = low + (high - low) * k / 4
        y = y_of(value)
        draw.line((left, y, right, y), fill=GRID, width=1)
        draw.text((left - 8, y), f"{value:.1f}", fill=MUTED, font=small, anchor="rm")
    if low < 0 < high:
        draw.line((left, y_of(0), right, y_of(0)), fill=MUTED, width=1)
    count = len(chart.points)
    xy = [(left + (right - left) * i / (count - 1), y_of(v)) for i, v in enumerate(chart.points)]
    draw.line(xy, fill=LINE, width=3, joint="curve")
    if count <= 60:
        for x, y in xy:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=LINE)
    draw.text((left, bottom + 10), "1", fill=MUTED, font=small, anchor="mt")
    draw.text((right, bottom + 10), str(count), fill=MUTED, font=small, anchor="mt")
    last = chart.points[-1]
    draw.text((right, y_of(last) - 10), f"{last:.1f}", fill=INK, font=font(16), anchor="rb")


def _roles(draw: ImageDraw.ImageDraw, chart: RolesChart) -> None:
    small, label_font = font(14), font(16)
    left, right = 250, WIDTH - 70
    # the legend: the player's bar, everyone's mark
    ly = 58
    draw.rectangle((24, ly - 7, 44, ly + 7), fill=MINE)
    draw.text((52, ly), chart.legend[0], fill=INK, font=small, anchor="lm")
    lx = 52 + draw.textlength(chart.legend[0], font=small) + 30
    draw.line((lx + 8, ly - 10, lx + 8, ly + 10), fill=EVERYONE, width=4)
    draw.text((lx + 20, ly), chart.legend[1], fill=INK, font=small, anchor="lm")
    for share in (0.0, 0.5, 1.0):
        x = left + (right - left) * share
        draw.line((x, BARS_TOP - 4, x, BARS_TOP + BAR_ROW * len(chart.bars)), fill=GRID)
    for n, bar in enumerate(chart.bars):
        top = BARS_TOP + n * BAR_ROW
        mid = top + BAR_ROW / 2
        draw.text((left - 12, mid), _fit(bar.label, 28), fill=INK, font=label_font,
                  anchor="rm")
        end = left + (right - left) * bar.mine
        if end > left:
            draw.rectangle((left, top + 7, end, top + BAR_ROW - 7),
                           fill=MINE_FEW if bar.few else MINE)
        draw.text((max(end, left) + 8, mid), f"{round(100 * bar.mine)}%", fill=INK,
                  font=small, anchor="lm")
        x = left + (right - left) * bar.everyone
        draw.line((x, top + 3, x, top + BAR_ROW - 3), fill=EVERYONE, width=4)


def _board(draw: ImageDraw.ImageDraw, chart: BoardChart) -> None:
    width = (WIDTH - 48) // max(len(chart.columns), 1)
    head, line = font(18), font(17)
    for index, (title, lines) in enumerate(chart.columns):
        left = 24 + width * index
        draw.text((left, 62), _fit(title, 34), fill=MUTED, font=head, anchor="lm")
        draw.line((left, 80, left + width - 24, 80), fill=GRID)
        for row, text in enumerate(lines):
            y = BOARD_TOP + BOARD_ROW * row + BOARD_ROW // 2
            draw.text((left, y), _fit(text, 34), fill=INK, font=line, anchor="lm")


def render_chart(chart: Chart, *, jpeg: bool = False) -> bytes:
    """The PNG (``jpeg``: a JPEG, for Telegram) of ``chart``, :func:`size_of` pixels."""
    image = Image.new("RGB", size_of(chart), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((24, 16), _fit(chart.title, 70), fill=INK, font=font(22), anchor="lt")
    if isinstance(chart, RatingChart):
        _rating(draw, chart)
    elif isinstance(chart, BoardChart):
        _board(draw, chart)
    else:
        _roles(draw, chart)
    out = io.BytesIO()
    if jpeg:
        image.save(out, format="JPEG", quality=92, subsampling=0)
    else:
        image.save(out, format="PNG", compress_level=3)
    return out.getvalue()

"""A picture of the table (Pillow): the seats around a circle, nicknames, who is alive, dead or
jailed, and the open immunities; every card only once the game is over.

Two pure parts. :func:`table_view` turns the engine's state into what may be shown (it is the
only place that decides whether cards are drawn: never before the end); :func:`render_table`
draws a :class:`TableView` to PNG bytes and knows nothing of roles or rules.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine import GameState, Phase

# Debian's fonts-dejavu-core (installed by the Dockerfile and CI): Latin and Cyrillic. Pillow's
# bundled default font has no Cyrillic glyphs, so it is only the last resort.
FONT_PATHS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
)

SIZE = 720
BACKGROUND = (250, 247, 240)
TABLE = (46, 99, 70)
INK = (30, 30, 30)
MUTED = (140, 140, 140)
COLOURS = {
    "alive": (60, 160, 90),
    "dead": (120, 120, 120),
    "jailed": (220, 140, 30),
}
IMMUNITY = (60, 110, 200)
NUMBER = (255, 255, 255)  # a seat's number: white, outlined in INK
NUMBER_STROKE = 2


class SeatState(StrEnum):
    ALIVE = "alive"
    DEAD = "dead"
    JAILED = "jailed"


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    nickname: str
    state: SeatState
    immunities: tuple[str, ...] = ()  # localized names of the open immunities in force
    card: str | None = None  # localized card name: only in the picture of a finished game


@dataclass(frozen=True, slots=True)
class TableView:
    title: str
    seats: tuple[SeatView, ...]
    legend: Mapping[SeatState, str]  # localized words for alive / dead / jailed

    def texts(self) -> list[str]:
        """Every string the picture draws (what the tests check for secrets)."""
        out = [self.title, *self.legend.values()]
        for s in self.seats:
            out += [s.nickname, *s.immunities]
            if s.card is not None:
                out.append(s.card)
        return out

    def to_json(self) -> dict[str, Any]:
        """What an outbox row keeps (the picture is drawn when it is sent): plain JSON."""
        return {"title": self.title,
                "seats": [[s.seat, s.nickname, str(s.state), list(s.immunities), s.card]
                          for s in self.seats],
                "legend": {str(k): v for k, v in self.legend.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableView:
        return cls(title=str(data["title"]),
                   seats=tuple(SeatView(int(seat), str(nickname), SeatState(state),
                                        tuple(immunities), card)
                               for seat, nickname, state, immunities, card in data["seats"]),
                   legend={SeatState(k): str(v) for k, v in data["legend"].items()})


def table_view(
    state: GameState,
    names: Mapping[int, str],
    *,
    title: str,
    label: Callable[[str], str],
) -> TableView:
    """What the picture may show of ``state``: cards only when the game is over.

    ``label(key)`` localizes ``seat.alive|dead|jailed``, ``immunity.<name>`` and
    ``role.<card>``.
    """
    seats = []
    for player in state:
        if not player.alive:
            seat_state = SeatState.DEAD
        elif player.jailed:
            seat_state = SeatState.JAILED
        else:
            seat_state = SeatState.ALIVE
        in_force = player.alive and (state.open_immunity_active(player.seat, Phase.NIGHT)
                                     or state.open_immunity_active(player.seat, Phase.DAY))
        immunities = tuple(label(f"immunity.{i}") for i in sorted(player.open_immunities)
                           ) if in_force else ()
        seats.append(SeatView(
            seat=player.seat,
            nickname=names.get(player.seat, "?"),
            state=seat_state,
            immunities=immunities,
            card=label(f"role.{player.role}") if state.over else None,
        ))
    legend = {s: label(f"seat.{s}") for s in SeatState}
    return TableView(title=title, seats=tuple(sorted(seats, key=lambda v: v.seat)),
                     legend=legend)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in FONT_PATHS:
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


RING = 0.31  # the seats' circle, as a share of the picture's size


def seat_geometry(index: int, count: int, size: int = SIZE) -> tuple[float, float, float]:
    """Where seat ``index`` of ``count`` is drawn: its centre and its disc's radius."""
    ring = size * RING
    angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
    dot = max(10.0, min(size * 0.045, math.pi * ring / max(count, 1) * 0.55))
    return size / 2 + ring * math.cos(angle), size / 2 + ring * math.sin(angle), dot


def render_table(view: TableView, *, size: int = SIZE, jpeg: bool = False) -> bytes:
    """The PNG of ``view`` (``jpeg``: a JPEG): a square picture ``size`` pixels wide."""
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    centre = size / 2
    title_font, name_font, small = font(size // 28), font(size // 44), font(size // 56)
    draw.text((centre, size * 0.025), _fit(view.title, 60), fill=INK, font=title_font,
              anchor="mt")
    table_r = size * 0.2
    draw.ellipse((centre - table_r, centre - table_r, centre + table_r, centre + table_r),
                 fill=TABLE)
    count = max(len(view.seats), 1)
    ring = size * RING
    for index, seat in enumerate(view.seats):
        x, y, dot = seat_geometry(index, count, size)
        angle = -math.pi / 2 + 2 * math.pi * index / count
        colour = COLOURS[seat.state]
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=colour, outline=INK, width=2)
        if seat.state is SeatState.DEAD:
            draw.line((x - dot, y - dot, x + dot, y + dot), fill=INK, width=3)
            draw.line((x - dot, y + dot, x + dot, y - dot), fill=INK, width=3)
        elif seat.state is SeatState.JAILED:
            for k in (-0.5, 0.0, 0.5):
                draw.line((x + k * dot, y - dot, x + k * dot, y + dot), fill=INK, width=2)
        # the number last, on a patch of the seat's colour and outlined: the cross and the
        # bars stop around it instead of crossing it out
        number = str(seat.seat)
        left, top, right, bottom = draw.textbbox((x, y), number, font=name_font, anchor="mm")
        r = max(right - left, bottom - top) / 2 + NUMBER_STROKE + 1
        if seat.state is not SeatState.ALIVE:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        draw.text((x, y), number, fill=NUMBER, font=name_font, anchor="mm",
                  stroke_width=NUMBER_STROKE, stroke_fill=INK)
        # the labels go outward from the seat, away from the table
        lx = centre + (ring + dot + size * 0.075) * math.cos(angle)
        ly = centre + (ring + dot + size * 0.035) * math.sin(angle)
        lines: list[tuple[str, tuple[int, int, int], object]] = [
            (_fit(seat.nickname, 16), MUTED if seat.state is SeatState.DEAD else INK, name_font)]
        if seat.card is not None:
            lines.append((_fit(seat.card, 18), INK, small))
        lines += [(_fit(i, 20), IMMUNITY, small) for i in seat.immunities]
        spacing = size / 42  # from one label's line to the next
        top = ly - spacing * (len(lines) - 1) / 2
        for n, (text, fill, face) in enumerate(lines):
            draw.text((lx, top + n * spacing), text, fill=fill, font=face,  # type: ignore[arg-type]
                      anchor="mm")
    # legend
    lx, ly = size * 0.04, size * 0.95
    for seat_state in SeatState:
        draw.ellipse((lx, ly - 8, lx + 16, ly + 8), fill=COLOURS[seat_state], outline=INK)
        word = view.legend.get(seat_state, str(seat_state))
        draw.text((lx + 22, ly), word, fill=INK, font=small, anchor="lm")
        lx += 22 + draw.textlength(word, font=small) + 24
    out = io.BytesIO()
    if jpeg:  # for Telegram, which makes every photo a JPEG anyway: far less CPU than a PNG
        image.save(out, format="JPEG", quality=92, subsampling=0)  # 4:4:4 keeps text sharp
        return out.getvalue()
    # level 3, not optimize=True or 6: the page's picture is drawn often, and a little more
    # bytes cost less than the CPU
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()

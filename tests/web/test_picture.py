"""The table picture: no card before the end (checked on the renderer's inputs), every card at
the end, and a real PNG of the expected size with the state colours in it."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import GameState, OpenImmunity
from tests.game.harness import role_names
from tests.web.conftest import Played
from views.i18n import Translator
from views.picture import (
    COLOURS,
    INK,
    NUMBER,
    SeatState,
    SeatView,
    TableView,
    render_table,
    seat_geometry,
    table_view,
)
from views.stats import StatsService


def view_of(state: GameState, names: dict[int, str], tr: Translator, locale: str) -> TableView:
    return table_view(state, names, title="Game", label=lambda k: tr.t(locale, f"stats.pic.{k}")
                      if k.startswith("seat.") else tr.t(locale, f"game.{k}"))


async def test_no_card_before_the_end(played: Played, translator: Translator) -> None:
    table = played.h.service.tables[played.running_id]
    names = {s: i.name for s, i in table.seats.items()}
    secrets = role_names(translator)
    for state in (table.game, replace(table.game, night_number=1)):
        for locale in ("ru", "en"):
            view = view_of(state, names, translator, locale)
            assert all(s.card is None for s in view.seats)
            drawn = " ".join(view.texts())
            assert not [r for r in secrets if r in drawn], drawn
            assert {s.nickname for s in view.seats} == set(names.values())


async def test_every_card_at_the_end(played: Played, translator: Translator) -> None:
    got = await StatsService(played.db).picture_state(played.game_id)
    assert got is not None
    state, names = got
    view = view_of(state, names, translator, "en")
    assert [s.card for s in view.seats] == [
        translator.t("en", f"game.role.{state.player(s.seat).role}") for s in view.seats]
    dead = {s.seat for s in view.seats if s.state is SeatState.DEAD}
    assert dead == {p.seat for p in state if not p.alive}


def test_open_immunities_are_shown_only_while_in_force(played: Played,
                                                       translator: Translator) -> None:
    table = played.h.service.tables[played.running_id]
    first = next(iter(table.game))
    imm = frozenset({OpenImmunity.NEWBIE})
    players = dict(table.game.players)
    players[first.seat] = first._replace(open_immunities=imm)
    state = replace(table.game, players=players)
    names = {s: i.name for s, i in table.seats.items()}
    label = translator.t("en", "game.immunity.newbie")
    assert label in view_of(state, names, translator, "en").texts()
    later = replace(state, night_number=1, day_number=1)
    assert label not in view_of(later, names, translator, "en").texts()


def test_render_is_a_png_of_the_size_with_the_state_colours() -> None:
    seats = tuple(SeatView(i, f"Игрок {i}", state)
                  for i, state in enumerate([SeatState.ALIVE, SeatState.DEAD, SeatState.JAILED,
                                             SeatState.ALIVE] * 3, 1))
    view = TableView("Игра №1", seats, {s: str(s) for s in SeatState})
    data = render_table(view, size=400)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (400, 400)
    only_alive = Image.open(io.BytesIO(render_table(replace(view, seats=tuple(
        replace(s, state=SeatState.ALIVE) for s in seats)), size=400)))
    # the legend shows every colour once; the seats add far more of their state's colour
    for state in (SeatState.DEAD, SeatState.JAILED):
        assert pixels(image, COLOURS[state]) > 5 * pixels(only_alive, COLOURS[state]) > 0
    assert pixels(only_alive, COLOURS["alive"]) > pixels(image, COLOURS["alive"])


def test_the_jpeg_for_telegram_is_the_same_picture() -> None:
    """Telegram makes every photo a JPEG; the bot sends one (a sixth of the PNG's CPU): the
    same picture, within JPEG's small differences, text kept sharp (no chroma subsampling)."""
    seats = tuple(SeatView(i, f"P{i}", state) for i, state in enumerate(
        [SeatState.ALIVE, SeatState.DEAD, SeatState.JAILED] * 4, 1))
    view = TableView("Game 1", seats, {s: str(s) for s in SeatState})
    png = Image.open(io.BytesIO(render_table(view))).convert("RGB")
    jpeg = Image.open(io.BytesIO(render_table(view, jpeg=True)))
    assert jpeg.format == "JPEG" and jpeg.size == png.size
    sampling = [(h, v) for _, h, v, _ in jpeg.layer]  # type: ignore[attr-defined]
    assert sampling == [(1, 1)] * 3
    differences = ImageChops.difference(png, jpeg.convert("RGB")).convert("L")
    assert ImageStat.Stat(differences).mean[0] < 2  # of 255, averaged over the picture


def light(image: Image.Image) -> int:
    """Pixels of a number's white (the seats' colours and the ink are all darker)."""
    assert min(NUMBER) > 200 and all(min(c) < 200 for c in (*COLOURS.values(), INK))
    counts = image.convert("RGB").getcolors(image.width * image.height) or []
    return sum(n for n, c in counts if isinstance(c, tuple) and min(c) > 200)


def pixels(image: Image.Image, colour: tuple[int, int, int]) -> int:
    counts = image.convert("RGB").getcolors(image.width * image.height) or []
    return sum(n for n, c in counts if c == colour)


def seat_crop(count: int, seat: int, state: SeatState, share: float) -> Image.Image:
    """Seat ``seat`` of ``count`` drawn in ``state`` (the others alive): the square around its
    centre, ``share`` of its disc's radius each way."""
    seats = tuple(SeatView(i, f"P{i}", state if i == seat else SeatState.ALIVE)
                  for i in range(1, count + 1))
    png = render_table(TableView("Game", seats, {s: str(s) for s in SeatState}))
    x, y, dot = seat_geometry(seat - 1, count)
    half = dot * share
    return Image.open(io.BytesIO(png)).crop(
        (round(x - half), round(y - half), round(x + half), round(y + half)))


def test_a_dead_or_jailed_seat_keeps_its_number_readable() -> None:
    """The cross and the bars are drawn under the number, on a patch of the seat's colour: the
    number's white is whole, as on a living seat, and the mark is still there around it."""
    for count in (12, 24):
        for seat in range(1, count + 1, 5):
            white = light(seat_crop(count, seat, SeatState.ALIVE, 0.45))
            assert white > 10, (count, seat)
            ink = pixels(seat_crop(count, seat, SeatState.ALIVE, 1.0), INK)
            for state in (SeatState.DEAD, SeatState.JAILED):
                number = seat_crop(count, seat, state, 0.45)
                assert light(number) == white, (count, seat, state)  # nothing drawn over it
                marked = pixels(seat_crop(count, seat, state, 1.0), INK)
                assert marked > ink + 20, (count, seat, state)  # the cross, the bars


async def test_the_pages_pictures_are_kept_within_a_bound(played: Played,
                                                          translator: Translator) -> None:
    """The finished games' pictures are kept up to a number of bytes, the least recently asked
    for going first: a crawl of every game in every language grows no memory past it."""
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import PICTURES, create_web_app

    app = create_web_app(played.db, translator=translator)
    async with TestClient(TestServer(app)) as client:
        ru = await client.get(f"/game/{played.game_id}/table.png?lang=ru")
        size = len(await ru.read())
    bounded = create_web_app(played.db, translator=translator, picture_bytes=size * 3 // 2)
    async with TestClient(TestServer(bounded)) as client:
        for lang in ("ru", "en", "ru", "en"):
            got = await client.get(f"/game/{played.game_id}/table.png?lang={lang}")
            assert got.status == 200 and got.content_type == "image/png"
            assert await got.read()
            kept = bounded[PICTURES]
            assert list(kept) == [(played.game_id, lang)]  # the other language went
            assert kept.currsize <= kept.maxsize


async def test_a_picture_larger_than_the_bound_is_served_and_not_kept(
        played: Played, translator: Translator) -> None:
    """A bound smaller than one picture keeps none: each picture is drawn and served all the
    same, and the same bytes come again on the next ask."""
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import PICTURES, create_web_app

    tiny = create_web_app(played.db, translator=translator, picture_bytes=1)
    async with TestClient(TestServer(tiny)) as client:
        first = await client.get(f"/game/{played.game_id}/table.png?lang=ru")
        assert first.status == 200 and first.content_type == "image/png"
        body = await first.read()
        assert len(body) > 1
        assert len(tiny[PICTURES]) == 0 and tiny[PICTURES].currsize == 0
        again = await client.get(f"/game/{played.game_id}/table.png?lang=ru")
        assert again.status == 200 and await again.read() == body
        assert len(tiny[PICTURES]) == 0


async def test_a_page_s_picture_being_drawn_does_not_hold_up_a_game_s(
        played: Played, translator: Translator, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game's picture for its page is drawn on a thread of its own: while one is
    being drawn (held here until the running game's picture is done), a running game's
    picture for its post is drawn all the same."""
    import asyncio
    import threading

    from aiohttp.test_utils import TestClient, TestServer

    import views.picture
    from views.drawing import draw
    from web.app import create_web_app

    entered, release = threading.Event(), threading.Event()
    real = views.picture.render_table

    def held(view: TableView, **kw: Any) -> bytes:
        if kw.get("jpeg") is not True:  # the page's PNG: held until the game's is drawn
            entered.set()
            release.wait(120)
        return real(view, **kw)

    monkeypatch.setattr(views.picture, "render_table", held)
    table = played.h.service.tables[played.running_id]
    names = {s: i.name for s, i in table.seats.items()}
    running = view_of(table.game, names, translator, "en").to_json()
    app = create_web_app(played.db, translator=translator)
    try:
        async with TestClient(TestServer(app)) as client:
            page = asyncio.ensure_future(client.get(f"/game/{played.game_id}/table.png"))
            assert await asyncio.to_thread(entered.wait, 60)  # the page's drawing began
            # a bound only for the failure's sake: with one thread the drawing waits forever
            jpeg = await asyncio.wait_for(draw(running), 60)
            assert jpeg[:3] == b"\xff\xd8\xff" and not page.done()
            release.set()
            answer = await page
            assert answer.status == 200 and (await answer.read())[:4] == b"\x89PNG"
    finally:
        release.set()

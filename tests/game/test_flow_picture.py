"""The table's picture in the club chat over HTTP: one with each day's first post, one with every
card at the end; before the end the renderer is never given a card."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import views.picture
from record.table import Stage
from tests.fakes.telegram_server import FakeTelegram
from tests.game.flow import CLUB, Flow, start_app, stop_app, wait_until
from views.picture import TableView, render_table

JPEG = b"\xff\xd8\xff"  # Telegram makes every photo a JPEG: the bot sends one


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


async def test_table_picture_each_day_and_at_the_end(fake: FakeTelegram, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[TableView] = []

    def spy(view: TableView, **kwargs: Any) -> bytes:
        drawn.append(view)
        return render_table(view, **kwargs)
    monkeypatch.setattr(views.picture, "render_table", spy)

    app, task = await start_app(fake, tmp_path)
    try:
        flow = Flow(fake, app, "ru")
        await flow.lobby(10)
        await flow.deal()
        table = flow.table
        await flow.play_to_end()
    finally:
        await stop_app(app, task)

    messages = fake.messages(CLUB)
    photos = [m for m in messages if m.photo_bytes is not None]
    assert all(p.photo_bytes and p.photo_bytes.startswith(JPEG) for p in photos)
    mornings = [p for p in photos if "☀️" in p.body]
    final = photos[-1]
    assert photos == [*mornings, final]
    # one picture a day: the morning's one post, captioned with the night's news, then the
    # day's start
    days = [m for m in messages if "☀️" in m.body and "Обсуждение" in m.body]
    assert days == mornings and len(mornings) == len(drawn) - 1 >= 1
    assert all(p.body.startswith("🌅") for p in mornings)
    assert not any(m.body.startswith("🌅") for m in messages
                   if m not in mornings and "🏁" not in m.body)  # (a morning that ends it)
    assert [p.body.index(f"Ночь {n} окончена. Город просыпается") < p.body.index(f"День {n}.")
            for n, p in enumerate(mornings, 1)] == [True] * len(mornings)
    # the final picture comes after the reveal, with every card
    end = next(i for i, m in enumerate(messages) if "🏁" in m.body)
    assert messages.index(final) > end and "все карты" in (final.caption or "")
    # what the renderer drew: no card before the end, every card at the end
    roles = {s: flow.games.tr.t("ru", f"game.role.{table.role(s)}") for s in table.seats}
    for view in drawn[:-1]:
        assert all(seat.card is None for seat in view.seats)
        assert not set(roles.values()) & set(view.texts())
    assert {seat.seat: seat.card for seat in drawn[-1].seats} == roles
    assert [seat.nickname for seat in drawn[-1].seats] == [table.name(s) for s in
                                                          sorted(table.seats)]


async def test_the_nights_last_choice_is_answered_before_its_picture_is_drawn(
        fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last choice resolves the night and queues the morning's picture post; the press is
    answered at once, and the sender draws the picture when the post's turn comes (a morning of
    many tables drew its pictures one at a time while the last pressers waited for theirs)."""
    may_draw, drawing = threading.Event(), threading.Event()

    def held(view: TableView, **kwargs: Any) -> bytes:
        drawing.set()
        may_draw.wait(30)
        return render_table(view, **kwargs)
    monkeypatch.setattr(views.picture, "render_table", held)

    app, task = await start_app(fake, tmp_path, night_seconds=60, mafia_agree_seconds=60)
    try:
        flow = Flow(fake, app, "en")
        await flow.lobby(10)
        await flow.deal()
        await flow.start("/night", Stage.NIGHT)
        await flow.night_choices()  # each press waits for its answer (10 s at most)
        assert not flow.over and flow.table.stage is not Stage.NIGHT
        await wait_until(drawing.is_set, 10, "the sender drawing the morning")
        assert not any(m.photo_bytes for m in fake.messages(CLUB))
        may_draw.set()
        await flow.delivered()
        [morning] = [m for m in fake.messages(CLUB) if m.photo_bytes is not None]
        assert morning.photo_bytes is not None and morning.photo_bytes.startswith(JPEG)
        assert "Morning after night 1" in morning.body
    finally:
        may_draw.set()
        await stop_app(app, task)

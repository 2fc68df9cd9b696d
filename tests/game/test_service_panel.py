"""The host's panel with the service: one message kept current by throttled edits, only when the
table changed; its pages; ``/panel``; the Mini App button; names escaped."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.game.panel.live import COUNTDOWN_TICK, PANEL_EDIT_GAP, seconds_left
from bot.game.panel.render import PanelDrawing
from bot.game.panel.view import HostSeat, HostView
from bot.wiring import mini_app_url
from record.table import NIGHT_DL
from storage.db import Database
from storage.repos.outbox import EDIT, SEND, Queued
from tests.fakes.recording_sender import RecordingSender
from tests.game.conftest import FakeClock, make_harness
from tests.game.harness import CHAT, HOST, Harness
from views.i18n import Translator


class Capture(RecordingSender):
    """Records the queued requests too (their throttle)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Queued] = []

    async def deliver(self, messages: Sequence[Queued]) -> None:
        self.requests += messages
        await super().deliver(messages)


@pytest.fixture
async def hp(db: Database, fake_clock: FakeClock, translator: Translator,
             tmp_path: Path) -> AsyncIterator[Harness]:
    harness = make_harness(db, fake_clock, translator, tmp_path, panel=True,
                           web_url="https://club.example/mafia", sender=Capture())
    await db.clubs.ensure(CHAT, title="Club", locale="en")
    await db.players.register(HOST, display_name="Host", language="en")
    yield harness


def panel_requests(h: Harness) -> list[Queued]:
    assert isinstance(h.sender, Capture)
    return [q for q in h.sender.requests if q.chat_id == HOST and (q.key or "").startswith(
        f"g{h.game_id}:panel")]


async def press(h: Harness, *args: Any) -> None:
    """A panel button, then its write (the press is answered before the commit; what the step
    says leaves after it)."""
    await h.service.panel.press(*args)
    await h.service.steps.writes.settled(h.game_id)


def current_panel(h: Harness) -> str:
    return str(panel_requests(h)[-1].payload["text"])


async def test_one_panel_edited_only_when_the_table_changes(hp: Harness) -> None:
    h = hp
    await h.lobby(10)
    sent = panel_requests(h)
    assert [q.method for q in sent].count(SEND) == 1
    assert all(q.method == EDIT and q.throttle == PANEL_EDIT_GAP for q in sent[1:])
    assert "Player10" in current_panel(h)
    before = len(panel_requests(h))
    # a step that changes nothing (a member's /status; a refused command): no edit
    await h.service.status(CHAT, 1001)
    await h.refused(h.service.technical_death(CHAT, HOST, 3))  # before the deal: refused
    assert len(panel_requests(h)) == before
    await h.service.deal(CHAT, HOST)
    assert len(panel_requests(h)) == before + 1
    assert "cards dealt" in current_panel(h)
    assert panel_requests(h)[-1].throttle == 0  # the host's own step: redrawn at once
    markup = panel_requests(h)[-1].payload["markup"]["inline_keyboard"]
    buttons = [str(b.get("callback_data", "")) for row in markup for b in row]
    assert any(d.endswith(":night:") for d in buttons)
    assert not any(":deal:" in d for d in buttons)
    web = [b for row in markup for b in row if "web_app" in b]
    assert web and web[0]["web_app"]["url"] == f"https://club.example/mafia/host/{h.game_id}"


async def test_pages_and_a_refused_page(hp: Harness) -> None:
    h = hp
    await h.dealt(10)
    await press(h, h.game_id, HOST, 0, "menu", "tech")
    assert "whose seat?" in current_panel(h)
    await press(h, h.game_id, HOST, 0, "menu", "tech.3")
    assert "Remove №3 Player3" in current_panel(h)
    assert await h.refused(h.service.panel.press(h.game_id, 1001, 0, "menu", "end")) == \
        "game.not_host"
    await press(h, h.game_id, HOST, 5, "menu", "end")  # legal now: whatever moment drew it
    assert "End the game now?" in current_panel(h)
    assert await h.refused(h.service.panel.press(h.game_id, HOST, 0, "menu", "preset")) == \
        "game.stale"  # the lobby's page, after the deal
    await press(h, h.game_id, HOST, 0, "tech", "3")
    assert not h.table.game.player(3).alive
    assert "💀" in current_panel(h) and "whose seat?" not in current_panel(h)


async def test_panel_command_sends_a_new_one(hp: Harness) -> None:
    h = hp
    await h.lobby(10)
    first = panel_requests(h)[0].key
    assert await h.service.panel.show(1001) is False  # not a host
    assert await h.service.panel.show(HOST) is True
    sends = [q for q in panel_requests(h) if q.method == SEND]
    assert len(sends) == 2 and sends[1].key != first
    moved = [q for q in panel_requests(h) if q.key == first and q.method == EDIT][-1]
    assert "moved below" in str(moved.payload["text"]) and "markup" not in moved.payload


async def test_end_closes_the_panel(hp: Harness) -> None:
    h = hp
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "end")
    last = panel_requests(h)[-1]
    assert last.method == EDIT and "game is over" in str(last.payload["text"])
    assert "markup" not in last.payload


def test_mini_app_only_on_public_https(translator: Translator) -> None:
    assert mini_app_url("https://club.example") == "https://club.example"
    assert mini_app_url("http://localhost:8080") is None and mini_app_url(None) is None
    view = HostView(
        game_id=3, chat_id=CHAT, stage="night", moment=1, night=1, day=0, paused=False,
        deadline=datetime(2026, 1, 1, 18, 1, tzinfo=UTC), remaining=None,
        seats=(HostSeat(1, "<b>Vera</b> & co", True, False, False, True),),
        choices=(), voter=None, votes=(), tied=(), fate_by_host=False, presets={},
        composition=None, actions=frozenset({"pause", "end"}))
    plain = PanelDrawing(translator, None)
    text = plain.text(view, "main", "en", left=62)
    assert "&lt;b&gt;Vera&lt;/b&gt; &amp; co ✅" in text and "⏱ 1:02 left" in text
    rows = plain.markup(view, "main", "en").inline_keyboard
    assert not any(b.web_app for row in rows for b in row)
    assert [b.text for row in rows for b in row] == ["⏸ Pause", "⛔ End the game"]


async def test_a_restart_sends_a_fresh_panel(hp: Harness, db: Database, tmp_path: Path) -> None:
    h = hp
    await h.dealt(10)
    await h.service.host_act(h.game_id, HOST, "night")
    first = panel_requests(h)[0].key
    clock = h.clock
    assert isinstance(clock, FakeClock)
    assert db.path is not None
    again = await Database.open(db.path)
    try:
        h2 = make_harness(again, clock, Translator.load(), tmp_path, panel=True,
                          sender=Capture())
        h2.game_id = h.game_id
        await h2.service.restore()
        sent = panel_requests(h2)
        assert [q.method for q in sent] == [SEND] and sent[0].key != first
        assert "night 1" in str(sent[0].payload["text"])
        # its buttons work in the new process
        await press(h2, h2.game_id, HOST, h2.table.moment, "pause", "")
        assert h2.table.paused and panel_requests(h2)[-1].method == EDIT
    finally:
        await again.close()


async def test_a_page_closes_when_its_action_passes(hp: Harness) -> None:
    h = hp
    await h.lobby(10)
    await press(h, h.game_id, HOST, 0, "menu", "seat")
    assert "Whom do you move?" in current_panel(h)
    await h.service.deal(CHAT, HOST)  # typed: the seats are dealt meanwhile
    assert "Whom do you move?" not in current_panel(h) and "cards dealt" in current_panel(h)
    assert h.service.panel.modes[h.game_id] == "main"


async def test_the_deadline_counts_down_in_ticks(hp: Harness, fake_clock: FakeClock) -> None:
    """The host reads the time left, not a UTC clock time: exact at each edit, and once every
    COUNTDOWN_TICK seconds while nothing else changes (a step of its own, no flood)."""
    h = hp
    await h.dealt(10)
    await h.service.start_night(CHAT, HOST)
    left = seconds_left(h.table.deadlines[NIGHT_DL], fake_clock())  # the night, not its Mafia
    assert left is not None and left >= 3 * COUNTDOWN_TICK
    assert f"⏱ {left // 60}:{left % 60:02d} left" in current_panel(h)
    assert "UTC" not in current_panel(h)
    before = len(panel_requests(h))
    await h.deadlines.advance(COUNTDOWN_TICK / 2)  # within the tick: no edit
    assert len(panel_requests(h)) == before
    await h.deadlines.advance(COUNTDOWN_TICK / 2)  # the tick passed: one edit, the time now
    assert len(panel_requests(h)) == before + 1
    edit = panel_requests(h)[-1]
    assert edit.method == EDIT and edit.throttle == PANEL_EDIT_GAP
    now = left - COUNTDOWN_TICK
    assert f"⏱ {now // 60}:{now % 60:02d} left" in current_panel(h)
    # a pause stops it: the time left when the game resumes, and no countdown job
    await h.service.pause(CHAT, HOST)
    assert "left when the game resumes" in current_panel(h)
    paused = len(panel_requests(h))
    await h.deadlines.advance(5 * COUNTDOWN_TICK)
    assert len(panel_requests(h)) == paused


async def test_the_countdown_in_russian(hp: Harness, translator: Translator) -> None:
    view = HostView(
        game_id=3, chat_id=CHAT, stage="vote", moment=1, night=1, day=1, paused=False,
        deadline=datetime(2026, 1, 1, 18, 1, tzinfo=UTC), remaining=None, seats=(),
        choices=(), voter=None, votes=(), tied=(), fate_by_host=False, presets={},
        composition=None, actions=frozenset({"end"}))
    assert "⏱ осталось 0:42" in PanelDrawing(translator, None).text(view, "main", "ru", left=42)


async def test_a_player_who_blocked_the_bot_is_marked_on_the_panel_at_once(hp: Harness) -> None:
    h = hp
    await h.dealt(10)
    seat = h.table.seat_of(1003)
    assert "🚫" not in current_panel(h)
    await h.service.on_blocked(1003)  # the sender met 403: a step of its own, the panel follows
    await h.service.steps.writes.settled(h.game_id)
    assert f"№{seat} Player3 🚫 blocked the bot" in current_panel(h)


def _panel_buttons(h: Harness) -> list[tuple[str, str]]:
    markup = panel_requests(h)[-1].payload["markup"]["inline_keyboard"]
    return [(str(b["text"]), str(b.get("callback_data", ""))) for row in markup for b in row]


async def test_a_join_redraws_the_pages_that_list_seats_and_the_actions_it_opens(
        hp: Harness) -> None:
    """The main page's buttons are kept while a join changes only the seats (they name no
    seat); a page that lists the seats, and a main page whose actions a join opens, are drawn
    again."""
    h = hp
    await h.lobby(5, lang="en")
    assert not any(":deal:" in data for _, data in _panel_buttons(h))  # 5 seats: no deal
    (late,) = await h.players(1, first=1006, lang="en")
    await h.service.join(h.game_id, late)
    assert any(":deal:" in data for _, data in _panel_buttons(h))  # 6 seats: the deal
    await press(h, h.game_id, HOST, 0, "menu", "seat")
    assert [text for text, _ in _panel_buttons(h)][:6] == [
        f"№{n} Player{n}" for n in range(1, 7)]
    (later,) = await h.players(1, first=1007, lang="en")
    await h.service.join(h.game_id, later)
    assert "№7 Player7" in [text for text, _ in _panel_buttons(h)]
    await press(h, h.game_id, HOST, 0, "menu", "main")
    main = _panel_buttons(h)
    assert any(":deal:" in data for _, data in main)
    assert not any(text.startswith("№") for text, _ in main)

"""The host's live panel: ONE private message to the game's host, kept current by edits.

Every game step ends with :meth:`HostPanel.refresh` (``Steps.after_step``): the host's view
(:mod:`bot.game.panel.view`) is drawn again and, when it changed, the panel is edited — in the
step's own transaction, like everything else the step says, and at most once every
:data:`PANEL_EDIT_GAP` seconds (a queued edit is replaced by a newer one: docs/delivery.md), so a
busy night costs a handful of requests in the host's chat, never a flood. The press is answered
first; the edit follows. The panel's buttons call ``GameService.host_act`` — the same service
methods the typed commands call — so the club chat hears only the public outcome.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta
from functools import partial

from aiogram.types import InlineKeyboardMarkup

from bot.errors import UserError
from bot.game.answers import Reply
from bot.game.guards import require_host
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier, message_ref
from bot.game.panel.render import PAGES, PanelDrawing
from bot.game.panel.view import HostDesk, HostView, legal_actions
from bot.game.steps import Steps
from bot.game.tables import Tables
from bot.game.timekeeper import Timekeeper
from record.table import Table
from storage.numbers import read_number

log = logging.getLogger("bot.game.panel.live")

# seconds: the panel is edited at most this often (a private chat takes about one message a
# second; the host's prompts for offline seats and the nights' summaries share it)
PANEL_EDIT_GAP = 1.5
# seconds: the deadline's countdown ticks between the table's own changes (every edit shows
# the exact time left; with nothing else changing, the panel is edited once a tick)
COUNTDOWN_TICK = 10
TICK = "panel_tick"  # the countdown's job of a table (Timekeeper.schedule)


def seconds_left(deadline: datetime | None, now: datetime) -> int | None:
    """Whole seconds to ``deadline`` (rounded up: "0:01" until it passes), None without one."""
    if deadline is None:
        return None
    return max(0, math.ceil((deadline - now).total_seconds()))


class HostPanel:
    """The host's private panel of each running table; ``desk``: the host's view and actions
    it draws and presses."""

    def __init__(self, tables: Tables, steps: Steps, timekeeper: Timekeeper, notifier: Notifier,
                 locales: Languages, desk: HostDesk, web_url: str | None = None) -> None:
        self.tables = tables
        self.steps = steps
        self.timekeeper = timekeeper
        self.notifier = notifier
        self.tr = notifier.tr
        self.locales = locales
        self.desk = desk
        self.drawing = PanelDrawing(notifier.tr, web_url)
        self.modes: dict[int, str] = {}  # game -> the page shown (memory: "main" after a restart)
        self.refs: dict[int, str] = {}  # game -> the panel message's outbox key in this process
        # game -> (view, page, locale, the countdown's tick)
        self.shown: dict[int, tuple[HostView, str, str, int | None]] = {}
        self.sent: dict[int, int] = {}  # game -> panels sent in this process (/panel: +1)
        # game -> the text and buttons last drawn (the same again: no edit)
        self.drawn: dict[int, tuple[str, InlineKeyboardMarkup]] = {}
        self.ticks: dict[int, datetime | None] = {}  # game -> when the countdown's job runs
        self.muted: set[int] = set()  # games whose host's chat refuses the bot: not drawn

    def ref(self, table: Table) -> str | None:
        return self.refs.get(table.game_id)

    async def refresh(self, table: Table, by_host: bool = False) -> None:
        """The end of a step of ``table``: the panel follows (called under the game's lock);
        after the host's own step (``by_host``) at once, else at most once a gap."""
        game_id = table.game_id
        host = table.host_id
        locale = self.locales.locale_of(host)
        if not table.open:
            ref = self.refs.pop(game_id, None)
            self.shown.pop(game_id, None)
            self.modes.pop(game_id, None)
            self.sent.pop(game_id, None)
            self.drawn.pop(game_id, None)
            self._arm_tick(table, None)
            self.ticks.pop(game_id, None)
            self.muted.discard(game_id)
            self.drawing.forget(game_id)
            if ref is not None:
                await self.notifier.edit(host, ref, self.tr.t(locale, "panel.over"))
            return
        if game_id in self.muted:
            return  # the host's chat refuses the bot: the host runs the table by commands
        mode = self.modes.get(game_id, "main")
        presets = await self.desk.presets(table) if mode == "preset" else None
        view = self.desk.snapshot(table, presets)
        if mode.partition(".")[0] not in (*view.actions, "main"):
            mode = self.modes[game_id] = "main"  # the page's action passed (e.g. seats dealt)
        now = self.timekeeper.clock()
        left = seconds_left(view.deadline, now)
        window_left = seconds_left(view.window_deadline, now)
        tick = None if left is None else math.ceil(left / COUNTDOWN_TICK)
        self._arm_tick(table, None if left is None or tick is None or tick <= 1 or
                       view.deadline is None
                       else view.deadline - timedelta(seconds=(tick - 1) * COUNTDOWN_TICK))
        if self.shown.get(game_id) == (view, mode, locale, tick):
            return
        self.shown[game_id] = (view, mode, locale, tick)
        text = self.drawing.text(view, mode, locale, left=left, window_left=window_left)
        markup = self.drawing.markup(view, mode, locale)
        ref = self.refs.get(game_id)
        if ref is not None and self.drawn.get(game_id) == (text, markup):
            return  # the same text and buttons (e.g. the countdown ran out with the phase)
        self.drawn[game_id] = (text, markup)
        if ref is None:
            # a new message per process (after a restart the host gets a fresh panel below;
            # the same key again — nothing happened since — edits the old one)
            self.sent[game_id] = self.sent.get(game_id, 0) + 1
            ref = self.refs[game_id] = message_ref(table, "panel",
                                                   f"{table.seq}.{self.sent[game_id]}")
            await self.notifier.send(host, text, markup=markup, ref=ref)
        else:
            # the host's own press is answered by the panel at once; others' changes (the
            # players' choices, a deadline) at most once a gap
            await self.notifier.edit(host, ref, text, markup=markup, throttle=0.0 if
                                     by_host else PANEL_EDIT_GAP)

    def _arm_tick(self, table: Table, at: datetime | None) -> None:
        """The countdown's next tick: a step of the game with nothing in it at ``at`` (its end
        draws the panel again); None: no countdown to keep."""
        if self.ticks.get(table.game_id) == at:
            return
        self.ticks[table.game_id] = at
        if at is None:
            self.timekeeper.cancel(table, TICK)
        else:
            self.timekeeper.schedule(table, TICK, at, partial(self._tick, table.game_id))

    async def _tick(self, game_id: int) -> None:
        self.ticks.pop(game_id, None)
        table = self.tables.by_id.get(game_id)
        if table is not None and table.open:
            async with self.steps.lock(game_id):
                pass  # the step's end draws the panel with the time left now

    async def press(self, game_id: int, user_id: int, moment: int, action: str, arg: str
                    ) -> Reply | None:
        """A panel button: a page of the panel (``menu``), or an action (``host_act``);
        answered once its step is durable, as every press."""
        table = self.tables.table(game_id)
        require_host(table, user_id)
        if action == "menu":
            # a page of an action legal now opens, whatever moment drew its button
            page, _, seat = arg.partition(".")
            legal = legal_actions(self.tables, table)
            if page not in PAGES or (page != "main" and page not in legal):
                raise UserError("game.stale")
            if seat and read_number(seat) is None:  # a forged button's "tech.²"
                raise UserError("game.stale")
            async with self.steps.lock(game_id):  # the step's end draws the page
                self.steps.by_host(table, user_id)
                self.modes[game_id] = arg
            return None
        self.modes[game_id] = "main"
        value: str | None = arg.replace(".", ":") if arg else None
        try:
            return await self.desk.act(game_id, user_id, action, value, moment=moment)
        except UserError:
            if game_id in self.tables.by_id:
                async with self.steps.lock(game_id):
                    self.steps.by_host(table, user_id)  # the main page again, at once
            raise

    def unreachable(self, chat_id: int) -> None:
        """Telegram refused a message to ``chat_id`` for good: the panels of the games it
        hosts are no longer drawn (each edit would fail: its message never arrived)."""
        for table in self.tables.by_id.values():
            if table.open and table.host_id == chat_id:
                self.muted.add(table.game_id)
                self._arm_tick(table, None)

    async def show(self, user_id: int) -> bool:
        """``/panel``: the host's panel again, as a new message at the bottom of the chat."""
        for table in list(self.tables.by_id.values()):
            if table.open and table.host_id == user_id:
                self.muted.discard(table.game_id)  # the host writes to the bot: reachable
                async with self.steps.lock(table.game_id):
                    old = self.refs.pop(table.game_id, None)
                    self.shown.pop(table.game_id, None)
                    self.modes[table.game_id] = "main"
                    if old is not None:  # the old one loses its buttons
                        await self.notifier.edit(user_id, old, self.tr.t(
                            self.locales.locale_of(user_id), "panel.moved"))
                return True
        return False

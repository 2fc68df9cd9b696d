"""The host's panel drawn from a :class:`HostView`: its text and its buttons (pure).

Pages (``mode``): ``main``; ``tech`` (whose seat) and ``tech.N`` (confirm); ``end`` (confirm);
``seat`` (whom to move) and ``seat.N`` (where to); ``preset`` (which composition); ``speak``
(which prisoner) and ``speak.N`` (the host's floor, or whose time); ``foul`` (whose seat) and
``foul.N`` (what for); ``unfoul`` (which foul) and ``unfoul.N`` (confirm). Only the actions in
``view.actions`` get a button."""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.game.callbacks import PanelCb
from bot.game.panel.view import DAY_STAGES, EXTEND_SECONDS, FOUL_REASONS, HostView
from record.table import Stage
from storage.numbers import read_number
from views.evenings import starts
from views.i18n import Safe, Translator

PAGES = ("main", "tech", "end", "seat", "preset", "unseat", "speak", "foul", "unfoul")
_Button = Callable[..., InlineKeyboardButton]


class PanelDrawing:
    """Draws the panel. Drawn after every step that changes what it shows, so it is kept cheap:
    texts without a player's name are translated once per language (:meth:`_t`), the lines
    that carry names are plain ``№N NAME`` (escaped here), and the buttons are built again
    only when what they depend on changed (:meth:`markup`)."""

    def __init__(self, tr: Translator, web_url: str | None) -> None:
        self.tr = tr
        self.web_url = web_url  # public HTTPS pages: the "Open the table" Mini App button
        self._texts: dict[tuple[str, str, tuple[tuple[str, object], ...]], str] = {}
        self._markups: dict[int, tuple[tuple[object, ...], InlineKeyboardMarkup]] = {}

    def _t(self, locale: str, key: str, **kw: int | str) -> str:
        """A text whose arguments are numbers or fixed words (never a name), kept."""
        found = (locale, key, tuple(sorted(kw.items())))
        text = self._texts.get(found)
        if text is None:
            if len(self._texts) > 4096:
                self._texts.clear()
            text = self._texts[found] = self.tr.t(locale, key, **kw)
        return text

    # ------------------------------------------------------------------ text
    def text(self, view: HostView, mode: str, locale: str, *, left: int | None = None,
             window_left: int | None = None) -> str:
        """``left``: whole seconds to ``view.deadline`` now (the phase's countdown);
        ``window_left``: to ``view.window_deadline`` (a shorter window inside it)."""
        t = self._t
        stage = Stage(view.stage)
        label = t(locale, f"game.stage.{view.stage}")
        if stage is Stage.NIGHT:
            label = t(locale, "panel.night", number=view.night)
        elif stage in DAY_STAGES:
            day = t(locale, "panel.day", number=view.day)
            label = day if stage is Stage.DAY else f"{day}, {label}"
        lines = [t(locale, "tables.label", number=view.table)] if view.table else []
        lines.append(self.tr.t(locale, "panel.head", game=view.game_id, stage=Safe(label),
                               paused=Safe(t(locale, "panel.paused")) if view.paused else ""))
        clock = ""
        if view.deadline is not None and left is not None:
            clock = t(locale, "panel.deadline", time=_clock(left))
        elif view.remaining is not None:
            clock = t(locale, "panel.left", seconds=round(view.remaining))
            window_left = (None if view.window_remaining is None
                           else math.ceil(view.window_remaining))
        if clock and view.window is not None and window_left is not None:
            # the shorter window beside the phase's clock, by its name
            clock += " · " + t(locale, f"panel.window.{view.window}", time=_clock(window_left))
        if clock:
            lines.append(clock)
        names = {s.seat: escape(s.name, quote=False) for s in view.seats}
        lines += ["", t(locale, "panel.seats")]
        for s in view.seats:
            marks = "".join(t(locale, f"panel.mark.{m}") for m, on in (
                ("dead", not s.alive), ("jailed", s.jailed), ("offline", s.offline),
                ("blocked", s.blocked), ("acted", s.acted), ("voter", s.seat == view.voter))
                if on)
            if s.fouls:
                marks += t(locale, "panel.mark.fouls", count=s.fouls)
            lines.append(f"№{s.seat} {names[s.seat]}{marks}")
        if view.choices:
            lines += ["", t(locale, "panel.choices")]
            lines += [f"№{c.seat} {t(locale, f'game.role.{c.role}')} → "
                      f"№{c.target} {names.get(c.target, '?')}" for c in view.choices]
        if view.votes:
            lines += ["", t(locale, "panel.votes")]
            lines += [f"№{a} → №{b}" for a, b in view.votes]
        if view.tied and "fate" in view.actions:
            lines += ["", t(locale, "panel.tied")]
        if stage in (Stage.LOBBY, Stage.DEALT):
            lines.append("")
            if view.composition:
                lines.append(t(locale, "panel.composition", roles=", ".join(
                    t(locale, f"game.role.{r}") for r in view.composition)))
            lines.append(t(locale, "panel.fate.host" if view.fate_by_host else "panel.fate.bot"))
        if view.tonight is not None:  # the club's evening: its list first
            tonight = view.tonight
            lines += ["", self.tr.t(locale, "evening.offer.head", when=Safe(starts(
                self.tr, locale, tonight.evening)), signed=tonight.signed,
                waiting=tonight.waiting, tables=tonight.evening.tables,
                seats=tonight.evening.seats)]
            if tonight.pending:
                lines.append(self.tr.t(locale, "evening.offer.pending",
                                       names=", ".join(tonight.pending)))
            lines.append(t(locale, "evening.offer.more" if tonight.more
                           else "evening.offer.done"))
        prompt = self._prompt(view, mode, locale, names)
        if prompt:
            lines += ["", prompt]
        return "\n".join(lines)

    def _prompt(self, view: HostView, mode: str, locale: str, names: dict[int, str]) -> str:
        """The page's question (``names`` are escaped already)."""
        page, _, seat = mode.partition(".")
        number = read_number(seat)
        who = Safe(f"№{seat} {names.get(number, '?')}") if number is not None else ""
        if page == "tech":
            return self.tr.t(locale, "panel.confirm.tech", who=who) if who else self._t(
                locale, "panel.pick.tech")
        if page == "seat":
            return self.tr.t(locale, "panel.pick.place", who=who) if who else self._t(
                locale, "panel.pick.seat")
        if page == "unseat":
            return self.tr.t(locale, "panel.confirm.unseat", who=who) if who else self._t(
                locale, "panel.pick.unseat")
        if page == "speak":
            return self.tr.t(locale, "panel.pick.giver", who=who) if who else self._t(
                locale, "panel.pick.speak")
        if page in ("end", "preset"):
            return self._t(locale, "panel.confirm.end" if page == "end" else "panel.pick.preset")
        if page == "foul":
            return self.tr.t(locale, "panel.pick.foul_reason", who=who) if who else self._t(
                locale, "panel.pick.foul")
        if page == "unfoul":
            foul = next((f for f in view.fouls if str(f.number) == seat), None)
            if foul is None:
                return self._t(locale, "panel.pick.unfoul")
            return self.tr.t(locale, "panel.confirm.unfoul", number=foul.number, who=Safe(
                f"№{foul.seat} {names.get(foul.seat, '?')}"))
        return ""

    # ------------------------------------------------------------------ buttons
    def markup(self, view: HostView, mode: str, locale: str) -> InlineKeyboardMarkup:
        """The page's buttons; the last ones of the game again when nothing they show
        changed."""
        page = mode.partition(".")[0]
        # the main page names only the shoot-out's seats: a join in the lobby (its seats
        # change, its buttons do not) draws them again only when the actions change
        seats = (tuple((s.seat, s.name) for s in view.seats if s.seat in view.tied)
                 if page in ("main", "end", "preset") else
                 tuple((s.seat, s.name, s.alive, s.jailed) for s in view.seats))
        key = (mode, locale, view.moment, view.stage, view.actions, view.tied, view.fate_by_host,
               seats, tuple((k, len(v)) for k, v in view.presets.items()), view.next_foul,
               view.fouls if page == "unfoul" else (),
               view.tonight.more if view.tonight is not None else 0)
        kept = self._markups.get(view.game_id)
        if kept is not None and kept[0] == key:
            return kept[1]
        markup = self._markup(view, mode, locale)
        self._markups[view.game_id] = (key, markup)
        return markup

    def forget(self, game_id: int) -> None:
        self._markups.pop(game_id, None)

    def _markup(self, view: HostView, mode: str, locale: str) -> InlineKeyboardMarkup:
        def b(key: str, action: str, arg: object = "", **kw: int | str) -> InlineKeyboardButton:
            return InlineKeyboardButton(text=self._t(locale, key, **kw), callback_data=PanelCb(
                game=view.game_id, moment=view.moment, action=action, arg=str(arg)).pack())

        def seat_button(seat: int, name: str, action: str, arg: str) -> InlineKeyboardButton:
            return InlineKeyboardButton(text=f"№{seat} {name}", callback_data=PanelCb(
                game=view.game_id, moment=view.moment, action=action, arg=arg).pack())

        back = b("panel.btn.back", "menu", "main")
        page, _, arg = mode.partition(".")
        if read_number(arg) is None:  # a seat's number or nothing (a forged one: the list)
            arg = ""
        rows: list[list[InlineKeyboardButton]] = []
        if page == "tech" and arg:
            rows = [[b("panel.btn.yes", "tech", arg), back]]
        elif page == "tech":
            rows = [*_grid([seat_button(s.seat, s.name, "menu", f"tech.{s.seat}")
                            for s in view.seats if s.alive]), [back]]
        elif page == "end":
            rows = [[b("panel.btn.yes", "end"), back]]
        elif page == "unseat" and arg:
            rows = [[b("panel.btn.yes", "unseat", arg), back]]
        elif page == "unseat":
            rows = [*_grid([seat_button(s.seat, s.name, "menu", f"unseat.{s.seat}")
                            for s in view.seats]), [back]]
        elif page == "speak" and arg:
            rows = [[b("panel.btn.floor", "speak", arg)],
                    *_grid([seat_button(s.seat, s.name, "speak", f"{arg}.{s.seat}")
                            for s in view.seats
                            if s.alive and not s.jailed and str(s.seat) != arg]), [back]]
        elif page == "speak":
            rows = [*_grid([seat_button(s.seat, s.name, "menu", f"speak.{s.seat}")
                            for s in view.seats if s.alive and s.jailed]), [back]]
        elif page == "seat" and arg:
            rows = [*_grid([seat_button(s.seat, s.name, "seat", f"{arg}.{s.seat}")
                            for s in view.seats if str(s.seat) != arg]), [back]]
        elif page == "seat":
            rows = [*_grid([seat_button(s.seat, s.name, "menu", f"seat.{s.seat}")
                            for s in view.seats]), [back]]
        elif page == "preset":
            rows = [[b(f"panel.preset.{name}", "preset", name, count=len(cards))
                     for name, cards in view.presets.items()], [back]]
        elif page == "foul" and arg:
            rows = [*_grid([b(f"foul.reason.{r}", "foul", f"{arg}.{r}.{view.next_foul}")
                            for r in FOUL_REASONS], 2), [back]]
        elif page == "foul":
            rows = [*_grid([seat_button(s.seat, s.name, "menu", f"foul.{s.seat}")
                            for s in view.seats]), [back]]
        elif page == "unfoul" and arg:
            rows = [[b("panel.btn.yes", "unfoul", arg), back]]
        elif page == "unfoul":
            names = {s.seat: s.name for s in view.seats}
            rows = [*([InlineKeyboardButton(
                text=self.tr.t(locale, "panel.unfoul.line", number=f.number, seat=f.seat,
                               name=Safe(names.get(f.seat, "?")),  # a button: plain text
                               reason=Safe(self._t(locale, f"foul.reason.{f.reason}"))),
                callback_data=PanelCb(game=view.game_id, moment=view.moment, action="menu",
                                      arg=f"unfoul.{f.number}").pack())]
                for f in view.fouls), [back]]
        else:
            rows = self._main(view, b)
        if self.web_url and page == "main":
            rows.append([InlineKeyboardButton(
                text=self.tr.t(locale, "panel.btn.open"),
                web_app=WebAppInfo(url=f"{self.web_url.rstrip('/')}/host/{view.game_id}"))])
        return InlineKeyboardMarkup(inline_keyboard=[r for r in rows if r])

    @staticmethod
    def _main(view: HostView, b: _Button) -> list[list[InlineKeyboardButton]]:
        can = view.actions
        names = {s.seat: s.name for s in view.seats}
        phase = [b(f"panel.btn.{a}", a) for a in ("night", "day", "vote", "deal") if a in can]
        timer = [b("panel.btn.resume", "resume")] if "resume" in can else []
        if "pause" in can:
            timer.append(b("panel.btn.pause", "pause"))
        if "extend" in can:
            timer.append(b("panel.btn.extend", "extend", EXTEND_SECONDS,
                           seconds=EXTEND_SECONDS))
        draw = [InlineKeyboardButton(text=f"🎲 №{s} {names.get(s, '?')}", callback_data=PanelCb(
            game=view.game_id, moment=view.moment, action="fate", arg=str(s)).pack())
                for s in view.tied] if "fate" in can else []
        lobby = [b(f"panel.btn.{a}", "menu", a) for a in ("seat", "unseat", "preset")
                 if a in can]
        invite = ([b("evening.offer.button", "invite", count=view.tonight.more)]
                  if "invite" in can and view.tonight is not None else [])
        fate = ([b("panel.btn.fate.bot" if view.fate_by_host else "panel.btn.fate.host",
                   "fate_mode", "bot" if view.fate_by_host else "host")]
                if "fate_mode" in can and view.stage in (Stage.LOBBY, Stage.DEALT) else [])
        whistle = [b(f"panel.btn.{a}", "menu", a) for a in ("foul", "unfoul") if a in can]
        last = [b("panel.btn.speak", "menu", "speak")] if "speak" in can else []
        if "tech" in can:
            last.append(b("panel.btn.tech", "menu", "tech"))
        last.append(b("panel.btn.end", "menu", "end"))
        return [invite, phase, *_grid(draw), timer, lobby, fate, whistle, last]


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _grid(buttons: list[InlineKeyboardButton], width: int = 3
          ) -> list[list[InlineKeyboardButton]]:
    return [buttons[i:i + width] for i in range(0, len(buttons), width)]

"""The text of an engine event in a locale: what the notifier sends to chats
(``bot/game/messages/notifier.py``) and what the web's game page shows (``web/app.py``). Nothing
here imports aiogram: ``python -m web`` serves the read-only pages without it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine import Event
from record.table import Table
from views.i18n import Safe, Translator, sex_of

Lazy = Callable[[str], str]  # locale -> text (already safe HTML)


class EventText:
    def __init__(self, translator: Translator) -> None:
        self.tr = translator

    def seat(self, table: Table, seat: int) -> str:
        return f"№{seat} {table.name(seat)}"

    def seat_list(self, table: Table, seats: Iterable[int]) -> Lazy:
        """``№1 Аня, №2 Борис и №3 Вера``: each name in the nominative, the last after «и»."""
        chosen = list(seats)

        def render(locale: str) -> str:
            if not chosen:
                return self.tr.t(locale, "game.nobody")
            names = [self.tr.t(locale, "game.seat", seat=s, name=table.name(s)) for s in chosen]
            if len(names) == 1:
                return names[0]
            return f"{', '.join(names[:-1])} {self.tr.t(locale, 'game.and')} {names[-1]}"
        return render

    def role_name(self, locale: str, role: str) -> str:
        return self.tr.t(locale, f"game.role.{role}")

    def render(self, table: Table, event: Event, locale: str) -> str:
        """The text of one engine event in ``locale``."""
        data = dict(event.data)
        kwargs: dict[str, Any] = {}
        kind = event.kind
        if kind == "open_immunities":
            holders: Mapping[int, list[str]] = data["holders"]
            if not holders:
                return self.tr.t(locale, "game.ev.open_immunities_none")
            lines = [
                self.tr.t(locale, "game.ev.immunity_line", seat=s, name=table.name(s),
                          what=", ".join(self.tr.t(locale, f"game.immunity.{i}") for i in imms))
                for s, imms in holders.items()
            ]
            kwargs["lines"] = Safe("\n".join(lines))
        elif kind in ("night_deaths", "jailed", "released"):
            if kind == "night_deaths" and not data["seats"]:
                return self.tr.t(locale, "game.ev.night_deaths_none", night=data["night"])
            if kind in ("night_deaths", "released") and len(data["seats"]) == 1:
                # one player: the sentence agrees with them (a list takes the plural)
                seat = data["seats"][0]
                one = "night_death" if kind == "night_deaths" else "released_one"
                return self.tr.t(locale, f"game.ev.{one}", night=data.get("night", ""),
                                 who=Safe(self.seat(table, seat)), sex=sex_of(table.sex(seat)))
            kwargs["seats"] = Safe(self.seat_list(table, data["seats"])(locale))
            kwargs["night"] = data.get("night", "")
        elif kind == "friend_saved":
            kwargs["who"] = Safe(self.seat(table, data["seat"]))
            if data.get("by") is not None:
                kwargs["by"] = Safe(self.seat(table, data["by"]))
                return self.tr.t(locale, "game.ev.friend_saved_by", **kwargs)
        elif kind == "check_result":
            kwargs["who"] = Safe(self.seat(table, data["target"]))
            kind = "check_mafia" if data["mafia"] else "check_civilian"
        elif kind == "mafia_team":
            members: Mapping[int, str] = data["members"]
            kwargs["lines"] = Safe("\n".join(
                f"{self.seat(table, s)} — {self.role_name(locale, r)}" for s, r in members.items()))
        elif kind == "vote_tally":
            counts: Mapping[int, int] = data["counts"]
            lines = [f"{self.seat(table, s)}: {c}" for s, c in
                     sorted(counts.items(), key=lambda sc: (-sc[1], sc[0]))]
            kwargs["lines"] = Safe("\n".join(lines) or self.tr.t(locale, "game.nobody"))
            kwargs["day"] = data["day"]
        elif kind == "shootout":
            kwargs["who"] = Safe(self.seat(table, data["condemned"]))
            if data.get("told"):  # the tie was said as the host's draw began: the lot is news
                return self.tr.t(locale, "game.ev.shootout_drawn", **kwargs)
            kwargs["tied"] = Safe(self.seat_list(table, data["tied"])(locale))
        elif kind == "vote_failed":
            kwargs["tied"] = Safe(self.seat_list(table, data["tied"])(locale))
        elif kind == "vote_impossible":
            kwargs["day"] = data["day"]
        elif kind in ("verdict_cancelled",):
            kwargs["who"] = Safe(self.seat(table, data["condemned"]))
        elif kind in ("condemned_died", "technical_death"):
            kwargs["who"] = Safe(self.seat(table, data["seat"]))
        elif kind == "game_over":
            roles: Mapping[int, str] = data["roles"]
            kwargs["winner"] = self.tr.t(locale, f"game.winner.{data['winner']}")
            kwargs["lines"] = Safe("\n".join(
                f"{self.seat(table, s)} — {self.role_name(locale, r)}" for s, r in roles.items()))
        elif kind in ("night_summary", "day_summary"):
            kwargs["text"] = Safe(self._summary(table, data, locale))
        return self.tr.t(locale, f"game.ev.{kind}", **kwargs)

    def _summary(self, table: Table, data: Mapping[str, Any], locale: str) -> str:
        """The host's whole truth of a phase, roles included (private to the host). A line
        with nothing to say is left out (no «Проверки: никто»)."""
        t = self.tr.t

        def who(seat: int) -> str:
            return f"{self.seat(table, seat)} ({self.role_name(locale, str(table.role(seat)))})"

        lines = []
        for key, value in data.items():
            if key in ("night", "day"):
                continue
            if value is None or (isinstance(value, list | dict) and not value):
                if key == "verdict":
                    lines.append(t(locale, "game.summary.no_verdict"))
                continue
            label = t(locale, f"game.summary.{key}")
            if key == "choices":
                shown = "\n" + "\n".join(f"  {who(a)} → {who(b)}" for a, b in value.items())
            elif key == "saved":
                shown = "; ".join(f"{who(seat)} — {t(locale, f'game.summary.by_{by}')}"
                                  for seat, by in value)
            elif key == "checks":
                shown = "; ".join(
                    f"{who(by)} → {who(target)}: "
                    + t(locale, "game.summary.mafia_yes" if mafia else "game.summary.mafia_no")
                    for by, target, mafia in value)
            elif isinstance(value, list):
                shown = ", ".join(who(x) for x in value)
            else:
                shown = who(value)
            lines.append(f"{label}:{shown}" if key == "choices" else f"{label}: {shown}")
        return "\n".join(lines) or t(locale, "game.summary.quiet")

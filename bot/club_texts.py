"""Rendering of the club texts: the /import report, links, look-alikes, club settings."""

from __future__ import annotations

from bot.i18n import Translator
from storage.imports import ImportReport, LinkResult

MAX_LISTED = 40


def import_report(tr: Translator, locale: str, report: ImportReport) -> str:
    if report.file_error is not None:
        return tr.t(locale, f"club.import.file_{report.file_error}", value=report.file_value)
    key = "club.import.done" if report.applied else "club.import.dry"
    lines = [tr.t(locale, key, added=len(report.added), linked=len(report.linked),
                  unchanged=len(report.unchanged), refused=len(report.refused))]
    for refusal in report.refused[:MAX_LISTED]:
        why = tr.t(locale, f"club.import.why_{refusal.reason}", value=refusal.value)
        lines.append(tr.t(locale, "club.import.row", line=refusal.line, why=why))
    if len(report.refused) > MAX_LISTED:
        lines.append(tr.t(locale, "club.import.more", count=len(report.refused) - MAX_LISTED))
    if not report.applied and report.added:
        lines.append(tr.t(locale, "club.import.apply_hint"))
    return "\n".join(lines)


def linked(tr: Translator, locale: str, result: LinkResult) -> str:
    key = "club.link.expired_notice" if result.expired else "club.link.notice"
    return tr.t(locale, key, nick=result.record.nickname, points=result.points,
                games=result.record.games_played)


def lookalikes(tr: Translator, locale: str, groups: list[list[str]]) -> str:
    if not groups:
        return tr.t(locale, "club.lookalikes.none")
    lines = [tr.t(locale, "club.lookalikes.head", count=len(groups))]
    lines += [tr.t(locale, "club.lookalikes.group", names=" | ".join(g)) for g in groups]
    return "\n".join(lines)

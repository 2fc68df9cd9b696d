"""Rendering of the club texts: the /import report, links, look-alikes, club settings."""

from __future__ import annotations

import html
import re

from record.posts import units
from storage.repos.imports import ImportReport, LinkResult
from storage.spreadsheets.files import write_csv, write_xlsx
from views.i18n import Safe, Translator

MAX_LISTED = 40
REPORT_LIMIT = 3600  # UTF-16 units; Telegram refuses a message over 4096
MAX_IGNORED = 20
_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


def import_report(tr: Translator, locale: str, report: ImportReport) -> str:
    if report.file_error is not None:
        lines = [tr.t(locale, f"club.import.file_{report.file_error}", value=report.file_value,
                      sheets=", ".join(report.sheets))]
        if report.file_error == "missing_column" and report.ignored:
            lines.append(tr.t(locale, "club.import.ignored", columns=", ".join(report.ignored)))
        return "\n".join(lines)
    key = "club.import.done" if report.applied else "club.import.dry"
    lines = [tr.t(locale, key, added=len(report.added), linked=len(report.linked),
                  unchanged=len(report.unchanged), refused=len(report.refused))]
    lines += _source(tr, locale, report)
    listed = 0
    for refusal in report.refused[:MAX_LISTED]:
        why = tr.t(locale, f"club.import.why_{refusal.reason}", value=refusal.value)
        line = tr.t(locale, "club.import.row", line=refusal.line, why=why)
        # long values must not push the message past Telegram's limit (it would be lost);
        # the refused rows' file has them all
        if units("\n".join([*lines, line])) > REPORT_LIMIT:
            break
        lines.append(line)
        listed += 1
    if len(report.refused) > listed:
        lines.append(tr.t(locale, "club.import.more", count=len(report.refused) - listed))
    if not report.applied and report.added:
        lines.append(tr.t(locale, "club.import.apply_hint"))
    return "\n".join(lines)


def _source(tr: Translator, locale: str, report: ImportReport) -> list[str]:
    """What was read: the format (and encoding), the columns understood, the ones ignored."""
    table = report.table
    if table is None:  # CSV text handed over directly (storage's API, not the bot)
        return []
    if table.format == "xlsx":
        lines = [tr.t(locale, "club.import.source_xlsx", sheet=table.sheet)]
    else:
        encoding = tr.t(locale, f"club.import.encoding_{table.encoding}")
        delimiter = tr.t(locale, f"club.import.delimiter_{_DELIMITERS[table.delimiter]}")
        lines = [tr.t(locale, "club.import.source_csv", encoding=Safe(encoding),
                      delimiter=Safe(delimiter))]
    lines.append(tr.t(locale, "club.import.columns", columns=", ".join(
        f"{name} → {column}" for name, column in report.columns)))
    if report.ignored:
        names = report.ignored[:MAX_IGNORED] + (["…"] if len(report.ignored) > MAX_IGNORED
                                                else [])
        lines.append(tr.t(locale, "club.import.ignored", columns=", ".join(names)))
    return lines


def refused_file(tr: Translator, locale: str, report: ImportReport,
                 filename: str | None) -> tuple[bytes, str] | None:
    """The refused rows as the file had them, plus a column with the reason: to fix and send
    again (the reason column is then ignored). The same format as the file; CSV in UTF-8 with
    a BOM, so Excel shows the letters right."""
    header, rows = report.refused_rows()
    if not rows or report.table is None:
        return None
    reason = _plain(tr.t(locale, "club.import.reason_column"))
    cells = [[*row, _plain(tr.t(locale, f"club.import.why_{r.reason}", value=r.value))]
             for row, r in rows]
    stem = re.sub(r"[^\w.-]+", "_", (filename or "import").rsplit(".", 1)[0])[:40] or "import"
    if report.table.format == "xlsx":
        return write_xlsx([*header, reason], cells, title="refused"), f"{stem}-refused.xlsx"
    data = write_csv([*header, reason], cells, delimiter=report.table.delimiter or ",",
                     bom=True)
    return data, f"{stem}-refused.csv"


def _plain(text: str) -> str:
    """A rendered text for a file cell: no markup, no HTML escapes."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


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

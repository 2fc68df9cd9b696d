"""The daily expiry job: a week's warning, then the two-month burn (RULES.md 9)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date

from bot.i18n import Translator, pick_locale
from bot.outbox import Outbox
from storage.db import Database
from storage.models import Player

log = logging.getLogger("bot.expiry")


@dataclass
class ExpiryReport:
    warned: list[int] = field(default_factory=list)
    burned: list[int] = field(default_factory=list)


async def run_expiry(
    db: Database, outbox: Outbox, translator: Translator, today: date, default_locale: str
) -> ExpiryReport:
    """Warn the players whose points expire within a week, then burn the expired ones.

    Idempotent for a given ``today``: storage remembers who was warned and who expired.
    Players who blocked the bot, and accounts without Telegram, are marked/burned without a
    message.
    """
    report = ExpiryReport()
    for player in await db.expiry.warn_due(today):
        points = await db.ledger.balance(player.tg_id)
        if not player.bot_blocked and not player.offline and player.expiry_date is not None:
            locale = _locale(player, default_locale)
            await outbox.send_text(
                player.tg_id,
                translator.t(locale, "expiry.warning",
                             nick=player.nickname or translator.t(locale, "misc.none"),
                             points=points, date=player.expiry_date),
            )
        await db.expiry.mark_warned(player.tg_id, today)
        report.warned.append(player.tg_id)
    for player in await db.expiry.sweep(today):
        if not player.bot_blocked and not player.offline:
            locale = _locale(player, default_locale)
            await outbox.send_text(player.tg_id, translator.t(locale, "expiry.burned"))
        report.burned.append(player.tg_id)
    log.info("expiry run", extra={"day": today.isoformat(), "warned": len(report.warned),
                                  "burned": len(report.burned)})
    return report


def _locale(player: Player, default_locale: str) -> str:
    return pick_locale(player.language, None, default_locale)

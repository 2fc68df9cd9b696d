"""The daily expiry job: a week's warning, then the two-month burn (docs/rules.md#9-accounts)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date

from bot.delivery.sender import TelegramSender
from storage.db import Database
from storage.models import Player
from views.i18n import Translator, pick_locale

log = logging.getLogger("bot.expiry")


@dataclass
class ExpiryReport:
    warned: list[int] = field(default_factory=list)
    burned: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)  # not warned this run: retried on the next


async def run_expiry(
    db: Database, sender: TelegramSender, translator: Translator, today: date, default_locale: str
) -> ExpiryReport:
    """Warn the players whose points expire within a week, then burn the expired ones.

    Idempotent for a given ``today``: storage remembers who was warned and who expired.
    Players who blocked the bot, and accounts without Telegram, are marked/burned without a
    message.

    Each player is handled on their own: an unexpected error while warning one is logged and
    the player stays unmarked (warned on the next run); the others are still warned, and the
    burns still run. A burn is one storage transaction; its notice failing is logged only.
    """
    report = ExpiryReport()
    for player in await db.expiry.warn_due(today):
        try:
            await _warn(db, sender, translator, player, today, default_locale)
        except Exception:
            log.exception("expiry warning failed", extra={"tg_id": player.tg_id})
            report.failed.append(player.tg_id)
            continue
        report.warned.append(player.tg_id)
    for player in await db.expiry.sweep(today):
        report.burned.append(player.tg_id)
        if player.bot_blocked or player.offline:
            continue
        try:
            locale = _locale(player, default_locale)
            await sender.send_text(player.tg_id, translator.t(locale, "expiry.burned"))
        except Exception:
            log.exception("expiry notice failed", extra={"tg_id": player.tg_id})
    log.info("expiry run", extra={"day": today.isoformat(), "warned": len(report.warned),
                                  "burned": len(report.burned), "failed": len(report.failed)})
    return report


async def _warn(db: Database, sender: TelegramSender, translator: Translator, player: Player,
                today: date, default_locale: str) -> None:
    points = await db.ledger.balance(player.tg_id)
    if not player.bot_blocked and not player.offline and player.expiry_date is not None:
        locale = _locale(player, default_locale)
        text = translator.t(locale, "expiry.warning",
                            nick=player.nickname or translator.t(locale, "misc.none"),
                            points=points, date=player.expiry_date)
        reserved = await db.gift_requests.reserved(player.tg_id)
        if reserved:  # asked-for gifts not handed over by then burn with the rest
            text += "\n" + translator.t(locale, "shop.expiry_warning", reserved=reserved)
        await sender.send_text(player.tg_id, text)
    await db.expiry.mark_warned(player.tg_id, today)


def _locale(player: Player, default_locale: str) -> str:
    return pick_locale(player.language, None, default_locale)

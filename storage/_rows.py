"""Conversions between SQLite rows and the value types (internal)."""

from __future__ import annotations

import json
import sqlite3
from datetime import date, datetime
from typing import Any, cast

from storage.models import (
    AdminAction,
    Complaint,
    GameEvent,
    ImmunityOrder,
    LedgerRow,
    Player,
    Sex,
)

PLAYER_COLUMNS = (
    "tg_id, display_name, nickname, language, sex, spouse_id, spouse_proposed_to, "
    "first_game_date, last_game_date, games_played, blocked, blocked_reason, bot_blocked, "
    "expiry_warned_on"
)


def opt_date(value: Any) -> date | None:
    return None if value is None else date.fromisoformat(value)


def opt_datetime(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def player(row: sqlite3.Row) -> Player:
    return Player(
        tg_id=row["tg_id"],
        display_name=row["display_name"],
        nickname=row["nickname"],
        language=row["language"],
        sex=cast(Sex | None, row["sex"]),
        spouse_id=row["spouse_id"],
        spouse_proposed_to=row["spouse_proposed_to"],
        first_game_date=opt_date(row["first_game_date"]),
        last_game_date=opt_date(row["last_game_date"]),
        games_played=row["games_played"],
        blocked=bool(row["blocked"]),
        blocked_reason=row["blocked_reason"],
        bot_blocked=bool(row["bot_blocked"]),
        expiry_warned_on=opt_date(row["expiry_warned_on"]),
    )


LEDGER_COLUMNS = "id, tg_id, points, kind, reason, game_id, phase, admin_id, day, at"


def ledger_row(row: sqlite3.Row) -> LedgerRow:
    return LedgerRow(
        id=row["id"],
        tg_id=row["tg_id"],
        points=row["points"],
        kind=row["kind"],
        reason=row["reason"],
        game_id=row["game_id"],
        phase=row["phase"],
        admin_id=row["admin_id"],
        day=date.fromisoformat(row["day"]),
        at=opt_datetime(row["at"]),
    )


def game_event(row: sqlite3.Row) -> GameEvent:
    return GameEvent(
        game_id=row["game_id"],
        seq=row["seq"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        at=opt_datetime(row["at"]),
    )


def order(row: sqlite3.Row) -> ImmunityOrder:
    return ImmunityOrder(
        id=row["id"],
        game_id=row["game_id"],
        orderer_id=row["orderer_id"],
        holder_id=row["holder_id"],
        announce_name=bool(row["announce_name"]),
        accepted=bool(row["accepted"]),
        used=bool(row["used"]),
    )


def complaint(row: sqlite3.Row) -> Complaint:
    return Complaint(
        id=row["id"],
        from_id=row["from_id"],
        about_id=row["about_id"],
        text=row["text"],
        at=datetime.fromisoformat(row["at"]),
    )


def admin_action(row: sqlite3.Row) -> AdminAction:
    return AdminAction(
        id=row["id"],
        admin_id=row["admin_id"],
        action=row["action"],
        details=row["details"],
        at=datetime.fromisoformat(row["at"]),
    )

"""Conversions between SQLite rows and the value types (internal)."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from storage.models import (
    AdminAction,
    Complaint,
    GameEvent,
    ImmunityOrder,
    LedgerRow,
    Player,
)
from storage.sql import Row

PLAYER_COLUMNS = (
    "tg_id, display_name, nickname, language, sex, spouse_id, spouse_proposed_to, "
    "first_game_date, last_game_date, games_played, blocked, blocked_reason, bot_blocked, "
    "expiry_warned_on"
)


def opt_date(value: Any) -> date | None:
    return None if value is None else date.fromisoformat(value)


def opt_datetime(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def player(row: Row) -> Player:
    """``row`` starts with the PLAYER_COLUMNS, in order (positional: much faster than names)."""
    return Player(
        tg_id=row[0],
        display_name=row[1],
        nickname=row[2],
        language=row[3],
        sex=row[4],
        spouse_id=row[5],
        spouse_proposed_to=row[6],
        first_game_date=None if row[7] is None else date.fromisoformat(row[7]),
        last_game_date=None if row[8] is None else date.fromisoformat(row[8]),
        games_played=row[9],
        blocked=bool(row[10]),
        blocked_reason=row[11],
        bot_blocked=bool(row[12]),
        expiry_warned_on=None if row[13] is None else date.fromisoformat(row[13]),
    )


LEDGER_COLUMNS = "id, tg_id, points, kind, reason, game_id, phase, admin_id, day, at"


def ledger_row(row: Row) -> LedgerRow:
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


def game_event(row: Row) -> GameEvent:
    return GameEvent(
        game_id=row["game_id"],
        seq=row["seq"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        at=opt_datetime(row["at"]),
    )


def order(row: Row) -> ImmunityOrder:
    return ImmunityOrder(
        id=row["id"],
        game_id=row["game_id"],
        orderer_id=row["orderer_id"],
        holder_id=row["holder_id"],
        announce_name=bool(row["announce_name"]),
        accepted=bool(row["accepted"]),
        used=bool(row["used"]),
    )


def complaint(row: Row) -> Complaint:
    return Complaint(
        id=row["id"],
        from_id=row["from_id"],
        about_id=row["about_id"],
        text=row["text"],
        at=datetime.fromisoformat(row["at"]),
    )


def admin_action(row: Row) -> AdminAction:
    return AdminAction(
        id=row["id"],
        admin_id=row["admin_id"],
        action=row["action"],
        details=row["details"],
        at=datetime.fromisoformat(row["at"]),
    )

"""Who is asking, for the host's Mini App: Telegram's ``initData``, checked.

Telegram signs the Mini App's launch data with the bot's token (HMAC-SHA256, the documented
algorithm, checked by aiogram's ``safe_parse_webapp_init_data``). aiogram does not look at
``auth_date``: a copied ``initData`` would otherwise open the table forever, so it must be no
older than :data:`MAX_AGE` (and not from the future beyond a clock's skew).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from aiogram.utils.web_app import WebAppUser, safe_parse_webapp_init_data

SCHEME = "tma"  # ``Authorization: tma <initData>``, the convention of Telegram's docs
MAX_AGE = timedelta(hours=1)
SKEW = timedelta(minutes=5)  # Telegram's clock and ours may disagree a little


class AuthError(Exception):
    """The request does not prove who sent it (401); ``reason`` is for the log only."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def init_data_of(authorization: str | None) -> str:
    """The ``initData`` of an ``Authorization: tma <initData>`` header."""
    if not authorization:
        raise AuthError("no Authorization header")
    scheme, _, data = authorization.strip().partition(" ")
    if scheme.lower() != SCHEME or not data.strip():
        raise AuthError("not a tma Authorization header")
    return data.strip()


def check_init_data(token: str, init_data: str, now: datetime) -> WebAppUser:
    """The Telegram user who opened the Mini App, or :class:`AuthError`: a bad signature,
    no user, or an ``auth_date`` more than an hour old (or in the future)."""
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except ValueError:  # a forged or malformed initData (pydantic's errors are ValueErrors)
        raise AuthError("bad signature") from None
    if data.user is None:
        raise AuthError("no user")
    signed = data.auth_date
    if now - signed > MAX_AGE:
        raise AuthError("expired")
    if signed - now > SKEW:
        raise AuthError("from the future")
    return data.user


def host_user(token: str, authorization: str | None, now: datetime) -> WebAppUser:
    return check_init_data(token, init_data_of(authorization), now)

"""The payloads of the private chat's and the club settings' inline buttons (aiogram CallbackData
factories; the game's are in bot/game/callbacks.py). Never put a role in one."""

from __future__ import annotations

from typing import Literal

from aiogram.filters.callback_data import CallbackData


class LangCb(CallbackData, prefix="lang"):
    code: Literal["ru", "en"]


class SexCb(CallbackData, prefix="sex"):
    value: Literal["m", "f"]


class SpouseCb(CallbackData, prefix="spouse"):
    accept: bool
    proposer: int


class SettingsCb(CallbackData, prefix="cset"):
    """``/settings`` buttons: action main|lang|timer|fate|foul|foul_public|achievements|season|
    hosts|host_rm|presets|preset_rm."""

    action: str
    arg: str = ""


class NetworkCb(CallbackData, prefix="net"):
    """``/network`` buttons: ``cap`` (one of the caps on fines nudged up or down by its
    increment: ``arg`` ``fine_cap.+`` ...) or ``show`` (drawn again)."""

    action: Literal["cap", "show"]
    arg: str = ""


class StaffCb(CallbackData, prefix="staff"):
    """``/staff`` buttons: ``main`` (the first page), ``club`` (a club's staff page), ``rm``
    (revoke ``role`` of account ``tg`` in ``club``; 0: the network's), ``chatadmins`` (switch
    whether the club chat's administrators host)."""

    action: Literal["main", "club", "rm", "chatadmins"]
    role: str = ""
    club: int = 0
    tg: int = 0


class CatalogueCb(CallbackData, prefix="gifts"):
    """The admins' ``/shop`` dialog: action ``list`` (the catalogue), ``gift`` (a gift's page),
    ``new`` (a new gift: its name asked), ``field`` (``arg``: name|price|stock|photo asked),
    ``retire`` / ``restore``, ``nophoto`` (the photo taken away), ``skip`` (no photo for a new
    gift), ``stop`` (nothing asked any more)."""

    action: Literal["list", "gift", "new", "field", "retire", "restore", "nophoto", "skip",
                    "stop"]
    id: int = 0
    arg: str = ""

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
    """``/settings`` buttons: action main|lang|timer|fate|hosts|host_rm|presets|preset_rm."""

    action: str
    arg: str = ""

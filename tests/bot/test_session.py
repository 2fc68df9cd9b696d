"""The session keeps aiogram's response models alive, so answers do not rebuild them."""

from __future__ import annotations

import gc

from aiogram.methods import AnswerCallbackQuery, EditMessageText, GetUpdates, SendMessage, SendPhoto
from aiogram.methods.base import Response

from bot.telegram.session import RESPONSE_TYPES
from bot.telegram.updates import GetUpdatesAsSent


def test_every_answer_type_is_built_once() -> None:
    gc.collect()
    for method in (SendMessage, SendPhoto, EditMessageText, AnswerCallbackQuery, GetUpdates,
                   GetUpdatesAsSent):
        returning = method.__returning__
        assert Response[returning] is RESPONSE_TYPES[returning]  # type: ignore[valid-type]

"""The outbox's payload codec (bot/delivery/payload.py) reads every shape rows already hold: each
literal row below, as a database keeps it, decodes to its kind, encodes back to the same JSON,
and becomes the request the worker sends for it (``call_for``, bot/delivery/calls.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiogram.methods import (
    CloseForumTopic,
    EditMessageCaption,
    EditMessageReplyMarkup,
    EditMessageText,
    SendDocument,
    SendMessage,
    SendPhoto,
)
from aiogram.types import BufferedInputFile

from bot.delivery.calls import as_text, call_for
from bot.delivery.late import as_of
from bot.delivery.payload import (
    Buttons,
    Caption,
    CloseTopic,
    Document,
    Photo,
    Picture,
    Text,
    bare_text,
    decode,
    encode,
    folded,
)
from storage.repos.outbox import EDIT, SEND

BUTTONS = '{"inline_keyboard": [[{"callback_data": "g:1:j", "text": "I play"}]]}'
# (method, the payload as stored, its kind, the request it becomes when its message is 42)
ROWS: list[tuple[str, str, type, type]] = [
    (SEND, '{"text": "Night 1."}', Text, SendMessage),
    (SEND, f'{{"markup": {BUTTONS}, "text": "lobby"}}', Text, SendMessage),
    (SEND, '{"protect": true, "text": "<b>Your card</b>"}', Text, SendMessage),
    (SEND, '{"label": "<b>Table 2</b>", "text": "Night 1.", "thread": 7}', Text, SendMessage),
    (EDIT, '{"text": "board", "throttle": 6.0}', Text, EditMessageText),
    (EDIT, '{"redraw": true, "text": "seats", "throttle": 6.0}', Text, EditMessageText),
    (EDIT, '{"message_id": 42, "text": "edited"}', Text, EditMessageText),
    (SEND, '{"late": [["lasts 14 s", "falls", 1765000000.5]], "text": "Night 1 lasts 14 s"}',
     Text, SendMessage),
    (EDIT, '{"caption": "morning news"}', Caption, EditMessageCaption),
    (EDIT, f'{{"caption": "gift", "markup": {BUTTONS}, "message_id": 5}}', Caption,
     EditMessageCaption),
    (SEND, '{"caption": "Day 1", "picture": {"seats": []}}', Picture, SendMessage),
    (SEND, '{"caption": "Day 1", "photo": "iVBORw0KGgo=", "thread": 3}', Picture, SendMessage),
    (SEND, '{"caption": "", "photo_id": "AgADBAAD"}', Photo, SendPhoto),
    (SEND, f'{{"caption": "a gift", "markup": {BUTTONS}, "photo_id": "AgADBAAD"}}', Photo,
     SendPhoto),
    (SEND, '{"caption": "stats", "document": "aGVsbG8=", "filename": "s.csv", "thread": 3}',
     Document, SendDocument),
    (SEND, '{"document": "aGVsbG8=", "filename": "s.csv"}', Document, SendDocument),
    (EDIT, '{"markup_only": true, "message_id": 42}', Buttons, EditMessageReplyMarkup),
    (EDIT, f'{{"markup": {BUTTONS}, "markup_only": true, "message_id": 42}}', Buttons,
     EditMessageReplyMarkup),
    (SEND, '{"close_topic": true, "thread": 9}', CloseTopic, CloseForumTopic),
]


@pytest.mark.parametrize(("method", "stored", "kind", "request_type"), ROWS)
def test_every_stored_shape_decodes_and_encodes_back(method: str, stored: str, kind: type,
                                                     request_type: type) -> None:
    data = json.loads(stored)
    payload = decode(data)
    assert type(payload) is kind
    assert encode(payload) == data


@pytest.mark.parametrize(("method", "stored", "kind", "request_type"), ROWS)
def test_every_stored_shape_becomes_its_request(method: str, stored: str, kind: type,
                                                request_type: type) -> None:
    """The request the worker sends for it (a picture not drawn goes as its caption, a
    text)."""
    data: dict[str, Any] = json.loads(stored)
    built = call_for(-100, decode(data), parse_mode="HTML",
                     target=42 if method == EDIT else None)
    assert type(built) is request_type
    if isinstance(built, SendMessage | EditMessageText):
        label = data.get("label")
        words = data.get("text", data.get("caption"))
        assert built.text == (f"{label}\n{words}" if label else words)
    if isinstance(built, SendMessage | SendPhoto | SendDocument):
        assert built.message_thread_id == data.get("thread")
    if isinstance(built, SendMessage):
        assert built.protect_content is (True if data.get("protect") else None)
    if "markup" in data:
        assert getattr(built, "reply_markup", None) is not None


def test_a_picture_drawn_goes_as_a_photo_captioned_with_its_words() -> None:
    """Its own caption, the table's name first; or the words of the merged post it opens.
    The file is named by what was drawn (a PNG of a row queued before the sender drew)."""
    picture = decode(json.loads('{"caption": "Day 1", "label": "T2", "picture": {}}'))
    jpeg, png = b"\xff\xd8\xff", b"\x89PNG\r\n"
    own = call_for(-100, picture, parse_mode="HTML", photo=jpeg)
    merged = call_for(-100, picture, parse_mode="HTML", photo=png, text="Day 1\n\nmore")
    assert isinstance(own, SendPhoto) and isinstance(merged, SendPhoto)
    assert own.caption == "T2\nDay 1" and merged.caption == "T2\nDay 1\n\nmore"
    assert isinstance(own.photo, BufferedInputFile) and isinstance(merged.photo, BufferedInputFile)
    assert (own.photo.filename, merged.photo.filename) == ("table.jpg", "table.png")
    assert own.parse_mode == "HTML" and own.message_thread_id is None


def test_a_refused_photo_or_caption_edit_goes_again_as_a_texts_request() -> None:
    """A photo by a ``file_id`` Telegram no longer takes goes as its caption; a caption's edit
    of a message without one (a picture sent as its caption) edits that text; any other
    refusal, or a photo drawn here, has no other request."""
    gift = call_for(5, decode(json.loads(
        f'{{"caption": "a gift", "markup": {BUTTONS}, "photo_id": "AgADBAAD"}}')),
        parse_mode="HTML")
    assert isinstance(gift, SendPhoto)
    text = as_text(gift, "Bad Request: wrong file identifier")
    assert isinstance(text, SendMessage)
    assert (text.chat_id, text.text, text.parse_mode) == (5, "a gift", "HTML")
    assert text.reply_markup == gift.reply_markup is not None
    drawn = call_for(5, decode({"caption": "Day 1", "picture": {}}), parse_mode="HTML",
                     photo=b"\xff")
    assert as_text(drawn, "Bad Request: wrong file identifier") is None
    morning = call_for(-100, decode({"caption": "morning news"}), parse_mode="HTML", target=42)
    assert isinstance(morning, EditMessageCaption)
    edit = as_text(morning, "Bad Request: there is no caption in the message to edit")
    assert isinstance(edit, EditMessageText)
    assert (edit.chat_id, edit.message_id, edit.text) == (-100, 42, "morning news")
    assert as_text(morning, "Bad Request: message to edit not found") is None
    assert as_text(call_for(5, decode({"text": "hi"}), parse_mode="HTML"),
                   "Bad Request: there is no caption in the message to edit") is None


def test_a_late_rows_words_are_chosen_by_its_moments_end() -> None:
    payload = decode(json.loads(ROWS[7][1]))
    assert as_of(payload, 1765000000.0) == payload
    assert isinstance(late := as_of(payload, 1765000001.0), Text)
    assert late.text == "Night 1 falls"


def test_a_steps_gathering_reads_bare_texts_and_folds_edits() -> None:
    assert bare_text({"text": "Night 1."}) == "Night 1."
    assert bare_text({"text": "Night 1.", "thread": 7}) is None
    assert bare_text({"markup_only": True, "message_id": 4}) is None
    assert folded({"markup": json.loads(BUTTONS), "text": "lobby"}, {"text": "closed"},
                  into_edit=False) == {"text": "closed"}
    assert folded({"redraw": True, "text": "a"}, {"text": "b"}, into_edit=True) == {"text": "b"}
    assert folded({"redraw": True, "text": "a"}, {"redraw": True, "text": "b"},
                  into_edit=True) == {"redraw": True, "text": "b"}
    assert folded({"caption": "Day 1", "picture": {"seats": []}}, {"caption": "Day 1, news"},
                  into_edit=False) == {"caption": "Day 1, news", "picture": {"seats": []}}

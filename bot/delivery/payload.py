"""What one outbox row asks Telegram for, typed: one frozen class per kind, and its codec.

A row keeps its payload as JSON (``storage/repos/outbox.py``, the ``payload`` column). The game
layer, the handlers' answers and the evenings build a kind and :func:`encode` it; the worker
(:mod:`bot.delivery.worker`), merging (:mod:`bot.delivery.merge`) and a late post's words
(:mod:`bot.delivery.late`) :func:`decode` it. ``encode`` writes each kind with the keys rows
have always had, and ``decode`` reads every shape a database already holds, so
``encode(decode(stored)) == stored`` (``tests/bot/test_delivery_payload.py``, from literal
rows). Pure: the request is built from a kind when the row's turn comes
(:mod:`bot.delivery.calls`).

The kinds, and the request each becomes:

* :class:`Text` — ``sendMessage``, or ``editMessageText`` of an earlier send (or of a
  handler's button's message, ``message_id``);
* :class:`Caption` — ``editMessageCaption`` of a picture's (or a photo's) caption;
* :class:`Picture` — ``sendPhoto`` of the table's picture, drawn when it is sent (or a PNG
  stored before the sender drew them, ``photo``);
* :class:`Photo` — ``sendPhoto`` of a photo Telegram has (its ``file_id``);
* :class:`Document` — ``sendDocument`` of a handler's file;
* :class:`Buttons` — ``editMessageReplyMarkup``: a message's buttons changed;
* :class:`CloseTopic` — ``closeForumTopic``: a table's topic, after its last post.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiogram.types import InlineKeyboardMarkup

if TYPE_CHECKING:  # Pillow is imported on the first picture, not at the bot's start
    from views.picture import TableView

JSON = dict[str, Any]

THREAD, LABEL, THROTTLE = "thread", "label", "throttle"
# a club row's texts that state how long their moment lasts: [[as said, as said once the moment
# is over, the moment's end (Unix seconds)], ...] (``Notifier.timed``, :mod:`bot.delivery.late`)
LATE = "late"
# an edit that only redraws a live list (a lobby's seats, an evening's list, a vote's board):
# the chat's announcements (its new posts, and the edits that tell: the night's fall, a verdict)
# go before it, each table's in its order (``Delivery._head``)
REDRAW = "redraw"
CLOSE_TOPIC = "close_topic"  # a row that closes its table's forum topic (after its last post)

Late = tuple[tuple[str, str, float], ...]


@dataclass(frozen=True, kw_only=True)
class Addressed:
    """Where a row goes and how it is kept: ``thread``, the forum topic its send names;
    ``label``, the table's name the sender puts before its text or caption (a table sharing
    its chat); ``throttle``, a throttled edit's gap (written into the row by the outbox)."""

    thread: int | None = None
    label: str | None = None
    throttle: float = 0.0


@dataclass(frozen=True, kw_only=True)
class Text(Addressed):
    text: str
    markup: JSON | None = None  # an InlineKeyboardMarkup as JSON
    protect: bool = False
    message_id: int | None = None  # an edit of a handler's button's message (no key's send)
    late: Late = ()
    redraw: bool = False

    @property
    def plain(self) -> bool:
        """A text without buttons: what may be merged (``bot/delivery/merge.py``)."""
        return self.markup is None and not self.protect


@dataclass(frozen=True, kw_only=True)
class Caption(Addressed):
    caption: str
    markup: JSON | None = None
    message_id: int | None = None
    late: Late = ()


@dataclass(frozen=True, kw_only=True)
class Picture(Addressed):
    caption: str
    picture: JSON | None = None  # what to draw (``views.picture.TableView.to_json``)
    photo: str | None = None  # a PNG, base64: a row queued before the sender drew pictures
    late: Late = ()


@dataclass(frozen=True, kw_only=True)
class Photo(Addressed):
    photo_id: str
    caption: str
    markup: JSON | None = None


@dataclass(frozen=True, kw_only=True)
class Document(Addressed):
    document: str  # base64
    filename: str
    caption: str | None = None


@dataclass(frozen=True, kw_only=True)
class Buttons(Addressed):
    markup: JSON | None = None  # None: none left
    message_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class CloseTopic(Addressed):
    pass


Payload = Text | Caption | Picture | Photo | Document | Buttons | CloseTopic


def body_of(payload: Payload) -> str:
    """A row's own text: a picture's or a photo's caption where it has none."""
    if isinstance(payload, Text):
        return payload.text
    if isinstance(payload, Caption | Picture | Photo | Document):
        return payload.caption or ""
    return ""


def labelled(payload: Payload, text: str) -> str:
    """A club post of a table that shares its chat opens with the table's name (``label``)."""
    return f"{payload.label}\n{text}" if payload.label else text


def text_of(payload: Payload, text: str | None = None) -> str:
    """What a row says (or ``text``, a merged post's, instead of its own), a table's name
    before it (:func:`labelled`)."""
    return labelled(payload, body_of(payload) if text is None else text)


def late_of(payload: Payload) -> Late:
    return payload.late if isinstance(payload, Text | Caption | Picture) else ()


# ---------------------------------------------------------------------- the codec
def _late(data: Mapping[str, Any]) -> Late:
    return tuple((str(said), str(over), float(until))
                 for said, over, until in data.get(LATE) or ())


def _placed(data: Mapping[str, Any]) -> dict[str, Any]:
    thread = data.get(THREAD)
    return {"thread": None if thread is None else int(thread), "label": data.get(LABEL),
            "throttle": float(data.get(THROTTLE, 0.0))}


def decode(data: Mapping[str, Any]) -> Payload:
    """A stored payload (any shape rows have held) as its kind."""
    placed = _placed(data)
    if data.get(CLOSE_TOPIC):
        return CloseTopic(**placed)
    if "document" in data:
        return Document(document=str(data["document"]), filename=str(data["filename"]),
                        caption=data.get("caption"), **placed)
    if "photo_id" in data:
        return Photo(photo_id=str(data["photo_id"]), caption=str(data.get("caption", "")),
                     markup=data.get("markup"), **placed)
    if data.get("markup_only"):
        return Buttons(markup=data.get("markup"), message_id=data.get("message_id"), **placed)
    if "picture" in data or "photo" in data:
        return Picture(caption=str(data.get("caption", "")), picture=data.get("picture"),
                       photo=data.get("photo"), late=_late(data), **placed)
    if "text" in data:
        return Text(text=str(data["text"]), markup=data.get("markup"),
                    protect=bool(data.get("protect")), message_id=data.get("message_id"),
                    late=_late(data), redraw=data.get(REDRAW) is True, **placed)
    return Caption(caption=str(data["caption"]), markup=data.get("markup"),
                   message_id=data.get("message_id"), late=_late(data), **placed)


def encode(payload: Payload) -> JSON:
    """The JSON a row keeps for ``payload``: the keys rows have always had, only those set."""
    out: JSON = {}
    if isinstance(payload, CloseTopic):
        out[CLOSE_TOPIC] = True
    elif isinstance(payload, Document):
        out.update(document=payload.document, filename=payload.filename)
        if payload.caption:
            out["caption"] = payload.caption
    elif isinstance(payload, Photo):
        out.update(photo_id=payload.photo_id, caption=payload.caption)
    elif isinstance(payload, Buttons):
        out["markup_only"] = True
    elif isinstance(payload, Picture):
        out["caption"] = payload.caption
        if payload.picture is not None:
            out["picture"] = payload.picture
        if payload.photo is not None:
            out["photo"] = payload.photo
    elif isinstance(payload, Text):
        out["text"] = payload.text
        if payload.protect:
            out["protect"] = True
        if payload.redraw:
            out[REDRAW] = True
    else:
        out["caption"] = payload.caption
    markup = getattr(payload, "markup", None)
    if markup is not None:
        out["markup"] = markup
    message_id = getattr(payload, "message_id", None)
    if message_id is not None:
        out["message_id"] = message_id
    late = late_of(payload)
    if late:
        out[LATE] = [list(entry) for entry in late]
    if payload.thread is not None:
        out[THREAD] = payload.thread
    if payload.label is not None:
        out[LABEL] = payload.label
    if payload.throttle > 0:
        out[THROTTLE] = payload.throttle
    return out


# ---------------------------------------------------------------------- builders
def markup_json(markup: InlineKeyboardMarkup | None) -> JSON | None:
    return None if markup is None else markup.model_dump(mode="json", exclude_none=True)


def send_payload(text: str, markup: InlineKeyboardMarkup | None = None,
                 protect: bool = False) -> JSON:
    """A text (a send, or an edit of one) as a row keeps it."""
    return encode(Text(text=text, markup=markup_json(markup), protect=protect))


def picture_payload(view: TableView, caption: str) -> JSON:
    """The table's picture with its caption: the row keeps what to draw, and the sender draws
    it when the row's turn comes (``views/drawing.py``)."""
    return encode(Picture(picture=view.to_json(), caption=caption))


def bare_text(data: Mapping[str, Any]) -> str | None:
    """The words of a stored payload that is a bare text (no buttons, no topic, no name, no
    timed words: what a game step gathers into one post), else None."""
    payload = decode(data)
    if isinstance(payload, Text) and payload == Text(text=payload.text):
        return payload.text
    return None


def folded(queued: Mapping[str, Any], edit: Mapping[str, Any], *, into_edit: bool) -> JSON:
    """A row queued in this same step (a send, or an edit when ``into_edit``) with a later
    edit of its message folded in: the edit's words, its buttons (none if it has none), a
    redraw only while both are one."""
    out = {**queued, **edit}
    if "markup" not in edit:
        out.pop("markup", None)
    if not into_edit or REDRAW not in edit:
        out.pop(REDRAW, None)
    return encode(decode(out))

"""Structured logging through stdlib logging: one ``key=value`` line per record, or with
``LOG_FORMAT=json`` one JSON object a line. Every line written while an update is handled
carries its ``update_id`` and, in a group, its ``club``, and every line of a game's step its
``game_id`` and ``club`` (:func:`bind`), besides the fields a call gives (``extra=``:
``chat_id``, ...)."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, Literal, TextIO

_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}
# the fields of the update being handled in this task (and the tasks it starts)
_CONTEXT: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "log_context", default=MappingProxyType({}))


def bind(**fields: Any) -> contextvars.Token[Mapping[str, Any]]:
    """Add ``fields`` to every line logged from here on in this task (``unbind`` with the token
    when done)."""
    return _CONTEXT.set({**_CONTEXT.get(), **fields})


def unbind(token: contextvars.Token[Mapping[str, Any]]) -> None:
    _CONTEXT.reset(token)


def _fields(record: logging.LogRecord) -> Iterator[tuple[str, Any]]:
    yield from _CONTEXT.get().items()
    for key, value in record.__dict__.items():
        if key not in _STANDARD and not key.startswith("_"):
            yield key, value


def _quote(value: Any) -> str:
    text = str(value)
    if text == "" or any(c in text for c in ' "=\n\t'):
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=INFO logger=bot msg="..." key=value ...`` (extra= fields become keys)."""

    def format(self, record: logging.LogRecord) -> str:
        ts = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        parts = [
            f"ts={ts}",
            f"level={record.levelname}",
            f"logger={_quote(record.name)}",
            f"msg={_quote(record.getMessage())}",
        ]
        parts += [f"{key}={_quote(value)}" for key, value in dict(_fields(record)).items()]
        if record.exc_info:
            parts.append(f"exc={_quote(self.formatException(record.exc_info))}")
        return " ".join(parts)


class JsonFormatter(logging.Formatter):
    """``{"ts": "...", "level": "INFO", "logger": "bot", "msg": "...", "update_id": 7, ...}``:
    one object a line, the fields as JSON values (a value JSON cannot hold, as its text)."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in _fields(record):
            data.setdefault(key, value)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def setup_logging(level: int = logging.INFO, stream: TextIO | None = None,
                  log_format: Literal["text", "json"] = "text") -> None:
    """Logs go to stdout; stderr is kept for the one fatal line when the bot cannot start."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(JsonFormatter() if log_format == "json" else KeyValueFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)

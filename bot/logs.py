"""Structured logging: one ``key=value`` line per record, through stdlib logging."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


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
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                parts.append(f"{key}={_quote(value)}")
        if record.exc_info:
            parts.append(f"exc={_quote(self.formatException(record.exc_info))}")
        return " ".join(parts)


def setup_logging(level: int = logging.INFO, stream: TextIO | None = None) -> None:
    """Logs go to stdout; stderr is kept for the one fatal line when the bot cannot start."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(KeyValueFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)

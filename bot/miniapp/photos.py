"""The gifts' photos for the player's Mini App: a gift keeps a Telegram ``file_id`` (the photo an
admin sent), which a browser cannot open; the bot asks Telegram for the file (``getFile``, then
the download) and hands the bytes on. The download's address holds the bot's token, so it never
leaves this process. The bytes are kept in a bounded cache (the least recently shown go first):
a catalogue is a few dozen photos, each fetched from Telegram once.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

from aiogram import Bot
from cachetools import LRUCache

log = logging.getLogger("web.player")

CACHE_BYTES = 8 * 2 ** 20  # the photos kept at most (a photo of a gift is some 100 KB)
MAX_PHOTO = 5 * 2 ** 20  # a larger file is not fetched (Telegram sends photos far smaller)

Fetch = Callable[[str], Awaitable[bytes | None]]


class PhotoUnavailable(Exception):
    """Telegram did not give the file (an old file_id, a failure): the page shows no photo."""


def telegram_fetch(bot: Bot) -> Fetch:
    """Fetch a ``file_id``'s bytes through ``bot`` (None: too large to hand on)."""

    async def fetch(file_id: str) -> bytes | None:
        found = await bot.get_file(file_id)
        if found.file_path is None or (found.file_size or 0) > MAX_PHOTO:
            return None
        buffer = io.BytesIO()
        await bot.download_file(found.file_path, destination=buffer)
        data = buffer.getvalue()
        return data if len(data) <= MAX_PHOTO else None

    return fetch


def content_type(data: bytes) -> str:
    """The image's type from its first bytes (Telegram's photos are JPEGs)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "image/jpeg"


class GiftPhotos:
    def __init__(self, fetch: Fetch, *, cache_bytes: int = CACHE_BYTES) -> None:
        self.fetch = fetch
        self.cache: LRUCache[str, bytes] = LRUCache(maxsize=cache_bytes, getsizeof=len)

    async def get(self, file_id: str) -> bytes:
        """The photo's bytes, from the cache or from Telegram (:class:`PhotoUnavailable`)."""
        cached = self.cache.get(file_id)
        if cached is not None:
            return cached
        try:
            data = await self.fetch(file_id)
        except Exception as e:
            log.info("gift photo unavailable", extra={"error": str(e)})
            raise PhotoUnavailable(file_id) from None
        if data is None:
            raise PhotoUnavailable(file_id)
        if len(data) <= self.cache.maxsize:
            self.cache[file_id] = data
        return data

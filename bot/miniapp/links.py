"""Where the player's Mini App opens: ``{WEB_URL}/app/player``, when Telegram may open it (the
pages public over HTTPS and served by this process, ``WEB_PORT``). Light on purpose: the
handlers and the start ask it without loading the web app."""

from __future__ import annotations

PLAYER_PATH = "app/player"


def player_app_url(web_url: str | None, web_port: int | None) -> str | None:
    """The player's Mini App's address, or None when Telegram could not open it here."""
    if web_port is None or not web_url or not web_url.startswith("https://"):
        return None
    return f"{web_url.rstrip('/')}/{PLAYER_PATH}"

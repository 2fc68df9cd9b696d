"""The players' languages as the game layer last read them: each account's own (``/lang``),
else the bot's default; a player's is read when the player sits down or the game is rebuilt."""

from __future__ import annotations

from storage.db import Database


class Languages:
    """The accounts' languages by Telegram id (:attr:`known`), over :attr:`default`."""

    def __init__(self, db: Database, default: str) -> None:
        self.db = db
        self.default = default
        self.known: dict[int, str] = {}

    def locale_of(self, tg_id: int) -> str:
        return self.known.get(tg_id, self.default)

    async def load_player(self, tg_id: int) -> None:
        player = await self.db.players.get(tg_id)
        if player is not None and player.language:
            self.known[tg_id] = player.language

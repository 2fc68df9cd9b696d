"""``python -m storage rerate DB``: every rating and every achievement rebuilt from scratch. The
outcomes of games that ended before the outcomes were kept are first read from their logs (the
same replay the copy checks with), then the counted games are folded in the order they ended
(the ratings and each player's history); then the night kills of the games that ended before
they were kept are read from their logs; last, every achievement is folded again from the
counted games' logs."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from record.outcome import replay_outcome
from storage.db import Database


class Rerated(NamedTuple):
    read: int  # outcomes read from the logs now
    rated: int  # games the ratings were folded from
    kills: int = 0  # games whose night kills were read from their logs now
    achieved: int = 0  # games the achievements were folded from


async def rerate(db: Database) -> Rerated:
    """Read the missing outcomes from their logs, then rebuild every rating and every
    achievement."""
    unread = await db.ratings.unread()
    for game_id in unread:
        game = await db.games.get(game_id)
        replayed = replay_outcome(game, await db.games.events(game_id))
        await db.ratings.set_winner(game_id, replayed.winner)
    rated = await db.ratings.rerate()
    unread_kills = await db.kills.unread()  # the games that ended before the kills were kept
    for seq, game_id in unread_kills:
        await db.kills.read_log(seq, game_id)
    return Rerated(len(unread), rated, len(unread_kills), await db.achievements.rebuild())


async def main(target: str | Path) -> Rerated:
    db = await Database.open(target)
    try:
        return await rerate(db)
    finally:
        await db.close()

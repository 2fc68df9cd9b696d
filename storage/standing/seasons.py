"""The seasons as stored: the network's custom seasons (``seasons``; the quarters need no row),
each counted game's season (``game_outcomes.season``, the first day of the season its end day
is in) and each season's own rating (``season_ratings``: the overall rating over that season's
counted games alone, written at a game's end with the overall one and rebuilt by ``rerate``).
Read here: a season's boards by rating and by points (its games' ledger rows), per club and
network-wide (a blocked account on none, its rows kept), its Hall of Fame (the top places of
a closed season's boards), and the closed seasons a player ended in the top ten of the
network's board by rating (the ``season_top`` achievement, read from these rows when shown,
so a rerate or a void moves it with them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import NamedTuple

from standing.rating import MODEL, PROVISIONAL_GAMES, Held, Key, RatedGame, Rating, Side, Standings
from standing.seasons import Custom, Season, closed, season_of
from storage.sql import Connection, Store, insert_rows

_COLUMNS = "season, tg_id, mu, sigma, games, wins"
ROWS_AT_ONCE = 500  # rows of one INSERT (6 values each)
FAME_PLACES = 3  # the places of a board the Hall of Fame keeps
BOARD_LIMIT = 10  # the lines of a season's board shown
TOP_PLACES = 10  # a season's top ten: the network board's lines ranked within these places


class Placed(NamedTuple):
    """A line of a season's board: its competition rank (1, 2, 2, 4), the player (by the
    nickname held now; None: none, and never the Telegram name), the value (the rating's
    ordinal, or the points), and the player's rating (None: a board by points)."""

    rank: int
    tg_id: int
    nickname: str | None
    value: float
    rating: Rating | None = None


class Boards(NamedTuple):
    """A season's two boards, over a club's games or the network's (``club``: None)."""

    season: Season
    club: int | None
    rating: list[Placed]
    points: list[Placed]


class Mine(NamedTuple):
    """A player's season: the rating (None: no counted game yet) and the points earned."""

    season: Season
    rating: Rating | None
    points: int


async def customs(conn: Connection) -> list[Custom]:
    """The network's custom seasons, oldest first."""
    rows = await conn.execute_fetchall(
        "SELECT start_day, end_day, name FROM seasons ORDER BY start_day")
    return [Custom(date.fromisoformat(r[0]), date.fromisoformat(r[1]), str(r[2])) for r in rows]


async def season_key(conn: Connection, ended_on: date) -> str:
    """The season a game that ended on ``ended_on`` (its club's day) belongs to."""
    return season_of(ended_on, await customs(conn)).key


async def read(conn: Connection, season: str, tg_ids: Iterable[int]) -> dict[Key, Rating]:
    ids = sorted(set(tg_ids))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await conn.execute_fetchall(
        f"SELECT tg_id, mu, sigma, games, wins FROM season_ratings WHERE season = ?"
        f" AND tg_id IN ({marks})", [season, *ids])
    return {(int(r[0]), Side.ALL): Rating(float(r[1]), float(r[2]), int(r[3]), int(r[4]))
            for r in rows}


async def write(conn: Connection, ratings: Iterable[tuple[str, int, Rating]]) -> None:
    rows = [(season, tg, r.mu, r.sigma, r.games, r.wins) for season, tg, r in sorted(ratings)]
    await insert_rows(conn, "season_ratings", _COLUMNS, rows, at_once=ROWS_AT_ONCE,
                      tail=" ON CONFLICT (season, tg_id) DO UPDATE SET mu = excluded.mu,"
                      " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins")


async def rate(conn: Connection, season: str, game: RatedGame) -> None:
    """A counted game's end: its players' ratings of its season move (in the end's
    transaction, as the overall ones)."""
    standings = Standings(sides=False)
    standings.held.update(
        (key, Held(MODEL.rating(mu=r.mu, sigma=r.sigma), r.games, r.wins))
        for key, r in (await read(conn, season, (tg for tg, _ in game.seats))).items())
    after = standings.add(game)
    await write(conn, ((season, tg, held.rating) for (tg, _), held in after.items()))


class Folds:
    """Every season's ratings of a rebuild, each season folded on its own."""

    def __init__(self) -> None:
        self.by_season: dict[str, Standings] = {}

    def add(self, season: str | None, game: RatedGame) -> None:
        if season is None:
            return
        standings = self.by_season.get(season)
        if standings is None:
            standings = self.by_season[season] = Standings(sides=False)
        standings.add(game)

    def rows(self) -> list[tuple[str, int, Rating]]:
        return [(season, tg, rating) for season, standings in self.by_season.items()
                for (tg, _), rating in standings.ratings().items()]


def _placed(ranked: Sequence[tuple[int, str | None, float, Rating | None]], places: int | None,
            limit: int) -> list[Placed]:
    """Competition ranks over lines sorted best first: the first ``limit`` lines, or with
    ``places`` every line ranked within the first ``places``."""
    out: list[Placed] = []
    for index, (tg_id, nickname, value, rating) in enumerate(ranked):
        rank = out[-1].rank if out and out[-1].value == value else index + 1
        if (places is not None and rank > places) or (places is None and index >= limit):
            break
        out.append(Placed(rank, tg_id, nickname, value, rating))
    return out


_COUNTED = ("g.status = 'finished' AND g.voided_at IS NULL AND g.friendly = 0"
            " AND o.winner IS NOT NULL")


class Seasons:
    """The seasons' standing (``db.seasons``)."""

    def __init__(self, db: Store) -> None:
        self._db = db

    async def customs(self) -> list[Custom]:
        async with self._db.read() as conn:
            return await customs(conn)

    async def of_day(self, day: date) -> Season:
        """The season ``day`` is in."""
        return season_of(day, await self.customs())

    async def by_rating(self, season: str, *, club_chat_id: int | None = None,
                        limit: int = BOARD_LIMIT, places: int | None = None) -> list[Placed]:
        """The season's board by its own rating (the ordinal), best first, without the
        provisional ratings (fewer than ``PROVISIONAL_GAMES`` games in the season) and the
        blocked accounts (as the all-time boards); ``club_chat_id``: the players who played a
        counted game of the season there."""
        sql = ("SELECT r.tg_id, p.nickname, r.mu, r.sigma, r.games,"
               " r.wins FROM season_ratings r JOIN players p ON p.tg_id = r.tg_id"
               " WHERE r.season = ? AND r.games >= ? AND p.blocked = 0")
        params: list[object] = [season, PROVISIONAL_GAMES]
        if club_chat_id is not None:
            sql += (" AND EXISTS (SELECT 1 FROM game_seats s JOIN games g ON g.id = s.game_id"
                    " JOIN game_outcomes o ON o.game_id = g.id"
                    f" WHERE s.tg_id = r.tg_id AND g.club_chat_id = ? AND o.season = ?"
                    f" AND {_COUNTED})")
            params += [club_chat_id, season]
        rows = await self._db.query(sql, params)
        lines = [(int(r[0]), None if r[1] is None else str(r[1]),
                  Rating(float(r[2]), float(r[3]), int(r[4]), int(r[5]))) for r in rows]
        ranked = sorted(((tg, nick, round(rating.ordinal, 1), rating)
                         for tg, nick, rating in lines), key=lambda t: (-t[2], t[0]))
        return _placed(ranked, places, limit)

    async def by_points(self, season: str, *, club_chat_id: int | None = None,
                        limit: int = BOARD_LIMIT, places: int | None = None) -> list[Placed]:
        """The season's board by points: the sum of the ledger's rows of its counted games
        (a voided game's rows and their reversal both left out), most first; without the
        blocked accounts."""
        sql = ("SELECT l.tg_id, p.nickname, sum(l.points)"
               " FROM ledger l JOIN game_outcomes o ON o.game_id = l.game_id"
               " JOIN games g ON g.id = l.game_id JOIN players p ON p.tg_id = l.tg_id"
               f" WHERE o.season = ? AND l.kind = 'game' AND {_COUNTED} AND p.blocked = 0")
        params: list[object] = [season]
        if club_chat_id is not None:
            sql += " AND g.club_chat_id = ?"
            params.append(club_chat_id)
        sql += " GROUP BY l.tg_id, p.nickname"
        rows = await self._db.query(sql, params)
        ranked = sorted(((int(r[0]), None if r[1] is None else str(r[1]), float(r[2]), None)
                         for r in rows),
                        key=lambda t: (-t[2], t[0]))
        return _placed(ranked, places, limit)

    async def boards(self, season: Season, *, club_chat_id: int | None = None,
                     places: int | None = None, limit: int = BOARD_LIMIT) -> Boards:
        """Both boards of ``season``: the first ``limit`` lines, or with ``places`` the Hall
        of Fame's (every line within the first ``places`` ranks)."""
        return Boards(season, club_chat_id,
                      await self.by_rating(season.key, club_chat_id=club_chat_id,
                                           limit=limit, places=places),
                      await self.by_points(season.key, club_chat_id=club_chat_id,
                                           limit=limit, places=places))

    async def fame(self, season: Season, *, club_chat_id: int | None = None,
                   places: int = FAME_PLACES) -> Boards:
        """The Hall of Fame of a closed season: its boards' first ``places`` places."""
        return await self.boards(season, club_chat_id=club_chat_id, places=places)

    async def top_ten(self, season: str) -> list[Placed]:
        """The top ten of ``season``: the network's board by rating, every line ranked within
        the first ``TOP_PLACES`` (the board's competition ranks: a tie at 10th is in)."""
        return await self.by_rating(season, places=TOP_PLACES)

    async def top_tens(self, tg_id: int, now: datetime) -> list[tuple[Season, int]]:
        """The closed seasons (``standing.seasons.closed`` at ``now``) the player ended in
        the top ten of, with the rank there, oldest first."""
        rows = await self._db.query(
            "SELECT season FROM season_ratings WHERE tg_id = ? AND games >= ?",
            (tg_id, PROVISIONAL_GAMES))
        found = await self.customs()
        out: list[tuple[Season, int]] = []
        for season in sorted(season_of(date.fromisoformat(str(r[0])), found) for r in rows):
            if not closed(season, now):
                continue
            rank = next((p.rank for p in await self.top_ten(season.key) if p.tg_id == tg_id),
                        None)
            if rank is not None:
                out.append((season, rank))
        return out

    async def mine(self, season: Season, tg_id: int) -> Mine:
        """A player's line of ``season``: the season's rating and points."""
        async with self._db.read() as conn:
            rating = (await read(conn, season.key, [tg_id])).get((tg_id, Side.ALL))
            rows = await conn.execute_fetchall(
                "SELECT coalesce(sum(l.points), 0) FROM ledger l"
                " JOIN game_outcomes o ON o.game_id = l.game_id"
                " JOIN games g ON g.id = l.game_id"
                f" WHERE o.season = ? AND l.tg_id = ? AND l.kind = 'game' AND {_COUNTED}",
                (season.key, tg_id))
        return Mine(season, rating, int(next(iter(rows))[0]))

    async def played(self, *, club_chat_id: int | None = None,
                     before: date | None = None) -> list[Season]:
        """The seasons with a counted game (of the club, else the network: read from the
        seasons' ratings, one row a player and season), newest first; ``before``: only those
        that ended before that day (the closed ones)."""
        if club_chat_id is None:
            sql = "SELECT DISTINCT season FROM season_ratings"
            params: list[object] = []
        else:
            sql = ("SELECT DISTINCT o.season FROM game_outcomes o"
                   " JOIN games g ON g.id = o.game_id"
                   f" WHERE o.season IS NOT NULL AND {_COUNTED} AND g.club_chat_id = ?")
            params = [club_chat_id]
        rows = await self._db.query(sql, params)
        found = await self.customs()
        seasons = [season_of(date.fromisoformat(str(r[0])), found) for r in rows]
        return sorted((s for s in seasons if before is None or s.end < before),
                      key=lambda s: s.start, reverse=True)

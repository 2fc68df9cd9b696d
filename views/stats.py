"""Statistics over storage: a player's record, the club and network tables, a finished game.

Shared by ``/stats`` and ``/top`` (bot/handlers/stats.py) and the web pages (``web/``). A
finished game is rebuilt from its event log with the game layer's own reducer (``Table.apply``,
the one a restart uses), so every page shows what the engine decided; rebuilt games are cached
(a finished game never changes). Nothing of a game that is not finished is ever returned.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import engine
from engine import Event, GameState, NightResult, Role, TechnicalDeathResult, Winner
from engine.events import EVERYONE
from record.log_events import Deal, decode
from record.protocol import protocol_of
from record.table import Table
from standing.rating import Rating, Side
from storage.db import Database
from storage.errors import UnknownGame
from storage.models import STATUS_FINISHED, Club, Game, LedgerRow, Player, TopEntry
from storage.repos.records import VOID_REASON
from storage.standing.ratings import Ranked
from views.achievements import Shown, shown
from views.i18n import sex_of

FINE_REASONS = frozenset(r.value for r in engine.FineReason)
SURVIVED = (engine.Reason.SURVIVED_DAY.value, engine.Reason.SURVIVED_NIGHT.value)
CLUB_PERIOD_DAYS = 61  # a club's table covers about two months: the life of a point
RECENT_ROWS = 5
CACHE_GAMES = 256


def reason_lines(totals: Mapping[str, int]) -> list[tuple[str, int]]:
    """A seat's points of one game as they are read, per reason: a survived day and a survived
    night are one reason, ``survived`` («пережитые дни и ночи»), when the game has both — as
    ``Ledger.recent_grouped`` reads a game's rows for /balance and /stats."""
    if not all(r in totals for r in SURVIVED):
        return list(totals.items())
    out: list[tuple[str, int]] = []
    for reason, points in totals.items():
        if reason not in SURVIVED:
            out.append((reason, points))
        elif reason == next(r for r in totals if r in SURVIVED):
            out.append(("survived", sum(totals[r] for r in SURVIVED)))
    return out


@dataclass(frozen=True, slots=True)
class PlayedPhase:
    """One resolved phase and what the club chat was told about it."""

    kind: str  # "deal", "night", "day", "tech"
    number: int  # the night's / day's number; the seat for a technical death
    events: tuple[Event, ...]  # public events only


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The fair deal of a finished game, checked: the commitment published before the game
    must be the hash of the revealed seed and the deal that seed gives, and that deal must be
    the cards the table played with."""

    published: str | None  # the commitment posted before the first night (games.commitment)
    seed: str  # hex, revealed at the end
    cards: tuple[str, ...]
    seats: tuple[int, ...]
    deal: dict[int, str]  # what re-dealing the cards with the seed gives
    body: str  # the JSON hashed after the seed bytes
    computed: str  # sha256(seed || body)
    played: dict[int, str]  # the cards the table played with

    @property
    def opens(self) -> bool:
        if self.published is None or not self.deal:
            return False  # no commitment was published, or the seed or cards are unreadable
        return engine.verify(bytes.fromhex(self.seed), [Role(c) for c in self.cards],
                             list(self.seats), self.published)

    @property
    def same_deal(self) -> bool:
        return self.deal == self.played

    @property
    def ok(self) -> bool:
        return self.opens and self.same_deal


@dataclass(frozen=True, slots=True)
class SeatPoints:
    seat: int
    total: int
    reasons: tuple[tuple[str, int], ...]  # (reason, points), summed per reason


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: Game
    club_title: str
    table: Table  # the final table (names by seat, the final state)
    phases: tuple[PlayedPhase, ...]
    points: tuple[SeatPoints, ...]
    deal: DealCheck | None
    links: dict[int, str]  # seat -> the player's current nickname, when it is still theirs
    voided_by: str | None = None  # the admin who voided the game (``game.void_reason``: why)

    @property
    def state(self) -> GameState:
        return self.table.game

    @property
    def winner(self) -> Winner | None:
        return self.state.winner

    @property
    def fouls(self) -> tuple[engine.Foul, ...]:
        """Every foul of the game in order, undone ones too (marked)."""
        return self.state.fouls

    def foul_note(self, number: int) -> str | None:
        return self.table.foul_notes.get(number)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One finished game in a player's record."""

    game_id: int
    club_title: str
    finished_on: date | None
    seat: int
    role: str | None
    won: bool | None  # None: a draw
    survived: bool
    fouls: int = 0  # the host's fouls against the player in that game (not undone)


@dataclass
class PlayerStats:
    nickname: str
    games: list[GameLine]
    balance: int
    rank: int | None
    earned: int
    spent: int
    recent: list[LedgerRow]
    history: list[LedgerRow]
    expires_on: date | None
    by_team: dict[str, tuple[int, int]] = field(default_factory=dict)  # team -> (played, won)
    cards: Counter[str] = field(default_factory=Counter)
    sex: str = "unknown"  # the player's as the texts select on it (views.i18n.sex_of)
    no_shows: int = 0  # the club evenings signed up for and not come to
    ratings: dict[Side, Rating] = field(default_factory=dict)  # the skill rating by side
    # every achievement of the catalogue with the player's level and counter
    achievements: list[Shown] = field(default_factory=list)

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def survived(self) -> int:
        return sum(1 for g in self.games if g.survived)

    @property
    def survival_rate(self) -> int | None:
        """Percent of games the player was alive at the end (None: no game yet)."""
        return None if not self.games else round(100 * self.survived / len(self.games))

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.won is None)

    @property
    def fouls(self) -> int:
        """The fouls of the player's finished games (undone ones do not count)."""
        return sum(g.fouls for g in self.games)

    @property
    def fouls_per_game(self) -> float | None:
        return None if not self.games else self.fouls / len(self.games)


@dataclass(frozen=True, slots=True)
class Leaderboard:
    title: str  # the club's title; "" for the network
    club_chat_id: int | None
    since: date | None  # None: the network's current balances
    until: date
    entries: list[TopEntry]


@dataclass(frozen=True)
class RatingBoard:
    """One table of ``/top rating``: a club's players (those who played a rated game there)
    or the network's, by the skill rating's ordinal; provisional ratings left out."""

    title: str  # the club's title; "" for the network
    club_chat_id: int | None
    entries: list[Ranked]


class StatsService:
    def __init__(self, db: Database, *, cache_size: int = CACHE_GAMES,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock  # the present (None: the machine's): which seasons are over
        self._cache: OrderedDict[int, tuple[Table, tuple[PlayedPhase, ...], DealCheck | None]] = (
            OrderedDict())
        self._cache_size = cache_size

    # ------------------------------------------------------------------ games
    async def finished(self, game_id: int) -> Game | None:
        """The game if it is finished; None for an unknown, running or aborted one."""
        try:
            game = await self.db.games.get(game_id)
        except UnknownGame:
            return None
        return game if game.status == STATUS_FINISHED else None

    async def _rebuilt(self, game: Game) -> tuple[Table, tuple[PlayedPhase, ...], DealCheck | None]:
        cached = self._cache.get(game.id)
        if cached is not None:
            self._cache.move_to_end(game.id)
            return cached
        day = game.finished_on or game.created_at.date()
        table = Table(game.id, game.club_chat_id, game.host_id, day)
        phases: list[PlayedPhase] = []
        dealt: Deal | None = None
        for logged in await self.db.games.events(game.id):
            event = decode(logged.kind, logged.payload)
            result = table.apply(event, logged.seq)
            if isinstance(event, Deal):
                dealt = event
                phases.append(PlayedPhase("deal", 0, (engine.open_immunities_event(table.game),)))
            if result is None:
                continue
            public = tuple(e for e in result.events if e.audience == EVERYONE)
            if isinstance(result, NightResult):
                phases.append(PlayedPhase("night", result.number, public))
            elif isinstance(result, TechnicalDeathResult):
                phases.append(PlayedPhase("tech", result.seat, public))
            else:
                phases.append(PlayedPhase("day", result.number, public))
        check = None if dealt is None else _deal_check(game, dealt)
        built = (table, tuple(phases), check)
        self._cache[game.id] = built
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return built

    async def game_record(self, game_id: int) -> GameRecord | None:
        """A finished game's whole public record; None unless the game is finished."""
        game = await self.finished(game_id)
        if game is None:
            return None
        table, phases, check = await self._rebuilt(game)
        if not table.started:
            return None
        club = await self.db.clubs.get(game.club_chat_id)
        rows = await self.db.stats.game_points(game.id)
        by_seat: dict[int, dict[str, int]] = {s: {} for s in table.game.seats}
        for row in rows:
            seat = game.seat_of(row.tg_id)
            if seat is None or row.reason == VOID_REASON:  # the points as played; a void: said
                continue
            reasons = by_seat.setdefault(seat, {})
            # a seat's fines and their reversals in one net figure (the fouls are listed)
            why = "fines" if row.reason in FINE_REASONS else row.reason
            reasons[why] = reasons.get(why, 0) + row.points
        points = tuple(SeatPoints(seat, sum(r.values()), tuple(
                           (why, p) for why, p in reason_lines(r) if p or why != "fines"))
                       for seat, r in sorted(by_seat.items()))
        current = await self.db.stats.nicknames([s.tg_id for s in table.seats.values()])
        links = {s.seat: nick for s in table.seats.values()
                 if (nick := current.get(s.tg_id)) is not None}
        return GameRecord(game=game, club_title=club.title if club else "", table=table,
                          phases=phases, points=points, deal=check, links=links,
                          voided_by=await self._voided_by(game))

    async def _voided_by(self, game: Game) -> str | None:
        """How the admin who voided the game is named (None: not voided): by nickname, else
        "—" as on the boards; a page never shows a Telegram name or id (docs/web.md)."""
        if game.voided_by is None:
            return None
        who = await self.db.players.get(game.voided_by)
        return who.nickname if who is not None and who.nickname else "—"

    async def protocol(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's replay protocol (docs/replay.md), from its log, with ``voided``
        (reason, by, at) when an admin took it back; None unless the game is finished."""
        game = await self.finished(game_id)
        if game is None:
            return None
        found = protocol_of(await self.db.games.events(game.id))
        if found is not None and game.voided_at is not None:  # its points no longer count
            found["voided"] = {"reason": game.void_reason, "by": await self._voided_by(game),
                               "at": game.voided_at.isoformat()}
        return found

    async def picture_state(self, game_id: int) -> tuple[GameState, dict[int, str]] | None:
        """The final state and the names by seat of a finished game (for its picture)."""
        game = await self.finished(game_id)
        if game is None:
            return None
        table, _, _ = await self._rebuilt(game)
        if not table.started:
            return None
        return table.game, {s: info.name for s, info in table.seats.items()}

    # ------------------------------------------------------------------ players
    async def player(self, nickname: str, *, history: int = 50) -> PlayerStats | None:
        found = await self.db.players.by_nickname(nickname)
        if found is None or found.nickname is None:
            return None
        return await self.of(found, history=history)

    async def of(self, player: Player, *, history: int = 50) -> PlayerStats:
        """The record of a player (``player.nickname`` may be None: shown as "—")."""
        lines: list[GameLine] = []
        by_team: dict[str, list[int]] = {}
        cards: Counter[str] = Counter()
        for played in await self.db.stats.played_games(player.tg_id):
            game = await self.db.games.get(played.game_id)
            table, _, _ = await self._rebuilt(game)
            if not table.started or played.seat not in table.game.players:
                continue
            me = table.game.player(played.seat)
            winner = table.game.winner
            won = None if winner in (None, Winner.DRAW) else (
                (winner is Winner.MAFIA) == me.is_mafia)
            role = str(me.role)
            cards[role] += 1
            team = "mafia" if me.is_mafia else "civilians"
            counts = by_team.setdefault(team, [0, 0])
            counts[0] += 1
            counts[1] += 1 if won else 0
            lines.append(GameLine(played.game_id, played.club_title, played.finished_on,
                                  played.seat, role, won, me.alive,
                                  engine.standing_fouls(table.game, played.seat)))
        info = await self.db.ledger.balance_with_rank(player.tg_id)
        earned, spent = await self.db.stats.points_totals(player.tg_id)
        rows = await self.db.ledger.recent_grouped(player.tg_id,
                                                   limit=max(history, RECENT_ROWS))
        return PlayerStats(
            nickname=player.nickname or "—", games=lines, balance=info.points, rank=info.rank,
            earned=earned, spent=spent, recent=rows[:RECENT_ROWS], history=rows[:history],
            expires_on=player.expiry_date,
            by_team={k: (v[0], v[1]) for k, v in sorted(by_team.items())}, cards=cards,
            sex=sex_of(player.sex), no_shows=await self.db.evenings.no_shows(player.tg_id),
            ratings=await self.db.ratings.of(player.tg_id),
            achievements=shown(await self.db.achievements.of(player.tg_id),
                               await self.db.achievements.progress(
                                   player.tg_id, None if self.clock is None else self.clock())),
        )

    # ------------------------------------------------------------------ tables
    async def network_top(self, today: date, limit: int = 20) -> Leaderboard:
        return Leaderboard("", None, None, today, await self.db.ledger.top(limit))

    async def rating_top(self, club: Club | None, limit: int = 20) -> RatingBoard:
        """The skill rating's table of a club (``club``) or of the network (None)."""
        chat = None if club is None else club.chat_id
        return RatingBoard("" if club is None else club.title, chat,
                           await self.db.ratings.top(Side.ALL, limit=limit, club_chat_id=chat))

    async def club_top(self, club: Club, today: date, limit: int = 20) -> Leaderboard:
        since = today - timedelta(days=CLUB_PERIOD_DAYS - 1)
        entries = await self.db.stats.club_top(club.chat_id, since=since, until=today,
                                               limit=limit)
        return Leaderboard(club.title, club.chat_id, since, today, entries)

    async def home_club(self, tg_id: int) -> Club | None:
        """The club of the player's latest finished game."""
        games = await self.db.stats.played_games(tg_id, limit=1)
        return None if not games else await self.db.clubs.get(games[0].club_chat_id)


def _deal_check(game: Game, logged: Deal) -> DealCheck:
    seed = logged.seed
    cards = tuple(str(c) for c in logged.cards)
    seats = tuple(sorted(e.seat for e in logged.seats))
    played = {e.seat: str(e.role) for e in logged.seats}
    try:
        seed_bytes = bytes.fromhex(seed)
        dealt = engine.deal_cards(list(logged.cards), list(seats), seed_bytes)
        deal = {s: str(r) for s, r in sorted(dealt.items())}
        computed = engine.commitment(seed_bytes, dealt)
    except ValueError:
        deal, computed = {}, ""
    body = json.dumps({str(s): r for s, r in deal.items()}, sort_keys=True)
    return DealCheck(published=game.commitment, seed=seed, cards=cards, seats=seats,
                     deal=deal, body=body, computed=computed, played=played)


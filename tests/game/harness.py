"""A test harness around the game service: players, a table, and moves by seat."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import engine
from bot.errors import UserError
from bot.game.service import GameService, Reply
from engine import Role
from record.table import Stage, Table
from storage.db import Database
from storage.models import CLUB_APPROVED, CLUB_STATUSES
from tests.fakes.recording_sender import RecordingSender, Sent
from views.i18n import Translator

CHAT = -1001
HOST = 500
FIRST_PLAYER = 1001


def stage_now(table: Table) -> Stage:
    """The table's stage read afresh: after an ``await`` moved the game on, mypy would still
    hold ``table.stage`` to what an earlier ``assert table.stage is ...`` said."""
    return table.stage


class Clock(Protocol):
    now: datetime

    def __call__(self) -> datetime: ...


class Deadlines(Protocol):
    jobs: dict[str, Any]

    async def advance(self, seconds: float) -> None: ...

    def names(self) -> set[str]: ...


async def approve_club(db: Database, chat_id: int, *, title: str = "Club",
                       locale: str = "ru") -> None:
    """The club, approved by the network: its games count (a new club is pending, and its
    games are friendly: no points). Called before a lobby opens."""
    if await db.clubs.get(chat_id) is None:
        await db.clubs.ensure(chat_id, title=title, locale=locale)
    await db.clubs.set_status(chat_id, CLUB_APPROVED, by=0, now=datetime.now(UTC),
                              expect=CLUB_STATUSES)


def role_names(translator: Translator) -> set[str]:
    """Every card name in every language."""
    return {translator.t(loc, f"game.role.{r}") for loc in ("ru", "en") for r in Role}


@dataclass
class Harness:
    db: Database
    service: GameService
    sender: RecordingSender
    deadlines: Deadlines
    clock: Clock
    tr: Translator
    tmp_path: Path
    game_id: int = 0

    # ------------------------------------------------------------------ setup
    async def players(self, n: int, *, lang: str = "ru", first: int = FIRST_PLAYER,
                      newbies: bool = False) -> list[int]:
        ids = []
        for i in range(n):
            tg = first + i
            await self.db.players.register(tg, display_name=f"User {tg}", language=lang)
            await self.db.players.set_nickname(tg, f"Player{tg - FIRST_PLAYER + 1}")
            await self.db.players.set_sex(tg, "m" if i % 2 == 0 else "f")
            ids.append(tg)
        if not newbies:
            await self.db.players.record_game_played(ids, self.clock().date())
        return ids

    async def lobby(self, n: int, *, approved: bool = True, **kw: Any) -> Table:
        """``n`` players at a new table; ``approved=False``: in a club the network has not
        approved (a friendly game)."""
        ids = await self.players(n, **kw)
        if approved:
            await approve_club(self.db, CHAT)
        table = await self.service.open_lobby(CHAT, "Club", HOST, is_admin=False)
        self.game_id = table.game_id
        for tg in ids:
            await self.service.join(table.game_id, tg)
        return table

    async def dealt(self, n: int, **kw: Any) -> Table:
        await self.lobby(n, **kw)
        await self.service.deal(CHAT, HOST)
        return self.table

    @property
    def table(self) -> Table:
        return self.service.tables[self.game_id]

    @property
    def over(self) -> bool:
        return self.game_id not in self.service.tables

    def tg(self, seat: int) -> int:
        return self.table.tg_of(seat)

    def seats_with(self, *roles: Role) -> list[int]:
        return [p.seat for p in self.table.game if p.role in roles]

    def civilians(self) -> list[int]:
        return [p.seat for p in self.table.game if not p.is_mafia and p.alive]

    # ------------------------------------------------------------------ moves
    async def choose(self, seat: int, target: int) -> Reply:
        if self.table.is_offline(seat):  # the host presses for a seat without Telegram
            return await self.service.choose(self.game_id, HOST, self.table.moment, target,
                                             for_seat=seat)
        return await self.service.choose(self.game_id, self.tg(seat), self.table.moment, target)

    async def vote(self, seat: int, target: int) -> Reply:
        if self.table.is_offline(seat):
            return await self.service.vote(self.game_id, HOST, self.table.moment, target,
                                           for_seat=seat)
        return await self.service.vote(self.game_id, self.tg(seat), self.table.moment, target)

    async def refused(self, coro: Any) -> str:
        try:
            await coro
        except UserError as e:
            return e.key
        raise AssertionError("the step was accepted")

    # ------------------------------------------------------------------ reading
    def club(self) -> list[Sent]:
        return self.sender.to(CHAT)

    def club_texts(self) -> list[str]:
        return [s.text for s in self.club()]

    def private(self, tg: int) -> list[Sent]:
        return self.sender.to(tg)

    def last_private(self, tg: int) -> Sent:
        return self.private(tg)[-1]

    def buttons(self, sent: Sent) -> list[str]:
        if sent.markup is None:
            return []
        return [b.callback_data or b.url or "" for row in sent.markup.inline_keyboard
                for b in row]

    # ------------------------------------------------------------------ scripted play
    async def play_night(self, rng: random.Random | None = None) -> None:
        """Every actor chooses: the Mafia agree on one civilian, the others pick a target."""
        await self.service.start_night(CHAT, HOST)
        if self.over or self.table.stage is not Stage.NIGHT:
            return
        table = self.table
        moment = table.moment
        pick = rng or random.Random(0)
        pickers = table.pickers()
        common = None
        if pickers:
            legal = set.intersection(*(set(engine.legal_targets(table.game, s))
                                       for s in pickers))
            options = sorted(s for s in legal if not table.game.player(s).is_mafia)
            common = options[0] if options else None
        for seat in list(engine.night_actors(table.game)):
            if self.over or table.stage is not Stage.NIGHT or table.moment != moment:
                return
            if table.is_picker(seat):
                if common is None or table.mafia_locked:
                    continue
                target = common
            else:
                targets = engine.legal_targets(table.game, seat)
                if not targets:
                    continue
                target = pick.choice(targets)
            await self.choose(seat, target)
        if not self.over and table.stage is Stage.NIGHT:
            await self.deadlines.advance(61)

    async def play_vote(self, *, against_mafia: bool = True) -> None:
        await self.service.start_vote(CHAT, HOST)
        await self.play_vote_rest(against_mafia=against_mafia)

    async def play_vote_rest(self, *, against_mafia: bool = True) -> None:
        table = self.table
        while not self.over and table.stage is Stage.VOTE:
            voter = table.current_voter()
            if voter is None:
                break
            candidates = engine.vote_candidates(table.game, voter)
            mafia = [c for c in candidates if table.game.player(c).is_mafia]
            others = [c for c in candidates if c != voter]
            if not candidates:
                await self.deadlines.advance(61)
                continue
            target = (mafia or others or candidates)[0] if against_mafia else (
                others or candidates)[-1]
            await self.vote(voter, target)
        if not self.over and table.stage is Stage.FATE:
            await self.deadlines.advance(61)
        if not self.over and table.stage is Stage.CANCEL:
            await self.deadlines.advance(21)

    async def play_to_end(self, *, start_with_day: bool = False, limit: int = 40) -> None:
        night = not start_with_day
        for _ in range(limit):
            if self.over:
                return
            if night:
                await self.play_night()
            else:
                await self.play_vote()
            night = not night
        raise AssertionError("the game did not end")

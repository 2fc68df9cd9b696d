"""Whole games in a row, ``python -m bot`` killed with SIGKILL at random points of each: the
same results (the points written equal the engine's ledger replayed from the log), no point lost
or counted twice, every outcome post delivered. The process is ``python -m
tests.game.relaxed_bot``, forked (tests/bot_spawn.py): ``python -m bot``'s ``main`` without
the outbox's rate limits.

``KILL9_GAMES`` (default 20) sets how many games; each game is driven only through the fake Bot
API (commands and button presses), and the driver reads the game's state from its log.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import engine
from record.log_events import decode
from record.table import SeatInfo, Stage, Table
from storage.db import Database
from tests.bot_spawn import BotProcess
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.game.harness import approve_club
from tests.game.test_kill9 import CLUB, HOST, SETTINGS, db_env, fork

# 20 games with several restarts each take ~15 minutes here (a restart of ``python -m bot``
# costs seconds on a busy machine): the suite plays 2; ``KILL9_GAMES=20`` plays the full run.
GAMES = int(os.environ.get("KILL9_GAMES", "2"))
GAME_SECONDS = 300  # the most one game may take, restarts included
PLAYERS = list(range(7001, 7007))  # six: the smallest table
KILL_CHANCE = float(os.environ.get("KILL9_CHANCE", "0.08"))  # after each action of the driver
TIMERS = {"NIGHT_SECONDS": "20", "MAFIA_AGREE_SECONDS": "20", "VOTE_TURN_SECONDS": "20",
          "LAST_WORD_SECONDS": "0.05"}
assert set(TIMERS) <= set(SETTINGS)
# a day's outcome in the club chat: the vote's tally (its verdict follows it), or the day on
# which nobody could be voted out
DAY_ENDS = re.compile(r"Votes, day (\d+)<|Day (\d+): nobody can be voted out today")

# one after another on one worker, its bots forked by one fork server (tests/bot_spawn.py)
pytestmark = pytest.mark.xdist_group("bot_forks")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


class Bot:
    """The process under test: started, killed with SIGKILL, started again."""

    def __init__(self, tmp_path: Path, fake: FakeTelegram, target: str | Path) -> None:
        self.tmp_path, self.fake = tmp_path, fake
        self.settings = {**TIMERS, **db_env(target)}
        self.proc: BotProcess | None = None
        self.kills = 0

    async def start(self) -> None:
        self.proc = await fork(self.tmp_path, self.fake, self.tmp_path / "stderr.log",
                               module="tests.game.relaxed_bot", **self.settings)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.kills += 1
        await self.start()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.proc.wait(), 30)


async def state(db: Database, game_id: int) -> Table:
    game = await db.games.get(game_id)
    table = Table(game.id, game.club_chat_id, game.host_id, game.created_at.date())
    for seat in game.seats:
        table.seats[seat.seat] = SeatInfo(seat.seat, seat.tg_id, str(seat.tg_id))
    for event in await db.games.events(game_id):
        table.apply(decode(event.kind, event.payload), event.seq)
    return table


def latest(fake: FakeTelegram, chat: int, prefix: str) -> SentMessage | None:
    for message in reversed(fake.messages(chat)):
        if any(d.startswith(prefix) for _, d in message.buttons()):
            return message
    return None


async def play_one(fake: FakeTelegram, db: Database, bot: Bot, rng: random.Random,
                   played: int, *, club: int = CLUB, host: int = HOST,
                   players: list[int] | None = None) -> int:
    """Drive one game to its end (in ``club``, hosted by ``host``, ``players`` seated);
    returns its id."""
    players = PLAYERS if players is None else players
    before = {m.message_id for m in fake.messages(club)}
    await fake.send(host, "/newgame", chat_id=club)
    await fake.wait_for(lambda: any(m.message_id not in before for m in fake.messages(club)
                                    if m.buttons()), 60, "the lobby")
    lobby = next(m for m in reversed(fake.messages(club)) if m.buttons())
    loop = asyncio.get_running_loop()
    game_id = int(lobby.buttons()[0][1].split(":")[1])
    done: dict[object, tuple[float, int]] = {}  # action -> when it was last taken, kills then
    table: Table | None = None
    deadline = loop.time() + GAME_SECONDS
    while loop.time() < deadline:
        mark = fake.changes  # the bot writes its log before it sends: a request means news
        status = (await db.games.get(game_id)).status
        if status == "finished":
            return game_id
        table = await state(db, game_id)
        action: tuple[object, ...] | None = None
        if table.stage is Stage.LOBBY:
            free = [u for u in players if table.seat_of(u) is None]
            action = ("join", free[0]) if free else ("cmd", "/deal")
        elif table.stage in (Stage.NIGHT, Stage.VOTE) and not table.paused:
            action = next_press(fake, table)
        elif table.stage in (Stage.DEALT, Stage.DAY, Stage.EVENING):
            command = "/night" if table.game.next_phase() is engine.Phase.NIGHT else "/vote"
            action = ("cmd", command, table.seq)
        key = (game_id, action, table.seq)
        taken, kills = done.get(key, (-99.0, bot.kills))
        # again after 5 s (a press the killed process took with it), at once after a restart
        if action is not None and (loop.time() - taken > 5 or kills != bot.kills):
            if not await act(fake, table, lobby, action, club=club, host=host):
                await fake.changed(0.5, since=mark)  # its prompt is not there yet
                continue
            done[key] = loop.time(), bot.kills
            if rng.random() < KILL_CHANCE:
                await asyncio.sleep(rng.random() * 0.3)
                await bot.kill()
        await fake.changed(0.5, since=mark)
    kinds = [e.kind for e in await db.games.events(game_id)][-8:]
    raise AssertionError(f"game {game_id} (#{played + 1}) did not end: "
                         f"{table and table.stage} {kinds} {(await db.games.get(game_id)).status}")


def next_press(fake: FakeTelegram, table: Table) -> tuple[object, ...] | None:
    game = table.game
    if table.stage is Stage.NIGHT:
        pickers = table.pickers()
        common = None
        if pickers:
            legal = set.intersection(*(set(engine.legal_targets(game, s)) for s in pickers))
            options = sorted(s for s in legal if not game.player(s).is_mafia)
            common = options[0] if options else None
        for seat in table.pending_night():
            if table.is_picker(seat):
                if common is None or table.choices.get(seat) == common:
                    continue
                target = common
            else:
                targets = engine.legal_targets(game, seat)
                if not targets:
                    continue
                target = targets[0]
            return ("press", seat, f"gn:{table.game_id}:{table.moment}:", target)
        return None
    voter = table.current_voter()
    if voter is None:
        return None
    candidates = engine.vote_candidates(game, voter)
    if not candidates:
        return None
    mafia = [c for c in candidates if game.player(c).is_mafia]
    return ("press", voter, f"gv:{table.game_id}:{table.moment}:", (mafia or candidates)[0])


async def act(fake: FakeTelegram, table: Table, lobby: SentMessage,
              action: tuple[object, ...], *, club: int = CLUB, host: int = HOST) -> bool:
    """Takes the action; False if it could not be taken yet (no prompt with its button)."""
    if action[0] == "join":
        await fake.press(int(str(action[1])), lobby, f"gl:{table.game_id}:join")
    elif action[0] == "cmd":
        await fake.send(host, str(action[1]), chat_id=club)
    else:
        _, seat, prefix, target = action
        uid = table.tg_of(int(str(seat)))
        prompt = latest(fake, uid, str(prefix))
        if prompt is None:
            return False
        await fake.press(uid, prompt, f"{prefix}{target}")
    return True


async def seed_club(db: Database, fake: FakeTelegram, *, club: int = CLUB, host: int = HOST,
                    players: list[int] | None = None) -> None:
    """The club, its six players with nicknames (one game played: points count), the host."""
    players = PLAYERS if players is None else players
    await db.clubs.ensure(club, title="Club", locale="en")
    await approve_club(db, club)  # its games count
    for i, uid in enumerate(players, 1):
        await db.players.register(uid, display_name=f"U{uid}", language="en")
        # nicknames are unique across the network: another club's players by their id
        await db.players.set_nickname(uid, f"Gamer{i}" if club == CLUB else f"Gamer{uid}")
        fake.user(uid, f"U{uid}", language_code="en")
    await db.players.record_game_played(players, datetime.now(UTC).date())
    fake.group(club, "Club")
    fake.user(host, "Host", language_code="en")


async def check(db: Database, fake: FakeTelegram, game_id: int, *, club: int = CLUB) -> int:
    """The game's points as the engine counts them from the log; its outcome posts delivered."""
    table = await state(db, game_id)
    assert table.game.over
    # the club chat's posts of game after game share one group's 20-a-minute window: after a
    # restart the queue may need more than a minute to drain
    for _ in range(3000):
        if not await db.outbox.pending_chats():
            break
        await asyncio.sleep(0.05)
    kinds = [e.kind for e in await db.games.events(game_id)]
    nights, days = kinds.count("night_resolved"), kinds.count("day_resolved")
    assert nights + days
    # every outcome reached the club chat, whatever the kills: each morning's news (the day's
    # picture's caption, or a post), and each day's end: the vote's verdict (edited into the
    # tally's post, or a post of its own after a restart), or the day no vote could be held
    # (every player left holds an open immunity: players killed on the first day of the club's
    # earlier games today)
    bodies = [m.body for m in fake.messages(club)]
    game_start = max(i for i, b in enumerate(bodies) if f"Game #{game_id}:" in b)
    # up to the next game's lobby in this club (checked after later games were played)
    game_end = next((i for i in range(game_start + 1, len(bodies))
                     if ": taking seats" in bodies[i] and f"Game #{game_id}:" not in bodies[i]),
                    len(bodies))
    bodies = bodies[game_start:game_end]
    mornings = {n for n in range(1, nights + 1)
                if any(f"Morning after night {n}." in b for b in bodies)}
    assert mornings == set(range(1, nights + 1)), (game_id, bodies)
    verdicts = {int(vote or no_vote) for b in bodies if "the next night" in b or "🏁" in b
                for vote, no_vote in DAY_ENDS.findall(b)}
    assert verdicts == set(range(1, days + 1)), (game_id, bodies)
    assert any("🏁" in b for b in bodies)
    return sum(e.points for e in table.game.ledger)


@pytest.mark.soak
async def test_kill9_at_random_points_of_whole_games(fake: FakeTelegram, tmp_path: Path,
                                                      bot_database: str | Path) -> None:
    """Soak test (25-60 s here): two whole games by a process killed and started again
    several times (each start of the forked bot still takes a second or more)."""
    db = await Database.open(bot_database)
    await seed_club(db, fake)
    rng = random.Random(9)
    bot = Bot(tmp_path, fake, bot_database)
    await bot.start()
    expected = sum([await db.ledger.balance(u) for u in PLAYERS])
    try:
        for played in range(GAMES):
            game_id = await play_one(fake, db, bot, rng, played)
            expected += await check(db, fake, game_id)
            # no point lost or counted twice, over every game so far
            assert sum([await db.ledger.balance(u) for u in PLAYERS]) == expected
        assert bot.kills >= 1  # the games really were interrupted
    finally:
        await bot.stop()
        await db.close()

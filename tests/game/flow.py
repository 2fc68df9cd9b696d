"""Flow-test helpers: the real application polling the fake Bot API server over HTTP."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.app import App, create_app
from bot.delivery.rate_limit import Limits
from bot.game.service import GameService
from bot.wiring import DeliveryInputs, EveningInputs, GameInputs, SendingInputs
from record.table import Stage, Table
from tests.bot.conftest import FAST_LIMITS, HOST_ID, make_settings
from tests.fakes.telegram_server import FakeTelegram, SentMessage
from tests.fakes.virtual_clock import VirtualClock
from tests.game.harness import approve_club
from tests.sqlite_template import migrated

CLUB = -100777
HOST = HOST_ID
FLOW_TIMERS: dict[str, Any] = {
    "night_seconds": 6, "mafia_agree_seconds": 3, "vote_turn_seconds": 2,
    "last_word_seconds": 0.05,
}


async def wait_until(cond: Callable[..., object], timeout: float = 10.0, what: str = "") -> None:  # noqa: ASYNC109
    """Wait until ``cond()`` is true; an AssertionError after ``timeout`` seconds.

    ``cond`` is typed ``Callable[..., object]``, not ``Callable[[], object]``: in a loop, the
    tests bind the loop's variable as a default (``lambda v=voter: ...``), a lambda mypy cannot
    infer against a signature without parameters."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or cond}")
        await asyncio.sleep(0.01)


def webhook_settings(port: int) -> dict[str, Any]:
    """Settings for webhook mode on ``port`` (the fake server POSTs updates there)."""
    return {"webhook_url": f"http://127.0.0.1:{port}/tg/hook", "webhook_secret": WEBHOOK_SECRET,
            "webhook_host": "127.0.0.1", "webhook_port": port}


WEBHOOK_SECRET = "flow-test-secret_1"
MODES = ("polling", "webhook")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def start_app(fake: FakeTelegram, tmp_path: Path, *, mode: str = "polling",
                    delivery_clock: VirtualClock | None = None, limits: Limits = FAST_LIMITS,
                    game: GameInputs | None = None, evening: EveningInputs | None = None,
                    delivery_time: DeliveryInputs | None = None,
                    sending_time: SendingInputs | None = None,
                    **overrides: Any) -> tuple[App, asyncio.Task[None]]:
    """The real application; ``mode="webhook"`` serves a webhook (the fake POSTs updates);
    ``delivery_clock``: its outbox and delivery wait on that virtual clock from the start (give
    a restarted app the same one: the rows' times are on it); ``game``: the game layer's time
    and chance (a simulated clock, reproducible deals); ``evening``: the evenings' time (a
    clock of the test's and its jobs); ``delivery_time`` and ``sending_time``: the durable
    delivery's and the sender's (a simulated clock; by default ``delivery_clock``'s, or
    real). On SQLite its file starts as the migrated template (tests/sqlite_template.py),
    unless the test's path holds one already (an app started again keeps its data)."""
    if mode == "webhook":
        overrides = {**webhook_settings(free_port()), **overrides}
    settings = make_settings(fake, tmp_path, **{**FLOW_TIMERS, **overrides})
    if settings.database_url is None:
        migrated(settings.database_path)
    if delivery_clock is not None:
        delivery_time = delivery_time or delivery_clock.delivery()
        sending_time = sending_time or delivery_clock.sending()
    app = await create_app(settings, limits=limits, game=game, evening=evening,
                           delivery_time=delivery_time, sending_time=sending_time,
                           polling_timeout=1)
    task = asyncio.create_task(app.run(handle_signals=False))
    await wait_until(lambda: app.started.is_set() or task.done(), 10, "the bot to start")
    if task.done():
        task.result()
    return app, task


async def stop_app(app: App, task: asyncio.Task[None]) -> None:
    await app.stop()
    await asyncio.wait_for(task, 10)


@asynccontextmanager
async def running(fake: FakeTelegram, tmp_path: Path, **overrides: Any) -> AsyncIterator[App]:
    app, task = await start_app(fake, tmp_path, **overrides)
    try:
        yield app
    finally:
        await stop_app(app, task)


@dataclass
class Flow:
    fake: FakeTelegram
    app: App
    lang: str = "ru"
    game_id: int = 0
    players: list[int] = field(default_factory=list)
    club: int = CLUB  # the club chat (a supergroup migration changes it)
    host_id: int = HOST  # the table's host (several tables: one host each)
    thread: int | None = None  # a forum topic the host types the table's commands in
    approved: bool = True  # the club approved before the lobby (False: a friendly game)

    @property
    def games(self) -> GameService:
        games = self.app.container.games
        assert isinstance(games, GameService)
        return games

    @property
    def table(self) -> Table:
        return self.games.tables[self.game_id]

    @property
    def over(self) -> bool:
        return self.game_id not in self.games.tables

    def tg(self, seat: int) -> int:
        return self.table.tg_of(seat)

    def presser(self, seat: int, kind: str) -> tuple[int, str]:
        """Who presses a seat's ``kind`` ("n" night, "v" vote) buttons, and their prefix: the
        player, or the host for an offline seat (the button names the seat)."""
        table = self.table
        if table.is_offline(seat):
            return self.host_id, f"gs{kind}:{self.game_id}:{table.moment}:{seat}:"
        return self.tg(seat), f"g{kind}:{self.game_id}:{table.moment}:"

    # ------------------------------------------------------------------ people
    async def register(self, n: int, *, first: int = 3001, nick: str = "Player") -> list[int]:
        ids = []
        for i in range(n):
            uid = first + i
            self.fake.user(uid, f"U{uid}", language_code=self.lang)
            await self.fake.send(uid, "/start")
            ids.append(uid)
        for uid in ids:
            await self.fake.next_message(uid)
            await self.fake.send(uid, f"/nick {nick}{uid - first + 1}")
        for uid in ids:
            await self.fake.next_message(uid)
        await self.app.services.db.players.record_game_played(ids, _today())
        self.players += ids
        return ids

    async def host(self, text: str) -> None:
        await self.fake.send(self.host_id, text, chat_id=self.club, thread=self.thread)

    async def press(self, uid: int, message: SentMessage, data: str) -> str:
        query = await self.fake.press(uid, message, data)
        answer = await self.fake.callback_answer(query, timeout=10)
        return str(answer.get("text", ""))

    async def host_says(self, text: str, expect: str) -> str:
        """A host command; the first new club message containing ``expect``."""
        return await self.host_says_as(HOST, text, expect)

    async def host_says_as(self, uid: int, text: str, expect: str) -> str:
        before = len(self.fake.messages(self.club))
        await self.fake.send(uid, text, chat_id=self.club)

        def found() -> str | None:
            return next((m.body for m in self.fake.messages(self.club)[before:]
                         if expect in m.body), None)
        await self.fake.wait_for(lambda: found() is not None, 10, f"{expect!r} after {text}")
        answer = found()
        assert answer is not None
        return answer

    async def delivered(self, within: float = 20) -> None:
        """Wait until no game step is under way and the durable outbox has sent everything."""
        delivery = self.app.services.delivery
        db = self.app.services.db
        deadline = time.monotonic() + within
        steps = self.games.steps
        while True:
            await wait_until(lambda: steps.writes.idle and not steps.stepping,
                max(0.1, deadline - time.monotonic()), "the game steps to end")
            assert await delivery.idle(max(0.1, deadline - time.monotonic())), "not drained"
            if not await db.outbox.pending_chats():
                return
            assert time.monotonic() < deadline, "the outbox did not drain"
            await asyncio.sleep(0.05)

    async def log_kinds(self) -> list[str]:
        return [e.kind for e in await self.app.services.db.games.events(self.game_id)]

    def club_texts(self) -> list[str]:
        return [m.body for m in self.fake.messages(self.club)]

    def latest_with(self, chat: int, prefix: str) -> SentMessage | None:
        for message in reversed(self.fake.messages(chat)):
            if any(d.startswith(prefix) for _, d in message.buttons()):
                return message
        return None

    async def prompt(self, chat: int, prefix: str) -> SentMessage:
        await self.fake.wait_for(lambda: self.latest_with(chat, prefix) is not None, 10,
                                 f"a prompt {prefix} in {chat}")
        message = self.latest_with(chat, prefix)
        assert message is not None
        return message

    # ------------------------------------------------------------------ a game
    async def lobby(self, n: int) -> None:
        self.fake.group(self.club, "Club")
        self.fake.user(HOST, "Host", language_code=self.lang)
        if await self.app.services.db.players.get(HOST) is None:
            await self.fake.send(HOST, "/start")  # the host's private texts in its language
            await self.fake.next_message(HOST)
        if await self.app.services.db.clubs.get(self.club) is None:
            await self.app.services.db.clubs.ensure(self.club, title="Club", locale=self.lang)
        if self.approved:  # a club the network approved: its games count
            await approve_club(self.app.services.db, self.club)
        ids = await self.register(n)
        played = self.game_id  # a game this flow played before: its lobby is not the new one

        def new_lobby() -> SentMessage | None:
            found = self.latest_with(self.club, "gl:")
            return None if found is None or _game_of(found) == played else found
        await self.host("/newgame")
        await self.fake.wait_for(lambda: new_lobby() is not None, 10, "a new lobby")
        lobby = new_lobby()
        assert lobby is not None
        self.game_id = _game_of(lobby)
        for uid in ids:
            await self.press(uid, lobby, f"gl:{self.game_id}:join")
        await wait_until(lambda: len(self.table.seats) == n, 10, "all seated")

    async def deal(self) -> None:
        await self.host("/deal")
        await wait_until(lambda: self.table.started, 10, "the deal")
        for uid in self.players[-len(self.table.seats):]:
            await self.fake.wait_for(lambda uid=uid: any(m.protect_content
                                                         for m in self.fake.messages(uid)),
                                     10, "a card")

    async def start(self, command: str, stage: Stage) -> None:
        """A host command that opens a phase (``/night``, ``/vote``); waits until it is open."""
        await self.host(command)
        await wait_until(lambda: self.table.stage is stage, 10, command)

    async def last_words(self) -> None:
        """A host lets the dead finish (their ends are edited into the post the next phase's
        start is told in too: the order is theirs, not the timers')."""
        await wait_until(lambda: self.over or self.table.last_words is None, 15,
                         "the last words")
        # a game its last step ended leaves the chat once its points are written: a command
        # sent meanwhile would meet no game
        await wait_until(lambda: self.over or not self.table.game.over, 15, "the game closed")

    async def night(self) -> None:
        moment = self.table.moment
        await self.last_words()
        if self.over:  # the step before ended the game while its posts were going out
            return
        await self.host("/night")
        await wait_until(lambda: self.over or self.table.moment > moment, 10, "the night")
        await self.night_rest()

    async def night_rest(self) -> None:
        """Every night actor still to choose presses its prompt; waits for the morning."""
        if self.over:
            return
        await self.night_choices()

    async def night_choices(self) -> None:
        """Every night actor presses a legal target; waits for the morning."""
        table = self.table
        pickers = table.pickers()
        common = None
        if pickers:
            legal = set.intersection(*(set(engine.legal_targets(table.game, s))
                                       for s in pickers))
            options = sorted(s for s in legal if not table.game.player(s).is_mafia)
            common = options[0] if options else None
        for seat in engine.night_actors(table.game):
            if self.over or table.stage is not Stage.NIGHT:
                break
            if table.is_picker(seat):
                if common is None or table.mafia_locked or table.choices.get(seat) == common:
                    continue
                target = common
            else:
                targets = engine.legal_targets(table.game, seat)
                if not targets or seat in table.choices:
                    continue
                target = targets[0]
            uid, prefix = self.presser(seat, "n")
            picker = table.is_picker(seat)
            await wait_until(lambda u=uid, p=prefix, k=picker: self.latest_with(u, p) is not None
                             or table.stage is not Stage.NIGHT
                             or (k and table.mafia_locked), 10, f"a prompt for {uid}")
            prompt = self.latest_with(uid, prefix)
            if prompt is None:
                continue  # the night resolved or the Mafia's window closed meanwhile
            await self.press(uid, prompt, prefix + str(target))
        await wait_until(lambda: self.over or self.table.stage is not Stage.NIGHT, 30,
                         "the morning")

    async def vote(self) -> None:
        moment = self.table.moment
        await self.last_words()
        if self.over:
            return
        await self.host("/vote")
        await wait_until(lambda: self.over or self.table.moment > moment, 10, "the vote")
        await self.vote_rest()

    async def vote_rest(self) -> None:
        table = self.table
        while not self.over and table.stage is Stage.VOTE:
            voter = table.current_voter()
            if voter is None:
                break
            candidates = engine.vote_candidates(table.game, voter)
            mafia = [c for c in candidates if table.game.player(c).is_mafia]
            others = [c for c in candidates if c != voter]
            if not candidates:
                await wait_until(lambda v=voter: table.current_voter() != v, 30, "a timeout")
                continue
            target = (mafia or others or candidates)[0]
            uid, prefix = self.presser(voter, "v")
            turn = table.turn
            await wait_until(lambda t=turn, u=uid, p=prefix: self.latest_with(u, p) is not None
                             or table.turn != t or table.stage is not Stage.VOTE, 10,
                             f"a vote prompt for {uid}")
            prompt = self.latest_with(uid, prefix)
            if prompt is None:
                continue  # the turn ran out meanwhile
            await self.press(uid, prompt, prefix + str(target))
            await wait_until(lambda t=turn: self.over or table.turn != t
                             or table.stage is not Stage.VOTE, 10, "the next turn")
        await wait_until(lambda: self.over or table.stage in (Stage.EVENING, Stage.OVER), 40,
                         "the verdict")

    async def play_to_end(self, *, night_first: bool = True, limit: int = 40) -> None:
        night = night_first
        for _ in range(limit):
            if self.over:
                return
            await (self.night() if night else self.vote())
            night = not night
        raise AssertionError("the game did not end")


def _game_of(lobby: SentMessage) -> int:
    return int(lobby.buttons()[0][1].split(":")[1])


def _today() -> Any:
    from datetime import UTC, datetime
    return datetime.now(UTC).date()

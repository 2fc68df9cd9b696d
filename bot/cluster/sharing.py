"""Several ``python -m bot`` on one PostgreSQL share the work (docs/scaling.md).

No process is special: each joins (``bot/cluster/share.py``), and every
``LOOK_EVERY_S`` takes what has no holder — a role (the poller, the outbox's sender, the daily
expiry) or clubs up to its fair share of them — through session advisory locks, which the
server releases the moment a process dies. Updates go through the inbox: whoever receives one
(the poller, or any process's webhook) writes it with its club (``bot/cluster/routing.py``) and
``NOTIFY``s; each process claims the rows of the clubs it holds, and club-less rows nobody
alive claimed, in update order. A club taken over has its running games restored from their
logs first (``bot/game/restore.py``): their timers are armed where the club is held, once;
so are its evenings' timers (``bot/evenings/service.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import Callable, Iterable
from typing import Any

from aiogram import Bot

from bot.cluster.club_calls import ClubCalls
from bot.cluster.handled_marks import HandledMarks
from bot.cluster.outbox_notices import OutboxNotices
from bot.cluster.receiving import InboxDispatcher
from bot.cluster.routing import clubs_of, sender_of
from bot.cluster.share import ProcessRole, ShareConnection, fold
from bot.delivery.worker import Delivery
from bot.evenings.service import EveningService
from bot.game.service import GameService
from bot.services.status import ProcessLine
from bot.telegram.updates import MALFORMED, GetUpdatesAsSent, RawUpdate, next_offset, update_id_of
from storage.backends import DatabaseUnavailable
from storage.db import Database

log = logging.getLogger("bot.cluster.sharing")

LOOK_EVERY_S = 1.0  # roles and clubs without a holder are looked for this often
POLL_RETRY_S = 1.0
# What a role costs, in clubs, as a part of all the clubs (rounded down): the poller writes and
# routes every club's updates and the sender sends every club's messages, so their work grows
# with the network (docs/scaling.md). The daily expiry costs nothing worth counting.
ROLE_WEIGHT = {ProcessRole.POLLER: 0.25, ProcessRole.SENDER: 0.25, ProcessRole.EXPIRY: 0.0}


def role_cost(roles: Iterable[ProcessRole], clubs: int) -> int:
    return sum(math.floor(ROLE_WEIGHT[role] * clubs) for role in roles)


def fair_share(clubs: int, members: int, held: Iterable[ProcessRole],
               mine: Iterable[ProcessRole]) -> int:
    """How many clubs a process holding the roles ``mine`` takes: the clubs plus what the roles
    ``held`` (by any member) cost, split evenly over the members, less what its own roles cost.
    Members counting alike, the shares add up to at least ``clubs``: every club finds a holder
    even while those above their share keep theirs."""
    total = clubs + role_cost(held, clubs)
    return max(0, math.ceil(total / max(1, members)) - role_cost(mine, clubs))


async def process_lines(conn: ShareConnection) -> list[ProcessLine]:
    """/status: each live process on ``conn``'s database, its roles and clubs (this one
    marked)."""
    known = {int(r) for r in ProcessRole}
    return [ProcessLine(pid, tuple(ProcessRole(r).name.lower() for r in roles
                                   if r in known), clubs, pid == conn.pid)
            for pid, roles, clubs in await conn.processes()]


# what one look took over from a lost process: this process's session, the sessions lost since
# the last look, the roles and the clubs with games taken, how long their restore took
Takeover = Callable[[int, list[int], list[str], int, float], None]


class Sharing:
    """This process among the others, made by bot/wiring.py with what it shares through:
    ``conn``, its session; ``marks``, the inbox's handled marks (``dispatcher``'s); ``calls``,
    the club calls; ``notices``, the outbox's sender told of what this process queued (the
    ``delivery``'s ``remote``, while this process does not send)."""

    def __init__(self, conn: ShareConnection, bot: Bot, dispatcher: InboxDispatcher,
                 games: GameService,
                 delivery: Delivery, db: Database, *, marks: HandledMarks, calls: ClubCalls,
                 notices: OutboxNotices, evenings: EveningService | None = None,
                 arm_expiry: Callable[[], None],
                 webhook: bool, in_flight: int,
                 polling_timeout: int = 10, wall: Callable[[], float] = time.time,
                 on_taken: Callable[[str], None] = lambda what: None,
                 on_takeover: Takeover = lambda session, lost, roles, clubs, seconds: None,
                 ) -> None:
        self.conn = conn  # this process's session (its locks lost: the connection's on_lost)
        self.marks = marks  # closed after the app stopped writing
        self.calls = calls  # requests for a club's holder (bot/cluster/club_calls.py)
        self.calls.on("blocked", self._blocked_here)
        self.notices = notices
        # subscribed, not given: the delivery it wakes is made after the connection (its claims)
        self.conn.on_outbox(self._outbox_notified)
        self.bot, self.dispatcher, self.games = bot, dispatcher, games
        self.evenings = evenings  # the clubs' evenings: their timers run where the club is held
        self.delivery, self.db = delivery, db
        self.arm_expiry = arm_expiry
        self.webhook = webhook
        self.polling_timeout = polling_timeout
        self.wall = wall
        self.held: set[int] = set()  # the clubs this process runs
        self.unrestored: set[int] = set()  # held, their games not all restored: updates wait
        self.busy: set[int] = set()  # update ids being handled here
        self.in_flight = in_flight
        self._tasks: set[asyncio.Task[Any]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._next_look = 0.0
        # a role or a club taken after this process's first look (another process lost, or
        # a new club): the metrics' takeovers
        self.on_taken = on_taken
        # what one look took over from a lost process (the operators' alert)
        self.on_takeover = on_takeover
        self.sessions: set[int] = set()  # the live processes' sessions, as last looked
        self._looked = False

    # ------------------------------------------------------------------ lifecycle
    async def join(self) -> None:
        await self.conn.join()
        self.delivery.sender.on_blocked(self._blocked_elsewhere)
        self._spawn(self.notices.run())
        log.info("joined", extra={"session": self.conn.pid})

    async def run(self) -> None:
        """Until cancelled: take what has no holder, claim and handle the inbox's rows."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                if loop.time() >= self._next_look:
                    self._next_look = loop.time() + LOOK_EVERY_S
                    await self.look()
                    self.calls.recheck()  # the clubs taken may have calls waiting
                await self.claim()
            except DatabaseUnavailable:
                pass  # the server restarting: the share connection comes back by itself
            except Exception:
                log.exception("sharing loop failed")
            await self.conn.wait_woken(max(0.01, self._next_look - loop.time()))

    async def finish(self, within: float) -> None:
        """A stop: the updates and club calls being handled get ``within`` seconds (what is
        left unhandled is the next holder's; a call cut short is never run again: its caller
        gets the timeout answer), then nothing more runs here."""
        handling = [t for t in self._tasks if t.get_name().startswith(("update:", "call:"))]
        if handling:
            await asyncio.wait(handling, timeout=within)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """After the app stopped writing: the locks go with the connection."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.marks.close()
        await self.conn.close()

    def stop_receiving(self) -> None:
        if self._poller is not None:
            self._poller.cancel()

    def _spawn(self, coro: Any, name: str | None = None) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def process_lines(self) -> list[ProcessLine]:
        """/status: each live process, its roles and clubs (this one marked)."""
        return await process_lines(self.conn)

    # ------------------------------------------------------------------ roles and clubs
    async def look(self) -> None:
        roles, held, began = set(self.conn.roles), set(self.held), time.monotonic()
        sessions = set(self.sessions)
        await self._look()
        taken = sorted(r.name.lower() for r in self.conn.roles - roles)
        playing = {t.chat_id for t in self.games.tables.values()}
        clubs = len((self.held - held) & playing)  # a new club has no game yet to take over
        if self._looked and (taken or clubs):
            self.on_takeover(self.conn.pid, sorted(sessions - self.sessions), taken, clubs,
                             time.monotonic() - began)
        self._looked = True

    async def _look(self) -> None:
        for role in ProcessRole:
            if role in self.conn.roles or (role is ProcessRole.POLLER and self.webhook):
                continue
            if await self.conn.try_role(role):
                await self._took(role)
        if ProcessRole.SENDER in self.conn.roles:  # a NOTIFY missed (the server restarting)
            self.delivery.resume(await self.db.outbox.pending_chats())
        await self.share_clubs()

    async def _took(self, role: ProcessRole) -> None:
        log.info("role taken", extra={"role": role.name.lower()})
        if self._looked:
            self.on_taken("role")
        if role is ProcessRole.POLLER:
            self._poller = self._spawn(self.poll())
        elif role is ProcessRole.SENDER:
            await self.delivery.start()
        else:
            self.arm_expiry()
            await self.db.inbox.prune(self.wall())
            await self.conn.prune_calls(self.wall())

    async def share_clubs(self) -> None:
        """Take clubs nobody holds, those with waiting updates first, up to a fair share (the
        roles held counted, :func:`fair_share`); give back idle ones (no game here, nothing
        being handled) above it. The clubs taken are restored at once, side by side."""
        waiting = await self.db.inbox.pending_clubs()
        clubs = set(await self.db.clubs.chat_ids()) | set(waiting)
        self.sessions = await self.conn.member_sessions()
        members = max(1, len(self.sessions))
        roles = await self.conn.roles_held()
        share = fair_share(len(clubs), members, roles, self.conn.roles)
        elsewhere = await self.conn.held_elsewhere()
        free = [c for c in dict.fromkeys([*waiting, *sorted(clubs)])
                if c not in self.held and fold(c) not in elsewhere]
        taken = []
        began = time.monotonic()
        for club in free:
            if len(self.held) >= share:
                break
            if await self.conn.try_club(club):
                self.held.add(club)
                taken.append(club)
                if self._looked:
                    self.on_taken("club")
        again = sorted(self.unrestored & self.held)
        if taken or again:  # before any of their updates is claimed (the same loop claims them)
            await asyncio.gather(*(self._restore(club, began) for club in [*again, *taken]))
        if len(self.held) > share:
            running = {t.chat_id for t in self.games.tables.values()}
            for club in sorted(self.held - running - set(waiting)):
                if len(self.held) <= share:
                    break
                self.held.discard(club)
                self.unrestored.discard(club)  # none of its games here: nothing runs twice
                if self.evenings is not None:
                    self.evenings.release(club)
                await self.conn.release_club(club)
                log.info("club given back", extra={"club": club})

    async def _restore(self, club: int, began: float) -> None:
        """A club just taken: its running games rebuilt from their logs. Each club's games are
        restored beside the others' (a takeover waits for the slowest club, not for the sum;
        their writes share group commits). If that fails (the database gone meanwhile), the
        club stays held, its updates wait, and the next look restores what is missing (a game
        restored already is skipped): given back, the games restored so far would run here
        and at its next holder both."""
        self.unrestored.add(club)
        try:
            await self.games.restore(clubs=[club])
            if self.evenings is not None:
                await self.evenings.restore([club])
        except Exception:
            log.exception("club not restored yet: again at the next look", extra={"club": club})
            return
        self.unrestored.discard(club)
        games = sum(t.chat_id == club for t in self.games.tables.values())
        log.info("club taken", extra={"club": club, "games": games,
                                      "seconds": round(time.monotonic() - began, 3)})

    # ------------------------------------------------------------------ the inbox
    def holds(self, club: int) -> bool:
        """Whether this process runs ``club``'s games now (held, its games restored)."""
        return club in self.held and club not in self.unrestored

    async def claim(self) -> None:
        await self.calls.claim(self.held - self.unrestored,
                               lambda coro, name: self._spawn(coro, name=name))
        room = self.in_flight - len(self.busy)
        if room <= 0:
            return
        clubs = self.held - self.unrestored
        claimed = [(update_id, json.loads(payload))
                   for update_id, payload in await self.conn.claim(clubs, self.busy, room)]
        await self._warm(update for _, update in claimed)
        for update_id, update in claimed:
            self.busy.add(update_id)
            self._spawn(self._handle(update_id, update), name=f"update:{update_id}")

    async def _warm(self, updates: Iterable[RawUpdate]) -> None:
        """The accounts of the updates' senders not in memory, in one read: each handler
        reads its sender's account first, which would be one read an update."""
        senders = [tg_id for tg_id in map(sender_of, updates) if tg_id is not None]
        try:
            await self.db.players.warm(senders)
        except DatabaseUnavailable:
            pass  # the server gone: each handler reads its own (and answers "try again")
        except Exception:  # each handler reads its own: the updates are handled all the same
            log.exception("accounts not warmed")

    async def _handle(self, update_id: int, update: RawUpdate) -> None:
        try:
            await self.dispatcher.handle_claimed(self.bot, update_id, update)
        except Exception:
            log.exception("update failed", extra={"update_id": update_id})
        finally:
            self.busy.discard(update_id)

    async def receive(self, updates: list[RawUpdate]) -> None:
        """Write ``updates`` to the inbox with their clubs (each is handled where its club is
        held), in one transaction; the server unreachable: handled here without the inbox, as
        one process does (their handlers answer "try again in a moment" and change nothing)."""
        try:
            clubs = await clubs_of(updates, self.db.inbox)
            rows = [(int(u["update_id"]), json.dumps(u, ensure_ascii=False), club)
                    for u, club in zip(updates, clubs, strict=True)]
            new = await self.conn.add_updates(rows, self.wall())
        except DatabaseUnavailable:
            for update in updates:
                self._spawn(self.dispatcher.feed_raw_update(self.bot, update),
                            name=f"update:{update['update_id']}")
            return
        for update in updates:
            if update["update_id"] not in new:
                log.info("second delivery dropped", extra={"update_id": update["update_id"]})

    async def poll(self) -> None:
        """The token's one ``getUpdates`` consumer: the next call confirms a batch to Telegram
        only after every update of it was written to the inbox."""
        with contextlib.suppress(Exception):
            await self.bot.delete_webhook(drop_pending_updates=False)
        allowed = self.dispatcher.resolve_used_update_types()
        offset: int | None = None
        while True:
            try:
                batch = await self.bot(
                    GetUpdatesAsSent(offset=offset, timeout=self.polling_timeout,
                                     allowed_updates=allowed),
                    request_timeout=self.polling_timeout + 10)
                # each update is read where it is handled; one that is no JSON object with an
                # update_id cannot even be written to the inbox: skipped here
                updates = [u for u in batch if update_id_of(u) is not None]
                for bad in (u for u in batch if update_id_of(u) is None):
                    self.dispatcher.reader.skip(None, MALFORMED, "no update_id", bad)
                if updates:
                    await self.receive(updates)  # the holders woken
                confirmed = next_offset(batch, offset)
                if batch and confirmed == offset:  # nothing in it says how to confirm it
                    log.error("updates without update_id", extra={"count": len(batch)})
                    await asyncio.sleep(POLL_RETRY_S)
                offset = confirmed
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("polling failed", extra={"error": repr(e)})
                await asyncio.sleep(POLL_RETRY_S)

    # ------------------------------------------------------------------ a player blocked the bot
    async def _blocked_elsewhere(self, chat_id: int) -> None:
        """The sender's blocked hook (the sender got a 403 for ``chat_id``): a player at a
        table of a club held elsewhere — the game's own hook (``GameService.on_blocked``) found
        no table here — is told to that club's holder, whose game marks the seat."""
        if self.games.registry.of_player(chat_id) is not None:
            return  # at a table here: the game's own hook has told it
        club = await self.db.inbox.club_of_player(chat_id)
        if club is None or self.holds(club):
            return  # in no running game (or it ended meanwhile)
        await self.calls.tell(club, "blocked", {"chat_id": chat_id})

    async def _blocked_here(self, request: dict[str, Any]) -> dict[str, Any]:
        await self.games.on_blocked(int(request["chat_id"]))
        return {}

    # ------------------------------------------------------------------ the outbox's sender
    def _outbox_notified(self, chats: list[int]) -> None:
        if ProcessRole.SENDER in self.conn.roles:
            for chat_id in chats:
                self.delivery.wake(chat_id, urgent=True)

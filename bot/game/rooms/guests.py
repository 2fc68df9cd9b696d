"""The evening's signed-up players at a lobby: the host's offer, the invitation, the check-in.

A lobby opened on the night of the club's evening (one starting within ``EVENING_HOURS`` of
now) shows its host the list on the panel (:func:`tonight_of`, read by the panel's one list
of legal actions, ``bot/game/panel/view.py``): one button invites the signed-up players, as
many as the evening seats at a table, in the list's order, each in private with «✅ I'm
here»; the press seats the player (the lobby's own join, every check of it) and marks the
check-in. The list has the first claim on the seats: a walk-in never shrinks the invitation
(only the list's own players at the table count against it), and while invited players are
on their way a walk-in does not take the seats held for them (:meth:`GuestList.hold`).
Several tables: each invites the next ones, a player invited to one open lobby is not
invited to another (the evening's row lock, ``storage/repos/evenings.py``). The list is read
again at a restart (``GameService.restore``): the invitations and holds are the database's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.clock import Clock
from bot.errors import UserError
from bot.game.answers import Reply, reply
from bot.game.callbacks import CheckInCb
from bot.game.guards import require_host
from bot.game.languages import Languages
from bot.game.messages.notifier import Notifier, button, message_ref, rows
from bot.game.rooms.seats import SeatsRoom
from bot.game.steps import Steps
from bot.game.tables import Tables, Where
from engine.composition import MAX_PLAYERS
from record.table import Stage, Table
from storage.db import Database
from storage.models import (
    EVENING_HOURS,
    Evening,
    EveningList,
    Player,
    SignUp,
    is_offline_account,
)
from views import evenings as texts
from views.i18n import Safe

log = logging.getLogger("bot.game.rooms.guests")


@dataclass(frozen=True)
class Tonight:
    """Tonight's list as a lobby's host sees it: the evening, how many have a seat on the list
    and how many wait, who was invited here and is not here yet (``pending``, nicknames), and
    how many the next invitation invites (``more``)."""

    evening: Evening
    signed: int
    waiting: int
    pending: tuple[str, ...]
    more: int


def _waiting(tables: Tables, table: Table, listed: EveningList
             ) -> tuple[list[SignUp], list[SignUp]]:
    """The seats of the list not at a table yet: (invited to this table, not invited to any
    open lobby)."""
    here: list[SignUp] = []
    fresh: list[SignUp] = []
    for signup in listed.seated:
        tg_id = signup.tg_id
        if (signup.checked_in or is_offline_account(tg_id)
                or tables.of_player(tg_id) is not None
                or tables.hosted_by(tg_id) is not None):
            continue
        if signup.invited_game == table.game_id:
            here.append(signup)
            continue
        other = (None if signup.invited_game is None
                 else tables.by_id.get(signup.invited_game))
        if other is None or other.stage is not Stage.LOBBY or not other.open:
            fresh.append(signup)
    return here, fresh


def _room(table: Table, listed: EveningList, pending: int) -> int:
    """How many more this table invites: the evening's seats at a table less the list's own
    players at it and those invited and not here yet (a walk-in takes none of the list's
    seats), and never past a full table."""
    listed_ids = {s.tg_id for s in listed.seated}
    mine = sum(1 for info in table.seats.values() if info.tg_id in listed_ids)
    seats = min(listed.evening.seats, MAX_PLAYERS)
    return max(0, min(seats - mine, MAX_PLAYERS - len(table.seats)) - pending)


def tonight_of(tables: Tables, table: Table) -> Tonight | None:
    """Tonight's list at ``table``'s lobby (from memory: the list as last read), or None: no
    evening tonight, or the lobby is over."""
    listed = tables.tonight.get(table.game_id)
    if listed is None or table.stage is not Stage.LOBBY or not table.open:
        return None
    here, fresh = _waiting(tables, table, listed)
    more = min(len(fresh), _room(table, listed, len(here)))
    return Tonight(listed.evening, len(listed.seated), len(listed.waitlist),
                   tuple(s.name for s in here), more)


class GuestList:
    """Tonight's list at the club's lobbies: read for a lobby (kept in ``Tables.tonight`` for
    its host's panel), and the seats it holds for the players invited to a table
    (:meth:`hold`, a join's last check in :class:`SeatsRoom`)."""

    def __init__(self, db: Database, tables: Tables, clock: Clock) -> None:
        self.db = db
        self.tables = tables
        self.clock = clock

    async def tonight(self, table: Table) -> EveningList | None:
        """The club's evening of tonight (called off ones are not), if any; kept for the
        host's panel."""
        now = self.clock()
        listed = await self.db.evenings.tonight(table.chat_id, since=now - EVENING_HOURS,
                                                until=now + EVENING_HOURS)
        if listed is None:
            self.tables.tonight.pop(table.game_id, None)
        else:
            self.tables.tonight[table.game_id] = listed
        return listed

    async def hold(self, table: Table, tg_id: int) -> None:
        """A walk-in's join (the game's lock held): refused when the seats left at the table
        are held for the list's players invited to it and not here yet (the invited
        themselves take theirs). A refusal reads the list again first: a cancel handled by
        another process (a private button) frees its seat."""
        listed = self.tables.tonight.get(table.game_id)
        for fresh in (False, True):
            if listed is None:
                return
            here, _ = _waiting(self.tables, table, listed)
            if not here or any(s.tg_id == tg_id for s in here):
                return
            if len(table.seats) + len(here) < min(listed.evening.seats, MAX_PLAYERS):
                return
            if fresh:
                raise UserError("evening.join.held", number=table.number, held=len(here))
            listed = await self.tonight(table)


class GuestsRoom:
    """Tonight's list at a lobby: the host's offer, the invitation, the check-in (a join of
    the lobby, :meth:`SeatsRoom.join`)."""

    def __init__(self, db: Database, tables: Tables, steps: Steps, notifier: Notifier,
                 locales: Languages, guest_list: GuestList, seats: SeatsRoom) -> None:
        self.db = db
        self.tables = tables
        self.steps = steps
        self.notifier = notifier
        self.tr = notifier.tr
        self.locales = locales
        self.guest_list = guest_list
        self.seats = seats

    async def offer(self, table: Table) -> None:
        """A lobby just opened (or came back after a restart): tonight's list read for its
        host's panel (nothing without one). The lobby is open whatever happens here:
        ``/invite`` reads the list again."""
        try:
            if table.stage is not Stage.LOBBY or not table.open:
                return
            shown = table.game_id in self.tables.tonight
            if await self.guest_list.tonight(table) is None and not shown:
                return
            async with self.steps.lock(table.game_id):
                pass  # the step's end draws the panel with the list
        except Exception:
            log.exception("tonight's list not offered to the host of game %s", table.game_id)

    async def list_changed(self, chat_id: int) -> None:
        """Tonight's list changed (a sign-up, a cancel, the evening called off): the club's
        lobbies read it again, and their hosts' panels show it (a cancel frees a seat the
        waitlist's first may be invited to)."""
        for table in self.tables.tables_in(chat_id):
            await self.offer(table)

    async def invite_at(self, where: Where, user_id: int) -> Reply:
        """``/invite`` in the club chat: the sender's table (``Tables.in_chat``)."""
        return await self.invite(self.tables.in_chat(where, user_id).game_id, user_id)

    async def invite(self, game_id: int, user_id: int) -> Reply:
        """The host's button (or ``/invite``): the next ones on tonight's list, in private."""
        table = self.tables.table(game_id)
        require_host(table, user_id)
        if table.stage is not Stage.LOBBY:
            raise UserError("game.join.closed")
        listed = await self.guest_list.tonight(table)
        if listed is None:
            raise UserError("evening.invite.no_evening")
        async with self.steps.lock(game_id):
            if table.stage is not Stage.LOBBY or not table.open:
                raise UserError("game.join.closed")
            here, fresh = _waiting(self.tables, table, listed)
            wanted = fresh[:_room(table, listed, len(here))]
            if not wanted and not here:
                raise UserError("evening.invite.none")
            # claimed under the evening's lock: another table's invitation at the same moment
            # takes the others
            taken = set(await self.db.evenings.invite(listed.evening.id, game_id,
                                                      [s.tg_id for s in wanted]))
            invited = [s for s in wanted if s.tg_id in taken]
            club = await self.db.clubs.get(table.chat_id)
            title = club.title if club is not None else ""
            # those invited before and not here yet too: an invitation a crash kept from
            # going out goes now (one sent already is not sent again: its key)
            for signup in [*here, *invited]:
                await self._invitation(table, listed, signup, title)
            if invited:  # the panel shows them invited (drawn at the step's end)
                after = await self.db.evenings.get(listed.evening.id)
                self.tables.tonight[game_id] = after or listed
        if invited:
            return reply("evening.invite.sent", invited=len(invited))
        if here:
            return reply("evening.invite.waiting", names=", ".join(s.name for s in here))
        raise UserError("evening.invite.none")

    async def _invitation(self, table: Table, listed: EveningList, signup: SignUp,
                          club: str) -> None:
        tg_id = signup.tg_id
        locale = signup.language or self.locales.locale_of(tg_id)
        self.locales.known.setdefault(tg_id, locale)
        text = self.tr.t(locale, "evening.invitation", club=club, number=table.number,
                         game=table.game_id,
                         when=Safe(texts.starts(self.tr, locale, listed.evening)))
        markup = rows([button(self.tr.t(locale, "evening.checkin.button"),
                              CheckInCb(game=table.game_id,
                                        evening=listed.evening.id).pack())], 1)
        # one invitation per player and table: invited again (the host's next press, a
        # restart) it is not sent twice
        await self.notifier.send(tg_id, text, markup=markup,
                                 ref=message_ref(table, "invite", listed.evening.id, tg_id))

    async def check_in(self, game_id: int, evening_id: int, tg_id: int,
                       account: Player | None = None) -> Reply:
        """«✅ I'm here»: the invited player is seated (every check of the lobby's join)."""
        listed = await self.db.evenings.get(evening_id)
        mine = None if listed is None else listed.of(tg_id)
        if mine is None or mine.invited_game != game_id:
            raise UserError("evening.checkin.not_invited")
        answer = await self.seats.join(game_id, tg_id, account)
        await self.db.evenings.check_in(evening_id, tg_id, game_id)
        table = self.tables.by_id.get(game_id)
        if table is not None:
            after = await self.db.evenings.get(evening_id)
            if after is not None and game_id in self.tables.tonight:
                self.tables.tonight[game_id] = after
            async with self.steps.lock(game_id):
                await self.notifier.edit_private(
                    tg_id, message_ref(table, "invite", evening_id, tg_id),
                    "evening.checkin.done", number=table.number, **answer.kwargs)
        return answer

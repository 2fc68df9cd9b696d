"""``Permissions`` (bot/services/permissions.py): every power for every role, in the account's
own club, in another club and over the network; the chat's administrators (asked of Telegram
once a minute) in a club approved or not; a revoked role is gone at the next check."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.services.permissions import ChatAdmins, Permissions, Power
from storage import Database
from tests.sqlite_template import migrated
from tests.storage.conftest import NOW

CLUB, OTHER, PENDING = -1001, -1002, -1003
OWNER, NET, CLUB_ADMIN, HOST, CHAT_ADMIN, STRANGER, REVOKED, HOST_ID = range(1, 9)
ROLES = {"owner": OWNER, "network admin": NET, "club admin": CLUB_ADMIN, "host": HOST,
         "chat admin": CHAT_ADMIN, "stranger": STRANGER, "revoked admin": REVOKED,
         "HOST_IDS": HOST_ID}
ALL = frozenset(Power)
CLUB_ADMIN_POWERS = {Power.HOST, Power.MANAGE_CLUB, Power.HAND_OVER_GIFT, Power.VOID_GAME,
                     Power.GRANT_HOST}

# what each role may in its own club (CLUB: approved, with a club admin)
IN_CLUB = {
    "owner": ALL,
    "network admin": ALL - {Power.GRANT_NETWORK_ADMIN},
    "club admin": CLUB_ADMIN_POWERS,
    "host": {Power.HOST},
    "chat admin": {Power.HOST},
    "stranger": set(),
    "revoked admin": set(),
    "HOST_IDS": {Power.HOST},
}
# ... in another approved club where it is nothing (no club admin there either)
IN_OTHER = {**IN_CLUB, "club admin": set(), "host": set(), "chat admin": set()}
# ... over the network (no club)
NETWORK = {**{role: set() for role in ROLES}, "owner": ALL,
           "network admin": ALL - {Power.GRANT_NETWORK_ADMIN}}


class Telegram:
    """getChatMember's answers: CHAT_ADMIN administers CLUB and PENDING; who was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []
        self.down = False
        self.admins = {(CLUB, CHAT_ADMIN), (PENDING, CHAT_ADMIN)}

    async def __call__(self, chat_id: int, user_id: int) -> str | None:
        self.asked.append((chat_id, user_id))
        if self.down:
            return None
        return "administrator" if (chat_id, user_id) in self.admins else "member"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with await Database.open(migrated(tmp_path / "p.sqlite3")) as database:
        for chat in (CLUB, OTHER, PENDING):
            await database.clubs.ensure(chat, title=str(chat), locale="ru")
        for chat in (CLUB, OTHER):
            await database.clubs.set_status(chat, "approved", by=OWNER, now=NOW,
                                            expect=("pending",))
        await database.staff.grant_network_admin(NET, by=OWNER, now=NOW)
        await database.staff.grant_club_admin(CLUB, CLUB_ADMIN, by=NET, now=NOW)
        await database.staff.grant_host(CLUB, HOST, by=NET, now=NOW)
        await database.staff.grant_network_admin(REVOKED, by=OWNER, now=NOW)
        await database.staff.grant_club_admin(CLUB, REVOKED, by=NET, now=NOW)
        await database.staff.grant_host(CLUB, REVOKED, by=NET, now=NOW)
        yield database


@pytest.fixture
def telegram() -> Telegram:
    return Telegram()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def permissions(db: Database, telegram: Telegram, clock: Clock) -> Permissions:
    return Permissions(db, owners={OWNER}, hosts={HOST_ID},
                       chat_admins=ChatAdmins(telegram, ttl=60, clock=clock))


async def _revoke(db: Database) -> None:
    await db.staff.revoke_network_admin(REVOKED, by=OWNER, now=NOW)
    await db.staff.revoke_club_admin(CLUB, REVOKED, by=NET, now=NOW)
    await db.staff.revoke_host(CLUB, REVOKED, by=NET, now=NOW)


@pytest.mark.parametrize("role", list(ROLES))
async def test_every_power_of_every_role(db: Database, permissions: Permissions,
                                         role: str) -> None:
    tg_id = ROLES[role]
    if role == "revoked admin":
        assert await permissions.may(tg_id, Power.APPROVE_CLUBS)  # before: a network admin
        await _revoke(db)
    for club_id, expected in ((CLUB, IN_CLUB), (OTHER, IN_OTHER), (None, NETWORK)):
        allowed = {p for p in Power if await permissions.may(tg_id, p, club_id=club_id)}
        assert allowed == set(expected[role]), (role, club_id)
        for power in Power:
            if power in allowed:
                await permissions.require(tg_id, power, club_id=club_id)
            else:
                with pytest.raises(UserError) as refused:
                    await permissions.require(tg_id, power, club_id=club_id)
                assert refused.value.key == f"perm.denied.{power.value}"


async def test_a_pending_club_is_its_chat_admins_for_friendly_games(
        db: Database, permissions: Permissions) -> None:
    """Not approved: the chat's administrators host (friendly games) and manage it; nobody
    there hands over gifts or voids but the network; a stranger nothing."""
    assert not await permissions.club_approved(PENDING)
    assert await permissions.club_approved(CLUB)
    assert not await permissions.club_approved(-5)  # no club at all
    allowed = {p for p in Power if await permissions.may(CHAT_ADMIN, p, club_id=PENDING)}
    assert allowed == {Power.HOST, Power.MANAGE_CLUB, Power.GRANT_HOST}
    assert not [p for p in Power if await permissions.may(STRANGER, p, club_id=PENDING)]
    # suspended: the same (its games are friendly; trust-games' rule)
    await db.clubs.set_status(CLUB, "suspended", by=NET, now=NOW, expect=("approved",))
    assert await permissions.may(HOST, Power.HOST, club_id=CLUB)
    assert not await permissions.club_approved(CLUB)


async def test_an_approved_club_without_club_admins_is_its_chat_admins(
        db: Database, permissions: Permissions, telegram: Telegram) -> None:
    """A club approved before the roles existed keeps being managed by its chat's
    administrators until the network names its club admin."""
    telegram.admins.add((OTHER, CHAT_ADMIN))
    assert await permissions.may(CHAT_ADMIN, Power.MANAGE_CLUB, club_id=OTHER)
    await db.staff.grant_club_admin(OTHER, CLUB_ADMIN, by=NET, now=NOW)
    assert not await permissions.may(CHAT_ADMIN, Power.MANAGE_CLUB, club_id=OTHER)
    assert not await permissions.may(CHAT_ADMIN, Power.GRANT_HOST, club_id=OTHER)
    assert await permissions.may(CHAT_ADMIN, Power.HOST, club_id=OTHER)


async def test_the_club_may_stop_its_chat_admins_hosting(
        db: Database, permissions: Permissions) -> None:
    await db.clubs.set_chat_admins_host(CLUB, False)
    assert not await permissions.may(CHAT_ADMIN, Power.HOST, club_id=CLUB)
    assert await permissions.may(HOST, Power.HOST, club_id=CLUB)
    assert await permissions.may(CHAT_ADMIN, Power.HOST, club_id=PENDING)


async def test_chat_admins_are_asked_once_a_ttl(permissions: Permissions, telegram: Telegram,
                                                clock: Clock) -> None:
    for _ in range(3):
        assert await permissions.may(CHAT_ADMIN, Power.HOST, club_id=CLUB)
        assert not await permissions.may(STRANGER, Power.HOST, club_id=CLUB)
    assert telegram.asked == [(CLUB, CHAT_ADMIN), (CLUB, STRANGER)]
    clock.now += 61
    telegram.admins.discard((CLUB, CHAT_ADMIN))  # demoted meanwhile
    assert not await permissions.may(CHAT_ADMIN, Power.HOST, club_id=CLUB)
    assert len(telegram.asked) == 3
    # Telegram down: not an admin, and the failure is not remembered
    telegram.down = True
    assert not await permissions.may(STRANGER, Power.HOST, club_id=PENDING)
    telegram.down = False
    telegram.admins.add((PENDING, STRANGER))
    assert await permissions.may(STRANGER, Power.HOST, club_id=PENDING)
    # forgotten on demand (the chat's administrators changed)
    permissions.chat_admins.forget(CLUB)
    telegram.admins.add((CLUB, CHAT_ADMIN))
    assert await permissions.may(CHAT_ADMIN, Power.HOST, club_id=CLUB)


async def test_the_chat_admins_memory_is_bounded(telegram: Telegram) -> None:
    admins = ChatAdmins(telegram, most=10)
    for user in range(25):
        await admins.is_admin(CLUB, user)
    await admins.is_admin(CLUB, 24)
    assert len(telegram.asked) == 25  # the newest is kept
    await admins.is_admin(CLUB, 0)
    assert len(telegram.asked) == 26  # the oldest went


async def test_network_staff(db: Database, permissions: Permissions) -> None:
    assert await permissions.network_staff() == [OWNER, NET, REVOKED]
    assert await permissions.is_network_staff(NET)
    await _revoke(db)
    assert await permissions.network_staff() == [OWNER, NET]
    assert not await permissions.is_network_staff(REVOKED)
    assert not await permissions.is_network_staff(CLUB_ADMIN)

"""Every service that moves points or manages a club asks ``Permissions`` itself (defence in
depth, whatever the handler checked): a stranger, the chat administrator of another club, a
club admin of another club and a revoked network admin try each power and nothing changes;
a network admin's same calls succeed (so the refusals are the rules, not a broken setup)."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

import pytest

from bot.errors import UserError
from bot.services.accounts import Accounts
from bot.services.admin import Admin
from bot.services.catalogue import Catalogue
from bot.services.club_settings import ClubSettings
from bot.services.moving import Moving
from bot.services.permissions import ChatAdmins, Permissions, Power
from bot.services.shop import Shop
from storage import Database
from tests.present import present
from tests.storage.conftest import NOW, add_players
from views.i18n import Translator, default_translator

CLUB, OTHER = -1001, -1002
OWNER, NET, CLUB_ADMIN, OTHER_ADMIN, OTHER_CHAT_ADMIN, STRANGER, REVOKED = (
    101, 102, 103, 104, 105, 106, 107)
PLAYER = 500
ROGUES = {"stranger": STRANGER, "chat admin of another club": OTHER_CHAT_ADMIN,
          "club admin of another club": OTHER_ADMIN, "revoked admin": REVOKED}
CSV = b"nickname,points\nNewcomer,40\n"


async def _other_chat_admin(chat_id: int, user_id: int) -> str | None:
    return "administrator" if (chat_id, user_id) == (OTHER, OTHER_CHAT_ADMIN) else "member"


class _Settings:
    """What ClubSettings reads of the application's settings (the timers' defaults)."""


async def _world(db: Database) -> tuple[Permissions, int, int]:
    """Two approved clubs with their admins, a player with points and an open gift request
    collected at CLUB; returns the permissions, the gift and the request."""
    for chat in (CLUB, OTHER):
        await db.clubs.ensure(chat, title=str(chat), locale="en")
        await db.clubs.set_status(chat, "approved", by=OWNER, now=NOW, expect=("pending",))
    await db.staff.grant_network_admin(NET, by=OWNER, now=NOW)
    await db.staff.grant_club_admin(CLUB, CLUB_ADMIN, by=NET, now=NOW)
    await db.staff.grant_club_admin(OTHER, OTHER_ADMIN, by=NET, now=NOW)
    await db.staff.grant_network_admin(REVOKED, by=OWNER, now=NOW)
    await db.staff.grant_club_admin(CLUB, REVOKED, by=NET, now=NOW)
    await add_players(db, PLAYER, *ROGUES.values())
    await db.staff.grant_host(CLUB, PLAYER, by=NET, now=NOW)
    await db.ledger.adjust(PLAYER, 50, reason="start", admin_id=OWNER, now=NOW)
    gift = await db.gifts.add("Mug", 20, 3, admin_id=OWNER, now=NOW)
    request = await db.gift_requests.ask(PLAYER, gift.id, price=20, card=1, now=NOW,
                                         club_chat_id=CLUB)
    await db.staff.revoke_network_admin(REVOKED, by=OWNER, now=NOW)
    await db.staff.revoke_club_admin(CLUB, REVOKED, by=NET, now=NOW)
    permissions = Permissions(db, owners={OWNER},
                              chat_admins=ChatAdmins(_other_chat_admin))
    return permissions, gift.id, request.id


async def _snapshot(db: Database) -> tuple[object, ...]:
    return (await db.ledger.balance(PLAYER), await db.players.get(PLAYER),
            [(r.id, r.status) for r in await db.gift_requests.open_all()],
            await db.gifts.catalogue(active_only=False), await db.clubs.get(CLUB),
            await db.staff.hosts(CLUB), len(await db.admin_log.recent(100)))


def _calls(db: Database, permissions: Permissions, actor: int, gift_id: int,
           request_id: int) -> dict[str, Coroutine[Any, Any, object]]:
    accounts = Accounts(db, default_locale="en", clock=lambda: NOW)
    admin = Admin(db, accounts, permissions, clock=lambda: NOW)
    catalogue = Catalogue(db, permissions, clock=lambda: NOW)
    moving = Moving(accounts, permissions)
    shop = Shop(db, accounts, _no_texts(), permissions, request_days=14, clock=lambda: NOW)
    settings = ClubSettings(db, _Settings(), permissions)  # type: ignore[arg-type]
    nick = f"nick{PLAYER}"
    return {
        "adjust": admin.adjust(actor, f"{nick} 500 gift"),
        "redeem": admin.redeem(actor, f"{nick} 10 mug"),
        "block": admin.block(actor, f"{nick} rogue"),
        "unblock": admin.unblock(actor, nick),
        "export": admin.export_csv(actor),
        "complaints": admin.complaints(actor),
        "gift_add": catalogue.add(actor, "1 99 Free car"),
        "gift_edit": catalogue.edit(actor, f"{gift_id} price 1"),
        "gift_retire": catalogue.set_active(actor, str(gift_id), False),
        "gift_photo": catalogue.photo(actor, f"{gift_id}", "file"),
        "gift_dialog": catalogue.ask_for(actor, "name", None),
        "import": moving.run_import(actor, CSV, apply=True),
        "hand_over": shop.hand_over(actor, request_id),
        "cancel_request": shop.cancel(actor, request_id),
        "settings": settings.require(CLUB, actor),
        "host_add": settings.add_host(CLUB, STRANGER, by=actor),
        "host_remove": settings.remove_host(CLUB, PLAYER, by=actor),
        "fine": settings.set_fine(CLUB, 3, by=actor),
    }


def _no_texts() -> Translator:
    return default_translator()


@pytest.mark.parametrize("rogue", list(ROGUES))
async def test_a_rogue_tries_every_power_and_nothing_changes(db: Database, rogue: str) -> None:
    permissions, gift_id, request_id = await _world(db)
    actor = ROGUES[rogue]
    before = await _snapshot(db)
    for name, call in _calls(db, permissions, actor, gift_id, request_id).items():
        with pytest.raises(UserError) as refused:
            await call
        assert refused.value.key.startswith("perm.denied.") or refused.value.key == (
            "club.settings.denied"), name
    assert await _snapshot(db) == before
    assert not await permissions.may(actor, Power.HOST, club_id=CLUB)
    assert not await permissions.may(actor, Power.MANAGE_CLUB, club_id=CLUB)
    assert not await permissions.may(actor, Power.VOID_GAME, club_id=CLUB)


async def test_the_network_admin_and_the_club_admin_may(db: Database) -> None:
    permissions, gift_id, request_id = await _world(db)
    calls = _calls(db, permissions, NET, gift_id, request_id)
    for name in ("adjust", "export", "gift_edit", "settings", "host_add", "fine"):
        await calls.pop(name)
    for call in calls.values():
        call.close()
    assert await db.ledger.balance(PLAYER) == 550
    assert await db.staff.hosts(CLUB) == [STRANGER, PLAYER]
    assert [e.action for e in await db.admin_log.recent(2)] == ["club_fine", "grant_host"]
    assert present(await db.clubs.get(CLUB)).foul_points == 3
    assert present(await db.gifts.get(gift_id)).price == 1
    # the club's admin hands over the gift asked at their club, and manages it
    club_calls = _calls(db, permissions, CLUB_ADMIN, gift_id, request_id)
    await club_calls.pop("settings")
    await club_calls.pop("hand_over")
    for call in club_calls.values():
        call.close()
    assert [r.id for r in await db.gift_requests.open_all()] == []

"""Admin commands (private chat, the network's owners and admins only: ``AdminOnly``; each
service checks its power again; storage logs who did what)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.errors import UserError
from bot.services import Services
from bot.services.accounts import display
from bot.services.club_life import FROM_BUTTON, TYPED_FROM, VERBS, ClubCb, ClubLife
from storage.models import Club
from views import texts


def _admin_id(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


async def redeem(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    change = await services.admin.redeem(_admin_id(message), command.args or "")
    tr, player = services.translator, change.player
    await services.replies.answer(message, tr.t(
        locale, "admin.redeemed", points=change.points, nick=display(player),
        reason=change.reason, balance=change.balance))
    if not player.offline:  # an account without Telegram gets no notice
        await services.replies.send_text(player.tg_id, tr.t(
            services.accounts.locale_of(player, None), "admin.redeemed_notice",
            points=change.points, reason=change.reason, balance=change.balance))


async def adjust(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    change = await services.admin.adjust(_admin_id(message), command.args or "")
    tr, player = services.translator, change.player
    await services.replies.answer(message, tr.t(
        locale, "admin.adjusted", points=change.points, nick=display(player),
        reason=change.reason, balance=change.balance))
    if not player.offline:  # an account without Telegram gets no notice
        await services.replies.send_text(player.tg_id, tr.t(
            services.accounts.locale_of(player, None), "admin.adjusted_notice",
            points=change.points, reason=change.reason, balance=change.balance))


async def block(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    player, reason = await services.admin.block(_admin_id(message), command.args or "")
    await services.shop.tell()  # its open gift requests burned with its points: told
    tr = services.translator
    player_locale = services.accounts.locale_of(player, None)
    await services.replies.answer(message, tr.t(locale, "admin.blocked", nick=display(player)))
    if not player.offline:  # an account without Telegram gets no notice
        await services.replies.send_text(player.tg_id, tr.t(
            player_locale, "admin.blocked_notice",
            reason=reason or tr.t(player_locale, "admin.no_reason")))


async def unblock(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    player = await services.admin.unblock(_admin_id(message), command.args or "")
    tr = services.translator
    await services.replies.answer(message, tr.t(locale, "admin.unblocked", nick=display(player)))
    if not player.offline:
        await services.replies.send_text(player.tg_id, tr.t(
            services.accounts.locale_of(player, None), "admin.unblocked_notice"))


async def export(message: Message, command: CommandObject, services: Services,
                 locale: str) -> None:
    """``/export`` (CSV) or ``/export xlsx``: the columns ``/import`` reads; the gift
    requests as a second CSV file, or the workbook's second sheet."""
    form = (command.args or "csv").strip().lower().lstrip(".")
    if form not in ("csv", "xlsx"):
        raise UserError("admin.export_usage")
    if form == "xlsx":
        data = await services.admin.export_xlsx(_admin_id(message))
    else:
        data = await services.admin.export_csv(_admin_id(message))
    today = services.admin.clock().date()
    await services.replies.send_document(
        message.chat.id, data, f"balances-{today.isoformat()}.{form}",
        caption=services.translator.t(locale, "admin.export_caption", date=today),
    )
    if form == "csv":  # the .xlsx holds them on a sheet of its own
        requests = await services.admin.export_requests_csv()
        if requests is not None:
            await services.replies.send_document(
                message.chat.id, requests, f"gift-requests-{today.isoformat()}.csv",
                caption=services.translator.t(locale, "shop.export_caption", date=today))


async def complaints(message: Message, services: Services, locale: str) -> None:
    counts = await services.admin.complaints(_admin_id(message))
    await services.replies.answer(
        message, texts.complaints(services.translator, locale, counts))


async def status(message: Message, services: Services, locale: str) -> None:
    report = await services.status.report()
    lines = [(p.session, p.roles, p.clubs, p.this) for p in report.processes]
    await services.replies.answer(message, texts.status(
        services.translator, locale, uptime_s=report.uptime_s, version=report.version,
        processes=lines, games_open=report.games_open,
        updates_per_minute=report.updates_per_minute,
        messages_per_minute=report.messages_per_minute, outbox_pending=report.outbox_pending,
        outbox_oldest_s=report.outbox_oldest_s))


async def clubs(message: Message, club_life: ClubLife, services: Services,
                locale: str) -> None:
    """``/clubs``: every club by status (pending first)."""
    tr, listed = services.translator, await club_life.listed(_admin_id(message))
    lines = []
    for status in ("pending", "approved", "suspended", "refused"):
        of = [c for c in listed if c.status == status]
        if of:
            lines.append(tr.t(locale, "clubs.list.head",
                              status=tr.t(locale, f"clubs.status.{status}")))
            lines += [tr.t(locale, "clubs.list.line", title=c.label, chat=str(c.chat_id))
                      for c in of]
    await services.replies.answer(message, "\n".join(lines) or tr.t(locale, "clubs.list.empty"))


async def club(message: Message, command: CommandObject, club_life: ClubLife,
               services: Services, locale: str) -> None:
    """``/club approve|refuse|suspend CHAT_ID``, ``/club set CHAT_ID CITY; NAME; ZONE; ADMIN``."""
    words = (command.args or "").split(maxsplit=2)
    verb = words[0].casefold() if words else ""
    chat_id = _chat_id(words[1]) if len(words) > 1 else None
    tr, admin_id = services.translator, _admin_id(message)
    if chat_id is None or verb not in (*VERBS, "set") or (verb in VERBS and len(words) > 2):
        raise UserError("clubs.usage")
    if verb == "set":
        details = await club_life.set_details(admin_id, chat_id, words[2] if len(words) > 2
                                              else "")
        found = details.club
        await services.replies.answer(message, tr.t(
            locale, "clubs.set_done", name=found.label, city=found.city or "?",
            zone=found.time_zone or club_life.zone,
            admin=display(details.admin) if details.admin else tr.t(locale, "clubs.nobody")))
        return
    status = VERBS[verb]
    decision = await club_life.decide(admin_id, chat_id, status, expect=TYPED_FROM[status])
    await _decided(services, club_life, locale, decision.changed, decision.club, message.chat.id)


async def _decided(services: Services, club_life: ClubLife, locale: str, changed: bool,
                   found: Club, chat: int) -> None:
    """The deciding admin's answer: who won the race, or what to do next."""
    tr = services.translator
    if not changed:
        await services.replies.send_text(chat, await club_life.already(locale, found))
    elif found.approved:
        await services.replies.send_text(chat, tr.t(locale, "clubs.approved_next",
                                                     chat=str(found.chat_id),
                                                     zone=club_life.zone))
    else:
        await services.replies.send_text(chat, tr.t(
            locale, f"clubs.decided.{found.status}", title=found.label,
            chat=str(found.chat_id), by=await club_life.name_of(found.status_by)))


def _chat_id(word: str) -> int | None:
    word = word.strip()
    return int(word) if word.lstrip("-").isdigit() and len(word) <= 20 else None


async def club_button(query: CallbackQuery, callback_data: ClubCb, club_life: ClubLife,
                      services: Services, user_locale: str) -> None:
    """Approve / Refuse on a new club's notice: asked of Permissions (a revoked admin's old
    button, a forged one: refused, nothing changes); of two admins racing, one wins and the
    other is told who did."""
    status = VERBS[callback_data.action]
    decision = await club_life.decide(query.from_user.id, callback_data.chat, status,
                                      expect=FROM_BUTTON)
    await services.sender.answer(query)
    await _decided(services, club_life, user_locale, decision.changed, decision.club,
                   query.from_user.id)


def create_router() -> Router:
    router = Router(name="admin")
    router.message.filter(F.chat.type == "private")
    router.message.register(clubs, Command("clubs"))
    router.message.register(club, Command("club"))
    router.callback_query.register(club_button, ClubCb.filter())

    router.message.register(redeem, Command("redeem"))
    router.message.register(adjust, Command("adjust"))
    router.message.register(block, Command("block"))
    router.message.register(unblock, Command("unblock"))
    router.message.register(export, Command("export"))
    router.message.register(complaints, Command("complaints"))
    router.message.register(status, Command("status"))
    return router

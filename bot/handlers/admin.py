"""Admin commands (private chat, the network's owners and admins only: ``AdminOnly``; each
service checks its power again; storage logs who did what)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.errors import UserError
from bot.services import Services
from bot.services.accounts import display
from bot.services.shop import Shop
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
    shop = services.extra.get("shop")
    if isinstance(shop, Shop):  # its open gift requests burned with its points: told
        await shop.tell()
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
    if services.status is None:  # an application without it (a test's own)
        raise UserError("admin.status_unavailable")
    report = await services.status.report()
    lines = [(p.session, p.roles, p.clubs, p.this) for p in report.processes]
    await services.replies.answer(message, texts.status(
        services.translator, locale, uptime_s=report.uptime_s, version=report.version,
        processes=lines, games_open=report.games_open,
        updates_per_minute=report.updates_per_minute,
        messages_per_minute=report.messages_per_minute, outbox_pending=report.outbox_pending,
        outbox_oldest_s=report.outbox_oldest_s))


def create_router() -> Router:
    router = Router(name="admin")
    router.message.filter(F.chat.type == "private")

    router.message.register(redeem, Command("redeem"))
    router.message.register(adjust, Command("adjust"))
    router.message.register(block, Command("block"))
    router.message.register(unblock, Command("unblock"))
    router.message.register(export, Command("export"))
    router.message.register(complaints, Command("complaints"))
    router.message.register(status, Command("status"))
    return router

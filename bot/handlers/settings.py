"""Settings: the club's (``/settings`` with inline buttons in the club chat; logic:
bot.services.club_settings) and the network's (``/network`` in a private chat: the caps on
fines, as a dialog with buttons or typed ``/network fine_cap N`` / ``game_fine_cap N``; the
seasons of the network's own dates, ``/network season [START END [NAME] | delete START]``; logic
and permission: bot.services.network; a club whose fine a lowered cap lowered hears of it in its
chat).

The club's settings message is in the club's language; popups answer the presser in the
presser's own language (``user_locale``)."""

from __future__ import annotations

import html
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.errors import UserError
from bot.handlers.buttons import NetworkCb, SettingsCb, StaffCb
from bot.handlers.menus import staff_menu
from bot.services import Services
from bot.services.accounts import display
from bot.services.club_settings import TIMER_INCREMENT, TIMERS, ClubSettings, SettingsView
from bot.services.network import CAP_INCREMENTS, NetworkSettings, read_day
from bot.services.staff import (
    CLUB_ADMIN,
    HOST,
    NETWORK_ADMIN,
    ClubStaff,
    RoleChange,
    StaffDesk,
    StaffView,
)
from standing.seasons import Season
from storage.models import FineCaps
from storage.network import CAPS, CapChange
from storage.numbers import ID_DIGITS, read_number
from views.i18n import SUPPORTED, Safe, Translator
from views.seasons import season_dates

ButtonRows = list[list[InlineKeyboardButton]]


def _button(text: str, action: str, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=SettingsCb(action=action, arg=arg).pack())


def render(tr: Translator, view: SettingsView, page: str) -> tuple[str, InlineKeyboardMarkup]:
    """The settings message in the club's language: main page, hosts or compositions."""
    loc = view.club.locale
    back = _button(tr.t(loc, "club.settings.back"), "main")
    rows: ButtonRows = []
    if page == "hosts":
        lines = [tr.t(loc, "club.settings.hosts_head", count=len(view.hosts))]
        lines += [tr.t(loc, "club.settings.host_line", name=name, id=tg_id)
                  for tg_id, name in view.hosts]
        lines.append(tr.t(loc, "club.settings.hosts_hint"))
        rows = [[_button(tr.t(loc, "club.settings.remove", name=name), "host_rm", str(tg_id))]
                for tg_id, name in view.hosts]
        return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])
    if page == "presets":
        lines = [tr.t(loc, "club.settings.presets_head", count=len(view.presets))]
        for size, roles in view.presets.items():
            names = ", ".join(tr.t(loc, f"game.role.{r}") for r in roles)
            lines.append(tr.t(loc, "club.settings.preset_line", size=size, roles=names))
        rows = [[_button(tr.t(loc, "club.settings.remove_preset", size=size), "preset_rm",
                         str(size))] for size in view.presets]
        return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])
    lines = [tr.t(loc, "club.settings.head", title=view.club.title,
                  language=tr.t(loc, f"lang.name_{loc}"))]
    for name in TIMERS:
        lines.append(tr.t(loc, "club.settings.timer", name=tr.t(loc, f"club.settings.t_{name}"),
                          seconds=view.timers[name]))
    fate = "host" if view.club.fate_by_host else "bot"
    lines.append(tr.t(loc, f"club.settings.fate_{fate}"))
    lines += fouls_lines(tr, view)
    lines.append(tr.t(loc, "club.settings.achievements_on" if view.club.achievements_public
                      else "club.settings.achievements_off"))
    lines.append(tr.t(loc, "club.settings.season_on" if view.club.season_post
                      else "club.settings.season_off"))
    rows.append([_button(tr.t(loc, f"lang.name_{code}"), "lang", code) for code in SUPPORTED])
    for name in TIMERS:
        short = tr.t(loc, f"club.settings.s_{name}")
        rows.append([_button(tr.t(loc, "club.settings.nudge", name=short, sign=shown,
                                  increment=TIMER_INCREMENT), "timer", f"{name}.{sign}")
                     for sign, shown in (("-", "−"), ("+", "+"))])
    rows.append([_button(tr.t(loc, "club.settings.fate_toggle"), "fate")])
    for name in ("points", "limit"):
        rows.append([_button(tr.t(loc, f"club.settings.foul_{name}_btn", sign=shown), "foul",
                             f"{name}.{sign}") for sign, shown in (("-", "−"), ("+", "+"))])
    rows.append([_button(tr.t(loc, "club.settings.foul_public_btn"), "foul_public")])
    rows.append([_button(tr.t(loc, "club.settings.achievements_btn"), "achievements")])
    rows.append([_button(tr.t(loc, "club.settings.season_btn"), "season")])
    rows.append([_button(tr.t(loc, "club.settings.hosts", count=len(view.hosts)), "hosts"),
                 _button(tr.t(loc, "club.settings.presets", count=len(view.presets)),
                         "presets")])
    return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)


def fouls_lines(tr: Translator, view: SettingsView) -> list[str]:
    """What a foul costs in this club, what follows a player's fouls, who hears of them."""
    loc, club = view.club.locale, view.club
    return [tr.t(loc, "club.settings.foul_fine", points=club.foul_points) if club.foul_points
            else tr.t(loc, "club.settings.foul_warning"),
            tr.t(loc, "club.settings.fine_hint", cap=view.fine_cap),
            tr.t(loc, "club.settings.foul_offer", limit=club.foul_limit) if club.foul_limit
            else tr.t(loc, "club.settings.foul_no_offer"),
            tr.t(loc, "club.settings.foul_public_on" if club.foul_public
                 else "club.settings.foul_public_off")]


def _button_id(arg: str) -> int:
    """A user's or a preset's id a button carries; a forged one is a stale button."""
    found = read_number(arg, digits=ID_DIGITS, signed=True)
    if found is None:
        raise UserError("misc.stale_button")
    return found


async def settings_command(message: Message, command: CommandObject, bot: Bot,
                           club_settings: ClubSettings, services: Services, locale: str) -> None:
    assert message.from_user is not None
    chat = message.chat.id
    await club_settings.require(chat, message.from_user.id)
    args = (command.args or "").split()
    tr = services.translator
    if len(args) == 2 and args[0] == "fine":
        value = read_number(args[1])
        if value is None:
            raise UserError("club.settings.fine_usage")
        await club_settings.set_fine(chat, value, by=message.from_user.id)
        said = "club.settings.fine_set" if value else "club.settings.fine_off"
        await services.replies.send_text(chat, tr.t(locale, said, points=value))
        return
    if args:
        target = message.reply_to_message.from_user if message.reply_to_message else None
        if args != ["host", "add"] or target is None or target.is_bot:
            raise UserError("club.settings.usage")
        await club_settings.add_host(chat, target.id, by=message.from_user.id)
        # (only the club's admins get here: their answers are not a member's)
        await services.replies.send_text(chat, tr.t(locale, "club.settings.host_added",
                                                    name=target.full_name))
        return
    text, markup = render(tr, await club_settings.view(chat), "main")
    await services.replies.send_text(chat, text, reply_markup=markup)


async def settings_button(query: CallbackQuery, callback_data: SettingsCb, bot: Bot,
                          club_settings: ClubSettings, services: Services,
                          user_locale: str) -> None:
    message = query.message
    if message is None:
        return
    chat = message.chat.id
    await club_settings.require(chat, query.from_user.id)
    action, arg = callback_data.action, callback_data.arg
    page = "main"
    if action == "lang":
        await club_settings.set_locale(chat, arg)
    elif action == "timer":
        name, _, sign = arg.partition(".")
        await club_settings.nudge_timer(chat, name, 1 if sign == "+" else -1)
    elif action == "fate":
        await club_settings.toggle_fate(chat)
    elif action == "foul":
        name, _, sign = arg.partition(".")
        await club_settings.nudge_fouls(chat, name, 1 if sign == "+" else -1,
                                        by=query.from_user.id)
    elif action == "foul_public":
        await club_settings.toggle_foul_public(chat)
    elif action == "achievements":
        await club_settings.toggle_achievements_public(chat)
    elif action == "season":
        await club_settings.toggle_season_post(chat)
    elif action in ("hosts", "host_rm"):
        page = "hosts"
        if action == "host_rm":
            await club_settings.remove_host(chat, _button_id(arg), by=query.from_user.id)
    elif action in ("presets", "preset_rm"):
        page = "presets"
        if action == "preset_rm":
            await club_settings.delete_preset(chat, _button_id(arg))
    elif action != "main":
        raise UserError("misc.stale_button")
    text, markup = render(services.translator, await club_settings.view(chat), page)
    changed = action not in ("main", "hosts", "presets")
    saved = services.translator.t(user_locale, "club.settings.saved") if changed else None
    await services.sender.answer(query, saved)
    await services.replies.edit_text(chat, message.message_id, text, reply_markup=markup)


def create_router() -> Router:
    router = Router(name="settings")
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(settings_command, Command("settings"))
    router.callback_query.register(settings_button, SettingsCb.filter())
    return router


# ---------------------------------------------------------------- the network's settings
def render_network(tr: Translator, locale: str, caps: FineCaps) -> tuple[str, InlineKeyboardMarkup]:
    """The dialog: both caps, a button nudging each down and up, how to type a value."""
    text = "\n".join((tr.t(locale, "network.head"),
                      tr.t(locale, "network.fine_cap", cap=caps.fine),
                      tr.t(locale, "network.game_fine_cap", cap=caps.game),
                      tr.t(locale, "network.hint")))
    rows = [[InlineKeyboardButton(
        text=tr.t(locale, f"network.btn.{name}", sign=shown, increment=CAP_INCREMENTS[name]),
        callback_data=NetworkCb(action="cap", arg=f"{name}.{sign}").pack())
        for sign, shown in (("-", "−"), ("+", "+"))] for name in CAP_INCREMENTS]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


async def tell_lowered(services: Services, change: CapChange) -> None:
    """Each club whose fine the new cap lowered hears of it in its chat (its language)."""
    tr = services.translator
    for club, before in change.lowered:
        await services.replies.send_text(club.chat_id, tr.t(
            club.locale, "network.club_lowered", cap=change.new, before=before))


def cap_said(tr: Translator, locale: str, change: CapChange) -> str:
    text = tr.t(locale, f"network.set.{change.name}", cap=change.new, old=change.old)
    if change.lowered:
        names = ", ".join(club.label for club, _ in change.lowered)
        text += "\n" + tr.t(locale, "network.lowered", count=len(change.lowered), clubs=names,
                            cap=change.new)
    return text


async def network_command(message: Message, command: CommandObject, services: Services,
                          network: NetworkSettings, locale: str) -> None:
    assert message.from_user is not None
    admin_id, tr = message.from_user.id, services.translator
    caps = await network.caps(admin_id)  # a stranger is refused before anything is read
    args = (command.args or "").split()
    if args and args[0] == "season":
        await season_command(message, args[1:], services, network, locale)
        return
    if not args:
        text, markup = render_network(tr, locale, caps)
        await services.replies.answer(message, text, reply_markup=markup)
        return
    value = read_number(args[1]) if len(args) == 2 and args[0] in CAPS else None
    if value is None:
        raise UserError("network.usage")
    change = await network.set_cap(admin_id, args[0], value)
    await services.replies.answer(message, cap_said(tr, locale, change))
    await tell_lowered(services, change)


async def season_command(message: Message, args: list[str], services: Services,
                         network: NetworkSettings, locale: str) -> None:
    """``/network season``: the network's own seasons; ``/network season START END [NAME]``:
    one more; ``/network season delete START``: one that has not started taken away (a
    refusal names why not)."""
    assert message.from_user is not None
    admin_id, tr = message.from_user.id, services.translator
    if args and args[0].casefold() == "delete":
        day = read_day(args[1]) if len(args) == 2 else None
        if day is None:
            raise UserError("network.season.usage")
        gone = await network.delete_season(admin_id, day)
        await services.replies.answer(message, tr.t(
            locale, "network.season.deleted", dates=season_dates(Season(*gone)),
            name=gone.name))
        return
    if not args:
        customs = await network.seasons(admin_id)
        lines = [tr.t(locale, "network.season.head")]
        lines += [tr.t(locale, "network.season.line", dates=season_dates(Season(*c)),
                       name=c.name) for c in customs] or [tr.t(locale, "network.season.none")]
        lines.append(tr.t(locale, "network.season.usage"))
        await services.replies.answer(message, "\n".join(lines))
        return
    start, end = (read_day(a) for a in args[:2]) if len(args) >= 2 else (None, None)
    if start is None or end is None:
        raise UserError("network.season.usage")
    custom = await network.set_season(admin_id, start, end, " ".join(args[2:]))
    await services.replies.answer(message, tr.t(
        locale, "network.season.set", dates=season_dates(Season(*custom)), name=custom.name))


async def network_button(query: CallbackQuery, callback_data: NetworkCb, services: Services,
                         network: NetworkSettings, locale: str) -> None:
    message = query.message
    if message is None:
        return
    admin_id, tr = query.from_user.id, services.translator
    change = None
    if callback_data.action == "cap":
        name, _, sign = callback_data.arg.partition(".")
        change = await network.nudge(admin_id, name, 1 if sign == "+" else -1)
    caps = await network.caps(admin_id)
    text, markup = render_network(tr, locale, caps)
    await services.sender.answer(query, None if change is None else tr.t(locale, "network.saved"))
    await services.replies.edit_text(message.chat.id, message.message_id, text,
                                     reply_markup=markup)
    if change is not None:
        if change.lowered:
            await services.replies.send_text(message.chat.id, cap_said(tr, locale, change))
        await tell_lowered(services, change)


def create_network_router() -> Router:
    router = Router(name="network")
    router.message.filter(F.chat.type == "private")
    router.callback_query.filter(F.message.chat.type == "private")
    router.message.register(network_command, Command("network"))
    router.callback_query.register(network_button, NetworkCb.filter())
    return router


# ---------------------------------------------------------------- the network's staff
StaffRows = list[list[InlineKeyboardButton]]


def _staff_button(text: str, **data: Any) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=StaffCb(**data).pack())


def render_staff(tr: Translator, locale: str, view: StaffView) -> tuple[str, InlineKeyboardMarkup]:
    """The first page: the network's admins (owners), the clubs whose staff the viewer keeps."""
    lines = [tr.t(locale, "staff.head")]
    rows: StaffRows = []
    if view.owner:
        lines.append(tr.t(locale, "staff.you_owner"))
    if view.network_admins is not None:
        lines.append(tr.t(locale, "staff.network_admins", count=len(view.network_admins)))
        lines += [tr.t(locale, "staff.line", name=name, id=tg) for tg, name in view.network_admins]
        lines.append(tr.t(locale, "staff.hint_admin"))
        rows += [[_staff_button(tr.t(locale, "staff.remove", name=name), action="rm",
                                role=NETWORK_ADMIN, tg=tg)] for tg, name in view.network_admins]
    if view.clubs:
        lines.append(tr.t(locale, "staff.clubs", count=len(view.clubs)))
        rows += [[_staff_button(tr.t(locale, "staff.club_button", name=club.label,
                                     id=club.chat_id), action="club", club=club.chat_id)]
                 for club in view.clubs]
    return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)


def render_club_staff(tr: Translator, locale: str,
                      page: ClubStaff) -> tuple[str, InlineKeyboardMarkup]:
    """A club's page: its admins, its hosts, whether its chat's administrators host."""
    club = page.club
    lines = [tr.t(locale, "staff.club_head", name=club.label, id=club.chat_id,
                  status=tr.t(locale, f"clubs.status.{club.status}")),
             tr.t(locale, "staff.club_admins", count=len(page.admins))]
    lines += [tr.t(locale, "staff.line", name=name, id=tg) for tg, name in page.admins]
    lines.append(tr.t(locale, "staff.hosts", count=len(page.hosts)))
    lines += [tr.t(locale, "staff.line", name=name, id=tg) for tg, name in page.hosts]
    lines.append(tr.t(locale, "staff.chat_admins_on" if club.chat_admins_host
                      else "staff.chat_admins_off"))
    rows: StaffRows = []
    if page.may_admins:
        lines.append(tr.t(locale, "staff.hint_club_admin", id=club.chat_id))
        rows += [[_staff_button(tr.t(locale, "staff.remove_admin", name=name), action="rm",
                                role=CLUB_ADMIN, club=club.chat_id, tg=tg)]
                 for tg, name in page.admins]
    if page.may_hosts:
        lines.append(tr.t(locale, "staff.hint_host", id=club.chat_id))
        rows += [[_staff_button(tr.t(locale, "staff.remove_host", name=name), action="rm",
                                role=HOST, club=club.chat_id, tg=tg)] for tg, name in page.hosts]
        rows.append([_staff_button(tr.t(locale, "staff.chat_admins_toggle"),
                                   action="chatadmins", club=club.chat_id)])
    rows.append([_staff_button(tr.t(locale, "club.settings.back"), action="main")])
    return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)


async def tell_role(bot: Bot, services: Services, change: RoleChange, by: int,
                    locale: str) -> str:
    """The person hears of the change in private (their language), and a network admin's
    menu changes at once (``staff_menu``); what the actor is told."""
    tr, how = services.translator, "granted" if change.granted else "revoked"
    club = change.club.label if change.club is not None else ""

    def role(loc: str) -> Safe:  # escaped once, inside (the club's name is anyone's)
        return Safe(tr.t(loc, f"staff.role.{change.role}", club=club))

    player = change.player
    if not change.changed:
        return tr.t(locale, f"staff.same.{how}", name=display(player), role=role(locale))
    if change.role == NETWORK_ADMIN:
        await staff_menu(bot, tr, services.settings.default_locale, player.tg_id,
                         admin=change.granted)
    actor = await services.db.players.get(by)
    their = services.accounts.locale_of(player, None)
    await services.replies.send_text(player.tg_id, tr.t(
        their, f"staff.told.{how}", role=role(their),
        by=display(actor) if actor is not None else str(by)))
    return tr.t(locale, f"staff.done.{how}", name=display(player), role=role(locale))


def _club_arg(word: str) -> int:
    found = read_number(word, digits=ID_DIGITS, signed=True)
    if found is None:
        raise UserError("staff.usage")
    return found


async def staff_command(message: Message, command: CommandObject, bot: Bot,
                        services: Services, staff: StaffDesk, locale: str) -> None:
    """``/staff`` (the dialog, in private) or typed: ``admin add|remove NICK``, ``clubadmin
    CHAT_ID add|remove NICK``, ``host [CHAT_ID] add|remove NICK``, ``chatadmins [CHAT_ID]
    on|off`` (without CHAT_ID: the club chat it is sent in)."""
    assert message.from_user is not None
    by, tr = message.from_user.id, services.translator
    in_club = message.chat.type != "private"
    words = (command.args or "").split(maxsplit=3)
    if not words:
        if in_club:
            raise UserError("staff.usage")
        text, markup = render_staff(tr, locale, await staff.view(by))
        await services.replies.answer(message, text, reply_markup=markup)
        return
    kind, rest = words[0].casefold(), words[1:]
    club_id: int | None = message.chat.id if in_club else None
    if kind in ("clubadmin", "host", "chatadmins") and rest and not in_club:
        club_id, rest = _club_arg(rest[0]), rest[1:]
    if kind == "chatadmins":
        if club_id is None or len(rest) != 1 or rest[0].casefold() not in ("on", "off"):
            raise UserError("staff.usage")
        club = await staff.chat_admins_host(by, club_id, rest[0].casefold() == "on")
        await services.replies.answer(message, tr.t(
            locale, "staff.chat_admins_on" if club.chat_admins_host else "staff.chat_admins_off"))
        return
    role = {"admin": NETWORK_ADMIN, "clubadmin": CLUB_ADMIN, "host": HOST}.get(kind)
    if role == NETWORK_ADMIN:  # the network's own: typed in private only
        club_id = -1 if in_club else None
    if role is None or len(rest) < 2 or rest[0].casefold() not in ("add", "remove") \
            or (club_id is None) != (role == NETWORK_ADMIN):
        raise UserError("staff.usage")
    nick = " ".join(rest[1:])
    change = await staff.change_by_nick(by, role, nick, grant=rest[0].casefold() == "add",
                                        club_id=club_id)
    await services.replies.answer(message, await tell_role(bot, services, change, by, locale))


async def staff_button(query: CallbackQuery, callback_data: StaffCb, bot: Bot,
                       services: Services, staff: StaffDesk, locale: str) -> None:
    message = query.message
    if message is None:
        return
    by, tr, data = query.from_user.id, services.translator, callback_data
    popup = None
    if data.action == "rm":
        change = await staff.change_by_id(by, data.role, data.tg, grant=False,
                                          club_id=data.club or None)
        popup = html.unescape(await tell_role(bot, services, change, by, locale))
    elif data.action == "chatadmins":
        await staff.chat_admins_host(by, data.club, None)
        popup = tr.t(locale, "network.saved")
    if data.club and data.action != "main":
        text, markup = render_club_staff(tr, locale, await staff.club_view(by, data.club))
    else:
        text, markup = render_staff(tr, locale, await staff.view(by))
    await services.sender.answer(query, popup)
    await services.replies.edit_text(message.chat.id, message.message_id, text,
                                     reply_markup=markup)


def create_staff_router() -> Router:
    router = Router(name="staff")
    router.message.register(staff_command, Command("staff"))
    router.callback_query.filter(F.message.chat.type == "private")
    router.callback_query.register(staff_button, StaffCb.filter())
    return router

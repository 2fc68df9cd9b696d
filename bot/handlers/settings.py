"""Settings: the club's (``/settings`` with inline buttons in the club chat; logic:
bot.services.club_settings) and the network's (``/network`` in a private chat: the caps on
fines, as a dialog with buttons or typed ``/network fine_cap N`` / ``game_fine_cap N``; logic
and permission: bot.services.network; a club whose fine a lowered cap lowered hears of it in its
chat).

The club's settings message is in the club's language; popups answer the presser in the
presser's own language (``user_locale``)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.errors import UserError
from bot.handlers.buttons import NetworkCb, SettingsCb
from bot.services import Services
from bot.services.club_settings import STEP, TIMERS, ClubSettings, SettingsView
from bot.services.network import STEPS, NetworkSettings
from storage.models import FineCaps
from storage.network import CAPS, CapChange
from storage.numbers import ID_DIGITS, read_number
from views.i18n import SUPPORTED, Translator

Rows = list[list[InlineKeyboardButton]]


def _button(text: str, action: str, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=SettingsCb(action=action, arg=arg).pack())


def render(tr: Translator, view: SettingsView, page: str) -> tuple[str, InlineKeyboardMarkup]:
    """The settings message in the club's language: main page, hosts or compositions."""
    loc = view.club.locale
    back = _button(tr.t(loc, "club.settings.back"), "main")
    rows: Rows = []
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
    rows.append([_button(tr.t(loc, f"lang.name_{code}"), "lang", code) for code in SUPPORTED])
    for name in TIMERS:
        short = tr.t(loc, f"club.settings.s_{name}")
        rows.append([_button(tr.t(loc, "club.settings.step", name=short, sign="−", step=STEP),
                             "timer", f"{name}.-"),
                     _button(tr.t(loc, "club.settings.step", name=short, sign="+", step=STEP),
                             "timer", f"{name}.+")])
    rows.append([_button(tr.t(loc, "club.settings.fate_toggle"), "fate")])
    for name in ("points", "limit"):
        rows.append([_button(tr.t(loc, f"club.settings.foul_{name}_btn", sign=shown), "foul",
                             f"{name}.{sign}") for sign, shown in (("-", "−"), ("+", "+"))])
    rows.append([_button(tr.t(loc, "club.settings.foul_public_btn"), "foul_public")])
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
        await club_settings.set_fine(chat, value)
        said = "club.settings.fine_set" if value else "club.settings.fine_off"
        await services.replies.send_text(chat, tr.t(locale, said, points=value))
        return
    if args:
        target = message.reply_to_message.from_user if message.reply_to_message else None
        if args != ["host", "add"] or target is None or target.is_bot:
            raise UserError("club.settings.usage")
        await club_settings.add_host(chat, target.id)
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
        await club_settings.step_timer(chat, name, 1 if sign == "+" else -1)
    elif action == "fate":
        await club_settings.toggle_fate(chat)
    elif action == "foul":
        name, _, sign = arg.partition(".")
        await club_settings.step_fouls(chat, name, 1 if sign == "+" else -1)
    elif action == "foul_public":
        await club_settings.toggle_foul_public(chat)
    elif action in ("hosts", "host_rm"):
        page = "hosts"
        if action == "host_rm":
            await club_settings.remove_host(chat, _button_id(arg))
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
    """The dialog: both caps, a step down and up for each, how to type a value."""
    text = "\n".join((tr.t(locale, "network.head"),
                      tr.t(locale, "network.fine_cap", cap=caps.fine),
                      tr.t(locale, "network.game_fine_cap", cap=caps.game),
                      tr.t(locale, "network.hint")))
    rows = [[InlineKeyboardButton(
        text=tr.t(locale, f"network.btn.{name}", sign=shown, step=STEPS[name]),
        callback_data=NetworkCb(action="cap", arg=f"{name}.{sign}").pack())
        for sign, shown in (("-", "−"), ("+", "+"))] for name in STEPS]
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


async def network_button(query: CallbackQuery, callback_data: NetworkCb, services: Services,
                         network: NetworkSettings, locale: str) -> None:
    message = query.message
    if message is None:
        return
    admin_id, tr = query.from_user.id, services.translator
    change = None
    if callback_data.action == "cap":
        name, _, sign = callback_data.arg.partition(".")
        change = await network.step(admin_id, name, 1 if sign == "+" else -1)
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

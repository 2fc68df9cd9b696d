"""Club chat: ``/settings`` with inline buttons (logic: bot.services.club_settings).

Posts (the settings message) are in the club's language; popups answer the presser in the
presser's own language (``user_locale``)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.errors import UserError
from bot.handlers.buttons import SettingsCb
from bot.services import Services
from bot.services.club_settings import STEP, TIMERS, ClubSettings, SettingsView
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

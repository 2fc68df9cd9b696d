"""Private chat: accounts, settings, spouse, points (all logic in bot.services.accounts)."""

from __future__ import annotations

import html

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    WebAppInfo,
)

from bot.delivery.replies import Replies
from bot.delivery.sender import TelegramSender
from bot.evenings.service import EveningService
from bot.handlers.buttons import LangCb, SexCb, SpouseCb
from bot.miniapp.links import player_app_url
from bot.services import Services
from bot.services.accounts import COMPLAINTS_PER_DAY, Accounts, display
from bot.services.moving import Moving
from storage import Database
from views import achievements as achievement_texts
from views import club_texts, texts
from views import evenings as evening_texts
from views import standing as standing_texts
from views.i18n import Translator, sex_of


def _args(command: CommandObject) -> str:
    return (command.args or "").strip()


async def start(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    user = message.from_user
    assert user is not None
    result = await services.accounts.start(
        user.id, user.full_name, user.language_code, command.args
    )
    tr, replies = services.translator, services.replies
    key = "start.new" if result.is_new else "start.back"
    await replies.answer(message, tr.t(locale, key, name=user.full_name))
    found = await services.moving.link_on_start(user.id, user.username)
    if found is not None and found.link is not None:
        await replies.answer(message, club_texts.linked(tr, locale, found.link))
    elif found is not None and found.claimed is not None:
        nick = found.claimed.nickname
        await replies.answer(message, tr.t(locale, "club.start.claimed", nick=nick))
        if found.tell_admins:
            await _tell_admins(services, "club.start.claim_admin", nick=nick,
                               name=user.full_name, id=str(user.id), username=user.username)
    if result.bad_payload:
        await replies.answer(message, tr.t(locale, "start.bad_payload"))
    elif result.join_game_id is not None:
        await services.accounts.require(user.id, active=True)
        if not await services.join_lobby(user.id, result.join_game_id, locale):
            await replies.answer(message, tr.t(locale, "start.lobby_not_found"))


async def _tell_admins(services: Services, key: str, **args: object) -> None:
    """A claim of an imported record, for every admin to confirm with /link (in their
    language)."""
    for admin_id in await services.permissions.network_staff():
        admin = await services.accounts.get(admin_id)
        await services.replies.send_text(admin_id, services.translator.t(
            services.accounts.locale_of(admin, None), key, **args))


async def help_(message: Message, services: Services, locale: str) -> None:
    text = services.translator.t(locale, "help.private", complaints=COMPLAINTS_PER_DAY)
    text += "\n" + services.translator.t(locale, "shop.help.private")
    if message.from_user and await services.admin.is_admin(message.from_user.id):
        text += "\n\n" + services.translator.t(locale, "help.admin")
        text += "\n\n" + services.translator.t(locale, "shop.help.admin")
    elif message.from_user:  # a club's admin: the commands of their club(s)
        roles = await services.permissions.roles(message.from_user.id)
        clubs = [club.label for club in [await services.db.clubs.cached(chat_id)
                                         for chat_id in sorted(roles.club_admin_of)]
                 if club is not None]
        if clubs:
            text += "\n\n" + services.translator.t(locale, "help.club_admin",
                                                   clubs=", ".join(clubs))
    await services.replies.answer(message, text)


async def nick(
    message: Message, command: CommandObject, moving: Moving, services: Services, locale: str,
) -> None:
    user = message.from_user
    assert user is not None
    replies, translator = services.replies, services.translator
    if not _args(command):
        await replies.answer(message, translator.t(locale, "nick.usage"))
        return
    outcome = await moving.set_nickname(user.id, user.username, _args(command))
    if outcome.link is not None:
        text = club_texts.linked(translator, locale, outcome.link)
    elif outcome.taken:
        text = translator.t(locale, "club.nick.claimed_other", nick=outcome.nickname)
    elif outcome.claimed:
        text = translator.t(locale, "club.nick.claimed", nick=outcome.nickname)
        if outcome.tell_admins:  # once per record: the first claim, the one /link confirms
            await _tell_admins(services, "club.nick.claim_admin", nick=outcome.nickname,
                               name=user.full_name, id=user.id)
    else:
        key = "nick.set" if outcome.changed else "nick.same"
        text = translator.t(locale, key, nick=outcome.nickname)
    await replies.answer(message, text)


async def profile(
    message: Message, accounts: Accounts, evenings: EveningService, replies: Replies,
    translator: Translator, locale: str, db: Database, services: Services,
) -> None:
    assert message.from_user is not None
    player = await accounts.require(message.from_user.id)
    spouse = await accounts.spouse(player)
    listed, no_shows = await evenings.profile(player.tg_id)
    # the skill rating: written at games' ends only, so nothing of a running game shows
    ratings = await db.ratings.of(player.tg_id)
    found = await standing_texts.roles_and_rivals(db, player.tg_id)
    # the achievements: earned at games' ends too
    achievements = achievement_texts.shown(await db.achievements.of(player.tg_id),
                                           await db.achievements.progress(player.tg_id,
                                                                          accounts.clock()))
    await replies.answer(message, "\n".join((
        texts.profile(translator, locale, player, None if spouse is None else display(spouse),
                      None if spouse is None else spouse.sex),
        *texts.rating_lines(translator, locale, ratings), "",
        # no counted game: the one sentence that says so; else a message of their own
        *([] if found.cards else [*standing_texts.profile_lines(translator, locale, found), ""]),
        *achievement_texts.profile_lines(translator, locale, achievements), "",
        evening_texts.profile(translator, locale, listed, no_shows))),
        reply_markup=player_app_button(translator, locale, services))
    if found.cards:  # the cards and rivals on their own (with every card played, the two
        # would pass Telegram's 4096 characters), then the pictures, in the chat's order
        await replies.answer(message, "\n".join(
            standing_texts.profile_lines(translator, locale, found)))
    for chart in (standing_texts.rating_picture(translator, locale, found),
                  standing_texts.roles_picture(translator, locale, found)):
        if chart is not None:
            await replies.send_picture(message.chat.id, chart.to_json(),
                                       html.escape(chart.title))


def player_app_button(translator: Translator, locale: str,
                      services: Services) -> InlineKeyboardMarkup | None:
    """The player's Mini App, under /profile (a private chat's: Telegram opens a Mini App's
    button there), when it is served over public HTTPS."""
    url = player_app_url(services.settings.web_url, services.settings.web_port)
    if url is None:
        return None
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=translator.t(locale, "miniapp.player.open"), web_app=WebAppInfo(url=url))]])


async def lang(message: Message, replies: Replies, translator: Translator,
               locale: str) -> None:
    markup = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=translator.t(locale, "lang.name_ru"),
                             callback_data=LangCb(code="ru").pack()),
        InlineKeyboardButton(text=translator.t(locale, "lang.name_en"),
                             callback_data=LangCb(code="en").pack()),
    ]])
    await replies.answer(message, translator.t(locale, "lang.prompt"), reply_markup=markup)


async def lang_chosen(
    query: CallbackQuery, callback_data: LangCb, accounts: Accounts, sender: TelegramSender,
    replies: Replies, translator: Translator,
) -> None:
    await accounts.set_language(query.from_user.id, callback_data.code)
    text = translator.t(callback_data.code, "lang.set")
    await sender.answer(query)
    if query.message is not None:
        await replies.edit_text(query.message.chat.id, query.message.message_id, text)


async def sex(message: Message, replies: Replies, translator: Translator,
              locale: str) -> None:
    markup = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=translator.t(locale, "sex.button_m"),
                             callback_data=SexCb(value="m").pack()),
        InlineKeyboardButton(text=translator.t(locale, "sex.button_f"),
                             callback_data=SexCb(value="f").pack()),
    ]])
    await replies.answer(message, translator.t(locale, "sex.prompt"), reply_markup=markup)


async def sex_chosen(
    query: CallbackQuery, callback_data: SexCb, accounts: Accounts, sender: TelegramSender,
    replies: Replies, translator: Translator, locale: str,
) -> None:
    await accounts.set_sex(query.from_user.id, callback_data.value)
    text = translator.t(locale, "sex.set", sex=translator.t(locale, f"sex.{callback_data.value}"))
    await sender.answer(query)
    if query.message is not None:
        await replies.edit_text(query.message.chat.id, query.message.message_id, text)


async def spouse(
    message: Message, command: CommandObject, services: Services, locale: str
) -> None:
    assert message.from_user is not None
    tr, replies = services.translator, services.replies
    proposal = await services.accounts.propose(message.from_user.id, _args(command))
    target = proposal.target
    target_locale = services.accounts.locale_of(target, None)
    markup = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(
            text=tr.t(target_locale, "spouse.accept"),
            callback_data=SpouseCb(accept=True, proposer=proposal.proposer.tg_id).pack()),
        InlineKeyboardButton(
            text=tr.t(target_locale, "spouse.decline"),
            callback_data=SpouseCb(accept=False, proposer=proposal.proposer.tg_id).pack()),
    ]])
    await replies.send_text(
        target.tg_id,
        tr.t(target_locale, "spouse.proposal", nick=display(proposal.proposer)),
        reply_markup=markup,
    )
    await replies.answer(message, tr.t(locale, "spouse.sent", nick=display(target)))


async def spouse_answer(
    query: CallbackQuery, callback_data: SpouseCb, services: Services, locale: str
) -> None:
    tr, replies = services.translator, services.replies
    me = await services.accounts.require(query.from_user.id)
    proposer = await services.accounts.answer_proposal(
        query.from_user.id, callback_data.proposer, callback_data.accept
    )
    await services.sender.answer(query)
    proposer_locale = services.accounts.locale_of(proposer, None)
    if callback_data.accept:
        mine = tr.t(locale, "spouse.married", nick=display(proposer))
        theirs = tr.t(proposer_locale, "spouse.married", nick=display(me))
    else:
        mine = tr.t(locale, "spouse.declined", nick=display(proposer))
        theirs = tr.t(proposer_locale, "spouse.declined_notice", nick=display(me),
                      sex=sex_of(me.sex))
    if query.message is not None:
        await replies.edit_text(query.message.chat.id, query.message.message_id, mine)
    await replies.send_text(proposer.tg_id, theirs)


async def divorce(message: Message, services: Services, locale: str) -> None:
    assert message.from_user is not None
    tr = services.translator
    me = await services.accounts.require(message.from_user.id)
    former = await services.accounts.divorce(message.from_user.id)
    await services.replies.answer(message, tr.t(locale, "spouse.divorced", nick=display(former)))
    await services.replies.send_text(
        former.tg_id,
        tr.t(services.accounts.locale_of(former, None), "spouse.divorced_notice",
             nick=display(me), sex=sex_of(me.sex)),
    )


async def balance(
    message: Message, accounts: Accounts, replies: Replies, translator: Translator,
    locale: str,
) -> None:
    assert message.from_user is not None
    view = await accounts.balance(message.from_user.id)
    await replies.answer(message, texts.balance(translator, locale, view))


async def complain(
    message: Message, command: CommandObject, accounts: Accounts, replies: Replies,
    translator: Translator, locale: str,
) -> None:
    assert message.from_user is not None
    about = await accounts.complain(message.from_user.id, _args(command))
    await replies.answer(message, translator.t(locale, "complain.sent", nick=display(about)))


def create_router() -> Router:
    router = Router(name="private")
    router.message.filter(F.chat.type == "private")

    router.callback_query.filter(F.message.chat.type == "private")

    router.message.register(start, CommandStart())
    router.message.register(help_, Command("help"))
    router.message.register(nick, Command("nick"))
    router.message.register(profile, Command("profile"))
    router.message.register(lang, Command("lang"))
    router.callback_query.register(lang_chosen, LangCb.filter())
    router.message.register(sex, Command("sex"))
    router.callback_query.register(sex_chosen, SexCb.filter())
    router.message.register(spouse, Command("spouse"))
    router.callback_query.register(spouse_answer, SpouseCb.filter())
    router.message.register(divorce, Command("divorce"))
    router.message.register(balance, Command("balance"))
    router.message.register(complain, Command("complain"))
    return router

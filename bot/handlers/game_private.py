"""Private chat: role cards, night choices, votes, the Lawyers, the host's draw, friends."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.delivery.replies import Replies
from bot.delivery.sender import TelegramSender
from bot.game.callbacks import (
    CancelCb,
    CheckInCb,
    ConsentCb,
    FateCb,
    ForCancelCb,
    ForNightCb,
    ForVoteCb,
    FoulOfferCb,
    FriendAcceptCb,
    FriendCb,
    NightCb,
    PanelCb,
    VoteCb,
)
from bot.game.service import GameService, Reply
from bot.handlers.game_club import foul, plain, unfoul
from storage.models import Player


def _user(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


async def _answer(query: CallbackQuery, games: GameService, sender: TelegramSender, locale: str,
                  answer: Reply) -> None:
    await sender.answer(query, plain(games.notifier.t(locale, answer.key, **answer.kwargs)))


async def myrole(message: Message, games: GameService) -> None:
    await games.my_role(_user(message))


async def friend(message: Message, games: GameService, replies: Replies, locale: str) -> None:
    table, seats = await games.friend_menu(_user(message))
    markup = games.friend_markup(table, seats)(locale)
    await replies.answer(message, games.notifier.t(locale, "game.friend.menu"),
                         reply_markup=markup)


async def check_in(query: CallbackQuery, callback_data: CheckInCb, games: GameService,
                   sender: TelegramSender, locale: str, account: Player | None = None) -> None:
    """An invited player is here: seated."""
    answer = await games.check_in(callback_data.game, callback_data.evening,
                                  query.from_user.id, account)
    await _answer(query, games, sender, locale, answer)


async def consent(query: CallbackQuery, callback_data: ConsentCb, games: GameService,
                  sender: TelegramSender, locale: str) -> None:
    """A player the host asked to seat answers: yes (seated, the host plays the seat) or no."""
    answer = await games.consent(callback_data.game, query.from_user.id, callback_data.yes)
    await _answer(query, games, sender, locale, answer)


async def night_choice(query: CallbackQuery, callback_data: NightCb, games: GameService,
                       sender: TelegramSender, locale: str) -> None:
    answer = await games.choose(callback_data.game, query.from_user.id, callback_data.moment,
                                callback_data.target)
    await _answer(query, games, sender, locale, answer)


async def vote_choice(query: CallbackQuery, callback_data: VoteCb, games: GameService,
                      sender: TelegramSender, locale: str) -> None:
    answer = await games.vote(callback_data.game, query.from_user.id, callback_data.moment,
                              callback_data.target)
    await _answer(query, games, sender, locale, answer)


async def cancel_verdict(query: CallbackQuery, callback_data: CancelCb, games: GameService,
                         sender: TelegramSender, locale: str) -> None:
    answer = await games.cancel(callback_data.game, query.from_user.id, callback_data.moment)
    await _answer(query, games, sender, locale, answer)


async def night_choice_for(query: CallbackQuery, callback_data: ForNightCb, games: GameService,
                           sender: TelegramSender, locale: str) -> None:
    """The host chooses for an offline seat (the button names the seat)."""
    answer = await games.choose(callback_data.game, query.from_user.id, callback_data.moment,
                                callback_data.target, for_seat=callback_data.seat)
    await _answer(query, games, sender, locale, answer)


async def vote_choice_for(query: CallbackQuery, callback_data: ForVoteCb, games: GameService,
                          sender: TelegramSender, locale: str) -> None:
    answer = await games.vote(callback_data.game, query.from_user.id, callback_data.moment,
                              callback_data.target, for_seat=callback_data.seat)
    await _answer(query, games, sender, locale, answer)


async def cancel_verdict_for(query: CallbackQuery, callback_data: ForCancelCb,
                             games: GameService, sender: TelegramSender, locale: str) -> None:
    answer = await games.cancel(callback_data.game, query.from_user.id, callback_data.moment,
                                for_seat=callback_data.seat)
    await _answer(query, games, sender, locale, answer)


async def fate_draw(query: CallbackQuery, callback_data: FateCb, games: GameService,
                    sender: TelegramSender, locale: str) -> None:
    answer = await games.fate(callback_data.game, query.from_user.id, callback_data.moment,
                              callback_data.target)
    await _answer(query, games, sender, locale, answer)


async def friend_choice(query: CallbackQuery, callback_data: FriendCb, games: GameService,
                        sender: TelegramSender, locale: str) -> None:
    answer = await games.friend_choose(callback_data.game, query.from_user.id,
                                       callback_data.holder, callback_data.announce)
    await _answer(query, games, sender, locale, answer)


async def friend_decision(query: CallbackQuery, callback_data: FriendAcceptCb,
                          games: GameService, sender: TelegramSender, locale: str) -> None:
    answer = await games.friend_decide(callback_data.game, query.from_user.id,
                                       callback_data.order, callback_data.accept)
    await _answer(query, games, sender, locale, answer)


async def panel(message: Message, games: GameService, replies: Replies, locale: str) -> None:
    """``/panel``: the host's panel again, at the bottom of the chat."""
    if not await games.panel.show(_user(message)):
        await replies.answer(message, games.notifier.t(locale, "panel.none"))


async def panel_button(query: CallbackQuery, callback_data: PanelCb, games: GameService,
                       sender: TelegramSender, locale: str) -> None:
    """A button of the host's panel: answered at once (the panel's edit follows); a page of
    the panel gets an empty answer, an action the service's answer."""
    answer = await games.panel.press(callback_data.game, query.from_user.id, callback_data.moment,
                                     callback_data.action, callback_data.arg)
    if answer is None:
        await sender.answer(query)
    else:
        await _answer(query, games, sender, locale, answer)


async def foul_offer(query: CallbackQuery, callback_data: FoulOfferCb, games: GameService,
                     sender: TelegramSender, locale: str) -> None:
    """The host's answer to the offer of the technical death after a player's Nth foul."""
    answer = await games.foul_offer(callback_data.game, query.from_user.id,
                                    callback_data.number, callback_data.accept)
    await _answer(query, games, sender, locale, answer)


def create_router() -> Router:
    router = Router(name="game_private_chat")
    router.message.filter(F.chat.type == "private")
    router.message.register(myrole, Command("myrole"))
    router.message.register(friend, Command("friend"))
    router.message.register(panel, Command("panel"))
    router.message.register(foul, Command("foul"))  # the host's quiet way: no club chat
    router.message.register(unfoul, Command("unfoul"))
    # Buttons are pressed in private chats; the service checks who may press what.
    router.callback_query.register(night_choice, NightCb.filter())
    router.callback_query.register(vote_choice, VoteCb.filter())
    router.callback_query.register(cancel_verdict, CancelCb.filter())
    router.callback_query.register(night_choice_for, ForNightCb.filter())
    router.callback_query.register(vote_choice_for, ForVoteCb.filter())
    router.callback_query.register(cancel_verdict_for, ForCancelCb.filter())
    router.callback_query.register(fate_draw, FateCb.filter())
    router.callback_query.register(friend_choice, FriendCb.filter())
    router.callback_query.register(friend_decision, FriendAcceptCb.filter())
    router.callback_query.register(panel_button, PanelCb.filter())
    router.callback_query.register(foul_offer, FoulOfferCb.filter())
    router.callback_query.register(check_in, CheckInCb.filter())
    router.callback_query.register(consent, ConsentCb.filter())
    return router
